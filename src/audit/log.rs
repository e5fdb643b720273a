//! The audit log on disk: `<state root>/audit/`, `log.jsonl` (the current
//! file), `log.1.jsonl` … (rotated, oldest highest), and `head`, which is
//! both the lock that serialises writers and the chain's anchor: the
//! sequence number and hash of the last record written, and of the last
//! record rotated away (so `verify` sees a removed tail or a removed old
//! file).
//!
//! Every file is opened without following a link and without waiting on a
//! FIFO, and only as this user's regular file with one link (`fsutil`); the
//! records of one call are appended with one `O_APPEND` write, whole lines
//! only; the log is rotated (renamed) before a write would take it past its
//! size, and the oldest file beyond the count is removed.

use super::record::{self, Call, Entry, GENESIS, Link};
use super::settings::{FILES_RANGE, Settings};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The audit directory under a state root.
pub fn dir(root: &Path) -> PathBuf {
    root.join("audit")
}

/// The current file.
pub const CURRENT: &str = "log.jsonl";
/// The head (lock and anchor).
pub const HEAD: &str = "head";

/// The `n`th rotated file (1: the newest rotated).
pub fn rotated(n: u32) -> String {
    format!("log.{n}.jsonl")
}

/// The most of a log file that is read (verify, export, a tail).
pub const MAX_READ: u64 = 80 << 20;

/// The chain's anchor, kept in [`HEAD`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Head {
    /// The last record written (0: none yet) and its hash.
    pub seq: u64,
    pub hash: String,
    /// The newest record rotated away (0: none) and its hash: the oldest
    /// record kept must follow it.
    pub dropped: u64,
    pub dropped_hash: String,
    /// The current file's size after the last write: a head that
    /// disagrees (a call killed between its append and the head's write)
    /// is rebuilt from the log before the next append.
    pub size: u64,
}

impl Default for Head {
    fn default() -> Self {
        Head {
            seq: 0,
            hash: GENESIS.into(),
            dropped: 0,
            dropped_hash: GENESIS.into(),
            size: 0,
        }
    }
}

impl Head {
    /// Its fixed-width text (so a rewrite in place never leaves a tail).
    fn text(&self) -> String {
        format!(
            "cuecard-audit-head 1 {:020} {} {:020} {} {:020}\n",
            self.seq, self.hash, self.dropped, self.dropped_hash, self.size
        )
    }

    /// Reads the text back; `None` for anything else.
    pub fn parse(text: &str) -> Option<Head> {
        let mut w = text.split_whitespace();
        if w.next()? != "cuecard-audit-head" || w.next()? != "1" {
            return None;
        }
        let hex = |s: &str| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
        let seq = w.next()?.parse().ok()?;
        let hash = w.next().filter(|h| hex(h))?.to_string();
        let dropped = w.next()?.parse().ok()?;
        let dropped_hash = w.next().filter(|h| hex(h))?.to_string();
        let size = w.next()?.parse().ok()?;
        Some(Head {
            seq,
            hash,
            dropped,
            dropped_hash,
            size,
        })
    }
}

/// The head as its file holds it (`None`: empty or not a head).
pub fn read_head(f: &std::fs::File) -> Option<Head> {
    let mut buf = [0u8; 256];
    let n = read_at(f, &mut buf).ok()?;
    Head::parse(std::str::from_utf8(&buf[..n]).ok()?)
}

#[cfg(unix)]
fn read_at(f: &std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(f, buf, 0)
}

#[cfg(not(unix))]
fn read_at(mut f: &std::fs::File, buf: &mut [u8]) -> std::io::Result<usize> {
    f.seek(SeekFrom::Start(0))?;
    f.read(buf)
}

fn write_head(f: &std::fs::File, head: &Head) -> std::io::Result<()> {
    let text = head.text();
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::write_all_at(f, text.as_bytes(), 0)
    }
    #[cfg(not(unix))]
    {
        let mut f = f;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(text.as_bytes())
    }
}

/// One thing to record: the call, what happened, and when (Unix ns;
/// `None`: now).
pub type Item = (Call, Entry, Option<u128>);

