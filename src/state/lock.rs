//! Serialising the dispatches of one session on a file lock (std's
//! `File::lock`, flock on Unix). The kernel releases the lock when its holder
//! dies, so a killed process never wedges a session; a live holder that hangs
//! is waited for only up to a bound, after which the call runs stateless.

use std::fs::{File, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

/// An exclusive lock, released on drop.
#[derive(Debug)]
pub struct Held {
    file: File,
}

// No Drop: closing the file (its only descriptor) releases the lock,
// without a separate unlock call.

impl Held {
    /// The lock file itself (a marker keeps its time in it).
    pub fn file(&self) -> &File {
        &self.file
    }
}

/// Opens (creating, 0600) `path` and takes its exclusive lock, waiting at most
/// `wait`. `Ok(None)`: still held by someone else after the wait. Never
/// through a link nor on a FIFO: anything at the path that is not a private
/// regular file is replaced, and recorded as corrupt state.
pub fn acquire(path: &Path, wait: Duration) -> std::io::Result<Option<Held>> {
    let (file, replaced) = crate::fsutil::open_private_rw(path)?;
    if replaced {
        crate::diag::record(
            crate::diag::Kind::StateCorrupt,
            "a lock or marker file was not a private regular file: replaced",
        );
    }
    let start = Instant::now();
    let mut pause = Duration::from_micros(200);
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(Some(Held { file })),
            Err(TryLockError::WouldBlock) => {}
            Err(TryLockError::Error(e)) => return Err(e),
        }
        if start.elapsed() >= wait {
            return Ok(None);
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(5));
    }
}
