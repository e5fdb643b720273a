//! `cuecard dispatch [--contract <harness>] [-v] <Event> [<card> ...]`
//!
//! The hook path's command-line layer: argv, the deadline, the panic hook.
//! The transaction itself is the library's ([`crate::hook::answer`]). Exit
//! code 0, or 2 for a configured deny on an exit-code harness (see `main`);
//! stdout empty or one JSON object and a newline; no process spawned.

use crate::cli::EventArgs;
use crate::diag::{self, Kind};
use crate::dispatch::Request;
use crate::harness::HarnessId;
use crate::hook::CallRecord;
use crate::state::{self, Store};
use crate::{deadline, env, hook, payload, printer, unjudged};
use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Duration;

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
    // Not while the user's own config sets ask or deny (issue 26).
    if env::disabled() && crate::policy::disable_honoured() {
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
    // The call's state root and record, once known: kept here, so that
    // what comes after the answer (the failure record, the sweep) has
    // them even when the hook broke off.
    let mut store: Option<Store> = None;
    let mut record = CallRecord::default();
    let blocked = match catch_unwind(AssertUnwindSafe(|| hook(args, &mut store, &mut record))) {
        // Judged: the answer (or none) stands; the deadline only ends
        // the process from here on.
        Ok(blocked) => {
            printer::seal();
            blocked
        }
        // Broke off outside judging: what the policy says of a call
        // cuecard could not judge, as the deadline would, unless an answer
        // was written (then its exit code).
        Err(_) => deadline::answer_unjudged().unwrap_or_else(printer::exit_code) == 2,
    };
    if printer::dropped() {
        diag::record(
            Kind::Deadline,
            "the answer did not fit in the output pipe at once; nothing was written rather than part of it",
        );
    }
    // After the answer: the failure record, then (at most daily) the sweep.
    // Should they run past the deadline, its handler exits with the code
    // the answer called for (2 after a block), not 0.
    deadline::test_stall("after-answer");
    let _ = catch_unwind(AssertUnwindSafe(|| {
        hook::persist_failures(store.as_ref(), &record, Duration::from_millis(150))
    }));
    if let Some(store) = &store {
        let _ = catch_unwind(|| state::sweep::maybe_sweep(store));
    }
    // The one exception to exit 0 (docs/design.md §2): an explicit deny the user
    // configured, on a harness whose only decision channel is exit code 2.
    if blocked { 2 } else { 0 }
}

/// Runs the hook; true when the call was denied through exit code 2 (its
/// reason is already on stderr). The state store it opens goes into
/// `opened`, and the call's record into `record`.
fn hook(args: &[OsString], opened: &mut Option<Store>, record: &mut CallRecord) -> bool {
    let a = parse_args(args);
    if a.verbose {
        diag::set_verbose(true);
    }
    // The store first: the deadline's handler needs its root to note a
    // stdin that never closes.
    *opened = match Store::open() {
        Ok(s) => Some(s),
        Err(why) => {
            diag::record(Kind::StateRefused, format!("{why}; running stateless"));
            None
        }
    };
    let store = opened.as_ref();
    *record = CallRecord::begin(a.event.as_deref().unwrap_or("?"), store);
    let contract = match a.contract.as_deref() {
        None => Ok(None),
        Some(id) => HarnessId::parse(id).map(Some).ok_or(id),
    };
    // Before the payload is read: on a gating event, the policy, and with
    // it the deadline's answer (a stdin that never closes, a guard that
    // hangs: the policy's standing decision, not silence).
    let req = match (&a.event, &contract) {
        (Some(event), Ok(contract)) => {
            let mut req = Request::new(event.clone(), a.cards.clone(), *contract);
            req.state_root = store.map(|s| s.root().to_path_buf());
            req.once = true;
            if unjudged::gating(req.call()) {
                let u = unjudged::Unjudged::early(true);
                crate::dispatch::arm_deadline(&req, &u);
                req.unjudged = Some(u);
            } else if let Some(line) = req.neutral() {
                // Where silence is no answer (Antigravity CLI's PreToolUse).
                deadline::set_answer(Some(deadline::Answer::Stdout(line.to_string())));
            }
            Some(req)
        }
        _ => None,
    };
    let input = payload::read_stdin(payload::MAX_PAYLOAD_BYTES).and_then(|b| payload::parse(&b));
    if a.event.is_none() {
        diag::record(Kind::BadArguments, "no event given");
        return false;
    }
    if let Err(id) = contract {
        // An unknown dialect gets no answer rather than a guess.
        diag::record(
            Kind::BadArguments,
            format!("unknown contract {:?}", crate::text::sanitize(id, 40)),
        );
        return false;
    }
    let Some(req) = req else { return false };
    // The answer is delivered (or settled: no answer) as soon as judging
    // ends, before the state is saved: from then on the deadline only
    // ends the process, with the exit code the answer called for.
    let mut blocked = false;
    let deliver = |run: &crate::dispatch::Run, blocked: &mut bool| match (&run.block, &run.answer) {
        (Some(reason), _) => {
            *blocked = printer::hook_block(reason);
            *blocked
        }
        (None, Some(line)) => printer::hook_answer(line),
        (None, None) => {
            printer::seal();
            true
        }
    };
    let judged = catch_unwind(AssertUnwindSafe(|| {
        let mut delivered = false;
        let run = hook::answer(store, &req, input, record, |run| {
            delivered = deliver(run, &mut blocked);
            delivered
        });
        // The audit (docs/audit.md): after the answer and the state.
        if delivered {
            hook::audit_run(store, &req, &run, record);
        }
    }));
    if judged.is_err() {
        // Judging broke off (recorded by the panic hook): what the policy
        // says of a call cuecard could not judge, if nothing was answered.
        let why = "its judging broke off on an internal error, recorded for `cuecard status`";
        if let Some(u) = &req.unjudged
            && let Some(r) = unjudged::ruling(req.call(), &u.policy, why)
        {
            let mut late = false;
            let run = crate::dispatch::decision_only(&req, r);
            if deliver(&run, &mut late) {
                let _ = catch_unwind(AssertUnwindSafe(|| {
                    hook::audit_run(store, &req, &run, record)
                }));
            }
            blocked |= late;
        } else if let Some(line) = req.neutral() {
            // No standing decision: the neutral answer, where silence is
            // no answer (Antigravity CLI's PreToolUse).
            printer::hook_answer(line);
        }
    }
    blocked
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
