//! `cuecard status [--session <id>] [--json]`: what cuecard remembers, newest
//! sessions first: calls, the compaction cycle and its warnings, what was
//! injected (card, characters, estimated tokens), and the failure record.

use super::ExitStatus;
use crate::printer::Printer;
use crate::state::{self, Session, Store, failures, key};
use crate::text;
use serde_json::{Value, json};

/// Sessions listed at most.
const MAX_SESSIONS: usize = 10_000;
/// Sessions shown in the text view without `--session`.
const SHOWN: usize = 20;

pub fn run(p: &Printer, session: Option<&str>, as_json: bool) -> ExitStatus {
    // No state folder yet (no hook has run): said as it is, and not
    // created, since a command that only reads makes no folder.
    let unmade = state::root::candidate().filter(|r| std::fs::symlink_metadata(r).is_err());
    let store = match unmade {
        Some(_) => None,
        None => match Store::open() {
            Ok(s) => Some(s),
            Err(why) => {
                if as_json {
                    p.out(&json!({"root": null, "refused": why.to_string()}).to_string());
                } else {
                    p.out(&format!("state: unavailable ({why})"));
                }
                return ExitStatus::Failure;
            }
        },
    };
    let root_line = match (&store, &unmade) {
        (Some(s), _) => s.root().display().to_string(),
        (None, Some(r)) => format!("{} (not made yet: no hook has run)", r.display()),
        (None, None) => String::new(),
    };
    let root = store
        .as_ref()
        .map(|s| s.root().to_path_buf())
        .or(unmade)
        .unwrap_or_default();
    let wanted = wanted_part(session);
    let sessions = store
        .as_ref()
        .map(|s| sessions_of(s, wanted.as_deref()))
        .unwrap_or_default();
    if let Some(store) = &store {
        crate::hook::fold_pending(store, std::time::Duration::from_millis(200));
    }
    let record = store.as_ref().map(failures::load).unwrap_or_default();
    let unreported = record.unreported().count();
    let fails: Vec<&failures::RecordedFailure> = record
        .entries
        .iter()
        .rev()
        .filter(|e| wanted.as_ref().is_none_or(|w| *w == e.session))
        .collect();

    let set = crate::env::set_vars();
    if as_json {
        let environment: serde_json::Map<String, Value> = set
            .iter()
            .map(|(k, v)| (k.clone(), Value::String(v.clone())))
            .collect();
        let v = json!({
            "root": root.to_string_lossy(),
            "environment": environment,
            "sessions": sessions.iter().map(|(k, s)| json!({"key": k, "state": s})).collect::<Vec<_>>(),
            "failures": {"unreported": unreported, "entries": fails},
        });
        p.out(&serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        p.out(&render(
            &root_line,
            store.as_ref(),
            &set,
            &sessions,
            &fails,
            unreported,
            session.is_some(),
        ));
    }
    if session.is_some() && sessions.is_empty() {
        return ExitStatus::Failure;
    }
    ExitStatus::Success
}

/// The session key part of an id as the harness gave it.
pub(super) fn wanted_part(session: Option<&str>) -> Option<String> {
    session.map(|id| {
        key::session_part(Some(&Value::String(id.into())), None)
            .0
            .as_str()
            .to_string()
    })
}

/// The sessions under the store (only `wanted`'s when given), newest
/// first, with their file stems.
pub(super) fn sessions_of(store: &Store, wanted: Option<&str>) -> Vec<(String, Session)> {
    let mut sessions: Vec<(String, Session)> = state::store::list(store, MAX_SESSIONS)
        .into_iter()
        .filter_map(|(p, s)| {
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            let part = stem.split('@').next().unwrap_or_default().to_string();
            wanted.is_none_or(|w| w == part).then_some((stem, s))
        })
        .collect();
    sessions.sort_by(|a, b| (b.1.updated, &b.0).cmp(&(a.1.updated, &a.0)));
    sessions
}

fn render(
    root_line: &str,
    store: Option<&Store>,
    set: &[(String, String)],
    sessions: &[(String, Session)],
    fails: &[&failures::RecordedFailure],
    unreported: usize,
    detail: bool,
) -> String {
    let now = state::now();
    let mut out = format!("state: {root_line}\n");
    if !set.is_empty() {
        // The `CUECARD_*` variables of this shell that change what the
        // hook does (docs/design.md §11), so a stray one is seen.
        let vars: Vec<String> = set.iter().map(|(k, v)| format!("{k}={v}")).collect();
        out.push_str(&format!("environment: {}\n", vars.join(" ")));
    }
    if sessions.is_empty() {
        out.push_str("sessions: none\n");
    } else {
        out.push_str(&format!("sessions ({}, newest first):\n", sessions.len()));
    }
    for (_, s) in sessions
        .iter()
        .take(if detail { usize::MAX } else { SHOWN })
    {
        session_lines(&mut out, s, now, detail);
    }
    if sessions.len() > SHOWN && !detail {
        out.push_str(&format!(
            "  … {} more (cuecard status --json lists all)\n",
            sessions.len() - SHOWN
        ));
    }
    for (what, why) in crate::install::silent::findings(store, None, None) {
        out.push_str(&format!("not calling: {what}\n  {why}\n"));
    }
    failure_lines(&mut out, fails, unreported, now);
    out
}

/// One session: its model, project, calls, compaction cycle, what was
/// injected and decided, and with `detail` every ledger entry.
fn session_lines(out: &mut String, s: &Session, now: u64, detail: bool) {
    let c = &s.compaction;
    let l = &s.ledger;
    out.push_str(&format!(
        "  {}  ({}, {}, updated {})\n    project {}\n    calls {}  compaction cycle {}, warnings {} this cycle, {} in all{}\n    injected {} ({}): {} characters, ~{} tokens\n",
        s.id,
        s.model.as_deref().unwrap_or("model unknown"),
        s.harness.as_deref().unwrap_or("harness unknown"),
        text::ago(now, s.updated),
        s.project,
        s.calls,
        c.number,
        c.warned,
        c.warnings_total,
        c.last_tokens
            .map(|t| format!(", last size {t} tokens"))
            .unwrap_or_default()
            + &c.source
                .as_deref()
                .map(|s| format!(" (size: {s})"))
                .unwrap_or_default(),
        crate::text::count(l.injections as usize, "time", "times"),
        crate::text::count(l.reminders as usize, "reminder", "reminders"),
        l.chars,
        l.tokens,
    ));
    if let Some(line) = sparkline_line(s, !crate::report::chart::unicode_terminal()) {
        out.push_str(&line);
    }
    if l.denies + l.asks > 0 {
        out.push_str(&format!(
            "    policy decisions: {} denied, {} asked (cuecard policy)\n",
            l.denies, l.asks
        ));
    }
    if detail {
        for e in l.entries.iter().rev() {
            out.push_str(&format!(
                "      {:>8}  {:16} {:8} {:24} {} chars, ~{} tokens\n",
                text::ago(now, e.time),
                e.event,
                e.kind,
                e.card,
                e.chars,
                e.tokens
            ));
        }
    }
}

/// Characters of the sparkline.
const SPARK_WIDTH: usize = 40;

/// The context curve in one line: Unicode blocks on a UTF-8 terminal,
/// ASCII otherwise (a pipe, a file, a log), scaled to the model's window.
fn sparkline_line(s: &Session, ascii: bool) -> Option<String> {
    if s.curve.is_empty() {
        return None;
    }
    let (window, _) = crate::guards::compaction::window(s.model.as_deref(), None, None, None, None);
    let values: Vec<u64> = s.curve.iter().map(|p| p.k).collect();
    let peak = values.iter().copied().max().unwrap_or(0);
    Some(format!(
        "    context {}  peak {} of {} tokens ({})\n",
        crate::report::chart::sparkline(&values, window, SPARK_WIDTH, ascii),
        text::thousands(peak),
        text::thousands(window),
        text::count(values.len(), "size", "sizes"),
    ))
}

/// The failure record, newest first (at most 50).
fn failure_lines(
    out: &mut String,
    fails: &[&failures::RecordedFailure],
    unreported: usize,
    now: u64,
) {
    if fails.is_empty() {
        out.push_str("failures: none recorded\n");
    } else {
        out.push_str(&format!(
            "failures ({} recorded, {unreported} not yet told at a session start; newest first):\n",
            fails.len()
        ));
        for e in fails.iter().take(50) {
            out.push_str(&format!(
                "  {:>8}  {:16} {:18} {}\n",
                text::ago(now, e.time),
                e.event,
                failures::kind_name(e.kind),
                text::sanitize(&e.detail, 200)
            ));
        }
    }
}
