//! Atomic writes: a temp file in the same directory, fsync, rename. A reader
//! sees the old file or the new one, never half of one; a process killed
//! between the two leaves the old file and a stray temp, which the next
//! writer of that file removes while it holds the file's lock.

use std::io::Write;
use std::path::{Path, PathBuf};

fn temp_prefix(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    format!(".{name}.")
}

fn temp_path(path: &Path) -> PathBuf {
    path.with_file_name(format!("{}{}.tmp", temp_prefix(path), std::process::id()))
}

/// Writes `bytes` to `path` atomically (mode 0600).
pub fn write(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let tmp = temp_path(path);
    let _ = std::fs::remove_file(&tmp);
    let result = (|| {
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
        let mut f = o.open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        test_kill("state:before-rename");
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Removes the temps other (dead) writers left for `path`. Call it only while
/// holding the lock that serialises writers of `path`.
pub fn remove_stale_temps(path: &Path) {
    let (Some(dir), prefix) = (path.parent(), temp_prefix(path)) else {
        return;
    };
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten().take(10_000) {
        let n = e.file_name();
        let n = n.to_string_lossy();
        if n.starts_with(&prefix) && n.ends_with(".tmp") {
            let _ = std::fs::remove_file(e.path());
        }
    }
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