/// Unix nanoseconds now.
pub fn now_ns() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// Why an append did not happen.
#[derive(Debug)]
pub enum AppendError {
    /// Another writer held the log past the wait.
    Busy,
    Io(std::io::Error),
}

impl std::fmt::Display for AppendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppendError::Busy => f.write_str("the audit log's lock stayed busy"),
            AppendError::Io(e) => write!(f, "the audit log could not be written ({})", e.kind()),
        }
    }
}

impl From<std::io::Error> for AppendError {
    fn from(e: std::io::Error) -> Self {
        AppendError::Io(e)
    }
}

/// Appends `items` to the audit log under `root`, one line each, chained,
/// in one write; rotates first when the write would take the current file
/// past `settings.max_file_bytes`. Waits at most `wait` for the lock.
pub fn append(
    root: &Path,
    settings: &Settings,
    items: &[Item],
    wait: Duration,
) -> Result<usize, AppendError> {
    if items.is_empty() {
        return Ok(0);
    }
    let dir = crate::state::root::subdir(root, "audit")?;
    let Some(held) = crate::state::lock::acquire(&dir.join(HEAD), wait)? else {
        return Err(AppendError::Busy);
    };
    let current = dir.join(CURRENT);
    let (mut f, meta) = crate::fsutil::open_private_append(&current)?;
    // The head; when the current file is not the size it left it, only
    // records that follow it in the chain (a call killed between its append
    // and the head's write) are taken in: a file cut short or edited keeps
    // the head as it was, so that `verify` still sees what is missing.
    let mut head = match read_head(held.file()) {
        Some(h) if h.size == meta.len() => h,
        Some(h) => catch_up(&current, h, meta.len()),
        None => recover(&dir),
    };
    let before = head.clone();
    let host = record::host_name();
    let observed = now_ns();
    let mut bytes = Vec::new();
    for (call, entry, time) in items {
        let link = Link {
            seq: head.seq + 1,
            prev: head.hash.clone(),
        };
        let line = record::line(
            call,
            entry,
            time.unwrap_or(observed),
            observed,
            &host,
            &link,
        );
        head.seq = link.seq;
        head.hash = record::digest(line.as_bytes());
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
    }
    head.size = meta.len() + bytes.len() as u64;
    if meta.len() > 0 && head.size > settings.max_file_bytes {
        drop(f);
        rotate(&dir, settings.max_files, &before, &mut head)?;
        f = crate::fsutil::open_private_append(&current)?.0;
        head.size = bytes.len() as u64;
    }
    // One write: whole lines, never interleaved (the lock serialises
    // writers anyway), never half there after a killed process.
    f.write_all(&bytes)?;
    write_head(held.file(), &head)?;
    Ok(items.len())
}

/// Moves the current file to `log.1.jsonl` (and each rotated file one
/// up), removing what falls past `max_files`; the newest record removed is
/// noted in the head. `before`: the head before this write (the last
/// record of the current file).
fn rotate(dir: &Path, max_files: u32, before: &Head, head: &mut Head) -> std::io::Result<()> {
    let keep_rotated = max_files.saturating_sub(1);
    // The newest record removed: the last of the lowest-numbered rotated
    // file removed (the loop ends on it), or the current file's last when
    // no rotated file is kept.
    let mut dropped: Option<(u64, String)> = None;
    for n in (keep_rotated.max(1)..=FILES_RANGE.1).rev() {
        let p = dir.join(rotated(n));
        if std::fs::symlink_metadata(&p).is_err() {
            continue;
        }
        if let Some((link, hash)) = last_record(&p) {
            dropped = Some((link.seq, hash));
        }
        std::fs::remove_file(&p)?;
    }
    if keep_rotated == 0 {
        dropped = Some((before.seq, before.hash.clone()));
        std::fs::remove_file(dir.join(CURRENT))?;
    } else {
        for n in (1..keep_rotated).rev() {
            let from = dir.join(rotated(n));
            if std::fs::symlink_metadata(&from).is_ok() {
                std::fs::rename(&from, dir.join(rotated(n + 1)))?;
            }
        }
        std::fs::rename(dir.join(CURRENT), dir.join(rotated(1)))?;
    }
    if let Some((seq, hash)) = dropped {
        head.dropped = seq;
        head.dropped_hash = hash;
    }
    Ok(())
}

