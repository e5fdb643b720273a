//! The store: a checked root, and one locked, atomically written JSON file
//! per (project, session). A corrupt file is reset and recorded, never fatal.

use super::{Session, VERSION, atomic, key::SessionKey, lock, root};
use crate::diag::{self, Kind};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// State files larger than this are treated as corrupt (a session's state is
/// a few kilobytes; the ledger and key lists are bounded).
pub const MAX_STATE_BYTES: u64 = 1 << 20;

/// A usable state root.
#[derive(Debug, Clone)]
pub struct Store {
    root: PathBuf,
}

impl Store {
    /// The configured root, created or checked (see [`root`]).
    pub fn open() -> Result<Store, root::Refused> {
        let dir = root::candidate().ok_or(root::Refused::NoCandidate)?;
        Store::at(&dir)
    }

    /// A given directory as a root, created or checked.
    pub fn at(dir: &Path) -> Result<Store, root::Refused> {
        root::prepare(dir).map(|root| Store { root })
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// `<root>/<name>/`, created 0700.
    pub fn dir(&self, name: &str) -> std::io::Result<PathBuf> {
        root::subdir(&self.root, name)
    }

    /// Where a session's state lives.
    pub fn session_path(&self, key: &SessionKey) -> std::io::Result<PathBuf> {
        Ok(self.dir("sessions")?.join(format!("{}.json", key.file)))
    }

    /// Locks the session (waiting at most `wait`) and loads its state.
    /// `Ok(None)`: the lock stayed busy (the call runs stateless).
    pub fn lock_session(
        &self,
        key: &SessionKey,
        project: &Path,
        wait: Duration,
    ) -> std::io::Result<Option<Locked>> {
        let path = self.session_path(key)?;
        let Some(held) = lock::acquire(&path.with_extension("lock"), wait)? else {
            return Ok(None);
        };
        let (mut session, loaded) = load_record(&path);
        // A record from before the call log keeps its counters and ledger
        // in itself: they move to the log with this call's line.
        let legacy = take_counters(&mut session);
        if session.version == 0 {
            session.version = VERSION;
            session.created = super::now();
            session.id = key.display.clone();
            session.project = crate::text::sanitize(&project.to_string_lossy(), 300);
        }
        if let Err(r) = session.compaction.validate() {
            diag::record(Kind::StateCorrupt, r.to_string());
        }
        Ok(Some(Locked {
            path,
            session,
            loaded,
            legacy,
            fresh: false,
            _held: held,
        }))
    }
}

/// The counters and ledger a record holds (only a record written before the
/// call log does), taken out of it.
fn take_counters(s: &mut Session) -> Option<super::calls::Totals> {
    if s.calls == 0 && s.events.is_empty() && s.ledger == super::Ledger::default() {
        return None;
    }
    Some(super::calls::Totals::take(s))
}

/// Reads a state file, with the bytes it read (empty when it read none, or
/// they were reset): missing is a fresh session; unreadable, oversized or
/// unparseable is recorded and reset. A record serialising to the same
/// bytes is not written again.
fn load_record(path: &Path) -> (Session, Vec<u8>) {
    match read_bounded(path) {
        Ok(None) => (Session::default(), Vec::new()),
        Ok(Some(bytes)) => match parse(&bytes) {
            Ok(s) => (s, bytes),
            Err(e) => {
                diag::record(
                    Kind::StateCorrupt,
                    format!(
                        "session state unparseable (line {}, column {}): reset",
                        e.line(),
                        e.column()
                    ),
                );
                (Session::default(), Vec::new())
            }
        },
        Err(why) => {
            diag::record(Kind::StateCorrupt, format!("session state {why}: reset"));
            (Session::default(), Vec::new())
        }
    }
}

/// A state file is one JSON object (serde would also take an array).
fn parse(bytes: &[u8]) -> serde_json::Result<Session> {
    let first = bytes.iter().find(|b| !b.is_ascii_whitespace());
    if first.is_some_and(|b| *b != b'{') {
        return Err(serde::de::Error::custom("not a JSON object"));
    }
    serde_json::from_slice(bytes)
}

/// The file's bytes, `None` when it does not exist.
pub fn read_bounded(path: &Path) -> Result<Option<Vec<u8>>, String> {
    use std::io::Read;
    // Never through a link, never waiting on a FIFO, only this user's
    // regular file: anything else is corrupt state (reset, and replaced by
    // the next write's rename).
    let (f, meta) = match crate::fsutil::open_private_read(path) {
        Ok(Some((f, meta))) => (f, meta),
        Ok(None) => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::InvalidInput => {
            return Err("not a private regular file".into());
        }
        Err(e) => return Err(format!("unreadable ({})", e.kind())),
    };
    // The file is replaced by rename, never written in place: its size is
    // its content's, so one read of that size (and one byte more, which a
    // file grown meanwhile would fill) takes it whole.
    let len = meta.len();
    if len > MAX_STATE_BYTES {
        return Err("over the size bound".into());
    }
    let mut buf = vec![0u8; len as usize + 1];
    let mut n = 0;
    let mut f = f.take(MAX_STATE_BYTES + 1);
    loop {
        match f.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => {
                n += k;
                if n >= len as usize {
                    if n < buf.len() {
                        break;
                    }
                    if buf.len() as u64 > MAX_STATE_BYTES {
                        return Err("over the size bound".into());
                    }
                    buf.resize(buf.len() * 2, 0);
                }
            }
            Err(e) => return Err(format!("unreadable ({})", e.kind())),
        }
    }
    buf.truncate(n);
    Ok(Some(buf))
}

