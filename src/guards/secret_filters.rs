//! What a pipe does to a secret a command prints: a filter passes it on to
//! the screen (`env | grep KEY`), keeping only names shows none (`env | cut
//! -d= -f1`), and a pattern that names no credential keeps none of its lines
//! (`env | grep ^CARGO`).

use super::argv::{self, operands, program};
use crate::shell::SimpleCommand;

/// Programs that pass their input on to the screen (a secret piped into
/// them is still shown).
pub(super) const FILTERS: &[&str] = &[
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "head",
    "tail",
    "sort",
    "uniq",
    "cut",
    "awk",
    "sed",
    "tr",
    "less",
    "more",
    "cat",
    "column",
    "jq",
    "yq",
    "base64",
    "xxd",
    "od",
    "hexdump",
    "tee",
    "nl",
    "fold",
    "strings",
    "select-string",
    "findstr",
    "sls",
    // PowerShell's display and conversion cmdlets show what they are given.
    "format-table",
    "ft",
    "format-list",
    "fl",
    "format-wide",
    "fw",
    "out-string",
    "out-host",
    "oh",
    "out-default",
    "sort-object",
    "where-object",
    "convertto-json",
    "convertto-csv",
];

/// Whether a filter keeps only what comes before the first `=` of each
/// line: a variable's name, not its value.
pub(super) fn names_only(c: &SimpleCommand) -> bool {
    let args = c.args();
    let joined = args.join(" ").replace(['\'', '"'], "");
    match program(c).as_str() {
        "cut" => {
            let eq = joined.contains("-d=")
                || joined.contains("-d =")
                || joined.contains("--delimiter==");
            let first = args.iter().any(|a| a == "-f1" || a == "--fields=1")
                || args.windows(2).any(|w| w[0] == "-f" && w[1] == "1");
            eq && first
        }
        "awk" | "gawk" | "mawk" => {
            (joined.contains("-F=") || joined.contains("-F =") || joined.contains("FS=\"=\""))
                && joined.contains("print $1")
                && !joined.contains("$2")
                && !joined.contains("$0")
        }
        "sed" => joined == "s/=.*//" || joined == "-e s/=.*//",
        // Only the leading name of each line (`grep -oE '^[A-Z_]+' .env`).
        "grep" | "egrep" => {
            argv::has_flag(args, 'o', &["only-matching"])
                && args.iter().any(|a| {
                    let a = a.trim_matches(['\'', '"']);
                    a.starts_with("^[") && !a.contains('=') && !a.contains('.')
                })
        }
        _ => false,
    }
}

/// Whether a read of an environment file shows only its variables' names:
/// the reader keeps only what comes before each `=` (`cut -d= -f1 .env`,
/// `sed 's/=.*//' .env`), or its output goes through a filter that does
/// (`grep -v '^#' .env | cut -d= -f1`). A key file has no names to keep.
pub(super) fn env_names_only(
    reader: &SimpleCommand,
    word: &str,
    kind: &str,
    after: &[SimpleCommand],
) -> bool {
    // (Captured or not: `diff <(cut -d= -f1 .env.example) <(cut -d= -f1
    // .env)` compares names.)
    if !kind.contains("environment") {
        return false;
    }
    let without = SimpleCommand {
        argv: reader.argv.iter().filter(|a| *a != word).cloned().collect(),
        ..SimpleCommand::default()
    };
    names_only(&without) || after.iter().take_while(|c| c.piped).any(names_only)
}

/// The pattern of a `grep`-like filter.
pub(super) fn grep_pattern(c: &SimpleCommand) -> Option<String> {
    let prog = program(c);
    if !matches!(
        prog.as_str(),
        "grep" | "egrep" | "fgrep" | "rg" | "select-string" | "sls" | "findstr"
    ) {
        return None;
    }
    let args = c.args();
    // Counting, testing or naming files shows no line.
    if argv::has_flag(args, 'c', &["count"])
        || argv::has_flag(args, 'q', &["quiet", "silent"])
        || argv::has_flag(args, 'l', &["files-with-matches"])
    {
        return Some(String::new());
    }
    if let Some(i) = args
        .iter()
        .position(|a| a == "-e" || a == "--regexp" || a.eq_ignore_ascii_case("-pattern"))
    {
        return args.get(i + 1).cloned();
    }
    operands(args).first().map(|p| p.to_string())
}

/// Whether a filter's pattern may keep a credential's line.
pub(super) fn secret_pattern(pattern: &str) -> bool {
    if pattern.is_empty() {
        return false;
    }
    const WORDS: &[&str] = &[
        "KEY", "TOKEN", "SECRET", "PASS", "PWD", "AUTH", "CRED", "AWS", "GH_", "GITHUB", "API",
        "PRIVATE", "SESSION", "COOKIE",
    ];
    let upper = pattern.to_ascii_uppercase();
    WORDS.iter().any(|w| upper.contains(w)) || pattern.chars().all(|c| !c.is_ascii_alphanumeric())
}

/// Programs that re-encode their input on its way (compressors, encoders,
/// encrypters reading stdin): what they pass on to a sender is still sent.
const TRANSFORMERS: &[&str] = &[
    "gzip", "bzip2", "xz", "zstd", "lz4", "brotli", "compress", "base32", "basenc", "openssl",
    "gpg", "age",
];

/// Whether a command in a pipe passes its input on (a filter or a
/// transformer), so the program after it is where the output ends.
pub(super) fn passes_on(c: &SimpleCommand) -> bool {
    let p = program(c);
    FILTERS.contains(&p.as_str()) || TRANSFORMERS.contains(&p.as_str())
}

