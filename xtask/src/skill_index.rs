//! `cargo xtask gen-skill-index [--check]`: generated/skill-index.md from the
//! catalogue (messages/skills): one line per task group, manual-only skills
//! marked `(user-invoked)`, under
//! [`INDEX_MAX_CHARS`] in total. An
//! index that would be longer is an error, never a truncation.

use cuecard::catalog::{self, CatalogEntry, INDEX_HEADER, INDEX_MAX_CHARS};
use std::path::Path;

pub const INDEX_PATH: &str = "generated/skill-index.md";

/// Renders the index for `entries`.
pub fn render(entries: &[CatalogEntry]) -> Result<String, String> {
    let mut groups: Vec<&str> = entries.iter().map(|e| e.group.as_str()).collect();
    groups.sort_unstable();
    groups.dedup();
    let mut out = format!("{INDEX_HEADER}\n");
    for g in groups {
        let items: Vec<String> = entries
            .iter()
            .filter(|e| e.group == g)
            .map(|e| format!("{} — {}", e.shown_name(), one_line(&e.description)))
            .collect();
        out.push_str(&format!("- {g}: {}\n", items.join(" ")));
    }
    let n = out.chars().count();
    if n >= INDEX_MAX_CHARS {
        return Err(format!(
            "the skill index would be {n} characters; it must stay under {INDEX_MAX_CHARS}: \
             shorten descriptions in messages/skills"
        ));
    }
    Ok(out)
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The index the catalogue under `root/messages` calls for.
pub fn expected(root: &Path) -> Result<String, String> {
    render(&catalog::from_dir(&root.join("messages"))?)
}

/// Fails when `root`'s committed index does not match its catalogue.
pub fn check_at(root: &Path) -> Result<(), String> {
    let want = expected(root)?;
    let have = std::fs::read_to_string(root.join(INDEX_PATH)).ok();
    if have.as_deref() == Some(want.as_str()) {
        Ok(())
    } else {
        Err(format!(
            "{INDEX_PATH} is stale (run `cargo xtask gen-skill-index`)"
        ))
    }
}

pub fn run(check: bool) -> Result<(), String> {
    let root = crate::root();
    if check {
        return check_at(&root);
    }
    crate::write_or_check(&[(INDEX_PATH.to_string(), expected(&root)?)], false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    /// A copy of the repository's catalogue and index in a temporary
    /// directory, so the test never edits the repository.
    fn copy_of_repo() -> tempfile::TempDir {
        let tmp = tempfile::tempdir().unwrap();
        let root = crate::root();
        for rel in [
            "messages/skills/knowledge-wiki/SKILL.md",
            "messages/skills/compaction-handoff/SKILL.md",
            "messages/skills/cuecard-status/SKILL.md",
            "messages/skills/cuecard-explain/SKILL.md",
            INDEX_PATH,
        ] {
            let to: PathBuf = tmp.path().join(rel);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(root.join(rel), &to).unwrap();
        }
        tmp
    }

    #[test]
    fn committed_index_is_current() {
        check_at(&crate::root()).unwrap();
    }

    #[test]
    fn editing_a_description_without_regenerating_fails_the_check() {
        let tmp = copy_of_repo();
        check_at(tmp.path()).expect("a faithful copy passes");
        let skill = tmp.path().join("messages/skills/cuecard-status/SKILL.md");
        let text = std::fs::read_to_string(&skill).unwrap();
        let edited = text.replacen("description: Show", "description: Display", 1);
        assert_ne!(text, edited);
        std::fs::write(&skill, edited).unwrap();
        let err = check_at(tmp.path()).unwrap_err();
        assert!(err.contains("stale"), "{err}");
        // Regenerating makes it pass again.
        std::fs::write(tmp.path().join(INDEX_PATH), expected(tmp.path()).unwrap()).unwrap();
        check_at(tmp.path()).unwrap();
    }

    #[test]
    fn one_line_per_group_and_manual_only_skills_marked() {
        let idx = expected(&crate::root()).unwrap();
        let lines: Vec<&str> = idx.lines().skip(1).collect();
        let entries = catalog::from_dir(&crate::root().join("messages")).unwrap();
        let mut groups: Vec<&str> = entries.iter().map(|e| e.group.as_str()).collect();
        groups.dedup();
        groups.sort_unstable();
        groups.dedup();
        assert_eq!(lines.len(), groups.len());
        for e in &entries {
            let shown = e.shown_name();
            assert_eq!(shown.contains("(user-invoked)"), e.manual, "{}", e.name);
            let line = lines.iter().find(|l| l.contains(&shown)).unwrap();
            assert!(line.starts_with(&format!("- {}: ", e.group)));
        }
    }

    #[test]
    fn an_index_over_the_limit_is_an_error_not_a_truncation() {
        let mut entries = catalog::from_dir(&crate::root().join("messages")).unwrap();
        entries[0].description = "word ".repeat(400);
        let err = render(&entries).unwrap_err();
        assert!(err.contains("must stay under 1600"), "{err}");
    }
}
