//! The generic rule for secret stores and password managers: a tool whose
//! business is keeping secrets prints one when its verb reads it out
//! (`get`, `show`, `read`, `reveal`, `export`, `decrypt`, ...), and prints
//! none when it lists, searches, stores, generates or explains. The table
//! of known printers ([`super::effects::tables::SECRET_PRINTERS`]) decides
//! for the tools it names (it knows their exceptions: `op item get` without
//! `--reveal` shows concealed fields); this rule covers the stores it does
//! not name (`rbw get`, `bao kv get`, `passage show`, `credstash get`).

use super::effects::{self, tables::SECRET_PRINTERS};

/// Secret stores and password managers the table does not name.
const STORES: &[&str] = &[
    "rbw",
    "kpcli",
    "teller",
    "git-crypt",
    "credstash",
    "psst",
    "prs",
    "passage",
    "enpass-cli",
    "dcli",
    "ksm",
    "bao",
    "bitwarden",
    "keeper",
    "proton-pass",
    "pass-cli",
];

/// Whether a tool's name says it keeps secrets: a name part that is a
/// store's word (`kwallet-query`, `credstash`, `my-vault`, `gopass`).
fn store_name(tool: &str) -> bool {
    tool.split(['-', '_', '.']).any(|part| {
        part.ends_with("pass") && part != "compass" && part != "bypass" && part != "surpass"
            || part.starts_with("vault")
            || part.starts_with("secret")
            || part.starts_with("keyring")
            || part.starts_with("kwallet")
            || part.starts_with("keychain")
            || part.starts_with("cred")
    })
}

/// Whether `tool` is a secret store or password manager (named by the
/// table or this module, or by its name): the database it opens is its
/// own, and what it prints is judged by its verb, not by that file.
pub fn is_store(tool: &str) -> bool {
    STORES.contains(&tool) || store_name(tool) || SECRET_PRINTERS.iter().any(|p| p.program == tool)
}

/// Verbs (or parts of one: `export-key`, `secret:get`) that read a secret
/// out.
const READ_VERBS: &[&str] = &[
    "get", "show", "read", "cat", "reveal", "export", "lookup", "access", "decrypt", "view",
    "print", "dump", "extract",
];

/// Verbs that read nothing out: listings, searches, help, stores.
const QUIET_VERBS: &[&str] = &[
    "list", "ls", "search", "find", "help", "status", "whoami", "metadata", "set", "put", "add",
    "insert", "create", "edit", "rm", "delete", "remove", "generate", "sync", "login", "logout",
    "lock", "config", "init", "version",
];

/// What a secret store prints, when its first words read a secret out;
/// `None` for a tool the table names, another tool, or a quiet verb.
pub fn store_prints(tool: &str, args: &[String]) -> Option<String> {
    if SECRET_PRINTERS.iter().any(|p| p.program == tool)
        || !(STORES.contains(&tool) || store_name(tool))
        || args
            .iter()
            .any(|a| matches!(a.as_str(), "-h" | "--help" | "help" | "--version"))
    {
        return None;
    }
    let words = effects::leading_words(args, 3);
    let parts: Vec<&str> = words
        .iter()
        .flat_map(|w| w.split(['-', ':', '_']))
        .collect();
    if parts.iter().any(|p| QUIET_VERBS.contains(p)) {
        return None;
    }
    let verb = parts.iter().find(|p| READ_VERBS.contains(p))?;
    Some(format!("a secret from a secret store ({tool} {verb})"))
}

#[cfg(test)]
mod tests {
    use super::store_prints;

    fn judge(line: &str) -> bool {
        let argv: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        store_prints(&argv[0], &argv[1..]).is_some()
    }

    #[test]
    fn a_store_prints_what_its_read_verbs_read() {
        for line in [
            "rbw get github",
            "bao kv get secret/db",
            "passage show email/work",
            "credstash get db.password",
            "git-crypt export-key /tmp/k",
            "kpcli show -f /Work/db",
            "my-vault read prod/db",
        ] {
            assert!(judge(line), "{line}");
        }
    }

    #[test]
    fn listings_help_and_other_tools_are_quiet() {
        for line in [
            "rbw list",
            "rbw --help",
            "bao kv list secret/",
            "bao kv metadata get secret/db",
            "credstash put db.password x",
            "git-crypt unlock",
            "compass show",
            "cargo get",
            // The table decides for the tools it names.
            "op item get X",
            "vault kv list secret/",
        ] {
            assert!(!judge(line), "{line}");
        }
    }
}
