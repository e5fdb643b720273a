//! `kb-drift`: notices at session start that the project's knowledge base
//! changed since its last baseline (docs/design.md §8).
//!
//! - The base is the first of [`CANDIDATES`] under the project root that
//!   holds both `index.md` and `log.md`. A candidate (or its `log.md`,
//!   `index.md`, `pages/`, `sources/`) that resolves outside the project
//!   through a symlink is not followed: the candidate is passed over.
//! - Fingerprint: the page count (regular files named `*.md`, not symlinks,
//!   directly in the base, `pages/` and `sources/`; the base's own
//!   `index.md` and `log.md` excluded; never recursive) and the latest log
//!   entry (the last `## [YYYY-MM-DD] kind | title` line whose kind is not
//!   `baseline`, trailing blanks removed).
//! - Baseline: the last `## [YYYY-MM-DD] baseline | pages=N latest=<heading>`
//!   line of log.md, written by the knowledge-wiki skill's drift mode.
//! - Only the last [`LOG_TAIL_BYTES`] of log.md are read, and the first line
//!   of that tail is ignored unless the tail starts the file (it may be cut).
//!   A baseline older than the tail is not seen: silent, like no baseline.
//! - It never writes. When the fingerprint differs from the baseline, one
//!   line: the fixed path, the baseline's date, the two page counts; never
//!   text from the base. Silent when there is no base, no baseline, no
//!   change, or something it cannot read (or that is too large to list).
//!
//! A project with no base costs four `stat` calls.

use super::{Finding, Guard};
use crate::context::Ctx;
use std::fs;
use std::io::{Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// Where a knowledge base may live, in order of precedence.
pub const CANDIDATES: [&str; 4] = ["knowledge-base", "wiki", "docs/knowledge-base", "docs/wiki"];

/// How much of the end of log.md is read.
pub const LOG_TAIL_BYTES: u64 = 256 * 1024;

/// A directory with more entries than this is not counted (silent).
pub const MAX_DIR_ENTRIES: usize = 100_000;

/// A drifted base: what the one line says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Drift {
    /// The base's path relative to the project root (one of [`CANDIDATES`]).
    pub kb: &'static str,
    /// The baseline's date, `YYYY-MM-DD`.
    pub baseline_date: String,
    pub baseline_pages: u64,
    pub pages: u64,
}

/// The first candidate under `root` holding both index.md and log.md, and
/// its directory. Costs one `stat` per candidate when there is no base.
pub fn find_base(root: &Path) -> Option<(&'static str, PathBuf)> {
    let mut canon_root: Option<PathBuf> = None;
    for cand in CANDIDATES {
        let dir = root.join(cand);
        if !(dir.join("index.md").is_file() && dir.join("log.md").is_file()) {
            continue;
        }
        let croot = match &canon_root {
            Some(r) => r,
            None => canon_root.insert(fs::canonicalize(root).ok()?),
        };
        let inside = |p: &Path| fs::canonicalize(p).is_ok_and(|c| c.starts_with(&*croot));
        if inside(&dir) && inside(&dir.join("index.md")) && inside(&dir.join("log.md")) {
            return Some((cand, dir));
        }
    }
    None
}

/// Judges the project at `root`: `Some` only when its base drifted.
pub fn probe(root: &Path) -> Option<Drift> {
    let (kb, dir) = find_base(root)?;
    let canon_root = fs::canonicalize(root).ok()?;
    let (tail, whole) = read_tail(&dir.join("log.md"), LOG_TAIL_BYTES)?;
    let log = scan_log(&tail, whole)?;
    let baseline = log.baseline?;
    let latest = log.latest?;
    let mut pages = count_pages(&dir, true)?;
    for sub in ["pages", "sources"] {
        let d = dir.join(sub);
        match fs::symlink_metadata(&d) {
            Err(_) => continue,
            Ok(m) if m.file_type().is_symlink() => {
                if !fs::canonicalize(&d).is_ok_and(|c| c.starts_with(&canon_root)) {
                    continue; // not followed out of the project: counts as empty
                }
                if !d.is_dir() {
                    continue;
                }
            }
            Ok(m) if !m.is_dir() => continue,
            Ok(_) => {}
        }
        pages += count_pages(&d, false)?;
    }
    if pages == baseline.pages && latest == baseline.latest {
        return None;
    }
    Some(Drift {
        kb,
        baseline_date: baseline.date,
        baseline_pages: baseline.pages,
        pages,
    })
}

/// Regular files named `*.md` directly in `dir` (without the base's own
/// index.md and log.md when `is_base`). `None` when it cannot be listed.
fn count_pages(dir: &Path, is_base: bool) -> Option<u64> {
    let mut n = 0u64;
    for (i, e) in fs::read_dir(dir).ok()?.enumerate() {
        if i >= MAX_DIR_ENTRIES {
            return None;
        }
        let e = e.ok()?;
        let name = e.file_name();
        let name = name.as_encoded_bytes();
        if !name.ends_with(b".md") {
            continue;
        }
        if is_base && (name == b"index.md" || name == b"log.md") {
            continue;
        }
        if e.file_type().ok()?.is_file() {
            n += 1;
        }
    }
    Some(n)
}

