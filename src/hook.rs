//! The hook's core, one payload's transaction: load the session's state,
//! run the cards, add the failure record's one-time note, hand the answer to
//! the caller to deliver, and, once it was delivered, commit and save the
//! state. `cuecard dispatch` (the command-line layer: argv, the deadline)
//! and `cuecard replay` (against a private store) both call [`answer`].

use crate::audit::{self, Entry};
use crate::deadline;
use crate::diag::{self, Kind};
use crate::dispatch::{self, Request, Run};
use crate::event::EventSpec;
use crate::payload::{self, Payload};
use crate::state::{self, Store, failures};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// The call's event and session key part, for the failure record.
static CALL: Mutex<(String, String)> = Mutex::new((String::new(), String::new()));

/// Names the call's event for the failure record (and the deadline's
/// handler, when there is a store).
pub fn begin_call(event: &str, store: Option<&Store>) {
    if let Ok(mut c) = CALL.lock() {
        c.0 = event.to_string();
        if let Some(s) = store {
            deadline::record_to(s.root(), &c.0, "");
        }
    }
}

/// Writes this call's failures (if any) to the failure record, and to the
/// audit log when the audit is on. Called once, after the answer (the
/// deadline's handler writes its own line).
pub fn persist_failures(store: Option<&Store>, wait: Duration) {
    let failures = diag::snapshot();
    if failures.is_empty() {
        return;
    }
    let Some(store) = store else { return };
    let (event, session) = CALL.lock().map(|c| c.clone()).unwrap_or_default();
    failures::append(store, &event, &session, &failures, wait);
    // A failure to write the audit log is in the failure record, not in
    // the log it could not write.
    let entries: Vec<Entry> = failures
        .iter()
        .filter(|f| f.kind != Kind::AuditIo)
        .map(|f| Entry::Failure {
            kind: failures::kind_name(f.kind),
            detail: f.detail.clone(),
        })
        .collect();
    let call = AUDIT_CALL
        .lock()
        .ok()
        .and_then(|c| c.clone())
        .unwrap_or_else(|| audit::Call {
            harness: "unknown".into(),
            event: crate::text::sanitize(&event, 40),
            ..audit::Call::default()
        });
    audit_call(store, &call, entries);
}

/// The call the audit records of this process name (set once a call was
/// judged), for its failures.
static AUDIT_CALL: Mutex<Option<audit::Call>> = Mutex::new(None);

/// Appends the audit records of a call whose answer was delivered: its
/// ask or deny, and each card's text it carried into the context
/// (docs/audit.md). A call with none of these does nothing at all; with
/// the audit off, the user's config has already been read by the policy
/// (on every gating event, at every session start, for every finding), so
/// the check costs it no system call there; the machine's managed file
/// costs one open (failed, when there is none), once a process.
pub fn audit_run(store: Option<&Store>, req: &Request, run: &Run) {
    let mut call = run.call.clone();
    if call.harness.is_empty() {
        call.harness = req
            .contract
            .map_or(crate::harness::HarnessId::ClaudeCode, |h| h)
            .id()
            .to_string();
        call.event = run.event.map_or(req.event.as_str(), |e| e.name).to_string();
    }
    if let Ok(mut c) = AUDIT_CALL.lock() {
        *c = Some(call.clone());
    }
    // Context is carried only by an answer on stdout, and not on an event
    // whose harness keeps only the decision.
    let carries = run.answer.is_some() && run.block.is_none() && !run.decision_only;
    let decided = run.decided.is_some() && run.outcome.ruling.is_some();
    let Some(store) = store else { return };
    // Nothing is built unless there is something to record and the audit
    // is on: the records' texts and token counts are not free.
    if !(decided || carries && !run.outcome.fragments.is_empty()) || !audit_on() {
        return;
    }
    let mut entries = Vec::new();
    if let (Some((level, _)), Some(r)) = (&run.decided, &run.outcome.ruling) {
        entries.push(Entry::Decision {
            outcome: level.word().to_string(),
            ids: r.by.iter().map(|(id, _)| id.clone()).collect(),
            policy: r.by.iter().map(|(_, from)| from.clone()).collect(),
        });
    }
    if carries {
        for (card, kind, text) in run.carried() {
            entries.push(Entry::Injection {
                card: card.to_string(),
                kind: kind.as_str().to_string(),
                chars: crate::text::len16(&text) as u64,
                tokens: state::ledger::estimate_tokens(&text),
            });
        }
    }
    audit_call(store, &call, entries);
}

/// Whether the audit is on (the user's config as the policy read it, and
/// the machine's managed file).
fn audit_on() -> bool {
    crate::policy::audit_settings().enabled
}

/// Appends one call's `entries`, stamped now, when the audit is on.
fn audit_call(store: &Store, call: &audit::Call, entries: Vec<Entry>) {
    audit(
        store,
        entries
            .into_iter()
            .map(|e| (call.clone(), e, None))
            .collect(),
    );
}

/// Appends `items` when the audit is on; a failure is recorded.
fn audit(store: &Store, items: Vec<audit::log::Item>) {
    if items.is_empty() {
        return;
    }
    let settings = crate::policy::audit_settings();
    if !settings.enabled {
        return;
    }
    if let Err(e) = audit::log::append(store.root(), &settings, &items, Duration::from_millis(100))
    {
        diag::record(Kind::AuditIo, e.to_string());
    }
}