/// The files that exist, oldest first (the current one last).
pub fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = (1..=FILES_RANGE.1)
        .rev()
        .map(|n| dir.join(rotated(n)))
        .filter(|p| std::fs::symlink_metadata(p).is_ok())
        .collect();
    let current = dir.join(CURRENT);
    if std::fs::symlink_metadata(&current).is_ok() {
        out.push(current);
    }
    out
}

/// A log file's bytes (bounded), never through a link.
pub fn read(path: &Path) -> std::io::Result<Vec<u8>> {
    let Some((f, meta)) = crate::fsutil::open_private_read(path)? else {
        return Ok(Vec::new());
    };
    let mut b = Vec::with_capacity(meta.len().min(MAX_READ) as usize);
    f.take(MAX_READ).read_to_end(&mut b)?;
    Ok(b)
}

/// The last record of a file (its link and hash), read from its tail.
fn last_record(path: &Path) -> Option<(Link, String)> {
    let (mut f, meta) = crate::fsutil::open_private_read(path).ok()??;
    let start = meta.len().saturating_sub(64 * 1024);
    f.seek(SeekFrom::Start(start)).ok()?;
    let mut b = Vec::new();
    f.take(64 * 1024).read_to_end(&mut b).ok()?;
    let line = b.split(|&c| c == b'\n').rfind(|l| !l.is_empty())?;
    let link = record::link_of(std::str::from_utf8(line).ok()?)?;
    Some((link, record::digest(line)))
}

/// The head moved past the records written after it that follow it in the
/// chain (`len`: the current file's size now); anything else leaves it as
/// it was (with the size now, so the file is not read again).
fn catch_up(current: &Path, mut head: Head, len: u64) -> Head {
    let tail = (|| {
        if len <= head.size || len - head.size > 1 << 20 {
            return None;
        }
        let (mut f, _) = crate::fsutil::open_private_read(current).ok()??;
        f.seek(SeekFrom::Start(head.size)).ok()?;
        let mut b = Vec::new();
        f.take(len - head.size).read_to_end(&mut b).ok()?;
        Some(b)
    })();
    let mut next = head.clone();
    for line in tail.iter().flat_map(|b| b.split(|&c| c == b'\n')) {
        if line.is_empty() {
            continue;
        }
        let Some(link) = std::str::from_utf8(line).ok().and_then(record::link_of) else {
            break;
        };
        if link.seq != next.seq + 1 || link.prev != next.hash {
            break;
        }
        next.seq = link.seq;
        next.hash = record::digest(line);
    }
    if next.seq > head.seq {
        head = next;
    }
    head.size = len;
    head
}

/// The head rebuilt from the newest record on disk, for a head file that
/// is missing or unreadable (`verify` still compares what it finds).
fn recover(dir: &Path) -> Head {
    let mut head = Head::default();
    if let Some((link, hash)) = files(dir).iter().rev().find_map(|p| last_record(p)) {
        head.seq = link.seq;
        head.hash = hash;
    }
    head
}

/// Every record kept, oldest first, with the file it is in and its line
/// number there, read under the log's lock (waiting at most `wait`).
pub fn records(root: &Path, wait: Duration) -> Result<(Option<Head>, Vec<Stored>), AppendError> {
    let dir = dir(root);
    if std::fs::symlink_metadata(&dir).is_err() {
        return Ok((None, Vec::new()));
    }
    let Some(held) = crate::state::lock::acquire(&dir.join(HEAD), wait)? else {
        return Err(AppendError::Busy);
    };
    let head = read_head(held.file());
    let mut out = Vec::new();
    for p in files(&dir) {
        let bytes = read(&p)?;
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        for (i, line) in bytes.split(|&c| c == b'\n').enumerate() {
            if line.is_empty() {
                continue;
            }
            let text = String::from_utf8_lossy(line).into_owned();
            out.push(Stored {
                file: name.clone(),
                line: i + 1,
                link: record::link_of(&text),
                hash: record::digest(line),
                text,
            });
        }
    }
    Ok((head, out))
}

