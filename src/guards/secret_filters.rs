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
        _ => false,
    }
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
