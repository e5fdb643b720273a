//! The failure record: every failure `diag` collected on the hook path, kept
//! under the state root (bounded, never payload contents), so that failing
//! open is never silent: the next SessionStart tells the user once, briefly,
//! and `cuecard status` lists them.

use super::{Store, atomic, lock, store::read_bounded};
use crate::diag::{Failure, Kind};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Entries kept (oldest dropped first).
pub const MAX_ENTRIES: usize = 200;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Record {
    /// The sequence number of the next entry.
    #[serde(default)]
    pub next: u64,
    /// Entries with a sequence number below this were told to the user.
    #[serde(default)]
    pub reported: u64,
    #[serde(default)]
    pub entries: Vec<RecordedFailure>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct RecordedFailure {
    pub seq: u64,
    /// Unix seconds.
    pub time: u64,
    /// The event of the call (sanitised), or `?`.
    pub event: String,
    /// The session key part (`s-…`, `h-…`, `n-…`) or empty.
    pub session: String,
    pub kind: Kind,
    pub detail: String,
}

impl Record {
    pub fn unreported(&self) -> impl Iterator<Item = &RecordedFailure> {
        self.entries.iter().filter(|e| e.seq >= self.reported)
    }
}

fn path(store: &Store) -> std::path::PathBuf {
    store.root().join("failures.json")
}

/// Reads the record (an unreadable one reads as empty).
pub fn load(store: &Store) -> Record {
    read_bounded(&path(store))
        .ok()
        .flatten()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Updates the record under its lock, waiting at most `wait`.
pub fn update(store: &Store, wait: Duration, f: impl FnOnce(&mut Record)) -> bool {
    let p = path(store);
    let Ok(Some(_held)) = lock::acquire(&p.with_extension("lock"), wait) else {
        return false;
    };
    let mut r = load(store);
    f(&mut r);
    serde_json::to_vec(&r)
        .ok()
        .is_some_and(|b| atomic::write(&p, &b).is_ok())
}

/// Appends the failures of one call.
pub fn append(
    store: &Store,
    event: &str,
    session: &str,
    failures: &[Failure],
    wait: Duration,
) -> bool {
    if failures.is_empty() {
        return true;
    }
    let time = super::now();
    update(store, wait, |r| {
        for f in failures {
            r.entries.push(RecordedFailure {
                seq: r.next,
                time,
                event: crate::text::sanitize(event, 40),
                session: crate::text::sanitize(session, 80),
                kind: f.kind,
                detail: f.detail.clone(),
            });
            r.next += 1;
        }
        if r.entries.len() > MAX_ENTRIES {
            let extra = r.entries.len() - MAX_ENTRIES;
            r.entries.drain(..extra);
        }
    })
}

/// Folds the deadline lines the timer signal's handler appended (see
/// [`crate::deadline`]) into the record: one entry each. The pending file is
/// first moved aside (atomically), so a line appended meanwhile starts a new
/// one instead of being lost.
/// Returns the entries folded (empty when there was nothing, or the record
/// could not be written).
pub fn fold_pending(store: &Store, wait: Duration) -> Vec<RecordedFailure> {
    let pending = store.root().join(crate::deadline::PENDING_FILE);
    // One `lstat` when there is nothing to fold (the usual case).
    if std::fs::symlink_metadata(&pending).is_err() {
        return Vec::new();
    }
    let taken = store.root().join(format!(
        ".{}.{}",
        crate::deadline::PENDING_FILE,
        std::process::id()
    ));
    if std::fs::rename(&pending, &taken).is_err() {
        return Vec::new();
    }
    let text = match read_bounded(&taken) {
        Ok(Some(b)) => String::from_utf8_lossy(&b).into_owned(),
        // Not a private regular file (a link, a FIFO): dropped unread.
        _ => String::new(),
    };
    let _ = std::fs::remove_file(&taken);
    let lines: Vec<(u64, String, String)> = text
        .lines()
        .filter_map(|l| {
            let mut f = l.splitn(3, '\t');
            let time = f.next()?.parse().ok()?;
            Some((
                time,
                f.next()?.to_string(),
                f.next().unwrap_or("").to_string(),
            ))
        })
        .collect();
    if lines.is_empty() {
        return Vec::new();
    }
    let mut folded = Vec::new();
    let written = update(store, wait, |r| {
        for (time, event, session) in lines {
            let entry = RecordedFailure {
                seq: r.next,
                time,
                event: crate::text::sanitize(&event, 40),
                session: crate::text::sanitize(&session, 80),
                kind: Kind::Deadline,
                detail: "the deadline passed before an answer was ready".into(),
            };
            folded.push(entry.clone());
            r.entries.push(entry);
            r.next += 1;
        }
        if r.entries.len() > MAX_ENTRIES {
            let extra = r.entries.len() - MAX_ENTRIES;
            r.entries.drain(..extra);
        }
    });
    if written { folded } else { Vec::new() }
}

/// The one-line note for the user about failures not yet told, if any.
pub fn unreported_note(r: &Record) -> Option<String> {
    let fresh: Vec<&RecordedFailure> = r.unreported().collect();
    let last = fresh.last()?;
    Some(format!(
        "cuecard: {} since the last session start (latest: {}); it failed open. Details: run cuecard status.",
        crate::text::count(fresh.len(), "hook failure", "hook failures"),
        kind_name(last.kind),
    ))
}

/// Marks everything up to `upto` (exclusive) as told.
pub fn mark_reported(store: &Store, upto: u64) -> bool {
    update(store, Duration::from_millis(100), |r| {
        r.reported = r.reported.max(upto);
    })
}

pub fn kind_name(k: Kind) -> String {
    serde_json::to_value(k)
        .ok()
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_else(|| format!("{k:?}"))
}
