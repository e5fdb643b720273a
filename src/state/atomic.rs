//! Atomic writes: a temp file in the same directory, an fsync when durable, a replace. A reader
//! sees the old file or the new one, never half of one; a process killed
//! between the two leaves the old file and a stray temp. Writers of one file
//! are serialised by that file's lock, so the temp has a fixed name
//! (`.<name>.tmp`): the next writer truncates and renames it, and no stray
//! temp outlives the next write (the sweep removes any older than an hour).

use std::io::Write;
use std::path::{Path, PathBuf};

/// The temp beside `path`. Call [`write()`] only while holding the lock that
/// serialises the writers of `path`.
pub fn temp_path(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{name}.tmp"))
}

/// Writes `bytes` to `path` atomically (mode 0600), with an fsync of the
/// temp before the rename.
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    write_with(path, bytes, true)
}

/// Writes `bytes` to `path` atomically; `durable` adds the fsync (a sync
/// costs 1 to 15 ms on common disks, more than the rest of a hook call; see
/// `Locked::save` for when it is used).
pub fn write_with(path: &Path, bytes: &[u8], durable: bool) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let result = (|| {
        // Removed and created anew, exclusively and 0600: never written
        // through a link or into a FIFO planted at the temp's name.
        let mut f = crate::fsutil::create_private(&tmp)?;
        f.write_all(bytes)?;
        if durable {
            f.sync_all()?;
        }
        drop(f);
        test_kill("state:before-rename");
        crate::fsutil::replace(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Debug builds kill themselves (SIGKILL, no unwinding, no cleanup) at a named
/// point when `CUECARD_TEST_KILL` names it, so that the integration tests can
/// prove a process killed mid-write leaves the previous state readable.
/// Release builds compile this away.
pub fn test_kill(point: &str) {
    #[cfg(unix)]
    if cfg!(debug_assertions) && std::env::var("CUECARD_TEST_KILL").is_ok_and(|v| v == point) {
        // SAFETY: kill/getpid have no memory-safety preconditions.
        unsafe {
            libc::kill(libc::getpid(), libc::SIGKILL);
        }
    }
    let _ = point;
}