/// One line of the log as read back.
#[derive(Debug, Clone)]
pub struct Stored {
    pub file: String,
    /// 1-based.
    pub line: usize,
    /// `None`: not an audit record (edited beyond reading, or torn).
    pub link: Option<Link>,
    pub hash: String,
    pub text: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(i: usize) -> Item {
        (
            Call {
                harness: "claude-code".into(),
                event: "PreToolUse".into(),
                ..Call::default()
            },
            Entry::Failure {
                kind: "unknown-card".into(),
                detail: format!("unknown card {i} {}", "x".repeat(200)),
            },
            None,
        )
    }

    fn settings(files: u32) -> Settings {
        Settings {
            enabled: true,
            max_file_bytes: 16 * 1024,
            max_files: files,
        }
    }

    fn check(root: &Path) -> super::super::verify::Report {
        super::super::verify::verify(root).unwrap()
    }

    #[test]
    fn one_file_kept_still_chains_to_what_was_dropped() {
        let t = tempfile::tempdir().unwrap();
        for i in 0..60 {
            append(t.path(), &settings(1), &[item(i)], Duration::from_secs(1)).unwrap();
        }
        let names = files(&dir(t.path()));
        assert_eq!(names.len(), 1, "{names:?}");
        let r = check(t.path());
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert!(r.first.unwrap() > 1 && r.last == Some(60), "{r:?}");
    }

    #[test]
    fn a_lost_head_is_rebuilt_from_the_log_and_the_chain_goes_on() {
        let t = tempfile::tempdir().unwrap();
        let s = settings(3);
        append(t.path(), &s, &[item(0), item(1)], Duration::from_secs(1)).unwrap();
        std::fs::remove_file(dir(t.path()).join(HEAD)).unwrap();
        append(t.path(), &s, &[item(2)], Duration::from_secs(1)).unwrap();
        let r = check(t.path());
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!((r.first, r.last), (Some(1), Some(3)));
    }

    #[test]
    fn a_call_killed_before_the_head_was_written_does_not_fork_the_chain() {
        let t = tempfile::tempdir().unwrap();
        let s = settings(3);
        append(t.path(), &s, &[item(0)], Duration::from_secs(1)).unwrap();
        let head = std::fs::read(dir(t.path()).join(HEAD)).unwrap();
        append(t.path(), &s, &[item(1)], Duration::from_secs(1)).unwrap();
        // As if the second call died after its append, before the head.
        std::fs::write(dir(t.path()).join(HEAD), &head).unwrap();
        let r = check(t.path());
        assert!(r.problems[0].contains("killed"), "{:?}", r.problems);
        append(t.path(), &s, &[item(2)], Duration::from_secs(1)).unwrap();
        let r = check(t.path());
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(r.last, Some(3));
    }

    #[test]
    fn a_removed_last_record_stays_missing_after_the_next_append() {
        let t = tempfile::tempdir().unwrap();
        let s = settings(3);
        append(
            t.path(),
            &s,
            &[item(0), item(1), item(2)],
            Duration::from_secs(1),
        )
        .unwrap();
        let log = dir(t.path()).join(CURRENT);
        let text = std::fs::read_to_string(&log).unwrap();
        let kept: Vec<&str> = text.lines().take(2).collect();
        std::fs::write(&log, kept.join("\n") + "\n").unwrap();
        append(t.path(), &s, &[item(3)], Duration::from_secs(1)).unwrap();
        let r = check(t.path());
        assert_eq!(r.problems.len(), 1, "{:?}", r.problems);
        assert!(
            r.problems[0].contains("record 3 is missing"),
            "{:?}",
            r.problems
        );
    }

    #[test]
    fn the_head_reads_back() {
        let h = Head {
            seq: 42,
            hash: "a".repeat(64),
            dropped: 7,
            dropped_hash: "b".repeat(64),
            size: 1234,
        };
        assert_eq!(Head::parse(&h.text()), Some(h));
        assert_eq!(Head::parse("cuecard-audit-head 1 x"), None);
    }
}
