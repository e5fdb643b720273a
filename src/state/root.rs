//! Where state lives (docs/design.md §6): `CUECARD_STATE_DIR`, else
//! `$CLAUDE_PLUGIN_DATA/state`, else the platform state directory
//! (`$XDG_STATE_HOME/cuecard`, `~/.local/state/cuecard`), else `state` in the
//! platform's local data directory (`%LOCALAPPDATA%\cuecard\data\state` on
//! Windows; see [`crate::dirs`]). The root is created 0700; an existing root of ours
//! with group/other bits is tightened to 0700; a root that is a symlink, owned
//! by someone else, not a directory, or not an absolute path is refused.

use std::fmt;
use std::path::{Path, PathBuf};

/// Why a root is not used (the dispatcher then runs stateless).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    NoCandidate,
    NotAbsolute(PathBuf),
    Symlink(PathBuf),
    NotADirectory(PathBuf),
    ForeignOwner(PathBuf),
    /// The root was writable by others, and something planted under it
    /// could not be removed.
    Planted(PathBuf),
    Io(PathBuf, String),
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = |p: &PathBuf| crate::text::sanitize(&p.to_string_lossy(), 200);
        match self {
            Refused::NoCandidate => write!(f, "no state directory could be determined"),
            Refused::NotAbsolute(d) => write!(f, "state root {} is not an absolute path", p(d)),
            Refused::Symlink(d) => write!(f, "state root {} is a symlink (refused)", p(d)),
            Refused::NotADirectory(d) => write!(f, "state root {} is not a directory", p(d)),
            Refused::ForeignOwner(d) => {
                write!(f, "state root {} is owned by another user (refused)", p(d))
            }
            Refused::Planted(d) => write!(
                f,
                "state root was writable by others and {} could not be removed (refused)",
                p(d)
            ),
            Refused::Io(d, e) => write!(f, "state root {}: {e}", p(d)),
        }
    }
}

/// The configured root, before any check.
pub fn candidate() -> Option<PathBuf> {
    crate::dirs::state()
}

/// Creates (0700) or checks `dir` as a state root.
pub fn prepare(dir: &Path) -> Result<PathBuf, Refused> {
    if !dir.is_absolute() {
        return Err(Refused::NotAbsolute(dir.to_path_buf()));
    }
    let io = |e: std::io::Error| Refused::Io(dir.to_path_buf(), e.kind().to_string());
    let meta = match std::fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if let Some(parent) = dir.parent() {
                std::fs::create_dir_all(parent).map_err(io)?;
            }
            create_private(dir).map_err(io)?;
            std::fs::symlink_metadata(dir).map_err(io)?
        }
        Err(e) => return Err(io(e)),
    };
    if check(dir, &meta)? {
        let removed = scrub(dir, 0)?;
        crate::diag::record(
            crate::diag::Kind::StateCorrupt,
            format!(
                "the state root was writable by group or others: tightened to 0700, \
                 {} not safely ours removed",
                crate::text::count(removed, "entry", "entries")
            ),
        );
    }
    Ok(dir.to_path_buf())
}

/// A subdirectory of a checked root, created 0700; refused if it is a
/// symlink, not a directory, or another user's.
pub fn subdir(root: &Path, name: &str) -> std::io::Result<PathBuf> {
    let d = root.join(name);
    // One `lstat` when it exists (every call but the first).
    let m = match std::fs::symlink_metadata(&d) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            create_private(&d)?;
            std::fs::symlink_metadata(&d)?
        }
        r => r?,
    };
    if !m.file_type().is_dir() {
        return Err(std::io::Error::other(format!("{name} is not a directory")));
    }
    if !mine(&m) {
        return Err(std::io::Error::other(format!("{name} is another user's")));
    }
    Ok(d)
}

/// Whether an entry is this user's.
fn mine(m: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        m.uid() == crate::fsutil::euid()
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        true
    }
}

