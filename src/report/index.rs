//! The index page (`cuecard report` with no session and no transcript):
//! the most recent sessions, newest first, each with its harness, project,
//! calls, what was added and decided, and its context curve in small; then
//! the calls seen per harness. Each row names the command that writes the
//! session's own page.

use super::html::{esc, num, page, table, td};
use super::text_time;
use crate::state::Session;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Sessions listed on the index.
pub const SHOWN: usize = 50;

/// A small inline SVG of a curve (the index's column).
fn mini(s: &Session) -> String {
    if s.curve.len() < 2 {
        return "<td class=\"empty\">-</td>".into();
    }
    let top = s.curve.iter().map(|p| p.k).max().unwrap_or(1).max(1) as f64;
    let n = (s.curve.len() - 1) as f64;
    let pts: Vec<String> = s
        .curve
        .iter()
        .enumerate()
        .map(|(i, p)| {
            format!(
                "{:.1},{:.1}",
                i as f64 / n * 120.0,
                22.0 - p.k as f64 / top * 20.0
            )
        })
        .collect();
    format!(
        "<td><svg class=\"mini\" width=\"120\" height=\"24\" viewBox=\"0 0 120 24\"><polyline fill=\"none\" stroke=\"#2f6fde\" points=\"{}\"/></svg></td>",
        pts.join(" ")
    )
}

/// The index page of `sessions` (newest first).
pub fn page_of(sessions: &[Session], root: &str) -> String {
    let mut body = String::new();
    let rows: Vec<Vec<String>> = sessions
        .iter()
        .take(SHOWN)
        .map(|s| {
            let l = &s.ledger;
            vec![
                td(&s.id),
                td(s.harness.as_deref().unwrap_or("unknown")),
                td(&s.project),
                td(&text_time(s.updated)),
                num(s.calls),
                num(l.injections),
                num(l.warnings),
                num(l.denies + l.asks),
                mini(s),
                format!(
                    "<td><code>cuecard report --session {}</code></td>",
                    esc(&shell_word(&s.id))
                ),
            ]
        })
        .collect();
    let _ = writeln!(
        body,
        "<section id=\"sessions-section\"><h2>Recent sessions ({} of {})</h2>{}</section>",
        rows.len(),
        sessions.len(),
        table(
            "sessions",
            &[
                "session",
                "harness",
                "project",
                "last call",
                "calls",
                "injected",
                "warnings",
                "asks/denies",
                "context",
                "its page",
            ],
            &rows,
            "No session recorded yet: cuecard writes state once a harness calls it.",
        )
    );
    let mut per: BTreeMap<&str, (u64, u64, u64)> = BTreeMap::new();
    for s in sessions {
        let e = per
            .entry(s.harness.as_deref().unwrap_or("unknown"))
            .or_default();
        e.0 += 1;
        e.1 += s.calls;
        e.2 = e.2.max(s.updated);
    }
    let rows: Vec<Vec<String>> = per
        .iter()
        .map(|(h, (n, calls, last))| vec![td(h), num(*n), num(*calls), td(&text_time(*last))])
        .collect();
    let _ = writeln!(
        body,
        "<section id=\"harnesses-section\"><h2>Calls seen per harness</h2>{}</section>",
        table(
            "harnesses",
            &["harness", "sessions", "calls", "last call"],
            &rows,
            "No call seen."
        )
    );
    let _ = write!(
        body,
        "<p class=\"empty\">State: {}. Sessions idle longer than the sweep's age are gone (CUECARD_STATE_MAX_AGE_DAYS).</p>",
        esc(root)
    );
    page("cuecard sessions", "recent sessions, newest first", &body)
}

/// A session id as one shell word (quoted when it needs to be).
fn shell_word(id: &str) -> String {
    if !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_.@:".contains(c))
    {
        id.to_string()
    } else {
        format!("'{}'", id.replace('\'', "'\\''"))
    }
}
