//! A small generic marker: "has this happened within the last `d`?"
//!
//! Used for "SessionStart once within ten seconds per session and source"
//! (harnesses that run Claude Code's hook files as well as their own would
//! otherwise start a session twice). The key is any string; it is turned
//! into a safe file name (see [`super::key::marker_name`]).

use super::{Store, key, lock};
use std::io::{Read, Seek, Write};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// How long `first_within` waits for another process marking the same key.
const WAIT: Duration = Duration::from_millis(200);

/// True the first time `key` is marked within `window`: it marks `key` and
/// returns true when no mark younger than `window` exists, false otherwise.
/// Concurrent callers serialise on the marker's lock, so exactly one of them
/// gets true. On any I/O trouble it returns true (fail open: the caller then
/// behaves as if there were no state).
pub fn first_within(store: &Store, key: &str, window: Duration) -> bool {
    mark(store, key, window).unwrap_or(true)
}

fn now_ms() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis())
}

fn mark(store: &Store, key: &str, window: Duration) -> Option<bool> {
    let dir = store.dir("markers").ok()?;
    let path = dir.join(key::marker_name(key));
    let held = lock::acquire(&path, WAIT).ok()??;
    // The lock file is the marker: it holds the time of the last mark (ms).
    let mut f = held.file();
    let mut text = String::new();
    let _ = (&mut f).take(64).read_to_string(&mut text);
    let now = now_ms();
    if let Ok(then) = text.trim().parse::<u128>()
        && now >= then
        && now - then < window.as_millis()
    {
        return Some(false);
    }
    f.set_len(0).ok()?;
    f.rewind().ok()?;
    f.write_all(now.to_string().as_bytes()).ok()?;
    Some(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn once_within_the_window_per_key() {
        let t = tempfile::tempdir().unwrap();
        let s = Store::at(&t.path().join("state")).unwrap();
        let w = Duration::from_secs(10);
        assert!(first_within(&s, "SessionStart:abc:startup", w));
        assert!(!first_within(&s, "SessionStart:abc:startup", w));
        assert!(first_within(&s, "SessionStart:abc:resume", w));
        assert!(first_within(&s, "../../etc/passwd", w));
        assert!(!first_within(&s, "../../etc/passwd", w));
        assert!(first_within(&s, "x", Duration::ZERO));
        assert!(
            first_within(&s, "x", Duration::ZERO),
            "a zero window never holds"
        );
    }

    #[test]
    fn concurrent_callers_get_exactly_one_true() {
        let t = tempfile::tempdir().unwrap();
        let s = Store::at(&t.path().join("state")).unwrap();
        let hits: usize = std::thread::scope(|sc| {
            let hs: Vec<_> = (0..8)
                .map(|_| sc.spawn(|| first_within(&s, "k", Duration::from_secs(10))))
                .collect();
            hs.into_iter().map(|h| usize::from(h.join().unwrap())).sum()
        });
        assert_eq!(hits, 1);
    }
}