/// Folds the deadline's pending lines into the failure record
/// ([`failures::fold_pending`]), and appends each to the audit log when the
/// audit is on (the deadline's handler itself can only write a prepared
/// line). Used by the next session start and `cuecard status`.
pub fn fold_pending(store: &Store, wait: Duration) {
    let folded = failures::fold_pending(store, wait);
    let items: Vec<audit::log::Item> = folded
        .into_iter()
        .map(|f| {
            let call = audit::Call {
                harness: "unknown".into(),
                event: f.event,
                ..audit::Call::default()
            };
            let detail = match f.session.as_str() {
                "" => f.detail,
                key => format!("{} (session key {key})", f.detail),
            };
            let entry = Entry::Failure {
                kind: failures::kind_name(f.kind),
                detail,
            };
            (call, entry, Some(u128::from(f.time) * 1_000_000_000))
        })
        .collect();
    audit(store, items);
}

/// How long a call waits for its session's lock: most of the deadline.
pub fn lock_wait() -> Duration {
    deadline::budget() * 6 / 10
}

/// What the hook does with one payload once it is read: load the session's
/// state from `store` (when there is one), run the cards, hand the run (its
/// answer, or its exit-code-2 block) to `emit`, and, when `emit` says it
/// was delivered, commit the state.
pub fn answer(
    store: Option<&Store>,
    req: &Request,
    input: Result<Payload, payload::Unusable>,
    emit: impl FnOnce(&Run) -> bool,
) -> Run {
    // The session's state is loaded by the dispatcher once the payload is in
    // canonical shape and only when there is a card to evaluate.
    let harness = req
        .contract
        .unwrap_or(crate::harness::HarnessId::ClaudeCode)
        .id();
    let load = |spec: &'static EventSpec, p: &Payload, project: &Path| {
        load_session(store?, spec, p, project, harness)
    };
    let (mut run, mut locked) = dispatch::run_loading(req, input, load);
    let told = store.and_then(|s| failure_note(s, &mut run));
    if let Some(s) = store {
        liveness_note(s, &mut run, harness);
    }
    if !emit(&run) {
        return run;
    }
    if let Some(l) = &mut locked {
        save_session(&run, l);
    }
    if let (Some(store), Some(upto)) = (store, told) {
        failures::mark_reported(store, upto);
    }
    run
}

/// Locks and loads the session's state, or records why the call runs
/// stateless.
fn load_session(
    store: &Store,
    spec: &'static EventSpec,
    p: &Payload,
    project: &Path,
    harness: &str,
) -> Option<state::Locked> {
    let key = state::key::session_key(p.raw.get("session_id"), p.transcript_path(), project);
    if let Ok(mut c) = CALL.lock() {
        c.1 = key.session.clone();
        deadline::record_to(store.root(), &c.0, &c.1);
    }
    match store.lock_session(&key, project, lock_wait()) {
        Ok(Some(mut l)) => {
            state::observe(&mut l.session, spec.name, p);
            // The record already holds it after the session's first call:
            // it is not written again for this (doctor's "last called").
            if l.session.harness.as_deref() != Some(harness) {
                l.session.harness = Some(harness.to_string());
            }
            Some(l)
        }
        Ok(None) => {
            diag::record(
                Kind::StateBusy,
                "the session's lock stayed busy; this call ran stateless",
            );
            None
        }
        Err(e) => {
            diag::record(
                Kind::StateIo,
                format!("session state unusable ({}); running stateless", e.kind()),
            );
            None
        }
    }
}

/// The failure record's one-time note, at the next session start that
/// answers at all (a start whose cards all failed stays silent). Returns
/// the record position to mark reported once the answer was delivered.
fn failure_note(store: &Store, run: &mut Run) -> Option<u64> {
    let spec = run.event?;
    if spec.name != "SessionStart" || run.stopped.is_some() || run.outcome.is_empty() {
        return None;
    }
    fold_pending(store, Duration::from_millis(50));
    let record = failures::load(store);
    let note = failures::unreported_note(&record)?;
    run.add_user_note(&note);
    Some(record.next)
}

/// At a session start that answers, at most once a day: the installed
/// harnesses other than this one that have not called cuecard since they
/// were installed or their config changed (docs/report.md).
fn liveness_note(store: &Store, run: &mut Run, harness: &str) {
    let Some(spec) = run.event else { return };
    if spec.name != "SessionStart" || run.stopped.is_some() || run.outcome.is_empty() {
        return;
    }
    if let Some(note) = state::liveness::daily_note(store, harness, state::now()) {
        run.add_user_note(&note);
    }
}

/// Commits what the delivered answer did to the session and saves it.
fn save_session(run: &Run, l: &mut state::Locked) {
    run.commit(&mut l.session);
    state::atomic::test_kill("state:before-save");
    // Never synced on the hook path (see docs/decisions.md).
    if let Err(e) = l.save(false) {
        diag::record(
            Kind::StateIo,
            format!("session state not saved ({})", e.kind()),
        );
    }
}
