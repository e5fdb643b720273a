//! `cuecard report`: what cuecard did in one session (from its state) or
//! would have done on a recorded transcript (from `cuecard replay`'s
//! results), or the recent sessions (the index), as one self-contained
//! HTML page (docs/report.md).
//!
//! [`Report`] is what a page shows, built by [`from_replay`] and
//! [`from_session`]; [`html`] renders it (every text escaped, no script,
//! no network); [`chart`] draws the context curve as inline SVG and, for
//! `cuecard status`, as a one-line sparkline.

pub mod chart;
pub mod html;
pub mod index;

use crate::guards::compaction;
use crate::replay::Replay;
use crate::state::Session;
use crate::state::ledger::LedgerKind;

/// One point of the context curve: after call `x`, `tokens` in context.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Point {
    pub x: u64,
    pub tokens: u64,
}

/// A compaction and what the recovery after it carried.
#[derive(Debug, Clone)]
pub struct Compaction {
    /// The call it came after.
    pub x: u64,
    pub trigger: String,
    /// What the recovery carried back, as the model read it; `None`: nothing.
    pub carried: Option<String>,
    pub from: String,
}

/// A card (or reminder, or warning) that fired.
#[derive(Debug, Clone)]
pub struct CardRow {
    pub x: Option<u64>,
    pub when: String,
    pub event: String,
    pub tool: String,
    pub target: String,
    pub card: String,
    pub kind: String,
    pub chars: u64,
    pub tokens: u64,
    pub why: String,
}

/// An ask or deny.
#[derive(Debug, Clone)]
pub struct DecisionRow {
    pub x: Option<u64>,
    pub when: String,
    pub event: String,
    pub tool: String,
    pub target: String,
    pub decision: String,
    pub reason: String,
    pub source: String,
}

/// What one report page shows.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub title: String,
    /// Facts shown at the top (label, value).
    pub facts: Vec<(String, String)>,
    pub points: Vec<Point>,
    /// The window the thresholds are taken of, and where it came from.
    pub window: u64,
    pub window_from: String,
    /// The two thresholds: percent and tokens.
    pub thresholds: [(u64, u64); 2],
    /// Calls where a compaction warning fired, with the card.
    pub warnings: Vec<(u64, String)>,
    pub compactions: Vec<Compaction>,
    pub cards: Vec<CardRow>,
    pub decisions: Vec<DecisionRow>,
    /// Per harness, the calls seen.
    pub harnesses: Vec<(String, u64)>,
    /// What a reader should know about the figures.
    pub notes: Vec<String>,
}

/// The thresholds of `window` in tokens.
fn thresholds(window: u64) -> [(u64, u64); 2] {
    let (a, b) = compaction::thresholds();
    [(a, window * a / 100), (b, window * b / 100)]
}

/// The window for `model` and where it comes from.
fn window(model: Option<&str>) -> (u64, String) {
    compaction::window(model, None, None, None, None)
}

/// A replay's report.
pub fn from_replay(r: &Replay) -> Report {
    let (window, window_from) = window(r.model.as_deref());
    let firings = r.turns.iter().flat_map(|t| &t.firings);
    let warnings = firings
        .clone()
        .filter(|f| f.warning)
        .map(|f| (f.hook_call as u64, f.card.clone()))
        .collect();
    let cards = firings
        .map(|f| CardRow {
            x: Some(f.hook_call as u64),
            when: format!("call {}", f.hook_call),
            event: f.event.clone(),
            tool: f.tool.clone().unwrap_or_default(),
            target: f.target.clone().unwrap_or_default(),
            card: f.card.clone(),
            kind: if f.warning { "warning" } else { "card" }.into(),
            chars: f.chars as u64,
            tokens: f.tokens as u64,
            why: f.why.clone(),
        })
        .collect();
    let recoveries = r.turns.iter().flat_map(|t| {
        t.compactions
            .iter()
            .enumerate()
            .map(move |(i, c)| (c.clone(), t.recoveries.get(i).cloned()))
    });
    let compactions = r
        .compaction_calls
        .iter()
        .zip(recoveries)
        .map(|(x, (trigger, rec))| Compaction {
            x: *x as u64,
            trigger,
            carried: rec.as_ref().and_then(|r| r.carried.clone()),
            from: rec.map_or("nothing", |r| r.from).to_string(),
        })
        .collect();
    let decisions = r
        .decisions
        .iter()
        .map(|d| DecisionRow {
            x: Some(d.hook_call as u64),
            when: format!("call {}", d.hook_call),
            event: d.event.clone(),
            tool: d.tool.clone().unwrap_or_default(),
            target: d.target.clone().unwrap_or_default(),
            decision: d.decision.clone(),
            reason: d.reason.clone(),
            source: d.source.join("; "),
        })
        .collect();
    Report {
        title: format!("cuecard replay: {}", r.source),
        facts: vec![
            ("transcript".into(), r.source.clone()),
            ("harness".into(), r.format.harness().into()),
            (
                "model".into(),
                r.model.clone().unwrap_or_else(|| "unknown".into()),
            ),
            ("records".into(), r.records.to_string()),
            ("hook calls".into(), r.hook_calls.to_string()),
            ("tool calls".into(), r.tool_calls.to_string()),
            (
                "added".into(),
                format!(
                    "{} characters, {} tokens",
                    r.total_chars, r.total_tokens
                ),
            ),
        ],
        points: r
            .curve
            .iter()
            .map(|p| Point {
                x: p.hook_call as u64,
                tokens: p.tokens,
            })
            .collect(),
        window,
        window_from,
        thresholds: thresholds(window),
        warnings,
        compactions,
        cards,
        decisions,
        harnesses: vec![(r.format.harness().to_string(), r.hook_calls as u64)],
        notes: vec![
            "Replayed with the shipped cards in a throw-away state directory; token counts are exact (the tokenizer).".into(),
        ],
    }
}