/// Entries a scrub looks at, at most, and how deep (the root's tree is two
/// levels: `sessions/`, `markers/`, the cache files).
const SCRUB_MAX_ENTRIES: usize = 50_000;
const SCRUB_MAX_DEPTH: usize = 4;

/// After a root that others could write to was tightened: removes every
/// entry under it that cuecard could not have made (a link, a FIFO, a
/// socket or device, another user's file or directory, a file with more than
/// one link), and makes what stays private (directories 0700, files 0600).
/// Whatever cannot be removed refuses the root. Returns the count removed.
fn scrub(dir: &Path, depth: usize) -> Result<usize, Refused> {
    let io = |e: std::io::Error| Refused::Io(dir.to_path_buf(), e.kind().to_string());
    let mut removed = 0;
    for e in std::fs::read_dir(dir).map_err(io)?.take(SCRUB_MAX_ENTRIES) {
        let e = e.map_err(io)?;
        let path = e.path();
        let m = std::fs::symlink_metadata(&path).map_err(io)?;
        let ft = m.file_type();
        if ft.is_dir() && mine(&m) && depth < SCRUB_MAX_DEPTH {
            set_mode(&path, 0o700).map_err(io)?;
            removed += scrub(&path, depth + 1)?;
            continue;
        }
        if ft.is_file() && crate::fsutil::is_private(&m) {
            set_mode(&path, 0o600).map_err(io)?;
            continue;
        }
        let gone = if ft.is_dir() {
            std::fs::remove_dir_all(&path)
        } else {
            std::fs::remove_file(&path)
        };
        if gone.is_err() {
            return Err(Refused::Planted(path));
        }
        removed += 1;
    }
    Ok(removed)
}

fn set_mode(path: &Path, mode: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

/// Creates `dir` (0700); one that already exists is left to the checks.
fn create_private(dir: &Path) -> std::io::Result<()> {
    #[allow(unused_mut)]
    let mut b = std::fs::DirBuilder::new();
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
    match b.create(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        r => r,
    }
}

/// Checks a root; true when it was writable by group or others (and so was
/// tightened, and must be scrubbed).
fn check(dir: &Path, m: &std::fs::Metadata) -> Result<bool, Refused> {
    if m.file_type().is_symlink() {
        return Err(Refused::Symlink(dir.to_path_buf()));
    }
    if !m.is_dir() {
        return Err(Refused::NotADirectory(dir.to_path_buf()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let me = crate::fsutil::euid();
        if m.uid() != me {
            return Err(Refused::ForeignOwner(dir.to_path_buf()));
        }
        if m.mode() & 0o077 != 0 {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
                .map_err(|e| Refused::Io(dir.to_path_buf(), format!("cannot tighten: {e}")))?;
        }
        Ok(m.mode() & 0o022 != 0)
    }
    #[cfg(not(unix))]
    Ok(false)
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn mode(p: &Path) -> u32 {
        std::fs::metadata(p).unwrap().permissions().mode() & 0o777
    }

    #[test]
    fn created_private_and_tightened() {
        let t = tempfile::tempdir().unwrap();
        let r = t.path().join("a/b/state");
        prepare(&r).unwrap();
        assert_eq!(mode(&r), 0o700);
        std::fs::set_permissions(&r, std::fs::Permissions::from_mode(0o777)).unwrap();
        prepare(&r).unwrap();
        assert_eq!(mode(&r), 0o700);
    }

    #[test]
    fn symlinks_files_and_relative_paths_are_refused() {
        let t = tempfile::tempdir().unwrap();
        let real = t.path().join("real");
        std::fs::create_dir(&real).unwrap();
        let link = t.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        assert!(matches!(prepare(&link), Err(Refused::Symlink(_))));
        let file = t.path().join("file");
        std::fs::write(&file, "x").unwrap();
        assert!(matches!(prepare(&file), Err(Refused::NotADirectory(_))));
        assert!(matches!(
            prepare(Path::new("rel/state")),
            Err(Refused::NotAbsolute(_))
        ));
    }
}