/// A session's state, loaded under its lock. Dropping it releases the lock.
/// Its counters and ledger start empty: they hold this call's only, and go
/// to the call log (see [`super::calls`]).
#[derive(Debug)]
pub struct Locked {
    path: PathBuf,
    pub session: Session,
    /// The record's bytes as read.
    loaded: Vec<u8>,
    /// Counters a record from before the call log held.
    legacy: Option<super::calls::Totals>,
    /// Whether the session starts with this call (its log starts anew).
    fresh: bool,
    _held: lock::Held,
}

impl Locked {
    /// Writes the state atomically (temp, rename). `durable` adds an fsync
    /// before the rename: the dispatcher asks for it when the call injected
    /// something (a once-per-session key spent, a warning level raised, a
    /// repeat key or ledger entry added), so those promises survive a power
    /// loss. Calls that only move bookkeeping (call counters, the last
    /// measured size) skip the sync: it would cost more than the whole call,
    /// and a process killed mid-write leaves the previous state either way.
    ///
    /// The record (everything but the counters and the ledger) is written
    /// only when it changed; the call itself is one line appended to the
    /// call log.
    pub fn save(&mut self, durable: bool) -> std::io::Result<()> {
        // The record is the session without this call's counters, ledger
        // and time: they are taken out for the writes, not copied, and put
        // back whatever the writes gave.
        let call = super::calls::Totals::take(&mut self.session);
        let updated = std::mem::take(&mut self.session.updated);
        let saved = self.write(&call, durable);
        self.session.updated = updated;
        call.put(&mut self.session);
        saved
    }

    fn write(&mut self, call: &super::calls::Totals, durable: bool) -> std::io::Result<()> {
        let bytes = serde_json::to_vec(&self.session).map_err(std::io::Error::other)?;
        self.fresh |= self.loaded.is_empty();
        if bytes != self.loaded {
            atomic::write_with(&self.path, &bytes, durable)?;
            self.loaded = bytes;
        }
        if let Some(base) = self.legacy.take() {
            super::calls::write_base(&self.path, base)?;
        }
        // A session that starts here (no record, or one reset as corrupt)
        // starts its log too: what a log held for it is not its history.
        let fresh = std::mem::replace(&mut self.fresh, false);
        let known = super::calls::Known {
            tokens: self.session.compaction.last_tokens,
            cycle: self.session.compaction.number,
        };
        super::calls::append(&self.path, call, known, super::now(), fresh)
    }
}

/// Every session's state under the root, without locking (for `status`).
pub fn list(store: &Store, limit: usize) -> Vec<(PathBuf, Session)> {
    let Ok(dir) = store.dir("sessions") else {
        return Vec::new();
    };
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in rd.flatten().take(limit) {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "json")
            && !e.file_name().to_string_lossy().starts_with('.')
            && let Ok(Some(bytes)) = read_bounded(&p)
            && let Ok(s) = parse(&bytes)
        {
            let s = super::calls::with_totals(s, &p);
            out.push((p, s));
        }
    }
    out
}

/// The state root for commands run by a person that only read it
/// (install, verify, explain, policy, cards): the same resolution as the
/// hook path, but `None` while the folder does not exist, so that a
/// command that reads creates nothing (what would be read there, trust
/// records, is absent either way).
pub fn root_for_commands() -> Option<std::path::PathBuf> {
    let candidate = super::root::candidate()?;
    if std::fs::symlink_metadata(&candidate).is_err() {
        return None;
    }
    root_for_writing()
}

/// The state root for a command that writes there (`trust`), created
/// when missing.
pub fn root_for_writing() -> Option<std::path::PathBuf> {
    Store::open().ok().map(|s| s.root().to_path_buf())
}
