//! An option that says the command deletes stored data: its name joins a
//! delete-like verb with a kind of storage (`--destroy-storage`,
//! `--remove-all-storage`, `--delete-volumes`, `--delete-data`,
//! `--drop-database`), the storage right after the verb. Whatever the tool and its verb (`juju destroy-model
//! m --destroy-storage`, `juju remove-unit pg/0 --destroy-storage`), the
//! user asked for the data to go with it. Read only when no family and no
//! other rule knew the command; a turned-off option (`--no-delete-volumes`,
//! `--delete-disks=none`) and the option of a help or dry-run form say
//! nothing.

use super::tables::DELETE_VERBS;
use super::unlisted::NOT_READ;
use super::{Hit, Kind};

/// Kinds of storage an option may name.
pub const STORAGE_WORDS: &[&str] = &[
    "storage",
    "data",
    "volume",
    "volumes",
    "disk",
    "disks",
    "database",
    "databases",
    "db",
    "dbs",
    "snapshot",
    "snapshots",
    "backup",
    "backups",
    "bucket",
    "buckets",
];

/// The finding for a command that carries such an option.
pub fn lookup(tool: &str, args: &[String]) -> Option<Hit> {
    if tool.is_empty() || NOT_READ.contains(&tool) || super::inert_args(tool, args) {
        return None;
    }
    for a in args {
        if a == "--" {
            break;
        }
        let Some(long) = a.strip_prefix("--") else {
            continue;
        };
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        if value.is_some_and(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "no" | "0" | "off" | "none"
            )
        }) {
            continue;
        }
        let name = name.to_ascii_lowercase();
        let mut parts = name.split(['-', '_']);
        let verb = parts.next().unwrap_or_default();
        if verb == "uninstall" || !DELETE_VERBS.contains(&verb) {
            continue;
        }
        // The storage right after the verb (`--remove-all-storage` too):
        // `--delete-emptydir-data` names a pod's scratch space.
        let rest: Vec<&str> = parts.collect();
        let noun = match rest.as_slice() {
            [n] | ["all", n] => Some(*n),
            _ => None,
        };
        if noun.is_some_and(|n| STORAGE_WORDS.contains(&n)) {
            return Some(Hit::new(
                Kind::CloudResource,
                format!("{tool}:{a}"),
                format!("deletes stored data: `{tool}` is told `{a}` (there is no undo)"),
            ));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::lookup;

    fn hit(line: &str) -> bool {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        lookup(&words[0], &words[1..]).is_some()
    }

    #[test]
    fn an_option_that_deletes_storage() {
        for line in [
            "juju destroy-model prod --destroy-storage",
            "juju remove-unit pg/0 --destroy-storage",
            "virt-tool undefine vm --remove-all-storage",
            "platform env rm staging --delete-volumes",
            "svc teardown --purge-data",
            "x down --drop-database=true",
        ] {
            assert!(hit(line), "{line}");
        }
        for line in [
            "juju destroy-model prod --release-storage",
            "x down --no-delete-volumes",
            "x rm vm --delete-disks=none",
            "x sync --delete-after",
            "kubectl drain node-1 --delete-emptydir-data",
            "x down --remove-orphans",
            "juju destroy-model prod --destroy-storage --help",
            "x teardown --purge-data --dry-run",
            "x run -- --delete-data",
            "apt-get remove --purge-data x",
        ] {
            assert!(!hit(line), "{line}");
        }
    }
}
