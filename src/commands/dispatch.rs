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
use crate::state::{self, Store};
use crate::{deadline, env, hook, payload, printer};
use std::ffi::OsString;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::OnceLock;
use std::time::Duration;

/// The call's state root, once known (the failure record and the sweep,
/// after the answer, use it).
static STORE: OnceLock<Store> = OnceLock::new();

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
    let blocked = catch_unwind(AssertUnwindSafe(|| hook(args))).unwrap_or(false);
    // After the answer: the failure record, then (at most daily) the sweep.
    let _ = catch_unwind(|| hook::persist_failures(STORE.get(), Duration::from_millis(150)));
    if let Some(store) = STORE.get() {
        let _ = catch_unwind(|| state::sweep::maybe_sweep(store));
    }
    // The one exception to exit 0 (docs/design.md §2): an explicit deny the user
    // configured, on a harness whose only decision channel is exit code 2.
    if blocked { 2 } else { 0 }
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
    hook::begin_call(a.event.as_deref().unwrap_or("?"), store.as_ref());
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
    let run = hook::answer(store.as_ref(), &req, input, |line| match line {
        Some(line) => printer::hook_answer(line),
        None => true,
    });
    match &run.block {
        Some(reason) => printer::hook_block(reason),
        None => false,
    }
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