/// The last `max` bytes of a regular file, and whether that is the whole
/// file. When it is not, the first (possibly cut) line is dropped.
fn read_tail(path: &Path, max: u64) -> Option<(String, bool)> {
    let (mut f, meta) = crate::fsutil::open_regular(path, true).ok()?;
    let start = meta.len().saturating_sub(max);
    f.seek(SeekFrom::Start(start)).ok()?;
    let (mut buf, _) = crate::fsutil::read_capped(f, max).ok()?;
    let whole = start == 0;
    if !whole {
        let cut = buf
            .iter()
            .position(|&b| b == b'\n')
            .map_or(buf.len(), |i| i + 1);
        buf.drain(..cut);
    }
    Some((String::from_utf8_lossy(&buf).into_owned(), whole))
}

/// A log heading: `## [YYYY-MM-DD] kind | title`.
#[derive(Debug, PartialEq, Eq)]
struct Heading<'a> {
    date: &'a str,
    kind: &'a str,
    title: &'a str,
}

/// Parses a heading line (trailing blanks already removed).
fn heading(line: &str) -> Option<Heading<'_>> {
    let rest = line.strip_prefix("## [")?;
    let date = rest.get(..10)?;
    let ok_date = date.bytes().enumerate().all(|(i, b)| {
        if i == 4 || i == 7 {
            b == b'-'
        } else {
            b.is_ascii_digit()
        }
    });
    if !ok_date {
        return None;
    }
    let rest = rest[10..].strip_prefix("] ")?;
    let kind_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || *b == b'-' || *b == b'_')
        .count();
    if kind_len == 0 {
        return None;
    }
    let (kind, rest) = rest.split_at(kind_len);
    let title = rest.strip_prefix(" | ")?;
    if title.is_empty() {
        return None;
    }
    Some(Heading { date, kind, title })
}

#[derive(Debug, PartialEq, Eq)]
struct Baseline {
    date: String,
    pages: u64,
    latest: String,
}

/// What the log's tail says: the latest entry (`None` when unknown) and the
/// last baseline.
#[derive(Debug, PartialEq, Eq)]
struct LogScan {
    latest: Option<String>,
    baseline: Option<Baseline>,
}

/// `None` when the last baseline line is malformed beyond use.
fn scan_log(tail: &str, whole: bool) -> Option<LogScan> {
    let mut latest: Option<&str> = None;
    let mut baseline: Option<&str> = None;
    for line in tail.split('\n') {
        let line = line.trim_end_matches([' ', '\t', '\r', '\x0b', '\x0c']);
        let Some(h) = heading(line) else { continue };
        if h.kind == "baseline" {
            if is_baseline_title(h.title) {
                baseline = Some(line);
            }
        } else {
            latest = Some(line);
        }
    }
    let latest = match latest {
        Some(l) => Some(l.to_string()),
        None if whole => Some("none".to_string()),
        None => None,
    };
    let baseline = match baseline {
        None => None,
        Some(line) => {
            let h = heading(line)?;
            let rest = h.title.strip_prefix("pages=")?;
            let (n, latest) = rest.split_once(" latest=")?;
            Some(Baseline {
                date: h.date.to_string(),
                pages: n.parse().ok()?,
                latest: latest.to_string(),
            })
        }
    };
    Some(LogScan { latest, baseline })
}

/// `pages=<digits> latest=<at least one character>`.
fn is_baseline_title(title: &str) -> bool {
    let Some(rest) = title.strip_prefix("pages=") else {
        return false;
    };
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && rest[digits..]
            .strip_prefix(" latest=")
            .is_some_and(|l| !l.is_empty())
}

pub struct KbDrift;

impl Guard for KbDrift {
    fn name(&self) -> &'static str {
        "kb-drift"
    }
    fn events(&self) -> &'static [&'static str] {
        &["SessionStart"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["kb", "date", "then", "now"]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        let d = probe(ctx.project_root())?;
        Some(
            Finding::new(
                d.kb,
                format!(
                    "{} differs from its baseline of {} ({} pages then, {} now, or a newer log entry)",
                    d.kb, d.baseline_date, d.baseline_pages, d.pages
                ),
            )
            .var("kb", d.kb)
            .var("date", d.baseline_date)
            .var("then", d.baseline_pages.to_string())
            .var("now", d.pages.to_string()),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_follow_the_documented_form() {
        let h = heading("## [2025-06-01] ingest | RFC 9110").unwrap();
        assert_eq!(
            (h.date, h.kind, h.title),
            ("2025-06-01", "ingest", "RFC 9110")
        );
        for bad in [
            "## [2025-6-01] ingest | x",
            "## [2025-06-01]ingest | x",
            "## [2025-06-01] two words | x",
            "## [2025-06-01] ingest |",
            "## [2025-06-01] ingest |x",
            "### [2025-06-01] ingest | x",
            " ## [2025-06-01] ingest | x",
            "## [2025-06-01] | x",
        ] {
            assert_eq!(heading(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_scan_takes_the_last_entry_and_the_last_baseline() {
        let log = "# Log\n## [2025-01-01] ingest | a\n\n## [2025-01-02] baseline | pages=3 latest=## [2025-01-01] ingest | a\n## [2025-01-03] lint | b  \r\n## [2025-01-04] baseline | pages=4 latest=## [2025-01-03] lint | b\n## [2025-01-05] baseline | pages=x latest=junk\n";
        let s = scan_log(log, true).unwrap();
        assert_eq!(s.latest.as_deref(), Some("## [2025-01-03] lint | b"));
        let b = s.baseline.unwrap();
        assert_eq!((b.date.as_str(), b.pages), ("2025-01-04", 4));
        assert_eq!(b.latest, "## [2025-01-03] lint | b");
        assert_eq!(
            scan_log("# Log\n", true).unwrap().latest.as_deref(),
            Some("none")
        );
        assert_eq!(scan_log("# Log\n", false).unwrap().latest, None);
    }
}
