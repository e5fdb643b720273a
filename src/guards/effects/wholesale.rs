//! Wholesale deletes by tools no family lists: a delete-like verb that
//! reaches a whole tree or everything, whatever the tool. The verb may be a
//! subcommand (`zkCli.sh deleteall /app`, `jf rt delete 'repo/*'`,
//! `qsctl rm -r qs://bucket/dir`), an option that is the verb (`hdfs dfs
//! -rm -r /data`, the Hadoop shells' style) or the tool's own name
//! (`mega-rm -r /Backups`, `ldapdelete -r 'ou=people,…'`). Wholesale means
//! the verb says so (`deleteall`, `rmr`, `delete-all`, `dropall`), or a
//! recursive option (`-r`, `-R`, `--recursive`), `--all` or a wildcard
//! operand comes with it. A plain `rm`/`del` as a subcommand counts only on
//! a remote-shaped operand (`scheme://…`, `name:path`): a wrapper's `rm -rf
//! build` is a local delete, the file guards' to judge. One object or one
//! key deleted stays quiet, as `aws s3 rm s3://b/key` does.

use super::tables::DELETE_VERBS;
use super::unlisted::NOT_READ;
use super::{Hit, Kind};
use crate::guards::argv::operands;

/// Verbs that say themselves that they delete everything under a name.
pub const WHOLESALE_VERBS: &[&str] = &[
    "deleteall",
    "removeall",
    "rmr",
    "rmall",
    "delall",
    "purgeall",
    "deltree",
    "rmtree",
    "dropall",
    "truncateall",
    "wipeall",
    "destroyall",
    "deleterecursive",
];

/// Options that make a delete reach a tree or everything.
pub const RECURSIVE: &[&str] = &[
    "-r",
    "-R",
    "-rf",
    "-fr",
    "-Rf",
    "-fR",
    "--recursive",
    "--all",
];

/// Tool names that are the file-deleting commands themselves (the file
/// guards judge them).
const FILE_DELETERS: &[&str] = &[
    "rm", "rmdir", "del", "rd", "erase", "unlink", "shred", "srm",
];

/// A wholesale delete by a tool no family lists, if the command is one.
pub fn lookup(tool: &str, args: &[String]) -> Option<Hit> {
    if tool.is_empty()
        || NOT_READ.contains(&tool)
        || FILE_DELETERS.contains(&tool)
        || super::family(tool).is_some()
    {
        return None;
    }
    let ops = operands(args);
    let recursive = args
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| RECURSIVE.contains(&a.as_str()));
    let wildcard = ops.iter().skip(1).any(|o| o.contains('*'));
    let remote = ops.iter().any(|o| remote_shaped(o));
    // A store's root (`sj://media`, `oss://logs/`): the whole bucket.
    let root = ops.iter().any(|o| store_root(o));
    let wide = recursive || wildcard || root;
    let verb = subcommand_verb(&ops, wide, remote)
        .or_else(|| option_verb(args, wide))
        .or_else(|| (wide && named_verb(tool)).then(|| tool.to_string()))?;
    Some(Hit::new(
        Kind::CloudStorage,
        format!("{tool}:{verb}"),
        format!(
            "deletes a whole tree or every item through {tool}'s `{verb}` (recursive or \
             wholesale: there is no undo)"
        ),
    ))
}

/// Parts of a word split at `-`, `_`, `:`, lower-case.
fn parts(w: &str) -> Vec<String> {
    w.to_ascii_lowercase()
        .split(['-', '_', ':'])
        .map(str::to_string)
        .collect()
}

/// Whether a word is a wholesale verb (`deleteall`, `delete-all`).
fn wholesale(w: &str) -> bool {
    let lower = w.to_ascii_lowercase();
    let joined: String = lower
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect();
    WHOLESALE_VERBS.contains(&joined.as_str())
}

