//! A registration that is one whole file cuecard owns (OpenCode's plugin;
//! the seam Cline's hook scripts will use): the file is rendered around
//! cuecard's entries ([`OwnedFile::render`]), and its first line marks it
//! cuecard's, with the hash of everything below it:
//!
//! ```text
//! // cuecard-owned-file: OpenCode plugin, written by cuecard 0.1.0; hash 0123456789abcdef. ...
//! ```
//!
//! A file at that path without the marker is the user's own and is never
//! written over or removed. A marked file whose hash no longer matches was
//! edited by hand: install refuses to write over it, uninstall leaves it,
//! verify says so. A marked, unedited file is cuecard's to rewrite (a newer
//! cuecard's template) and to remove.

use super::error::InstallError;
use crate::harness::config::OwnedFile;
use serde_json::{Map, Value};

/// The word that names a file cuecard's.
pub const MARKER: &str = "cuecard-owned-file:";

/// What a file at the owned path is.
#[derive(Debug, Clone, PartialEq)]
pub enum Owned {
    /// Not cuecard's: no marker on the first line.
    Foreign,
    /// cuecard's: the entries it carries (an empty object when the entries
    /// line is gone or garbled), whether it was edited since it was
    /// written, and the version of cuecard that wrote it.
    Ours {
        doc: Value,
        edited: bool,
        version: String,
    },
}

/// The hash a marker carries of the text it covers.
pub fn hash_of(body: &str) -> String {
    hash(body)
}

fn hash(body: &str) -> String {
    format!("{:016x}", crate::hash::fnv1a(0, body.as_bytes()))
}

/// The whole file for the entries document `doc`.
pub fn render(o: &OwnedFile, doc: &Value) -> String {
    let entries = serde_json::to_string(doc).unwrap_or_else(|_| "{}".into());
    let body = (o.render)(&entries);
    format!(
        "{} {MARKER} {}, written by cuecard {}; hash {}. `cuecard install` rewrites this file and \
         `cuecard uninstall` removes it; edit it and it is yours (cuecard then leaves it alone).\n{body}",
        o.comment,
        o.what,
        env!("CARGO_PKG_VERSION"),
        hash(&body)
    )
}

/// Reads a file at the owned path.
pub fn parse(o: &OwnedFile, text: &str) -> Owned {
    let (first, body) = text.split_once('\n').unwrap_or((text, ""));
    let Some(rest) = first
        .strip_prefix(o.comment)
        .map(str::trim_start)
        .and_then(|r| r.strip_prefix(MARKER))
    else {
        return Owned::Foreign;
    };
    let recorded = rest
        .split_once("; hash ")
        .and_then(|(_, h)| h.get(..16))
        .unwrap_or("");
    let version = rest
        .split_once("written by cuecard ")
        .and_then(|(_, v)| v.split(';').next())
        .unwrap_or("")
        .to_string();
    let doc = body
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(o.entries_line))
        .map(|j| j.trim_end().trim_end_matches(';'))
        .and_then(|j| serde_json::from_str::<Value>(j).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| Value::Object(Map::new()));
    Owned::Ours {
        doc,
        edited: recorded != hash(body),
        version,
    }
}

/// Why install will not write a file that is there, `None` when it may.
pub fn refusal(o: &OwnedFile, path: &std::path::Path, text: &str) -> Option<InstallError> {
    let path = path.to_path_buf();
    match parse(o, text) {
        Owned::Foreign => Some(InstallError::WouldOverwriteForeign { path, what: o.what }),
        Owned::Ours { edited: true, .. } => Some(InstallError::WouldOverwriteEdited(path)),
        Owned::Ours { .. } => None,
    }
}

/// What verify says about an owned file that is cuecard's but not what
/// install writes now: edited by hand, or written by another cuecard.
pub fn problem(o: &OwnedFile, path: &std::path::Path, text: &str) -> Option<String> {
    match parse(o, text) {
        Owned::Foreign => Some(
            InstallError::ForeignOwned {
                path: path.to_path_buf(),
                what: o.what,
            }
            .to_string(),
        ),
        Owned::Ours { edited: true, .. } => Some(format!(
            "{} was edited by hand since install (its hash does not match): cuecard leaves it as it \
             is; delete it and run `cuecard install` to get cuecard's again",
            path.display()
        )),
        Owned::Ours { doc, version, .. } if render(o, &doc) != text => Some(format!(
            "{} was written by cuecard {version}, not by this one: run `cuecard install` again",
            path.display()
        )),
        Owned::Ours { .. } => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(entries: &str) -> String {
        format!("line one\nconst HOOKS = {entries};\nlast\n")
    }
    static FILE: OwnedFile = OwnedFile {
        what: "test plugin",
        comment: "//",
        render: body,
        entries_line: "const HOOKS = ",
    };

    #[test]
    fn a_rendered_file_reads_back_as_ours_and_unedited() {
        let doc = serde_json::json!({"hooks": {"a": [1]}});
        let text = render(&FILE, &doc);
        assert!(text.starts_with("// cuecard-owned-file: test plugin"));
        match parse(&FILE, &text) {
            Owned::Ours {
                doc: d,
                edited,
                version,
            } => {
                assert_eq!(d, doc);
                assert!(!edited);
                assert_eq!(version, env!("CARGO_PKG_VERSION"));
            }
            other => panic!("{other:?}"),
        }
        assert!(refusal(&FILE, "p".as_ref(), &text).is_none());
        assert_eq!(problem(&FILE, "p".as_ref(), &text), None);
    }

    #[test]
    fn an_edit_anywhere_below_the_marker_makes_it_the_users() {
        let text = render(&FILE, &serde_json::json!({}));
        let edited = text.replace("last", "mine");
        assert!(matches!(
            parse(&FILE, &edited),
            Owned::Ours { edited: true, .. }
        ));
        assert!(matches!(
            refusal(&FILE, "p".as_ref(), &edited),
            Some(InstallError::WouldOverwriteEdited(_))
        ));
        assert!(
            problem(&FILE, "p".as_ref(), &edited)
                .unwrap()
                .contains("edited")
        );
    }

    #[test]
    fn a_file_without_the_marker_is_foreign() {
        assert_eq!(parse(&FILE, "export const Mine = 1\n"), Owned::Foreign);
        assert_eq!(parse(&FILE, ""), Owned::Foreign);
        let why = refusal(&FILE, "p".as_ref(), "x\n").unwrap();
        assert!(
            matches!(why, InstallError::WouldOverwriteForeign { .. }),
            "{why}"
        );
        assert!(why.to_string().contains("of your own"), "{why}");
    }

    #[test]
    fn another_versions_unedited_file_is_stale_not_edited() {
        let text =
            render(&FILE, &serde_json::json!({})).replace(env!("CARGO_PKG_VERSION"), "0.0.0-old");
        // The version is on the marker line, outside the hash.
        assert!(matches!(
            parse(&FILE, &text),
            Owned::Ours { edited: false, .. }
        ));
        assert!(refusal(&FILE, "p".as_ref(), &text).is_none());
        assert!(
            problem(&FILE, "p".as_ref(), &text)
                .unwrap()
                .contains("0.0.0-old")
        );
    }
}
