//! What a word given to a reader can name, for the opaque rule
//! (`opaque.rs`): the paths a `find` substitution finds, and the option
//! values that are patterns no file is read by (an exclude list, a cloud
//! API's path).

use super::argv::program;

/// The paths a word that is only a `find` substitution finds (`$(find .
/// -name foo)` is `./foo`, `` `find ~ -name '*.pem'` `` is `~/*.pem`), from
/// the shell reader's [`crate::shell::found_paths`]; None for any other
/// word, or a find with a test that may pick other names.
pub(super) fn found_by_find(word: &str) -> Option<Vec<String>> {
    let inner = word
        .strip_prefix("$(")
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| word.strip_prefix('`').and_then(|w| w.strip_suffix('`')))?;
    let cmds = crate::shell::parse(inner);
    let [find] = cmds.as_slice() else {
        return None;
    };
    if !matches!(program(find).as_str(), "find" | "gfind") {
        return None;
    }
    let found = crate::shell::found_paths(&find.argv);
    // Only a name test says what is found (`-name`, `-iname`).
    let named = find
        .args()
        .iter()
        .any(|a| matches!(a.as_str(), "-name" | "-iname"));
    (named && !found.is_empty()).then_some(found)
}

/// A pattern given as the value of a long option that reads no file: what
/// an exclude or ignore option leaves out (`--exclude '.git/*'`), and a
/// cloud CLI's URL path (`--paths '/*'`, `--content-paths '/*'`: an API
/// path on the service, not a file here).
pub(super) fn option_value_not_read(option: Option<&str>, value: &str, cloud: bool) -> bool {
    let Some(name) = option.and_then(|o| o.strip_prefix("--")) else {
        return false;
    };
    if name.contains('=') {
        return false;
    }
    let name = name.to_ascii_lowercase();
    ["exclude", "ignore", "skip"]
        .iter()
        .any(|k| name.contains(k))
        || cloud && name.contains("path") && value.starts_with('/')
}
