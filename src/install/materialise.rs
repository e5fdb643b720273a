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
    /// Files left as they are because they are the user's: (path, why).
    pub refused: Vec<(PathBuf, String)>,
    /// The folders writing created (none on a dry run: those it would).
    pub created_dirs: Vec<PathBuf>,
}

/// What a file at a place cuecard writes one of its own files is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileState {
    Absent,
    /// cuecard's, unedited since written (by this cuecard or another).
    Ours,
    /// cuecard's marker, but the text below it changed: the user's now.
    Edited,
    /// No marker and not cuecard's text: the user's own.
    Foreign,
}

/// The line that marks a Markdown file cuecard's, with the hash of the
/// text above it (the last line, so a skill's front matter stays first).
fn marker_line(what: &str, body: &str) -> String {
    format!(
        "<!-- {} {what}, written by cuecard {}; hash {}. `cuecard install` rewrites this file and \
         `cuecard uninstall` removes it; edit it and it is yours (cuecard then leaves it alone). -->\n",
        super::owned::MARKER,
        env!("CARGO_PKG_VERSION"),
        super::owned::hash_of(body)
    )
}

/// A shipped text as cuecard writes it: the text, then its marker line.
pub fn marked(what: &str, text: &str) -> String {
    let mut body = text.to_string();
    if !body.ends_with('\n') {
        body.push('\n');
    }
    let line = marker_line(what, &body);
    body + &line
}

/// Whose the text at a place cuecard writes `plain` (marked) is.
pub fn state_of(existing: Option<&str>, plain: &str) -> FileState {
    let Some(text) = existing else {
        return FileState::Absent;
    };
    let trimmed = text.strip_suffix('\n').unwrap_or(text);
    let (body, last) = match trimmed.rfind('\n') {
        Some(i) => (&text[..=i], &trimmed[i + 1..]),
        None => ("", trimmed),
    };
    let prefix = format!("<!-- {}", super::owned::MARKER);
    if let Some(rest) = last.strip_prefix(&prefix) {
        let recorded = rest
            .split_once("; hash ")
            .and_then(|(_, h)| h.get(..16))
            .unwrap_or("");
        return if recorded == super::owned::hash_of(body) {
            FileState::Ours
        } else {
            FileState::Edited
        };
    }
    // Written by a cuecard from before the marker: the shipped text itself.
    if text == plain {
        FileState::Ours
    } else {
        FileState::Foreign
    }
}

/// Why a file is left: the user's own, or edited since cuecard wrote it.
fn why_left(state: &FileState) -> String {
    match state {
        FileState::Edited => {
            "edited by hand since cuecard wrote it (its hash no longer matches the \
                              marker on its last line), so it is yours now"
                .into()
        }
        _ => "not cuecard's (no cuecard marker): yours".into(),
    }
}

/// Writes `files` (relative path, shipped text) under `dir`. With `what`
/// (a folder the user owns, as a harness's skills folder), each is marked
/// as cuecard's, and a file of the user's own at that place, or one of
/// cuecard's edited since, is left as it is and named in
/// [`Written::refused`]; the rest are written. Without (cuecard's own
/// data folder) each is written as it ships.
pub fn write_files(
    dir: &Path,
    what: Option<&str>,
    files: &[(PathBuf, String)],
    dry_run: bool,
) -> Result<Written, InstallError> {
    let mut out = Written::default();
    for (rel, text) in files {
        let p = dir.join(rel);
        let want = match what {
            Some(what) => marked(what, text),
            None => text.clone(),
        };
        let existing = read_small(&p);
        if existing.as_deref() == Some(want.as_str()) {
            out.unchanged += 1;
            continue;
        }
        match state_of(existing.as_deref(), text) {
            _ if what.is_none() => {}
            FileState::Ours => {}
            FileState::Absent if !foreign_folder(dir, rel, files) => {}
            FileState::Absent => {
                out.refused.push((
                    p,
                    "its folder is one of yours (cuecard did not make it): left as it is".into(),
                ));
                continue;
            }
            other => {
                out.refused.push((p, why_left(&other)));
                continue;
            }
        }
        if !dry_run {
            if let Some(parent) = p.parent() {
                for d in super::record::missing_dirs(parent, dir) {
                    if !out.created_dirs.contains(&d) {
                        out.created_dirs.push(d);
                    }
                }
            }
            super::fsio::write_atomic(&p, &want, None)?;
        }
        out.written.push(p);
    }
    Ok(out)
}

