//! The hook's core, one payload's transaction, in four steps ([`answer`]):
//! load the session's state, judge the call, emit the answer, and, once it
//! was delivered, commit what the judgement does to the state (its
//! effects) and save it. `cuecard dispatch` (the command-line layer: argv,
//! the deadline) and `cuecard replay` (against a private store) both call
//! [`answer`], each with the call's [`CallRecord`].

use crate::audit::{self, Entry};
use crate::deadline;
use crate::diag::{self, Kind};
use crate::dispatch::{self, Effect, Request, Run};
use crate::event::EventSpec;
use crate::payload::{self, Payload};
use crate::state::{self, Session, Store, failures};
use std::path::Path;
use std::time::Duration;

/// One hook call, as its failure lines and audit records name it: made
/// where the call begins and passed down by reference, filled in as the
/// call goes. The deadline's signal handler cannot read it: what it needs
/// (where to write its line, and the line) is handed to
/// [`deadline::record_to`] as it becomes known, the one part kept global.
#[derive(Debug, Clone, Default)]
pub struct CallRecord {
    /// The event as registered.
    pub event: String,
    /// The session key part, once the session's state was looked up.
    pub session: String,
    /// The call as the audit names it, once its answer was delivered.
    pub audit: Option<audit::Call>,
}

impl CallRecord {
    /// A call of `event`; with a store, the deadline's handler learns where
    /// to write its line.
    pub fn begin(event: &str, store: Option<&Store>) -> CallRecord {
        let record = CallRecord {
            event: event.to_string(),
            ..CallRecord::default()
        };
        if let Some(s) = store {
            deadline::record_to(s.root(), &record.event, "");
        }
        record
    }
}

/// Writes this call's failures (if any) to the failure record, and to the
/// audit log when the audit is on. Called once, after the answer (the
/// deadline's handler writes its own line).
pub fn persist_failures(store: Option<&Store>, record: &CallRecord, wait: Duration) {
    let failures = diag::snapshot();
    if failures.is_empty() {
        return;
    }
    let Some(store) = store else { return };
    let (event, session) = (&record.event, &record.session);
    failures::append(store, event, session, &failures, wait);
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
    let call = record.audit.clone().unwrap_or_else(|| audit::Call {
        harness: "unknown".into(),
        event: crate::text::sanitize(event, 40),
        ..audit::Call::default()
    });
    audit_call(store, &call, entries);
}

/// Appends the audit records of a call whose answer was delivered: its
/// ask or deny, and each card's text it carried into the context
/// (docs/audit.md). A call with none of these does nothing at all; with
/// the audit off, the user's config has already been read by the policy
/// (on every gating event, at every session start, for every finding), so
/// the check costs it no system call there; the machine's managed file
/// costs one open (failed, when there is none), once a process. The call,
/// as the audit names it, goes into `record` (for its failures).
pub fn audit_run(store: Option<&Store>, req: &Request, run: &Run, record: &mut CallRecord) {
    let mut call = run.call.clone();
    if call.harness.is_empty() {
        call.harness = req
            .contract
            .map_or(crate::harness::HarnessId::ClaudeCode, |h| h)
            .id()
            .to_string();
        call.event = run.event.map_or(req.event.as_str(), |e| e.name).to_string();
    }
    record.audit = Some(call.clone());
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

/// What the hook does with one payload once it is read, in four steps:
///
/// 1. load: the session's state from `store` (when there is one), locked,
///    once the dispatcher has the payload in canonical shape and a card to
///    judge (`Loader`);
/// 2. judge: the dispatcher's stages, then the notes of a session start;
///    what the call does to the state is the run's effects
///    ([`Run::effects`]), nothing else;
/// 3. emit: `emit` delivers the answer (or its exit-code-2 block) and says
///    whether it was delivered;
/// 4. commit: only then, the effects are applied and the state saved.
pub fn answer(
    store: Option<&Store>,
    req: &Request,
    input: Result<Payload, payload::Unusable>,
    record: &mut CallRecord,
    emit: impl FnOnce(&Run) -> bool,
) -> Run {
    let harness = req
        .contract
        .unwrap_or(crate::harness::HarnessId::ClaudeCode)
        .id();
    // 1. Load: the dispatcher asks once it has a card to judge.
    let mut state = Loader {
        store,
        harness,
        record,
        locked: None,
    };
    // 2. Judge.
    let mut run = dispatch::run_loading(req, input, &mut state);
    if let Some(s) = store {
        failure_note(s, &mut run);
        liveness_note(s, &mut run, harness);
    }
    // 3. Emit.
    if !emit(&run) {
        return run;
    }
    // 4. Commit.
    commit(store, &run, state.locked.as_mut());
    run
}

/// The hook's [`dispatch::LoadSession`]: locks and loads the session's
/// state, and keeps the lock until the call is committed.
struct Loader<'a> {
    store: Option<&'a Store>,
    harness: &'static str,
    record: &'a mut CallRecord,
    locked: Option<state::Locked>,
}

