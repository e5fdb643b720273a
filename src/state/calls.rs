//! The session's append-only call log, `<key>.log` beside its record: one
//! JSON line per call (its event, its time, what it injected), written with
//! one `O_APPEND` write and never read on the hook path. The call counters
//! and the ledger that `cuecard status` shows are folded from it. A call
//! that changes nothing else so writes one short line instead of
//! re-serialising and renaming the whole state.
//!
//! Bounded: once the log passes [`MAX_LOG_BYTES`], the call that finds it so
//! (under the session's lock) folds it into one `base` line, which keeps the
//! totals and the last [`super::ledger::MAX_ENTRIES`] entries, and replaces
//! it atomically. A line that does not parse (a torn write after a power
//! loss) is skipped.

use super::ledger::{self, Ledger};
use super::{Session, atomic};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The size past which the log is folded into one line.
pub const MAX_LOG_BYTES: u64 = 64 * 1024;

/// What the log folds to.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Totals {
    #[serde(default)]
    pub calls: u64,
    #[serde(default)]
    pub events: BTreeMap<String, u64>,
    #[serde(default)]
    pub ledger: Ledger,
    /// Unix seconds of the last call.
    #[serde(default)]
    pub last: u64,
}

impl Totals {
    /// Adds `later` (what came after these totals).
    pub fn absorb(&mut self, later: Totals) {
        self.calls += later.calls;
        for (e, n) in later.events {
            *self.events.entry(e).or_insert(0) += n;
        }
        self.ledger.absorb(later.ledger);
        self.last = self.last.max(later.last);
    }

    /// A session's counters and ledger, taken out of it.
    pub fn take(s: &mut Session) -> Totals {
        Totals {
            calls: std::mem::take(&mut s.calls),
            events: std::mem::take(&mut s.events),
            ledger: std::mem::take(&mut s.ledger),
            last: s.updated,
        }
    }

    /// Puts these counters and ledger into a session.
    pub fn put(self, s: &mut Session) {
        s.calls = self.calls;
        s.events = self.events;
        s.ledger = self.ledger;
        s.updated = s.updated.max(self.last);
    }
}

/// One line of the log.
#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
enum Line {
    /// Earlier calls, folded.
    Base { base: Totals },
    /// One call: its event, its time, what it injected.
    Call {
        e: String,
        t: u64,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        i: Vec<ledger::LedgerEntry>,
    },
}

/// Where a session's log lives, beside its record.
pub fn log_path(record: &Path) -> PathBuf {
    record.with_extension("log")
}

/// Appends `call` (the counters and ledger entries of this call only: the
/// record loads without them) to the log, folding the log first when it is
/// over its bound. With `fresh`, the log is replaced by this call's line.
pub fn append(record: &Path, call: &Totals, now: u64, fresh: bool) -> std::io::Result<()> {
    let path = log_path(record);
    let mut lines = Vec::new();
    for (event, n) in &call.events {
        for _ in 0..*n {
            let line = Line::Call {
                e: event.clone(),
                t: now,
                i: if lines.is_empty() {
                    call.ledger.entries.clone()
                } else {
                    Vec::new()
                },
            };
            serde_json::to_writer(&mut lines, &line).map_err(std::io::Error::other)?;
            lines.push(b'\n');
        }
    }
    if lines.is_empty() {
        return Ok(());
    }
    if fresh {
        return atomic::write_with(&path, &lines, false);
    }
    let (mut f, meta) = crate::fsutil::open_private_append(&path)?;
    if meta.len() > MAX_LOG_BYTES {
        drop(f);
        let mut totals = read(&path);
        fold_call_bytes(&mut totals, &lines);
        let mut text =
            serde_json::to_vec(&Line::Base { base: totals }).map_err(std::io::Error::other)?;
        text.push(b'\n');
        return atomic::write_with(&path, &text, false);
    }
    // One write: a line is never interleaved with another writer's (the
    // session's lock serialises them anyway) and never half there after a
    // killed process.
    f.write_all(&lines)
}

