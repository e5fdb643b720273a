//! `skill-index`: puts the skill index (generated/skill-index.md, embedded in
//! the binary at build time) into the SessionStart envelope, so every skill
//! stays findable by task even when a harness trims its own skill listing.
//! The index is text shipped in the binary, so it is inserted verbatim (one
//! line per task group) through [`Finding::trusted`].

use super::{Finding, Guard};
use crate::catalog::INDEX_HEADER;
use crate::context::Ctx;

/// generated/skill-index.md as built into this binary.
pub const EMBEDDED: &str = include_str!("../../generated/skill-index.md");

/// The index as it reaches a model: without its generated-file comment.
pub fn text() -> &'static str {
    EMBEDDED
        .strip_prefix(INDEX_HEADER)
        .unwrap_or(EMBEDDED)
        .trim()
}

pub struct SkillIndex;

impl Guard for SkillIndex {
    fn name(&self) -> &'static str {
        "skill-index"
    }
    fn events(&self) -> &'static [&'static str] {
        &["SessionStart"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["index"]
    }
    fn check(&self, _ctx: &Ctx) -> Option<Finding> {
        let index = text();
        if index.is_empty() {
            return None;
        }
        let mut f = Finding::new("skill-index", "the skill index is built into this binary");
        f.trusted.push(("index", index));
        Some(f)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_index_is_small_and_has_no_comment() {
        let t = super::text();
        assert!(!t.is_empty());
        assert!(!t.contains("<!--"));
        assert!(super::EMBEDDED.chars().count() < crate::catalog::INDEX_MAX_CHARS);
        for line in t.lines() {
            assert!(line.starts_with("- "), "one line per group: {line:?}");
        }
    }
}
