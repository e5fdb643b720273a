//! Sweeping idle state: at most once a day, one `stat` of `<root>/last-sweep`
//! decides; when a sweep is due it runs after the hook's answer was written,
//! so it never delays one. Session state idle longer than the configured age
//! (`CUECARD_STATE_MAX_AGE_DAYS`, default 7) goes, with its lock; stray temps
//! older than an hour (of the session state, and of the card caches and the
//! trust store in the root) and markers older than a day go too.

use super::Store;
use std::path::Path;
use std::time::{Duration, SystemTime};

pub const DEFAULT_MAX_AGE_DAYS: u64 = 7;
const DAY: Duration = Duration::from_secs(86_400);
/// Directory entries looked at per sweep, at most.
const MAX_ENTRIES: usize = 20_000;

/// The configured idle age.
pub fn max_age() -> Duration {
    let days = std::env::var("CUECARD_STATE_MAX_AGE_DAYS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|d| *d >= 1)
        .unwrap_or(DEFAULT_MAX_AGE_DAYS);
    DAY * days as u32
}

/// Whether the last sweep is more than a day old (one `lstat`).
pub fn due(store: &Store) -> bool {
    let stamp = store.root().join("last-sweep");
    // Not through a link: a stamp that is not a regular file is due, and
    // the stamp's rewrite replaces it.
    match std::fs::symlink_metadata(&stamp).and_then(|m| {
        if m.is_file() {
            m.modified()
        } else {
            Err(std::io::ErrorKind::InvalidInput.into())
        }
    }) {
        Ok(t) => SystemTime::now()
            .duration_since(t)
            .is_ok_and(|age| age >= DAY),
        Err(_) => true,
    }
}

/// Sweeps if due. Returns how many files were removed.
pub fn maybe_sweep(store: &Store) -> usize {
    if !due(store) {
        return 0;
    }
    // Stamp first, so concurrent hooks do not all sweep.
    if super::atomic::write(&store.root().join("last-sweep"), b"").is_err() {
        return 0;
    }
    sweep(store, max_age())
}

/// Removes what is older than `age` (sessions), an hour (temps), a day
/// (markers).
pub fn sweep(store: &Store, age: Duration) -> usize {
    let mut removed = 0;
    if let Ok(d) = store.dir("sessions") {
        removed += sweep_dir(&d, |path, name, idle| {
            if name.ends_with(".tmp") {
                return idle > Duration::from_secs(3600);
            }
            // A session is idle when neither its record nor its call log
            // (appended on every call; the record changes less often) moved.
            let log = super::calls::log_path(path);
            let log_idle = idle_of(&log, SystemTime::now()).unwrap_or(idle);
            if name.ends_with(".json") && idle.min(log_idle) > age {
                // Take the session's lock first, so a call that is using the
                // session right now keeps it.
                let lock = path.with_extension("lock");
                return match super::lock::acquire(&lock, Duration::ZERO) {
                    Ok(Some(_held)) => {
                        let _ = std::fs::remove_file(&lock);
                        let _ = std::fs::remove_file(&log);
                        true
                    }
                    Ok(None) => false,
                    Err(_) => true,
                };
            }
            // A lock's own mtime never changes: judge it by its state; a log
            // whose record is gone goes once idle.
            (name.ends_with(".lock") || name.ends_with(".log"))
                && idle > age
                && !path.with_extension("json").exists()
        });
    }
    if let Ok(d) = store.dir("markers") {
        removed += sweep_dir(&d, |_, _, idle| idle > DAY);
    }
    removed += sweep_pins(store);
    // The root holds the card caches and the trust store, written through
    // temps unique to their process (`.<name>.<pid>.tmp`): a process killed
    // mid-write leaves one.
    removed += sweep_dir(store.root(), |_, name, idle| {
        name.starts_with('.') && name.ends_with(".tmp") && idle > Duration::from_secs(3600)
    });
    removed
}

/// Removes the pinned project roots (`super::pin`) of sessions that have
/// no state left (the session files are swept above), not in their first
/// hour, and anything in their folder that is not a regular file.
fn sweep_pins(store: &Store) -> usize {
    let Ok(pins) = std::fs::read_dir(store.root().join(super::pin::DIR)) else {
        return 0;
    };
    let live: std::collections::BTreeSet<String> = store
        .dir("sessions")
        .ok()
        .and_then(|d| std::fs::read_dir(d).ok())
        .into_iter()
        .flatten()
        .flatten()
        .take(MAX_ENTRIES)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.split_once('@').map(|(part, _)| part.to_string())
        })
        .collect();
    let mut removed = 0;
    for e in pins.flatten().take(MAX_ENTRIES) {
        let name = e.file_name().to_string_lossy().into_owned();
        let is_file = e.file_type().is_ok_and(|t| t.is_file());
        // A pin made a moment ago may precede its session's first save.
        let old = e
            .metadata()
            .ok()
            .and_then(|m| idle(&m, SystemTime::now()))
            .is_some_and(|i| i > Duration::from_secs(3600));
        if old && (!is_file || !live.contains(&name)) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// How long ago `path` was modified (`None` when it cannot be told).
fn idle_of(path: &Path, now: SystemTime) -> Option<Duration> {
    idle(&std::fs::symlink_metadata(path).ok()?, now)
}

/// How long before `now` a file with metadata `m` was modified.
fn idle(m: &std::fs::Metadata, now: SystemTime) -> Option<Duration> {
    now.duration_since(m.modified().ok()?).ok()
}

fn sweep_dir(dir: &Path, stale: impl Fn(&Path, &str, Duration) -> bool) -> usize {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return 0;
    };
    let now = SystemTime::now();
    let mut removed = 0;
    for e in rd.flatten().take(MAX_ENTRIES) {
        let Ok(m) = e.metadata() else { continue };
        if !m.is_file() {
            continue;
        }
        let idle = idle(&m, now).unwrap_or_default();
        let name = e.file_name().to_string_lossy().into_owned();
        if stale(&e.path(), &name, idle) && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    /// Sets an entry's own mtime (a link's, never its target's) to long ago.
    fn age_link(p: &Path) {
        let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
        let t = libc::timespec {
            tv_sec: 1_000_000_000,
            tv_nsec: 0,
        };
        // SAFETY: a valid C string and two timespecs.
        let r = unsafe {
            libc::utimensat(
                libc::AT_FDCWD,
                c.as_ptr(),
                [t, t].as_ptr(),
                libc::AT_SYMLINK_NOFOLLOW,
            )
        };
        assert_eq!(r, 0);
    }

    #[test]
    fn pins_go_with_their_sessions() {
        let t = tempfile::tempdir().unwrap();
        let s = Store::at(&t.path().join("state")).unwrap();
        let pins = s.dir(super::super::pin::DIR).unwrap();
        let sessions = s.dir("sessions").unwrap();
        for part in ["s-live", "s-gone", "s-new"] {
            std::fs::write(pins.join(part), "/w/p").unwrap();
        }
        std::fs::write(sessions.join("s-live@0123456789ab.json"), "{}").unwrap();
        age_link(&pins.join("s-live"));
        age_link(&pins.join("s-gone"));
        assert_eq!(sweep_pins(&s), 1);
        assert!(pins.join("s-live").symlink_metadata().is_ok());
        assert!(pins.join("s-gone").symlink_metadata().is_err());
        assert!(
            pins.join("s-new").symlink_metadata().is_ok(),
            "a fresh pin may precede its session's first save"
        );
    }
}
