//! `cuecard audit verify`: walks the chain of every record kept, oldest
//! first, and says where it breaks. Each record carries the SHA-256 of the
//! line before it and a sequence number one higher; the head holds the
//! last record's number and hash and the newest record rotated away. So a
//! record edited in place breaks the next record's link (or the head's, for
//! the last one), a record removed leaves a gap, a removed tail or a
//! removed old file disagrees with the head.
//!
//! What it cannot see: someone who rewrites the whole chain and the head
//! consistently (there is no key). Sending the records to a collector
//! (`cuecard audit export`, or the collector's file receiver) is what puts
//! them out of reach.

use super::log::{self, Head, Stored};
use super::record::GENESIS;
use std::path::Path;

/// What verify found.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Records read.
    pub records: usize,
    /// The first and last sequence numbers kept.
    pub first: Option<u64>,
    pub last: Option<u64>,
    /// Files read, oldest first.
    pub files: Vec<String>,
    /// Where the chain breaks, one line each (empty: intact).
    pub problems: Vec<String>,
    /// Whether there is an audit log at all.
    pub present: bool,
}

/// Verifies the audit log under `root`.
pub fn verify(root: &Path) -> Result<Report, log::AppendError> {
    let (head, records) = log::records(root, std::time::Duration::from_secs(5))?;
    let mut r = Report {
        present: head.is_some() || !records.is_empty(),
        ..Report::default()
    };
    let mut files: Vec<String> = records.iter().map(|s| s.file.clone()).collect();
    files.dedup();
    r.files = files;
    check(head.as_ref(), &records, &mut r);
    Ok(r)
}

fn at(s: &Stored) -> String {
    format!("{}:{}", s.file, s.line)
}

/// The chain checks themselves.
pub fn check(head: Option<&Head>, records: &[Stored], r: &mut Report) {
    r.records = records.len();
    if head.is_none() && !records.is_empty() {
        r.problems.push(
            "the head file is missing or unreadable: the last records cannot be checked".into(),
        );
    }
    // What the first record kept must follow.
    let (mut want_seq, mut want_prev) = match head {
        Some(h) if h.dropped > 0 => (h.dropped + 1, h.dropped_hash.clone()),
        _ => (1, GENESIS.to_string()),
    };
    for s in records {
        let Some(link) = &s.link else {
            r.problems
                .push(format!("{}: not an audit record (edited or torn)", at(s)));
            // The next record must still follow this line as it is.
            want_seq += 1;
            want_prev = s.hash.clone();
            continue;
        };
        r.first.get_or_insert(link.seq);
        r.last = Some(link.seq);
        if link.seq > want_seq {
            let missing = if link.seq - want_seq == 1 {
                format!("record {want_seq} is")
            } else {
                format!("records {want_seq} to {} are", link.seq - 1)
            };
            r.problems
                .push(format!("{}: {missing} missing (removed)", at(s)));
        } else if link.seq < want_seq {
            r.problems.push(format!(
                "{}: record {} is out of order or repeated (expected {want_seq})",
                at(s),
                link.seq
            ));
        } else if link.prev != want_prev {
            r.problems.push(format!(
                "{}: record {} does not follow the record before it: that record was edited",
                at(s),
                link.seq
            ));
        }
        want_seq = link.seq + 1;
        want_prev = s.hash.clone();
    }
    if let Some(h) = head {
        let last_seq = want_seq - 1;
        if h.seq > last_seq {
            let missing = if h.seq - last_seq == 1 {
                format!("record {} is", h.seq)
            } else {
                format!("records {} to {} are", last_seq + 1, h.seq)
            };
            r.problems
                .push(format!("the end of the log: {missing} missing (removed)"));
        } else if h.seq == last_seq && h.seq > 0 && h.hash != want_prev {
            r.problems.push(format!(
                "the end of the log: record {} is not the one written: it was edited",
                h.seq
            ));
        } else if h.seq < last_seq {
            r.problems.push(format!(
                "the end of the log: the records after {} are not in the head (a call was killed before it finished writing, or they were added outside cuecard)",
                h.seq
            ));
        }
    }
}
