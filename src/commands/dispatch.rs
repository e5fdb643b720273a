//! `cuecard dispatch [--contract <harness>] [-v] <Event> [<card> ...]`
//!
//! The hook path. Exit code 0 on every path; stdout empty or one JSON object
//! and a newline; a deadline; no process spawned.

use crate::cli::EventArgs;
use crate::diag::{self, Kind};
use crate::dispatch::{self, Request};
use crate::event::EventSpec;
use crate::harness::HarnessId;
use crate::payload::Payload;
use crate::state::{self, Store, failures};
use crate::{deadline, env, payload, printer};
use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

/// The call's state root, once known (the failure record and the sweep,
/// after the answer, use it).
static STORE: OnceLock<Store> = OnceLock::new();
/// The call's event and session key part, for the failure record.
static CALL: Mutex<(String, String)> = Mutex::new((String::new(), String::new()));

/// Parsed hook arguments. Anything odd is recorded and ignored.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct HookArgs {
    pub contract: Option<String>,
    pub verbose: bool,
    pub event: Option<String>,
    pub cards: Vec<String>,
}

/// Lenient parsing: `--contract X`, `--contract=X`, `-v`; the first other
/// word is the event, the rest are cards. Non-UTF-8 words are dropped.
pub fn parse_args(args: &[OsString]) -> HookArgs {
    let mut out = HookArgs::default();
    let mut words = args.iter().map(|a| a.to_str());
    while let Some(w) = words.next() {
        let Some(w) = w else {
            diag::record(Kind::BadArguments, "an argument is not UTF-8");
            continue;
        };
        if w == "-v" || w == "--verbose" {
            out.verbose = true;
        } else if w == "--contract" {
            out.contract = words.next().flatten().map(str::to_string);
        } else if let Some(c) = w.strip_prefix("--contract=") {
            out.contract = Some(c.to_string());
        } else if w.starts_with('-') {
            diag::record(Kind::BadArguments, format!("unknown option {w:?}"));
        } else if out.event.is_none() {
            out.event = Some(w.to_string());
        } else {
            out.cards.push(w.to_string());
        }
    }
    out
}

/// Turns clap's view back into words (for `cuecard -v dispatch ...`).
pub fn reassemble(a: &EventArgs, verbose: bool) -> Vec<OsString> {
    let mut v: Vec<OsString> = Vec::new();
    if verbose {
        v.push("-v".into());
    }
    if let Some(c) = &a.contract {
        v.push(format!("--contract={c}").into());
    }
    v.push(a.event.clone().into());
    v.extend(a.cards.iter().map(OsString::from));
    v
}

pub fn main(args: &[OsString]) -> i32 {
    if env::disabled() {
        return 0;
    }
    // A panic anywhere below is caught; its message is recorded, not printed.
    std::panic::set_hook(Box::new(|info| {
        let place = info
            .location()
            .map(|l| format!(" at {}:{}", l.file(), l.line()))
            .unwrap_or_default();
        diag::record(Kind::GuardPanic, format!("panic{place}"));
    }));
    deadline::arm(deadline::budget());
    let blocked = catch_unwind(AssertUnwindSafe(|| hook(args))).unwrap_or(false);
    // After the answer: the failure record, then (at most daily) the sweep.
    let _ = catch_unwind(|| persist_failures(Duration::from_millis(150)));
    if let Some(store) = STORE.get() {
        let _ = catch_unwind(|| state::sweep::maybe_sweep(store));
    }
    // The one exception to exit 0 (DESIGN §2): an explicit deny the user
    // configured, on a harness whose only decision channel is exit code 2.
    if blocked { 2 } else { 0 }
}

/// Writes this call's failures (if any) to the failure record. Called
/// once, after the answer (the deadline's handler writes its own line).
fn persist_failures(wait: Duration) {
    let failures = diag::snapshot();
    if failures.is_empty() {
        return;
    }
    let Some(store) = STORE.get() else { return };
    let (event, session) = CALL.lock().map(|c| c.clone()).unwrap_or_default();
    failures::append(store, &event, &session, &failures, wait);
}

/// How long a call waits for its session's lock: most of the deadline.
fn lock_wait() -> Duration {
    deadline::budget() * 6 / 10
}

