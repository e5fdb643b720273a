//! When a credential printer's output is a secret shown: not when it goes
//! to a file it is given, not when the one setting it prints is named as
//! no credential, and a password store's bare entry name shows the entry.

use super::argv::{self, operands};
use super::effects::{self, tables};
use super::secret_commands::secret_name;

/// Whether a printer's output goes to a file it is given
/// ([`tables::OUTPUT_OPTIONS`]) rather than the screen.
pub(super) fn to_output_file(prog: &str, args: &[String]) -> bool {
    let Some((_, opts)) = tables::OUTPUT_OPTIONS.iter().find(|(p, _)| *p == prog) else {
        return false;
    };
    let stdout = |v: &str| v == "-" || v.starts_with("/dev/std");
    args.iter().enumerate().any(|(i, a)| {
        opts.iter().any(|o| {
            (a == o && args.get(i + 1).is_some_and(|v| !stdout(v)))
                || a.strip_prefix(o)
                    .and_then(|r| r.strip_prefix('='))
                    .is_some_and(|v| !stdout(v))
        })
    })
}

/// For a printer of one named setting ([`tables::SETTING_GETTERS`]),
/// whether the setting's name says it is a credential (`aws configure get
/// aws_secret_access_key`, `pulumi config get dbPassword`; not `region`).
/// Other printers: true.
pub(super) fn names_a_secret_setting(prog: &str, words: &[String]) -> bool {
    let Some((_, path)) = tables::SETTING_GETTERS
        .iter()
        .find(|(p, path)| *p == prog && effects::path_matches(words, path))
    else {
        return true;
    };
    let Some(at) = words.iter().position(|w| w == path[path.len() - 1]) else {
        return true;
    };
    let Some(name) = words.get(at + 1) else {
        return true;
    };
    // `profile.prod.aws_secret_access_key`, `aws:secretKey`.
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    credential_word(last)
}

/// Whether a password manager's item read asks only for fields that name
/// no credential (`op item get I --fields username,email`, `--fields
/// label=url`): those are shown, not a secret. A field of the concealed
/// type, a password, an OTP or any field not named shows one.
pub(super) fn only_plain_fields(prog: &str, words: &[String], args: &[String]) -> bool {
    if prog != "op" || !effects::path_matches(words, &["item", "get"]) {
        return false;
    }
    let Some(value) = args.iter().enumerate().find_map(|(i, a)| {
        if a == "--fields" || a == "--field" {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--fields=")
        }
    }) else {
        return false;
    };
    value.split(',').all(|f| {
        let f = f.trim().to_ascii_lowercase();
        let (key, name) = f.split_once('=').unwrap_or(("label", &f));
        !name.is_empty() && key == "label" && !credential_word(name) && !name.contains("otp")
    })
}

/// Whether a setting's or field's name says it holds a credential.
fn credential_word(last: &str) -> bool {
    const WORDS: &[&str] = &[
        "secret",
        "token",
        "password",
        "passwd",
        "apikey",
        "api_key",
        "api-key",
        "private",
        "credential",
        "access_key",
        "accesskey",
        "session",
        "connectionstring",
        "connection_string",
        "kubeconfig",
        "kube_config",
        "database_url",
        "dsn",
    ];
    secret_name(last) || WORDS.iter().any(|w| last.contains(w))
}

/// Whether a password-store command shows an entry: `pass NAME` (no
/// subcommand) prints it, unless it goes to the clipboard (`-c`).
pub(super) fn pass_shows(args: &[String]) -> bool {
    const COMMANDS: &[&str] = &[
        "ls",
        "list",
        "find",
        "search",
        "grep",
        "insert",
        "add",
        "edit",
        "generate",
        "rm",
        "remove",
        "delete",
        "mv",
        "rename",
        "cp",
        "copy",
        "git",
        "init",
        "help",
        "version",
        "otp",
        "audit",
        "sync",
        "setup",
        "fsck",
        "config",
        "recipients",
        "mounts",
        "templates",
        "update",
        "clone",
        "create",
        "new",
        "show",
        "cat",
        "env",
        "completion",
        "alias",
        "history",
        "fscopy",
        "fsmove",
        "link",
        "merge",
        "process",
        "pwgen",
        "unclip",
    ];
    let ops = operands(args);
    let clip = argv::has_flag(args, 'c', &["clip"]) || argv::has_flag(args, 'q', &["qr"]);
    ops.first().is_some_and(|o| !COMMANDS.contains(o) && !clip)
}