/// Starts the log with `base` (the counters a record from before the log
/// held), keeping any lines already there after it.
pub fn write_base(record: &Path, base: Totals) -> std::io::Result<()> {
    let path = log_path(record);
    let mut totals = base;
    totals.absorb(read(&path));
    let mut text =
        serde_json::to_vec(&Line::Base { base: totals }).map_err(std::io::Error::other)?;
    text.push(b'\n');
    atomic::write_with(&path, &text, false)
}

/// The log's totals (empty when there is none or it cannot be read).
pub fn read(path: &Path) -> Totals {
    let bytes = match crate::fsutil::open_private_read(path) {
        Ok(Some((f, _))) => match crate::fsutil::read_capped(f, 4 * MAX_LOG_BYTES) {
            Ok((b, _)) => b,
            Err(_) => return Totals::default(),
        },
        _ => return Totals::default(),
    };
    let mut t = Totals::default();
    fold_call_bytes(&mut t, &bytes);
    t
}

fn fold_call_bytes(t: &mut Totals, bytes: &[u8]) {
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        match serde_json::from_slice::<Line>(line) {
            Ok(Line::Base { base }) => *t = base,
            Ok(Line::Call { e, t: time, i }) => {
                t.calls += 1;
                *t.events.entry(crate::text::sanitize(&e, 40)).or_insert(0) += 1;
                t.last = t.last.max(time);
                for entry in i {
                    t.ledger.add(entry);
                }
            }
            Err(_) => {}
        }
    }
}

/// A session's record with its log folded in (for `status`).
pub fn with_totals(mut s: Session, record: &Path) -> Session {
    let mut t = Totals::take(&mut s);
    t.absorb(read(&log_path(record)));
    t.put(&mut s);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(event: &str, injected: usize) -> Totals {
        let mut t = Totals {
            calls: 1,
            events: BTreeMap::from([(event.to_string(), 1)]),
            ..Totals::default()
        };
        for _ in 0..injected {
            t.ledger
                .record(1, event, "card", ledger::LedgerKind::Card, "some advice");
        }
        t
    }

    #[test]
    fn the_log_folds_to_its_calls_and_stays_bounded() {
        let t = tempfile::tempdir().unwrap();
        let record = t.path().join("s.json");
        append(&record, &call("SessionStart", 1), 10, true).unwrap();
        for i in 0..3_000 {
            append(&record, &call("PreToolUse", i % 2), 11 + i as u64, false).unwrap();
        }
        let size = std::fs::metadata(log_path(&record)).unwrap().len();
        assert!(size <= MAX_LOG_BYTES + 4 * 1024, "bounded: {size} bytes");
        let totals = read(&log_path(&record));
        assert_eq!(totals.calls, 3_001);
        assert_eq!(totals.events["PreToolUse"], 3_000);
        assert_eq!(totals.events["SessionStart"], 1);
        assert_eq!(totals.ledger.injections, 1 + 1_500);
        assert_eq!(totals.ledger.entries.len(), ledger::MAX_ENTRIES);
        assert_eq!(totals.last, 3_010);
    }

    #[test]
    fn a_torn_line_is_skipped_and_a_fresh_session_starts_its_log_anew() {
        let t = tempfile::tempdir().unwrap();
        let record = t.path().join("s.json");
        append(&record, &call("PreToolUse", 0), 1, true).unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(log_path(&record))
            .unwrap();
        f.write_all(b"{\"e\":\"PreTo").unwrap();
        drop(f);
        append(&record, &call("PostToolUse", 0), 2, false).unwrap();
        // The torn line swallowed the next one's start: both are skipped,
        // nothing else is lost.
        assert_eq!(read(&log_path(&record)).calls, 1);
        append(&record, &call("Stop", 0), 3, true).unwrap();
        let totals = read(&log_path(&record));
        assert_eq!((totals.calls, totals.events.len()), (1, 1));
    }
}