/// Whether the top folder `rel` sits in (a skill's own folder) exists and
/// holds none of cuecard's files: a skill of the user's by that name, into
/// which cuecard writes nothing.
fn foreign_folder(dir: &Path, rel: &Path, files: &[(PathBuf, String)]) -> bool {
    let Some(top) = rel.components().next() else {
        return false;
    };
    if rel.components().count() < 2 || !dir.join(top).exists() {
        return false;
    }
    !files
        .iter()
        .filter(|(r, _)| r.starts_with(top))
        .any(|(r, t)| state_of(read_small(&dir.join(r)).as_deref(), t) == FileState::Ours)
}

/// A file's text when it is a regular file of a sane size (not followed
/// through a symlink), `None` otherwise.
fn read_small(p: &Path) -> Option<String> {
    let m = std::fs::symlink_metadata(p).ok()?;
    if !m.is_file() || m.len() > super::fsio::MAX_CONFIG_BYTES {
        // A symlink or anything else there is the user's: never written.
        return Some(String::from("\u{0}not a regular file"));
    }
    std::fs::read_to_string(p).ok()
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

/// What an uninstall of cuecard's own files did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Removed {
    pub removed: usize,
    /// Files at cuecard's places left as they are: (path, why).
    pub left: Vec<(PathBuf, String)>,
}

/// Removes the files cuecard wrote that still hold what it wrote (its
/// marker and an unchanged hash); a file the user edited, or of their own,
/// stays and is named. A skill's own folder goes when that left it empty;
/// the folders above it that install created go with
/// [`super::record::remove_empty`].
pub fn remove_files(dir: &Path, files: &[(PathBuf, String)]) -> Removed {
    let mut out = Removed::default();
    for (rel, text) in files {
        let p = dir.join(rel);
        match state_of(read_small(&p).as_deref(), text) {
            FileState::Absent => {}
            FileState::Ours => {
                if std::fs::remove_file(&p).is_ok() {
                    out.removed += 1;
                    // Its skill's folder, when that held only cuecard's:
                    // install writes into no folder of the user's.
                    if let Some(top) = rel.components().next()
                        && rel.components().count() > 1
                    {
                        let _ = std::fs::remove_dir(dir.join(top));
                    }
                }
            }
            other => out.left.push((p, why_left(&other))),
        }
    }
    out
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
        let w = write_files(t.path(), Some("skill"), &files, false).unwrap();
        assert_eq!(w.written.len(), 2);
        assert_eq!(w.created_dirs.len(), 2);
        assert_eq!(
            write_files(t.path(), Some("skill"), &files, false)
                .unwrap()
                .unchanged,
            2
        );
        let b = t.path().join("b/SKILL.md");
        let edited = std::fs::read_to_string(&b).unwrap().replace("B\n", "B!\n");
        std::fs::write(&b, &edited).unwrap();
        let again = write_files(t.path(), Some("skill"), &files, false).unwrap();
        assert_eq!(again.refused.len(), 1, "an edited file is left");
        assert_eq!(std::fs::read_to_string(&b).unwrap(), edited);
        let r = remove_files(t.path(), &files);
        assert_eq!((r.removed, r.left.len()), (1, 1));
        assert!(!t.path().join("a/SKILL.md").exists());
        assert_eq!(std::fs::read_to_string(&b).unwrap(), edited);
    }

    #[test]
    fn a_users_file_is_never_written_over_and_an_old_unmarked_copy_is_ours() {
        let t = tempfile::tempdir().unwrap();
        let files = vec![(PathBuf::from("s/SKILL.md"), "S\n".to_string())];
        let p = t.path().join("s/SKILL.md");
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, "mine\n").unwrap();
        let w = write_files(t.path(), Some("skill"), &files, false).unwrap();
        assert_eq!((w.written.len(), w.refused.len()), (0, 1));
        assert_eq!(remove_files(t.path(), &files).left.len(), 1);
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "mine\n");
        // The shipped text without a marker: written by an older cuecard.
        std::fs::write(&p, "S\n").unwrap();
        assert_eq!(state_of(Some("S\n"), "S\n"), FileState::Ours);
        let w = write_files(t.path(), Some("skill"), &files, false).unwrap();
        assert_eq!(w.written.len(), 1);
        assert!(
            std::fs::read_to_string(&p)
                .unwrap()
                .starts_with("S\n<!-- cuecard-owned-file:")
        );
    }

    #[test]
    fn every_shipped_card_has_a_file() {
        let files = card_files();
        assert_eq!(files.len(), crate::card::embedded::sources().len());
        assert!(files.iter().all(|(_, t)| !t.contains("## Bindings")));
    }
}