/// A delete verb among the first two plain operands that reaches a tree.
fn subcommand_verb(ops: &[&str], wide: bool, remote: bool) -> Option<String> {
    ops.iter()
        .take(2)
        .take_while(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b':' | b'_'))
        })
        .find(|w| {
            if wholesale(w) {
                return true;
            }
            let ps = parts(w);
            let Some(p) = ps.iter().find(|p| DELETE_VERBS.contains(&p.as_str())) else {
                return false;
            };
            let local = matches!(p.as_str(), "rm" | "rmdir" | "del" | "uninstall");
            wide && (!local || remote)
        })
        .map(|w| w.to_string())
}

/// A verb given as an option right after the tool's plain words (`hdfs dfs
/// -rm -r /x`, `hadoop fs -rmr /x`).
fn option_verb(args: &[String], wide: bool) -> Option<String> {
    let i = args.iter().position(|a| a.starts_with('-'))?;
    if i > 2
        || !args[..i]
            .iter()
            .all(|w| w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-'))
    {
        return None;
    }
    let verb = args[i].trim_start_matches('-');
    let is_verb = matches!(verb, "rm" | "delete" | "del" | "remove" | "purge");
    (wholesale(verb) || is_verb && wide).then(|| args[i].clone())
}

/// Whether a tool's own name is a delete verb (`mega-rm`, `ldapdelete`,
/// `trash-rm`), not the file commands themselves.
fn named_verb(tool: &str) -> bool {
    let ps = parts(tool);
    (ps.len() > 1
        && ps
            .iter()
            .skip(1)
            .any(|p| DELETE_VERBS.contains(&p.as_str())))
        || ["delete", "remove", "purge", "destroy"]
            .iter()
            .any(|v| tool.len() > v.len() && tool.ends_with(v))
}

/// The root of an object store named by URL (`sj://media`, `oss://logs/`):
/// a bucket with no key after it. Web, file and VCS URLs are no store.
fn store_root(w: &str) -> bool {
    let Some((scheme, rest)) = w.split_once("://") else {
        return false;
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    !matches!(
        scheme,
        "http" | "https" | "file" | "ssh" | "git" | "ftp" | "sftp"
    ) && scheme.chars().all(|c| c.is_ascii_alphanumeric())
        && !rest.is_empty()
        && !rest.contains('/')
}

/// A remote location: `scheme://…` (not `file://`), or `name:path`.
fn remote_shaped(w: &str) -> bool {
    if let Some((scheme, _)) = w.split_once("://") {
        return scheme != "file" && scheme.chars().all(|c| c.is_ascii_alphanumeric());
    }
    w.split_once(':').is_some_and(|(head, path)| {
        head.len() > 1
            && !path.is_empty()
            && head
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'))
    })
}

#[cfg(test)]
mod tests {
    use super::lookup;

    fn hit(line: &str) -> bool {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        lookup(&words[0], &words[1..]).is_some()
    }

    #[test]
    fn wholesale_deletes_by_any_tool() {
        for line in [
            "zkcli.sh deleteall /app/config",
            "hdfs dfs -rm -r /warehouse",
            "hadoop fs -rmr /data",
            "mega-rm -r /Backups",
            "ldapdelete -r ou=people,dc=x",
            "jf rt delete libs-local/com/*",
            "qsctl rm -r qs://bucket/dir",
            "coscmd delete -r /",
            "storjcli rb --force sj://photos",
        ] {
            assert!(hit(line), "{line}");
        }
    }

    #[test]
    fn one_item_local_deletes_and_other_verbs_are_quiet() {
        for line in [
            "hdfs dfs -rm /warehouse/one.csv",
            "hdfs dfs -ls -R /warehouse",
            "mega-rm /Backups/one.txt",
            "ldapdelete cn=x,dc=y",
            "flock /tmp/lock rm -rf build",
            "watch rm -rf build",
            "zkcli.sh get /app/config",
            "jf rt search libs-local/*",
            "rm -rf build",
            "tool list --all",
            "storjcli rm sj://photos/one.jpg",
            "storjcli ls sj://photos",
        ] {
            assert!(!hit(line), "{line}");
        }
    }
}