/// Runs the hook; true when the call was denied through exit code 2 (its
/// reason is already on stderr).
fn hook(args: &[OsString]) -> bool {
    let a = parse_args(args);
    if a.verbose {
        diag::set_verbose(true);
    }
    // The store first: the deadline's handler needs its root to note a
    // stdin that never closes.
    let store = match Store::open() {
        Ok(s) => {
            let _ = STORE.set(s.clone());
            Some(s)
        }
        Err(why) => {
            diag::record(Kind::StateRefused, format!("{why}; running stateless"));
            None
        }
    };
    if let Ok(mut c) = CALL.lock() {
        c.0 = a.event.clone().unwrap_or_else(|| "?".into());
        if let Some(s) = &store {
            deadline::record_to(s.root(), &c.0, "");
        }
    }
    let input = payload::read_stdin(payload::MAX_PAYLOAD_BYTES).and_then(|b| payload::parse(&b));
    let Some(event) = a.event else {
        diag::record(Kind::BadArguments, "no event given");
        return false;
    };
    let contract = match a.contract.as_deref() {
        None => None,
        Some(id) => match HarnessId::parse(id) {
            Some(h) => Some(h),
            None => {
                // An unknown dialect gets no answer rather than a guess.
                diag::record(
                    Kind::BadArguments,
                    format!("unknown contract {:?}", crate::text::sanitize(id, 40)),
                );
                return false;
            }
        },
    };
    let req = Request {
        event,
        cards: a.cards,
        contract,
        state_root: store.as_ref().map(|s| s.root().to_path_buf()),
        once: true,
    };
    let run = answer(store.as_ref(), &req, input, |line| match line {
        Some(line) => printer::hook_answer(line),
        None => true,
    });
    match &run.block {
        Some(reason) => printer::hook_block(reason),
        None => false,
    }
}

/// What the hook does with one payload once it is read: load the session's
/// state from `store` (when there is one), run the cards, hand the answer to
/// `emit`, and, when `emit` says it was delivered, commit the state. Shared
/// with `cuecard replay`, which runs exactly this against a private store.
pub fn answer(
    store: Option<&Store>,
    req: &Request,
    input: Result<Payload, payload::Unusable>,
    emit: impl FnOnce(Option<&str>) -> bool,
) -> dispatch::Run {
    // The session's state is loaded by the dispatcher once the payload is in
    // canonical shape and only when there is a card to evaluate.
    let load = |spec: &'static EventSpec, p: &Payload, project: &std::path::Path| {
        let store = store?;
        let key = state::key::session_key(p.raw.get("session_id"), p.transcript_path(), project);
        if let Ok(mut c) = CALL.lock() {
            c.1 = key.session.clone();
            deadline::record_to(store.root(), &c.0, &c.1);
        }
        match store.lock_session(&key, project, lock_wait()) {
            Ok(Some(mut l)) => {
                state::observe(&mut l.session, spec.name, p);
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
    };
    let (mut run, mut locked) = dispatch::run_loading(req, input, load);
    let spec = run.event;
    // The failure record's one-time note, at the next session start that
    // answers at all (a start whose cards all failed stays silent).
    let mut told = None;
    if let (Some(store), Some(spec)) = (store, spec)
        && spec.name == "SessionStart"
        && run.stopped.is_none()
        && !run.outcome.is_empty()
    {
        failures::fold_pending(store, Duration::from_millis(50));
        let record = failures::load(store);
        if let Some(note) = failures::unreported_note(&record) {
            run.add_user_note(&note);
            told = Some(record.next);
        }
    }
    if !emit(run.answer.as_deref()) {
        return run;
    }
    if let Some(l) = &mut locked {
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
    if let (Some(store), Some(upto)) = (store, told) {
        failures::mark_reported(store, upto);
    }
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &[&str]) -> Vec<OsString> {
        s.iter().map(OsString::from).collect()
    }

    #[test]
    fn lenient_parsing() {
        let a = parse_args(&words(&[
            "--contract",
            "codex",
            "PreToolUse",
            "a",
            "b",
            "--bogus",
        ]));
        assert_eq!(a.contract.as_deref(), Some("codex"));
        assert_eq!(a.event.as_deref(), Some("PreToolUse"));
        assert_eq!(a.cards, vec!["a", "b"]);
        assert_eq!(parse_args(&[]).event, None);
    }
}