/// A session's report, from its state (the record with its call log
/// folded in).
pub fn from_session(s: &Session) -> Report {
    let (window, window_from) = window(s.model.as_deref());
    let points: Vec<Point> = s
        .curve
        .iter()
        .map(|p| Point {
            x: p.n,
            tokens: p.k,
        })
        .collect();
    // A call's number: the log's (folded), else from its time.
    let x_of = |e: &crate::state::ledger::LedgerEntry| {
        (e.call > 0)
            .then_some(e.call)
            .or_else(|| s.curve.iter().find(|p| p.t >= e.time).map(|p| p.n))
    };
    let entries = &s.ledger.entries;
    let mut compactions = Vec::new();
    for w in s.curve.windows(2) {
        if w[1].c > w[0].c {
            // What the session start after it injected: the recovery.
            let carried: Vec<String> = entries
                .iter()
                .filter(|e| {
                    e.event == "SessionStart" && x_of(e).is_some_and(|x| x > w[0].n && x <= w[1].n)
                })
                .map(|e| format!("{} ({} characters)", e.card, e.chars))
                .collect();
            compactions.push(Compaction {
                x: w[0].n,
                trigger: format!("cycle {}", w[1].c),
                carried: (!carried.is_empty()).then(|| carried.join("\n")),
                from: "session start".into(),
            });
        }
    }
    let mut cards = Vec::new();
    let mut decisions = Vec::new();
    let mut warnings = Vec::new();
    for e in entries {
        let x = x_of(e);
        let when = match x {
            Some(n) => format!("call {n}, {}", text_time(e.time)),
            None => text_time(e.time),
        };
        match LedgerKind::parse(&e.kind) {
            LedgerKind::Ask | LedgerKind::Deny => decisions.push(DecisionRow {
                x,
                when,
                event: e.event.clone(),
                tool: e.tool.clone().unwrap_or_default(),
                target: e.target.clone().unwrap_or_default(),
                decision: e.kind.clone(),
                reason: e.reason.clone().unwrap_or_default(),
                source: e.source.clone().unwrap_or_else(|| e.card.clone()),
            }),
            kind => {
                if kind == LedgerKind::Warning {
                    warnings.push((x.unwrap_or(0), e.card.clone()));
                }
                cards.push(CardRow {
                    x,
                    when,
                    event: e.event.clone(),
                    tool: e.tool.clone().unwrap_or_default(),
                    target: e.target.clone().unwrap_or_default(),
                    card: e.card.clone(),
                    kind: e.kind.clone(),
                    chars: e.chars,
                    tokens: e.tokens,
                    why: String::new(),
                })
            }
        }
    }
    let h = &s.handoff;
    let mut notes = vec![format!(
        "Token figures of cards are estimates (bytes / 4); the ledger keeps the last {} entries; the curve keeps {} points.",
        crate::state::ledger::MAX_ENTRIES,
        crate::state::calls::MAX_CURVE
    )];
    if let Some(p) = &h.plan {
        notes.push(format!("plan file this session wrote: {p}"));
    }
    if h.note_written_ms.is_some() {
        notes.push("the hand-off note was written after the first warning".into());
    }
    Report {
        title: format!("cuecard session {}", s.id),
        facts: vec![
            ("session".into(), s.id.clone()),
            (
                "harness".into(),
                s.harness.clone().unwrap_or_else(|| "unknown".into()),
            ),
            (
                "model".into(),
                s.model.clone().unwrap_or_else(|| "unknown".into()),
            ),
            ("project".into(), s.project.clone()),
            ("started".into(), text_time(s.created)),
            ("last call".into(), text_time(s.updated)),
            ("calls".into(), s.calls.to_string()),
            (
                "added".into(),
                format!(
                    "{} injections, {} characters, ~{} tokens",
                    s.ledger.injections, s.ledger.chars, s.ledger.tokens
                ),
            ),
            (
                "decisions".into(),
                format!("{} denied, {} asked", s.ledger.denies, s.ledger.asks),
            ),
        ],
        points,
        window,
        window_from,
        thresholds: thresholds(window),
        warnings,
        compactions,
        cards,
        decisions,
        harnesses: vec![(
            s.harness.clone().unwrap_or_else(|| "unknown".into()),
            s.calls,
        )],
        notes,
    }
}

/// Unix seconds as `2026-12-03 06:45:12 UTC`.
pub fn text_time(secs: u64) -> String {
    if secs == 0 {
        return "unknown".into();
    }
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    #[test]
    fn civil_time() {
        assert_eq!(super::text_time(0), "unknown");
        assert_eq!(super::text_time(1), "1970-01-01 00:00:01 UTC");
        assert_eq!(super::text_time(1_796_276_712), "2026-12-03 05:45:12 UTC");
        assert_eq!(super::text_time(951_782_400), "2000-02-29 00:00:00 UTC");
    }
}
