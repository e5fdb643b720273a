//! The dispatcher: one payload, the cards of one registration, one answer.
//!
//! The hook (`hook::answer`, for `cuecard dispatch` and `cuecard replay`)
//! calls [`run_loading`], with its session loader; `cuecard explain` calls
//! [`run`], the same stages, and only prints the trace beside the answer,
//! so what a human is shown is what the hook does.
//!
//! This file holds the request, the run and its stages in order
//! (`stages`); each stage is in its own file: the gates before the cards
//! (`gates`), the cards chosen (`choose`), each card judged (`judge`), a
//! finding presented (`present`), and the answer rendered and committed
//! (`answer`).

mod answer;
mod choose;
mod gates;
mod judge;
mod present;

use crate::context::Ctx;
use crate::envelope::Outcome;
use crate::event::EventSpec;
use crate::harness::{self, EventRow, HarnessId};
use crate::payload::{Payload, Unusable};
use crate::state::key::{CooldownKey, OnceKey, RepeatKey};
use crate::state::ledger::LedgerKind;
use crate::state::{self, Session};
use choose::{Lazy, choose_cards, prepare_packs, trace_resolution};
pub use gates::arm_deadline;
pub(crate) use gates::decision_only;
use gates::{
    audit_call, canonical_event, channel_gate, contract_row, once_gate, pinned_root, translate,
    unreadable, usable,
};
use judge::judge_each;

/// What the hook was asked to do ([`Request::new`]).
#[derive(Debug, Clone)]
pub struct Request {
    /// The event name as registered: the canonical Claude Code name, or
    /// the harness's own name with a contract.
    pub event: String,
    /// The cards this registration lists; empty means every shipped card
    /// bound to the event(s) it evaluates.
    pub cards: Vec<String>,
    /// `--contract`: translate from and to this harness's dialect.
    pub contract: Option<HarnessId>,
    /// The state root, where user and project cards' parsed form is cached
    /// and the trust store lives; `None` runs without either (project cards
    /// then stay inactive).
    pub state_root: Option<std::path::PathBuf>,
    /// Answer SessionStart once per session and source within
    /// [`harness::once::WINDOW`] (the hook path; `explain` only reads).
    pub once: bool,
    /// The policy read before the payload, for what cuecard cannot judge
    /// (an unreadable payload, the deadline): see [`crate::unjudged`].
    /// `None`: such a call stays silent whatever the policy.
    pub unjudged: Option<crate::unjudged::Unjudged>,
    /// The neutral answer of the contract's row for `event`, where its
    /// harness wants a decision on every call (Antigravity CLI's
    /// PreToolUse; [`harness::neutral`]), read once with the row.
    neutral: Option<String>,
}

impl Request {
    /// A request for `event` with `cards`, in the dialect of `contract`:
    /// no state root, answered every time, silent where cuecard cannot
    /// judge (set the fields to change that). The contract's row for the
    /// event is read here for its neutral answer, the one every path that
    /// answers without judging uses (the deadline's, a judging that broke
    /// off, a call with nothing to say).
    pub fn new(event: String, cards: Vec<String>, contract: Option<HarnessId>) -> Request {
        let neutral = contract.and_then(|h| {
            h.spec()
                .row(&event)
                .and_then(|row| harness::neutral(h, row.native))
        });
        Request {
            event,
            cards,
            contract,
            state_root: None,
            once: false,
            unjudged: None,
            neutral,
        }
    }

    /// What a call answers, where silence is no answer, when cuecard stops
    /// before judging or has nothing to say; `None` where printing nothing
    /// is the neutral answer.
    pub fn neutral(&self) -> Option<&str> {
        self.neutral.as_deref()
    }

    /// What the standing decision of a call cuecard cannot judge depends on.
    pub fn call(&self) -> crate::unjudged::Call<'_> {
        crate::unjudged::Call {
            event: &self.event,
            contract: self.contract,
            cards: &self.cards,
        }
    }
}

/// What happened to one card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The card emitted its text.
    Fired,
    /// Its guard looked and found nothing.
    Quiet,
    /// It was not evaluated (not bound to the event, matcher, disabled...).
    Skipped,
    /// Something went wrong (unknown card, malformed card, guard panic).
    Failed,
}

#[derive(Debug, Clone)]
pub struct CardTrace {
    pub card: String,
    pub verdict: Verdict,
    pub why: String,
}

