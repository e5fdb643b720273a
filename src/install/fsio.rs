//! Reading and writing config files safely: symlinks refused, a backup before
//! any change, atomic replacement (a temp file in the same directory, fsync,
//! rename, fsync of the directory), the file's permissions kept.

use super::error::InstallError;
use std::fs;
use std::path::{Path, PathBuf};

/// Config files bigger than this are not read (no harness config is near it).
pub const MAX_CONFIG_BYTES: u64 = 8 * 1024 * 1024;

/// The backup kept of a config before cuecard changes it: next to it, or,
/// for a file inside a git work tree (a project's, or a home kept in git),
/// in the data directory (`<data>/install/backups/<hash>-<name>.cuecard.bak`)
/// so that no backup lands in a repository.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".cuecard.bak");
    if in_repository(path)
        && let Some(data) = crate::paths::data_dir()
    {
        let hash = crate::hash::fnv1a(0, path.to_string_lossy().as_bytes());
        let mut file = std::ffi::OsString::from(format!("{hash:016x}-"));
        file.push(&name);
        return data.join("install/backups").join(file);
    }
    path.with_file_name(name)
}

/// Whether a folder above `path` holds a `.git` (a work tree's root).
fn in_repository(path: &Path) -> bool {
    path.ancestors()
        .skip(1)
        .any(|a| fs::symlink_metadata(a.join(".git")).is_ok())
}

/// Refuses a config that is a symlink, or whose directories below `base`
/// (the home directory or the project root, included) are symlinks: writing
/// through them would change a file somewhere else (a dotfiles repository, a
/// shared directory) that the user did not name.
pub fn refuse_symlinks(base: &Path, path: &Path) -> Result<(), InstallError> {
    let mut dir = path.to_path_buf();
    let mut first = true;
    loop {
        // The base itself (a symlinked HOME, a project reached through a
        // link) is the user's own setup: written through.
        if dir == base && !first {
            return Ok(());
        }
        if let Ok(m) = fs::symlink_metadata(&dir)
            && m.file_type().is_symlink()
        {
            return Err(if first {
                InstallError::Symlink(dir)
            } else {
                InstallError::SymlinkedDir(dir)
            });
        }
        first = false;
        if dir == base {
            return Ok(());
        }
        match dir.parent() {
            Some(p) if p.starts_with(base) => dir = p.to_path_buf(),
            _ => return Ok(()),
        }
    }
}

/// The file `path` leads to through symlinks below `home` (a dotfile
/// manager's link to the file, or to its folder), when that is a place of
/// the user's own: inside the home (links resolved), and, when it exists,
/// a regular file owned by the user. `None` when no link below the home is
/// involved, or the place is not acceptable (then the link is refused).
pub fn through_links(path: &Path, home: &Path) -> Option<PathBuf> {
    let involved = path
        .ancestors()
        .take_while(|a| a.starts_with(home) && *a != home)
        .any(|a| fs::symlink_metadata(a).is_ok_and(|m| m.file_type().is_symlink()));
    if !involved {
        return None;
    }
    let real_home = fs::canonicalize(home).ok()?;
    let real = match fs::canonicalize(path) {
        Ok(r) => r,
        // A dangling link is refused.
        Err(_) if fs::symlink_metadata(path).is_ok() => return None,
        // Not there yet: its deepest existing folder, resolved.
        Err(_) => {
            let mut rest = Vec::new();
            let mut at = path;
            loop {
                rest.push(at.file_name()?.to_os_string());
                at = at.parent()?;
                if let Ok(r) = fs::canonicalize(at) {
                    break rest.iter().rev().fold(r, |p, n| p.join(n));
                }
            }
        }
    };
    if !real.starts_with(&real_home) {
        return None;
    }
    if let Ok(m) = fs::metadata(&real) {
        if !m.is_file() {
            return None;
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            if m.uid() != crate::fsutil::euid() {
                return None;
            }
        }
    }
    Some(real)
}

/// Refuses a file whose owner has no write permission on it (a file the
/// user made read-only); a missing file passes.
pub fn refuse_read_only(path: &Path) -> Result<(), InstallError> {
    match fs::metadata(path) {
        Ok(m) if m.permissions().readonly() => Err(InstallError::ReadOnly(path.to_path_buf())),
        _ => Ok(()),
    }
}

