//! Serialising the dispatches of one session on a file lock (std's
//! `File::lock`, flock on Unix). The kernel releases the lock when its holder
//! dies, so a killed process never wedges a session; a live holder that hangs
//! is waited for only up to a bound, after which the call runs stateless.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::Path;
use std::time::{Duration, Instant};

/// An exclusive lock, released on drop.
#[derive(Debug)]
pub struct Held {
    file: File,
}

impl Drop for Held {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Opens (creating, 0600) `path` and takes its exclusive lock, waiting at most
/// `wait`. `Ok(None)`: still held by someone else after the wait.
pub fn acquire(path: &Path, wait: Duration) -> std::io::Result<Option<Held>> {
    let mut o = OpenOptions::new();
    o.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    let file = o.open(path)?;
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