/// What a call does to the state, applied once the answer was written:
/// to the session by [`Run::commit`]; a pin and the failure record's mark
/// (in the store, beside the session) by the hook's commit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// A once-per-session key, spent when `card` was emitted.
    SpendOnce { card: String, key: OnceKey },
    /// A user note's once-per-session key, spent with the answer.
    Note(OnceKey),
    /// A cooldown, stamped when `card` was emitted.
    Stamp { card: String, key: CooldownKey },
    /// A finding injected in full (the repeat rule).
    Seen(RepeatKey),
    /// How the ledger counts `card`'s text (a card in full otherwise).
    Ledger { card: String, kind: LedgerKind },
    /// The session's project root, pinned at its first call (issue 26).
    Pin {
        part: state::key::SessionPart,
        root: std::path::PathBuf,
    },
    /// The failure record's note was given, up to this position: marked
    /// reported.
    Reported(u64),
}

/// The result of one dispatch.
#[derive(Debug, Default)]
pub struct Run {
    pub event: Option<&'static EventSpec>,
    pub outcome: Outcome,
    pub trace: Vec<CardTrace>,
    /// Why nothing was evaluated at all (unknown event, no payload, ...).
    pub stopped: Option<String>,
    /// The exact line written to stdout, if any.
    pub answer: Option<String>,
    /// What the call does to the session's state once the answer is written.
    pub effects: Vec<Effect>,
    /// The contract and the native event it answers, if any.
    pub contract: Option<(HarnessId, &'static EventRow)>,
    /// The native event only carries a decision (the harness drops its
    /// context): the cards run for their policy alone.
    pub decision_only: bool,
    /// The decision as rendered for this harness and event (after an ask
    /// became a deny where the harness cannot ask), for the ledger and
    /// `explain`; `None` where no decision was rendered.
    pub decided: Option<(crate::policy::Level, String)>,
    /// Exit code 2 with this on stderr and nothing on stdout: an explicit
    /// deny on a harness whose only decision channel is the exit code.
    pub block: Option<String>,
    /// The call as an audit record names it (docs/audit.md): filled once
    /// the payload is in canonical shape.
    pub call: crate::audit::Call,
    /// The call's tool and target, for the ledger (`cuecard report`).
    pub subject: state::ledger::EntryDetail,
}

/// Runs the cards of `req` on `input`.
///
/// `session` is the call's state when there is one. Guards read it, and the
/// compaction guard moves its counters; the caller saves it only when the
/// answer was written, after [`Run::commit`].
pub fn run(req: &Request, input: Result<Payload, Unusable>, session: Option<&mut Session>) -> Run {
    run_with(req, input, Source::Given(session))
}

/// Like [`run`], but the session's state comes from `state` once the
/// payload is in canonical shape (after the contract's translation) and
/// names its project, and only when the call has a card to judge. The
/// hook's loader keeps what it locked, to commit and save once the answer
/// was delivered.
pub fn run_loading(
    req: &Request,
    input: Result<Payload, Unusable>,
    state: &mut dyn LoadSession,
) -> Run {
    run_with(req, input, Source::Load(state))
}

/// Where the hook path gets the call's session state (see [`run_loading`]).
pub trait LoadSession {
    /// The session's state for a call of `spec` whose payload, in canonical
    /// shape, names the project `project`; `None`: the call runs stateless.
    fn load(
        &mut self,
        spec: &'static EventSpec,
        payload: &Payload,
        project: &std::path::Path,
    ) -> Option<&mut Session>;
}

enum Source<'s> {
    /// `explain` and tests: this state, or none; a project root is only
    /// read from its pin, never pinned.
    Given(Option<&'s mut Session>),
    /// The hook path: loaded when a card is chosen; the root is pinned.
    Load(&'s mut dyn LoadSession),
}

/// Why a call evaluates nothing (the trace's `stopped` line).
type Stop = String;

/// The stages of one dispatch: the contract's row, the canonical event,
/// the channel gate, the payload, its translation, the cards, the state,
/// each card judged, the answer rendered, the SessionStart once gate.
fn run_with(req: &Request, input: Result<Payload, Unusable>, source: Source) -> Run {
    let mut run = Run::default();
    // The guards read the [effects] packs of this call only (`prepare_packs`).
    crate::guards::effects::packs::clear();
    if let Err(why) = stages(req, input, source, &mut run) {
        run.stopped = Some(why);
    }
    crate::guards::effects::packs::clear();
    // Where the harness wants a decision on every call (Antigravity CLI's
    // PreToolUse), a call with nothing to say answers the neutral one.
    if run.answer.is_none() && run.block.is_none() {
        run.answer = req.neutral().map(str::to_string);
    }
    run
}

fn stages(
    req: &Request,
    input: Result<Payload, Unusable>,
    source: Source,
    run: &mut Run,
) -> Result<(), Stop> {
    let contract = contract_row(req)?;
    run.contract = contract;
    let spec = canonical_event(req, contract)?;
    run.event = Some(spec);
    // A native event that only carries a decision (Gemini's BeforeTool,
    // Qwen's PreToolUse, Kiro's preToolUse, Windsurf's pre-hooks) runs its
    // cards for their policy alone; registered only with a policy set.
    run.decision_only =
        contract.is_some_and(|(h, row)| {
            !row.delivery.delivers() && h.spec().decides_on(row.native).is_some()
        }) || harness::judged_for_decision(spec.event, contract.map(|(h, r)| (h, r.native)));
    channel_gate(spec, contract, run.decision_only)?;
    let mut payload = match input {
        Ok(p) => p,
        Err(why) => {
            unreadable(req, &why, run);
            return Err(usable(Err(why)).err().unwrap_or_default());
        }
    };
    let events = translate(contract, spec, &mut payload);
    run.call = audit_call(contract, spec, &payload);
    test_panic("pipeline");
    // One context of the call, whose lazily computed parts (project root,
    // written files, paths) the cheap look and then every guard share.
    let probe = Ctx::new(spec, &payload, None);
    if let Some(root) = pinned_root(req, &source, &payload, &probe, run) {
        probe.fix_project_root(root);
    }
    let project_root = probe.project_root().to_path_buf();
    // The policy read before the payload, completed with this project's
    // (and the deadline's answer with it).
    let early = req.unjudged.clone().map(|mut u| {
        if u.complete(&project_root, req.state_root.as_deref()) && u.arm_deadline {
            arm_deadline(req, &u);
        }
        u.policy
    });
    // Otherwise the policy is read only once a guard found something, or a
    // trusted project card would displace a card of a lower scope.
    let policy = Lazy {
        told: std::cell::Cell::new(early.is_none()),
        cell: early.map_or_else(std::cell::OnceCell::new, std::cell::OnceCell::from),
        project_root: &project_root,
        state_root: req.state_root.as_deref(),
    };
    let mut resolved = choose_cards(req, &events, &probe, &project_root, &policy);
    trace_resolution(&resolved, run);
    prepare_packs(
        req,
        &project_root,
        &policy,
        std::mem::take(&mut resolved.listed),
    );
    let session: Option<&mut Session> = match source {
        Source::Given(s) => s,
        Source::Load(state) if !resolved.chosen.is_empty() => {
            state.load(spec, &payload, &project_root)
        }
        Source::Load(_) => None,
    };
    judge_each(spec, &events, &probe, &resolved, session, &policy, run);
    run.render();
    // The ledger's tool and target, only for a call that records an entry.
    if !run.outcome.fragments.is_empty() || run.decided.is_some() {
        run.subject = state::ledger::EntryDetail::of_call(&payload);
    }
    once_gate(req, spec, &payload, run)
}

/// Debug builds panic at a named point when `CUECARD_TEST_PANIC` names it,
/// so that the integration tests can prove panics are contained. Release
/// builds compile this away.
fn test_panic(point: &str) {
    if cfg!(debug_assertions) && std::env::var("CUECARD_TEST_PANIC").is_ok_and(|v| v == point) {
        panic!("CUECARD_TEST_PANIC={point}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The neutral answer is read with the contract's row: Antigravity
    /// CLI's PreToolUse asks; its other events, an event it does not have
    /// and a call with no contract answer nothing.
    #[test]
    fn the_neutral_answer_comes_with_the_request() {
        let req = |event: &str, contract| Request::new(event.into(), Vec::new(), contract);
        let agy = Some(HarnessId::Antigravity);
        assert_eq!(
            req("PreToolUse", agy).neutral(),
            Some(r#"{"decision":"ask"}"#)
        );
        assert_eq!(req("PostToolUse", agy).neutral(), None);
        assert_eq!(req("NoSuchEvent", agy).neutral(), None);
        assert_eq!(req("PreToolUse", None).neutral(), None);
        assert_eq!(req("PreToolUse", Some(HarnessId::Codex)).neutral(), None);
    }
}
