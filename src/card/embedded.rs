//! The shipped cards, embedded at build time from messages/*.md.

use super::{Card, CardError, Origin, parse_card};
use include_dir::{Dir, include_dir};

/// Everything under messages/ (cards at the top level; the skill catalogue
/// in subdirectories).
pub static MESSAGES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/messages");

/// The names and sources of the shipped cards, sorted by name.
pub fn sources() -> Vec<(&'static str, &'static str)> {
    let mut out: Vec<(&str, &str)> = MESSAGES
        .files()
        .filter_map(|f| {
            let path = f.path();
            if path.extension()? != "md" {
                return None;
            }
            let name = path.file_stem()?.to_str()?;
            Some((name, f.contents_utf8()?))
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(b.0));
    out
}

/// The source of one shipped card.
pub fn source(name: &str) -> Option<&'static str> {
    MESSAGES.get_file(format!("{name}.md"))?.contents_utf8()
}

/// Parses one shipped card.
pub fn card(name: &str) -> Option<Result<Card, CardError>> {
    source(name).map(|src| parse_card(name, src, Origin::Embedded))
}

/// Parses every shipped card.
pub fn all() -> Vec<Result<Card, CardError>> {
    sources()
        .into_iter()
        .map(|(name, src)| parse_card(name, src, Origin::Embedded))
        .collect()
}