impl dispatch::LoadSession for Loader<'_> {
    fn load(
        &mut self,
        spec: &'static EventSpec,
        payload: &Payload,
        project: &Path,
    ) -> Option<&mut Session> {
        let store = self.store?;
        self.locked = load_session(store, spec, payload, project, self.harness, self.record);
        self.locked.as_mut().map(|l| &mut l.session)
    }
}

/// Applies a delivered call's effects: the session's project root pinned
/// at its first call, the session's own (then saved), and the failure
/// record's note marked reported.
fn commit(store: Option<&Store>, run: &Run, locked: Option<&mut state::Locked>) {
    if let Some(store) = store {
        for e in &run.effects {
            if let Effect::Pin { part, root } = e {
                state::pin::record(store, part, root);
            }
        }
    }
    if let Some(l) = locked {
        save_session(run, l);
    }
    let Some(store) = store else { return };
    for e in &run.effects {
        if let Effect::Reported(upto) = e {
            failures::mark_reported(store, *upto);
        }
    }
}

/// Locks and loads the session's state, or records why the call runs
/// stateless.
fn load_session(
    store: &Store,
    spec: &'static EventSpec,
    p: &Payload,
    project: &Path,
    harness: &str,
    record: &mut CallRecord,
) -> Option<state::Locked> {
    let key = state::key::session_key(p.raw.get("session_id"), p.transcript_path(), project);
    record.session = key.session.clone();
    deadline::record_to(store.root(), &record.event, &record.session);
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
/// answers at all (a start whose cards all failed stays silent); the
/// record is marked reported up to it once the answer was delivered
/// ([`Effect::Reported`]).
fn failure_note(store: &Store, run: &mut Run) {
    let Some(spec) = run.event else { return };
    if spec.name != "SessionStart" || run.stopped.is_some() || run.outcome.is_empty() {
        return;
    }
    fold_pending(store, Duration::from_millis(50));
    let record = failures::load(store);
    let Some(note) = failures::unreported_note(&record) else {
        return;
    };
    run.add_user_note(&note);
    run.effects.push(Effect::Reported(record.next));
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The transaction writes nothing for an answer that was not
    /// delivered: not the session's state, not its first project-root pin
    /// (an effect, committed with the answer); once delivered, both.
    #[test]
    fn nothing_is_committed_before_the_answer_is_delivered() {
        let t = tempfile::tempdir().unwrap();
        let project = t.path().join("p");
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let store = Store::at(&t.path().join("state")).unwrap();
        let mut req = Request::new("PreToolUse".into(), vec!["destructive".into()], None);
        req.state_root = Some(store.root().to_path_buf());
        let payload = || {
            let v = json!({
                "session_id": "undelivered",
                "cwd": project,
                "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": "rm -rf ~/notes"},
            });
            Ok(Payload::from_map(v.as_object().unwrap().clone()))
        };
        let (part, _) = state::key::session_part(Some(&json!("undelivered")), None);
        let sessions = || {
            std::fs::read_dir(store.root().join("sessions"))
                .map(|d| {
                    d.flatten()
                        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
                        .count()
                })
                .unwrap_or(0)
        };
        let mut record = CallRecord::begin("PreToolUse", Some(&store));
        let run = answer(Some(&store), &req, payload(), &mut record, |run| {
            assert!(run.answer.is_some(), "the card fires");
            false
        });
        assert!(run.effects.iter().any(|e| matches!(e, Effect::Pin { .. })));
        assert_eq!(
            record.session,
            part.as_str(),
            "the record names the session"
        );
        assert_eq!(state::pin::recorded(store.root(), &part), None);
        assert_eq!(sessions(), 0);
        let mut record = CallRecord::begin("PreToolUse", Some(&store));
        answer(Some(&store), &req, payload(), &mut record, |_| true);
        assert_eq!(
            state::pin::recorded(store.root(), &part),
            Some(project.clone())
        );
        assert_eq!(sessions(), 1);
    }
}
