//! Materialising what "Full procedure" pointers and skills point at: the
//! shipped cards into the per-user data directory (`<data>/cards/<name>.md`,
//! as a model reads them: no license line, no Bindings), and the skill
//! catalogue (`messages/skills/<skill>/...`, when it exists) where each
//! harness looks for skills. Files are rewritten only when their content
//! differs, so a reinstall touches nothing.

use super::error::InstallError;
use crate::card::embedded::MESSAGES;
use include_dir::Dir;
use std::path::{Path, PathBuf};

/// What a materialisation did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Written {
    pub written: Vec<PathBuf>,
    pub unchanged: usize,
}

/// Writes `files` (relative path, content) under `dir`.
pub fn write_files(
    dir: &Path,
    files: &[(PathBuf, String)],
    dry_run: bool,
) -> Result<Written, InstallError> {
    let mut out = Written::default();
    for (rel, text) in files {
        let p = dir.join(rel);
        if std::fs::read_to_string(&p).is_ok_and(|t| &t == text) {
            out.unchanged += 1;
            continue;
        }
        if !dry_run {
            super::fsio::write_atomic(&p, text, None)?;
        }
        out.written.push(p);
    }
    Ok(out)
}

/// The shipped cards as files: `<name>.md` holding the card's body.
pub fn card_files() -> Vec<(PathBuf, String)> {
    crate::card::embedded::all()
        .into_iter()
        .flatten()
        .map(|c| {
            let mut body = c.body.clone();
            if !body.ends_with('\n') {
                body.push('\n');
            }
            (PathBuf::from(format!("{}.md", c.name)), body)
        })
        .collect()
}

/// The skill catalogue as files, relative to the skills directory
/// (`<skill>/SKILL.md`, ...). Empty while no catalogue ships.
pub fn skill_files() -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    if let Some(skills) = MESSAGES.get_dir("skills") {
        collect(skills, Path::new("skills"), &mut out);
    }
    out
}

fn collect(dir: &Dir<'static>, strip: &Path, out: &mut Vec<(PathBuf, String)>) {
    for f in dir.files() {
        if let (Ok(rel), Some(text)) = (f.path().strip_prefix(strip), f.contents_utf8()) {
            out.push((rel.to_path_buf(), text.to_string()));
        }
    }
    for d in dir.dirs() {
        collect(d, strip, out);
    }
}

/// Removes the skill files cuecard wrote that still hold what it wrote, and
/// the directories that left empty. A skill the user edited stays.
pub fn remove_files(dir: &Path, files: &[(PathBuf, String)]) -> usize {
    let mut removed = 0;
    for (rel, text) in files {
        let p = dir.join(rel);
        if std::fs::read_to_string(&p).is_ok_and(|t| &t == text) && std::fs::remove_file(&p).is_ok()
        {
            removed += 1;
            let mut d = p.parent();
            while let Some(x) = d {
                if x == dir || std::fs::remove_dir(x).is_err() {
                    break;
                }
                d = x.parent();
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_written_once_and_removed_only_when_unedited() {
        let t = tempfile::tempdir().unwrap();
        let files = vec![
            (PathBuf::from("a/SKILL.md"), "A\n".to_string()),
            (PathBuf::from("b/SKILL.md"), "B\n".to_string()),
        ];
        assert_eq!(
            write_files(t.path(), &files, false).unwrap().written.len(),
            2
        );
        assert_eq!(write_files(t.path(), &files, false).unwrap().unchanged, 2);
        std::fs::write(t.path().join("b/SKILL.md"), "edited\n").unwrap();
        assert_eq!(remove_files(t.path(), &files), 1);
        assert!(!t.path().join("a").exists());
        assert!(t.path().join("b/SKILL.md").exists());
    }

    #[test]
    fn every_shipped_card_has_a_file() {
        let files = card_files();
        assert_eq!(files.len(), crate::card::embedded::sources().len());
        assert!(files.iter().all(|(_, t)| !t.contains("## Bindings")));
    }
}