/// Field names that hold a credential's value (or all of an object's
/// values: a Secret's `data`).
const SECRET_FIELDS: &[&str] = &[
    "items",
    "data",
    "stringdata",
    "value",
    "values",
    "key",
    "keys",
    "auth",
    "auths",
    "env",
];

/// Fields whose members are a secret's values.
const CONTAINERS: &[&str] = &[
    "items",
    "data",
    "stringdata",
    "credentials",
    "auths",
    "env",
    "secrets",
    "values",
];

/// Fields that describe a secret without being one.
const METADATA_FIELDS: &[&str] = &[
    "name",
    "namespace",
    "labels",
    "annotations",
    "uid",
    "kind",
    "apiversion",
    "type",
    "creationtimestamp",
    "resourceversion",
    "policies",
    "ttl",
    "accessor",
    "display_name",
    "expire_time",
    "creation_time",
    "created_time",
    "deletion_time",
    "destroyed",
    "version",
    "versions",
    "arn",
    "expiration",
    "metadata",
    "path",
    "status",
];

/// Words that, inside a field's name, say it holds a credential.
const SECRET_FIELD_WORDS: &[&str] = &[
    "token",
    "secret",
    "password",
    "passwd",
    "key",
    "cred",
    "auth",
    "cert",
    "private",
    "session",
    "cookie",
    "connection",
];

/// Whether a projection keeps only fields that hold no credential: the
/// path ends in a field whose name says nothing secret
/// (`.metadata.name`, `AssumedRoleUser.Arn`, `{.data.policies}`), or the
/// expression keeps only names or a count (`keys`, `length`). The identity
/// (`.`), an iteration (`.items[]`) and anything beyond a plain path keep
/// everything.
pub(super) fn projection_hides(expr: &str) -> bool {
    let expr = expr.trim().trim_matches(['\'', '"']);
    let expr = expr
        .strip_prefix('{')
        .and_then(|e| e.strip_suffix('}'))
        .unwrap_or(expr);
    let last = expr.rsplit('|').next().unwrap_or(expr).trim();
    if matches!(
        last,
        "keys" | "keys[]" | "keys_unsorted" | "length" | "type"
    ) {
        return true;
    }
    let plain = !last.is_empty()
        && last.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'[' | b']' | b'"' | b'-' | b'*')
        });
    // `.items[]`: whole objects (`.[0]` and `.items[0]` are judged by
    // their field below: none, and `items`).
    if !plain || last.ends_with("[]") {
        return false;
    }
    let Some(field) = last
        .split(['.', '[', ']', '"', '*'])
        .rfind(|p| !p.is_empty() && !p.bytes().all(|b| b.is_ascii_digit()))
    else {
        return false;
    };
    let field = field.to_ascii_lowercase();
    // Inside a secret's values (`.data.data.db_host` of a Vault KV secret,
    // `.data.username` of a Kubernetes one) any field is one of them,
    // unless it is metadata (`.data.policies` of a token lookup,
    // `Credentials.Expiration`).
    let inside = last
        .split(['.', '[', ']', '"'])
        .any(|p| CONTAINERS.contains(&p.to_ascii_lowercase().as_str()));
    !SECRET_FIELDS.contains(&field.as_str())
        && !SECRET_FIELD_WORDS.iter().any(|w| field.contains(w))
        && (!inside || METADATA_FIELDS.contains(&field.as_str()))
}

/// The projection a JSON/YAML filter in a pipe applies (`jq -r
/// .metadata.name`, `yq .kind`).
pub(super) fn filter_projection(c: &SimpleCommand) -> Option<String> {
    if !matches!(program(c).as_str(), "jq" | "yq" | "gojq" | "jaq") {
        return None;
    }
    operands(c.args()).first().map(|f| f.to_string())
}

/// The projection a printer applies to its own output: `--query` (AWS,
/// Azure), `-o jsonpath=…` (kubectl).
pub(super) fn own_projection(args: &[String]) -> Option<String> {
    args.iter().enumerate().find_map(|(i, a)| {
        if a == "--query" {
            return args.get(i + 1).cloned();
        }
        if let Some(q) = a.strip_prefix("--query=") {
            return Some(q.to_string());
        }
        let output = if matches!(a.as_str(), "-o" | "--output") {
            args.get(i + 1).map(String::as_str)
        } else {
            a.strip_prefix("--output=").or_else(|| a.strip_prefix("-o"))
        };
        output
            .and_then(|o| {
                o.strip_prefix("jsonpath=")
                    .or_else(|| o.strip_prefix("=jsonpath="))
            })
            .map(str::to_string)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn projections() {
        for hides in [
            ".metadata.name",
            "'.data.policies'",
            "AssumedRoleUser.Arn",
            "{.metadata.name}",
            "Credentials.Expiration",
            "keys",
            ".items[] | .metadata.name",
            ".items[0].metadata.creationTimestamp",
            ".data.data.metadata",
            ".resource_changes[].change.actions[0]",
        ] {
            assert!(projection_hides(hides), "{hides}");
        }
        for shows in [
            ".",
            ".data",
            ".data.password",
            "{.data.token}",
            "SecretString",
            "Credentials",
            ".items[]",
            ".[0].login.password",
            "to_entries[] | \"\\(.key)=\\(.value)\"",
            ".data | map_values(@base64d)",
            ".data.data.db_host",
            ".data.username",
            ".items[0]",
            ".[0]",
        ] {
            assert!(!projection_hides(shows), "{shows}");
        }
    }
}
