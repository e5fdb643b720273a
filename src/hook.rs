//! The hook's core, one payload's transaction: load the session's state,
//! run the cards, add the failure record's one-time note, hand the answer to
//! the caller to deliver, and, once it was delivered, commit and save the
//! state. `cuecard dispatch` (the command-line layer: argv, the deadline)
//! and `cuecard replay` (against a private store) both call [`answer`].

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

/// Writes this call's failures (if any) to the failure record. Called
/// once, after the answer (the deadline's handler writes its own line).
pub fn persist_failures(store: Option<&Store>, wait: Duration) {
    let failures = diag::snapshot();
    if failures.is_empty() {
        return;
    }
    let Some(store) = store else { return };
    let (event, session) = CALL.lock().map(|c| c.clone()).unwrap_or_default();
    failures::append(store, &event, &session, &failures, wait);
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
    failures::fold_pending(store, Duration::from_millis(50));
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
