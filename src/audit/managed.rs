//! The machine-wide managed config (docs/audit.md, "For a fleet"): a file
//! an administrator controls, whose `[audit]` table switches the audit on
//! for every user of the machine. A user's config cannot switch it off nor
//! change its bounds, and a project cannot touch it.
//!
//! | platform | file |
//! |---|---|
//! | Linux and other Unix | `/etc/cuecard/config.toml` |
//! | macOS | `/Library/Application Support/cuecard/config.toml` |
//! | Windows | `C:\ProgramData\cuecard\config.toml` |
//!
//! The place is fixed: no variable a hook's environment could carry moves
//! it, except `CUECARD_TEST_MANAGED_CONFIG` in debug builds (the
//! integration tests). It is read with the bounded, no-follow read, and
//! counts only as a regular file owned by root (in a debug build with the
//! test variable, also by the current user) that neither others nor a
//! group other than root's can write, in a directory of the same kind; a
//! file anyone can write is not a manager's, and is refused with the
//! reason ([`Managed::Refused`]).

use super::settings::{self, Settings};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The test variable that moves the managed file (debug builds only).
const TEST_VAR: &str = "CUECARD_TEST_MANAGED_CONFIG";

/// The largest managed file read.
const MAX_BYTES: u64 = 64 * 1024;

/// What the managed file says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Managed {
    /// No file (or no `[audit]` table in it).
    Absent,
    /// Its `[audit]` table, with the lines not understood.
    Read(Settings, Vec<String>),
    /// A file is there and does not count: why.
    Refused(String),
}

/// The managed file's place, and whether the test variable gave it.
pub fn path() -> (PathBuf, bool) {
    if cfg!(debug_assertions)
        && let Some(p) = std::env::var_os(TEST_VAR).filter(|p| !p.is_empty())
    {
        return (PathBuf::from(p), true);
    }
    let p = if cfg!(windows) {
        r"C:\ProgramData\cuecard\config.toml"
    } else if cfg!(target_os = "macos") {
        "/Library/Application Support/cuecard/config.toml"
    } else {
        "/etc/cuecard/config.toml"
    };
    (PathBuf::from(p), false)
}

/// The managed file as read once by this process (one failed open when
/// there is none). A refusal is recorded as a `bad-config` failure, once.
pub fn get() -> &'static Managed {
    static ONCE: OnceLock<Managed> = OnceLock::new();
    ONCE.get_or_init(|| {
        let (p, test) = path();
        let m = read(&p, test);
        if let Managed::Refused(why) = &m {
            crate::diag::record(
                crate::diag::Kind::BadConfig,
                format!("managed config {}: {why}", p.display()),
            );
        }
        m
    })
}

/// Reads the managed file at `path` (`test`: its owner may be this user).
pub fn read(path: &Path, test: bool) -> Managed {
    let (bytes, whole, meta) = match crate::fsutil::read_regular(path, false, MAX_BYTES) {
        Ok(r) => r,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Managed::Absent,
        Err(e) => {
            return Managed::Refused(format!(
                "refused: {} (it must be a regular file, not a link)",
                crate::text::sanitize(&e.to_string(), 80)
            ));
        }
    };
    if let Err(why) = administered(&meta, test) {
        return Managed::Refused(format!("refused: the file {why}"));
    }
    if let Some(dir) = path.parent()
        && let Ok(dm) = std::fs::metadata(dir)
        && let Err(why) = administered(&dm, test)
    {
        return Managed::Refused(format!("refused: its directory {why}"));
    }
    if !whole {
        return Managed::Refused(format!("refused: larger than {MAX_BYTES} bytes"));
    }
    let Ok(text) = String::from_utf8(bytes) else {
        return Managed::Refused("refused: not UTF-8".into());
    };
    match settings::parse(&text) {
        Some((s, problems)) => Managed::Read(s, problems),
        None => Managed::Absent,
    }
}

/// Whether a file or directory is an administrator's: owned by root (or,
/// `test`, this user), writable by no one else.
#[cfg(unix)]
fn administered(meta: &std::fs::Metadata, test: bool) -> Result<(), String> {
    use std::os::unix::fs::MetadataExt;
    let uid = meta.uid();
    if uid != 0 && !(test && uid == crate::fsutil::euid()) {
        return Err(format!("is owned by uid {uid}, not root"));
    }
    let mode = meta.mode();
    if mode & 0o002 != 0 {
        return Err("is writable by others".into());
    }
    if mode & 0o020 != 0 && meta.gid() != 0 && !(test && uid == crate::fsutil::euid()) {
        return Err(format!("is writable by its group (gid {})", meta.gid()));
    }
    Ok(())
}

/// Windows: the folder's access list is the administrator's to set; it is
/// not checked (docs/audit.md).
#[cfg(not(unix))]
fn administered(_meta: &std::fs::Metadata, _test: bool) -> Result<(), String> {
    Ok(())
}

/// The managed settings combined with the user's: the stricter wins. When
/// the managed file switches the audit on, its whole table applies: a
/// user's `[audit]` table can neither switch it off nor change how much is
/// kept (a default a user's table left unset must not undo a bound the
/// administrator chose). Otherwise the user's settings.
pub fn combine(managed: Option<Settings>, user: Option<Settings>) -> Settings {
    match managed.filter(|m| m.enabled) {
        Some(m) => m,
        None => user.unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(enabled: bool, bytes: u64, files: u32) -> Settings {
        Settings {
            enabled,
            max_file_bytes: bytes,
            max_files: files,
        }
    }

    #[test]
    fn the_stricter_wins() {
        let m = s(true, 1 << 20, 10);
        // The user switches it off and keeps less: on, the manager's bounds.
        assert_eq!(combine(Some(m), Some(s(false, 16384, 1))), m);
        // Nor more: the administrator's bounds are the bounds.
        assert_eq!(combine(Some(m), Some(s(true, 4 << 20, 20))), m);
        // A managed file that does not switch it on leaves the user's.
        let u = s(true, 32768, 2);
        assert_eq!(combine(Some(s(false, 1 << 20, 10)), Some(u)), u);
        assert_eq!(combine(None, None), Settings::default());
    }

    #[cfg(unix)]
    #[test]
    fn a_file_others_can_write_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("cuecard-managed-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let f = dir.join("config.toml");
        std::fs::write(&f, "[audit]\nenabled = true\n").unwrap();
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(matches!(read(&f, true), Managed::Read(s, _) if s.enabled));
        if crate::fsutil::euid() != 0 {
            // Not root's: refused outside the tests.
            assert!(matches!(read(&f, false), Managed::Refused(w) if w.contains("not root")));
        }
        std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o646)).unwrap();
        assert!(matches!(read(&f, true), Managed::Refused(w) if w.contains("writable by others")));
        assert_eq!(read(&dir.join("none.toml"), true), Managed::Absent);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