/// The text of a config, `None` when it does not exist.
pub fn read(path: &Path) -> Result<Option<String>, InstallError> {
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => {
            return Err(InstallError::Io {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    if !meta.is_file() {
        return Err(InstallError::NotRegularFile(path.to_path_buf()));
    }
    if meta.len() > MAX_CONFIG_BYTES {
        return Err(InstallError::TooLarge(path.to_path_buf()));
    }
    let bytes = fs::read(path).map_err(|error| InstallError::Io {
        path: path.to_path_buf(),
        error,
    })?;
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| InstallError::NotUtf8(path.to_path_buf()))
}

/// Replaces (or creates) `path` with `text` atomically. When the file existed,
/// its previous bytes are first saved to [`backup_path`].
pub fn write_atomic(path: &Path, text: &str, previous: Option<&str>) -> Result<(), InstallError> {
    let dir = path
        .parent()
        .ok_or_else(|| InstallError::NoDirectory(path.to_path_buf()))?;
    fs::create_dir_all(dir).map_err(|error| InstallError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    // A file that exists keeps its mode; a new one is 0644, what the usual
    // umask gives (the temp it is written through starts private).
    let mode = fs::metadata(path)
        .ok()
        .map(|m| m.permissions())
        .or_else(default_mode);
    if let Some(prev) = previous {
        let b = backup_path(path);
        if let Some(d) = b.parent() {
            fs::create_dir_all(d).map_err(|error| InstallError::Io {
                path: d.to_path_buf(),
                error,
            })?;
        }
        replace(&b, prev, mode.clone())?;
    }
    replace(path, text, mode)
}

fn default_mode() -> Option<fs::Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(fs::Permissions::from_mode(0o644))
    }
    #[cfg(not(unix))]
    None
}

fn replace(path: &Path, text: &str, perms: Option<fs::Permissions>) -> Result<(), InstallError> {
    crate::fsutil::write_atomic(path, text.as_bytes(), true, perms).map_err(|error| {
        InstallError::Writing {
            path: path.to_path_buf(),
            error,
        }
    })
}

/// Removes the backup install kept of `path`, if there is one (and the
/// data directory's backups folder, when that left it empty).
pub fn remove_backup(path: &Path) -> Result<(), InstallError> {
    let b = backup_path(path);
    match fs::remove_file(&b) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
            Err(InstallError::Removing { path: b, error })
        }
        _ => {
            if let Some(dir) = b.parent().filter(|d| d.ends_with("install/backups")) {
                let _ = fs::remove_dir(dir);
                if let Some(install) = dir.parent() {
                    let _ = fs::remove_dir(install);
                }
            }
            Ok(())
        }
    }
}

/// Removes a file cuecard created, with a backup of what it held.
pub fn remove(path: &Path, previous: &str) -> Result<(), InstallError> {
    replace(&backup_path(path), previous, None)?;
    fs::remove_file(path).map_err(|error| InstallError::Removing {
        path: path.to_path_buf(),
        error,
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_keeps_a_backup_and_the_mode() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a/settings.json");
        write_atomic(&p, "{}\n", None).unwrap();
        assert!(
            !backup_path(&p).exists(),
            "no backup of a file that did not exist"
        );
        fs::set_permissions(&p, fs::Permissions::from_mode(0o600)).unwrap();
        write_atomic(&p, "{\"a\":1}\n", Some("{}\n")).unwrap();
        assert_eq!(fs::read_to_string(&p).unwrap(), "{\"a\":1}\n");
        assert_eq!(fs::read_to_string(backup_path(&p)).unwrap(), "{}\n");
        assert_eq!(
            fs::metadata(&p).unwrap().permissions().mode() & 0o777,
            0o600
        );
        let leftovers: Vec<_> = fs::read_dir(t.path().join("a"))
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains("tmp"))
            .collect();
        assert!(leftovers.is_empty());
    }

    #[test]
    fn symlinked_file_or_directory_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let base = t.path().join("home");
        fs::create_dir_all(base.join("real")).unwrap();
        fs::write(base.join("real/settings.json"), "{}").unwrap();
        std::os::unix::fs::symlink(base.join("real"), base.join(".claude")).unwrap();
        let e = refuse_symlinks(&base, &base.join(".claude/settings.json")).unwrap_err();
        assert!(
            matches!(&e, InstallError::SymlinkedDir(d) if *d == base.join(".claude")),
            "{e}"
        );
        std::os::unix::fs::symlink(base.join("real/settings.json"), base.join("real/link.json"))
            .unwrap();
        let e = refuse_symlinks(&base, &base.join("real/link.json")).unwrap_err();
        assert!(
            matches!(&e, InstallError::Symlink(f) if *f == base.join("real/link.json")),
            "{e}"
        );
        refuse_symlinks(&base, &base.join("real/settings.json")).unwrap();
        refuse_symlinks(&base, &base.join("missing/dir/x.json")).unwrap();
    }
}
