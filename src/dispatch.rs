//! The dispatcher: one payload, the cards of one registration, one answer.
//!
//! `cuecard dispatch` and `cuecard explain` both call [`run`]; explain only
//! prints the trace beside the answer, so what a human is shown is what the
//! hook does.

use crate::card::{self, Card};
use crate::context::Ctx;
use crate::deck::resolve::{self, Chosen};
use crate::deck::sources::CardScope;
use crate::diag::{self, Kind};
use crate::envelope::{self, Outcome};
use crate::event::{self, EventSpec, Matcher};
use crate::guards;
use crate::harness::{self, EventRow, HarnessId};
use crate::paths;
use crate::payload::{Payload, Unusable};
use crate::state::key::{CooldownKey, OnceKey, RepeatKey};
use crate::state::ledger::LedgerKind;
use crate::state::{self, Session};
use crate::text::{self, Fragment};
use crate::trigger::Trigger;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What the hook was asked to do.
#[derive(Debug, Clone, Default)]
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
}

impl Request {
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

/// What a dispatch does to the session's state, applied by [`Run::commit`]
/// once the answer was written.
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

impl Run {
    /// Adds a user-facing line (`systemMessage`) and renders the answer
    /// again. Used for notes that come from outside the cards (the failure
    /// record's one-time note at SessionStart).
    pub fn add_user_note(&mut self, note: &str) {
        let Some(spec) = self.event else { return };
        // A stopped call (dropped by its contract, or a SessionStart already
        // answered from another surface) stays silent.
        if !spec.carries_context() || self.stopped.is_some() {
            return;
        }
        self.outcome.user_notes.push(text::sanitize(note, 500));
        self.render();
    }

    /// Renders the outcome with the one renderer, then, under a contract,
    /// reshapes that envelope into what the harness reads.
    pub(crate) fn render(&mut self) {
        let Some(spec) = self.event else { return };
        // The decision, as this harness can take it on this event: only
        // through the event's decision mechanism and the field the
        // contract names; an ask becomes a deny where there is no ask.
        let (h, native) = match self.contract {
            None => (HarnessId::ClaudeCode, spec.name),
            Some((h, row)) => (h, row.native),
        };
        let decides = h.spec().decides_on(native);
        let mut outcome = self.outcome.clone();
        outcome.ruling = None;
        self.decided = None;
        if let Some(r) = &self.outcome.ruling {
            match harness::enforcement(Some(h), spec.event) {
                harness::Enforcement::AdviceOnly => {}
                _ if decides.is_none() => {}
                e => {
                    let cannot_ask = matches!(e, harness::Enforcement::DeniesOnly(..));
                    let (level, reason) = r.rendered(h.name(), cannot_ask);
                    self.decided = Some((level, reason.clone()));
                    outcome.ruling = Some(envelope::Ruling {
                        level,
                        reason,
                        by: r.by.clone(),
                    });
                }
            }
        }
        if self.decision_only {
            // Context here is dropped by the harness: only the decision.
            outcome.fragments.clear();
            outcome.user_notes.clear();
        }
        let canonical = envelope::render(spec, &outcome);
        self.block = None;
        self.answer = match self.contract {
            None => canonical.map(|v| v.to_string()),
            Some((_, row)) => {
                match canonical.and_then(|v| harness::reshape_deciding(row, decides, v)) {
                    Some(harness::Answer::Block(reason)) => {
                        self.block = Some(reason);
                        None
                    }
                    a => a.map(|a| a.line()),
                }
            }
        };
    }

    /// How the ledger counts `card`'s text: a reminder over a warning over
    /// a card in full.
    pub fn ledger_kind(&self, card: &str) -> LedgerKind {
        let has = |kind: LedgerKind| {
            self.effects.iter().any(
                |e| matches!(e, Effect::Ledger { card: c, kind: k } if c == card && *k == kind),
            )
        };
        if has(LedgerKind::Reminder) {
            LedgerKind::Reminder
        } else if has(LedgerKind::Warning) {
            LedgerKind::Warning
        } else {
            LedgerKind::Card
        }
    }

    /// Whether `card`'s finding is a warning (compaction), as the ledger
    /// counts it.
    pub fn is_warning(&self, card: &str) -> bool {
        self.effects.iter().any(
            |e| matches!(e, Effect::Ledger { card: c, kind: LedgerKind::Warning } if c == card),
        )
    }

    /// Applies what this call did to the session's state: once-per-session
    /// keys, cooldowns, repeat-rule keys, and the ledger. Call it only once
    /// the answer was actually written, so that nothing is marked spent or
    /// seen for a card the model never received.
    pub fn commit(&self, session: &mut Session) {
        let event = self.event.map_or("?", |e| e.name);
        let now = state::now();
        // Every ask and deny rendered is in the ledger, whatever the
        // answer carried beside it.
        if let (Some((level, reason)), Some(r)) = (&self.decided, &self.outcome.ruling) {
            let ids: Vec<&str> = r.by.iter().map(|(id, _)| id.as_str()).collect();
            let kind = match level {
                crate::policy::Level::Ask => LedgerKind::Ask,
                _ => LedgerKind::Deny,
            };
            let from: Vec<String> =
                r.by.iter()
                    .map(|(id, from)| format!("{id}: {from}"))
                    .collect();
            let detail = state::ledger::EntryDetail {
                reason: Some(text::sanitize(reason, state::ledger::MAX_REASON_CHARS)),
                source: Some(text::sanitize(&from.join("; "), 300)),
                ..self.subject.clone()
            };
            session
                .ledger
                .record_with(now, event, &ids.join(","), kind, reason, detail);
        }
        // A decision-only event delivered no advice: nothing is spent or
        // seen, so the after-tool event still gives it in full.
        if self.decision_only {
            return;
        }
        let emitted = |card: &str| self.outcome.fragments.iter().any(|f| f.card == card);
        for e in &self.effects {
            if let Effect::SpendOnce { card, key } = e
                && emitted(card)
            {
                session.spend(key);
            }
        }
        for e in &self.effects {
            if let Effect::Note(key) = e {
                session.spend(key);
            }
        }
        for e in &self.effects {
            if let Effect::Stamp { card, key } = e
                && emitted(card)
            {
                session.stamp(key, state::now());
            }
        }
        for e in &self.effects {
            if let Effect::Seen(key) = e {
                session.mark_seen(key);
            }
        }
        for (card, kind, text) in self.carried() {
            session
                .ledger
                .record_with(now, event, card, kind, &text, self.subject.clone());
        }
    }

    /// The cards' texts the answer carries (what survived the cap), each
    /// with how the ledger counts it and its text with its pointer.
    pub fn carried(&self) -> Vec<(&str, LedgerKind, String)> {
        let context = self.outcome.context_text();
        self.outcome
            .fragments
            .iter()
            .filter(|f| context.contains(f.text.lines().next().unwrap_or_default()))
            .map(|f| (f.card.as_str(), self.ledger_kind(&f.card), fragment_text(f)))
            .collect()
    }
}

fn fragment_text(f: &Fragment) -> String {
    match &f.pointer {
        Some(p) => format!("{}\n\nFull procedure: {p}", f.text),
        None => f.text.clone(),
    }
}

/// Runs the cards of `req` on `input`.
///
/// `session` is the call's state when there is one. Guards read it, and the
/// compaction guard moves its counters; the caller saves it only when the
/// answer was written, after [`Run::commit`].
pub fn run(req: &Request, input: Result<Payload, Unusable>, session: Option<&mut Session>) -> Run {
    run_with(req, input, Source::Given(session), &mut None)
}

/// Like [`run`], but the session's state is loaded by `load` once the
/// payload is in canonical shape (after the contract's translation), and
/// only when the call has a card to evaluate. The loaded state comes back
/// beside the run, for the caller to commit and save once the answer was
/// written.
pub fn run_loading<'l>(
    req: &Request,
    input: Result<Payload, Unusable>,
    load: impl FnOnce(&'static EventSpec, &Payload, &std::path::Path) -> Option<state::Locked> + 'l,
) -> (Run, Option<state::Locked>) {
    let mut locked = None;
    let run = run_with(req, input, Source::Load(Box::new(load)), &mut locked);
    (run, locked)
}

/// Loads the call's session state, given the project root the call found.
type Loader<'l> =
    Box<dyn FnOnce(&'static EventSpec, &Payload, &std::path::Path) -> Option<state::Locked> + 'l>;

enum Source<'s, 'l> {
    Given(Option<&'s mut Session>),
    Load(Loader<'l>),
}

/// Why a call evaluates nothing (the trace's `stopped` line).
type Stop = String;

/// The stages of one dispatch: the contract's row, the canonical event,
/// the channel gate, the payload, its translation, the cards, the state,
/// each card judged, the answer rendered, the SessionStart once gate.
fn run_with(
    req: &Request,
    input: Result<Payload, Unusable>,
    source: Source,
    locked: &mut Option<state::Locked>,
) -> Run {
    let mut run = Run::default();
    // The guards read the user's [effects] packs through the policy layer.
    crate::guards::effects::packs::set_loader(crate::policy::packs::load);
    if let Err(why) = stages(req, input, source, locked, &mut run) {
        run.stopped = Some(why);
    }
    run
}

fn stages(
    req: &Request,
    input: Result<Payload, Unusable>,
    source: Source,
    locked: &mut Option<state::Locked>,
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
    if let Some(root) = pinned_root(req, &source, &payload, &probe) {
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
    let resolved = choose_cards(req, &events, &probe, &project_root, &policy);
    trace_resolution(&resolved, run);
    let session: Option<&mut Session> = match source {
        Source::Given(s) => s,
        Source::Load(load) if !resolved.chosen.is_empty() => {
            *locked = load(spec, &payload, &project_root);
            locked.as_mut().map(|l| &mut l.session)
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

/// The session's project root as its first call found it (issue 26: the
/// root stays put), recorded on the hook path; `None` without a state root.
fn pinned_root(
    req: &Request,
    source: &Source,
    payload: &Payload,
    probe: &Ctx,
) -> Option<std::path::PathBuf> {
    let state_root = req.state_root.as_deref()?;
    let (part, _) =
        state::key::session_part(payload.raw.get("session_id"), payload.transcript_path());
    if !matches!(source, Source::Load(_)) {
        // `explain` and tests: read a pin, never make one.
        return state::pin::recorded(state_root, &part);
    }
    if let Some(root) = state::pin::recorded(state_root, &part) {
        return Some(root);
    }
    let store = state::Store::at(state_root).ok()?;
    Some(state::pin::project_root(
        &store,
        &part,
        &crate::target::find_project_root(&probe.cwd()),
    ))
}

/// The call as an audit record names it: no payload text but the tool's
/// name and the harness's session and tool-call ids (docs/audit.md).
fn audit_call(
    contract: Option<(HarnessId, &'static EventRow)>,
    spec: &'static EventSpec,
    payload: &Payload,
) -> crate::audit::Call {
    let id = |s: Option<&str>| s.map(|s| text::sanitize(s, 128));
    crate::audit::Call {
        harness: contract
            .map_or(HarnessId::ClaudeCode, |(h, _)| h)
            .id()
            .to_string(),
        event: spec.name.to_string(),
        session: id(payload.session_id()),
        tool: id(payload.tool_name()),
        tool_call: id(payload.str_field("tool_use_id")),
    }
}

/// The contract's row for the registered event (`None` without a contract).
fn contract_row(req: &Request) -> Result<Option<(HarnessId, &'static EventRow)>, Stop> {
    let Some(h) = req.contract else {
        return Ok(None);
    };
    match h.spec().row(&req.event) {
        Some(row) => Ok(Some((h, row))),
        None => {
            diag::record(
                Kind::UnknownEvent,
                format!(
                    "unknown {} event {:?}",
                    h.id(),
                    text::sanitize(&req.event, 60)
                ),
            );
            Err(format!(
                "`{}` is not a {} event cuecard knows: no output",
                req.event,
                h.name()
            ))
        }
    }
}

/// The canonical event the call answers.
fn canonical_event(
    req: &Request,
    contract: Option<(HarnessId, &'static EventRow)>,
) -> Result<&'static EventSpec, Stop> {
    let canonical = contract.map_or(req.event.as_str(), |(_, row)| row.canonical.name());
    event::lookup(canonical).ok_or_else(|| {
        diag::record(
            Kind::UnknownEvent,
            format!("unknown event {:?}", text::sanitize(&req.event, 60)),
        );
        format!("`{}` is not an event cuecard knows: no output", req.event)
    })
}

/// Whether what the hook prints on this event reaches the model at all.
fn channel_gate(
    spec: &'static EventSpec,
    contract: Option<(HarnessId, &'static EventRow)>,
    decision_only: bool,
) -> Result<(), Stop> {
    if let Some((h, row)) = contract
        && !row.delivery.delivers()
        && !decision_only
    {
        return Err(format!(
            "{} does not deliver what a hook prints on `{}` ({}): no output",
            h.name(),
            row.native,
            row.note
        ));
    }
    if !spec.carries_context() && !decision_only {
        return Err(format!(
            "`{}` has no channel to the model ({}): no output",
            spec.name, spec.note
        ));
    }
    Ok(())
}

/// A tool payload that could not be read whole (over the bound, not JSON,
/// not an object, a failed read) gets the policy's standing decision on a
/// gating event; stdin that was empty or a terminal held no call at all.
fn unreadable(req: &Request, why: &Unusable, run: &mut Run) {
    let Some(u) = &req.unjudged else { return };
    if matches!(why, Unusable::Tty | Unusable::Empty) {
        return;
    }
    // No payload names the project: the working directory's (a trusted
    // project file only tightens).
    let mut u = u.clone();
    let here = std::env::current_dir().unwrap_or_default();
    u.complete(&here, req.state_root.as_deref());
    crate::policy::record_problems(&u.policy);
    let why = format!("its payload could not be read whole: {}", why.describe());
    if let Some(r) = crate::unjudged::ruling(req.call(), &u.policy, &why) {
        run.outcome.ruling = Some(r);
        run.decision_only = true;
        run.render();
    }
}

/// Prepares the deadline's answer for `req`: the policy's standing
/// decision as this harness takes it, or nothing (no policy, not a gating
/// event).
pub fn arm_deadline(req: &Request, u: &crate::unjudged::Unjudged) {
    let why = format!(
        "its deadline of {} ms passed first",
        crate::deadline::budget().as_millis()
    );
    let answer = crate::unjudged::ruling(req.call(), &u.policy, &why).and_then(|r| {
        let run = decision_only(req, r);
        match (run.block, run.answer) {
            (Some(reason), _) => Some(crate::deadline::Answer::Block(
                text::prefix16(&reason, text::MAX_CHARS).to_string(),
            )),
            (None, Some(line)) => Some(crate::deadline::Answer::Stdout(line)),
            _ => None,
        }
    });
    crate::deadline::set_answer(answer);
}

/// The answer for `req` that carries only `ruling`, through the one
/// renderer and the harness's own decision channel (no answer where the
/// event does not take a decision).
pub(crate) fn decision_only(req: &Request, ruling: envelope::Ruling) -> Run {
    let mut run = Run::default();
    let Ok(contract) = contract_row(req) else {
        return run;
    };
    run.contract = contract;
    let Ok(spec) = canonical_event(req, contract) else {
        return run;
    };
    run.event = Some(spec);
    run.decision_only = true;
    run.outcome.ruling = Some(ruling);
    run.render();
    run
}

fn usable(input: Result<Payload, Unusable>) -> Result<Payload, Stop> {
    input.map_err(|why| {
        diag::record(Kind::UnusablePayload, why.describe());
        format!("no usable payload: {}", why.describe())
    })
}

/// The contract brings the payload into the canonical shape, and names
/// every canonical event whose cards run here (a deferred PreToolUse rides
/// on the after-tool event).
fn translate(
    contract: Option<(HarnessId, &'static EventRow)>,
    spec: &'static EventSpec,
    payload: &mut Payload,
) -> Vec<&'static EventSpec> {
    let events = match contract {
        Some((h, row)) => {
            (h.spec().translate)(row, &mut payload.raw);
            harness::evaluated_events(h, row.native)
                .into_iter()
                .map(|e| e.judged_as().spec())
                .collect()
        }
        None => vec![spec.event.judged_as().spec()],
    };
    // An MCP call is judged as the built-in tool with the same effect.
    crate::guards::effects::mcp::canonicalize(&mut payload.raw);
    events
}

/// The cards that run: the registration's, by precedence, past the cheap
/// look at the user's and project's cards' tools and paths.
fn choose_cards(
    req: &Request,
    events: &[&'static EventSpec],
    probe: &Ctx,
    project_root: &std::path::Path,
    policy: &Lazy,
) -> resolve::Resolved {
    // The trust store is read only when the project has cards whose
    // verdicts are not already cached under the store's current stamp.
    let vouch = crate::trust::ProjectTrust::new(req.state_root.as_deref(), project_root);
    let names: Vec<&str> = events.iter().map(|e| e.name).collect();
    let tool = probe.payload.tool_name();
    let normalized = std::cell::OnceCell::new();
    let paths = || -> &[String] {
        normalized.get_or_init(|| crate::trigger::normalized(probe.call_paths()))
    };
    let admits = |reach: &str| crate::trigger::reach_admits(reach, tool, paths);
    let may_fire = |fc: &crate::deck::sources::FileCard| {
        admits(fc.reach()) && crate::trigger::may_fire(&fc.triggers(), tool, probe.call_paths())
    };
    let keep = |c: &Card| policy.get().holds(c);
    resolve::resolve(
        &req.cards,
        &names,
        &resolve::Sources {
            project_root: Some(project_root),
            cache_dir: req.state_root.as_deref(),
            vouch: &vouch,
            keep: &keep,
            may_fire: &may_fire,
            admits: &admits,
            quick: events.iter().all(|e| e.is_tool_event()),
        },
    )
}

/// The trace lines of cards passed over, broken or unknown.
fn trace_resolution(resolved: &resolve::Resolved, run: &mut Run) {
    if resolved.passed_over > 0 {
        run.trace.push(CardTrace {
            card: format!("({} more)", resolved.passed_over),
            verdict: Verdict::Skipped,
            why: "user or project cards whose tools or paths cannot match this call".into(),
        });
    }
    for (name, why) in &resolved.held {
        run.trace.push(CardTrace {
            card: name.clone(),
            verdict: Verdict::Skipped,
            why: format!("the trusted project card of this name is not used: {why}"),
        });
    }
    for (scope, e) in &resolved.errors {
        diag::record(Kind::CardError, format!("{} {e}", scope.label()));
        run.trace.push(CardTrace {
            card: e.card.clone(),
            verdict: Verdict::Failed,
            why: format!("{} card: {}", scope.label(), e.message),
        });
    }
    for name in &resolved.unknown {
        let shown = text::sanitize(name, 64);
        diag::record(Kind::UnknownCard, format!("unknown card {shown:?}"));
        run.trace.push(CardTrace {
            card: shown,
            verdict: Verdict::Failed,
            why: "no such card".into(),
        });
    }
}

/// Judges every chosen card, each as the event it is bound to among those
/// evaluated here, with the session's state when there is one.
fn judge_each(
    spec: &'static EventSpec,
    events: &[&'static EventSpec],
    probe: &Ctx,
    resolved: &resolve::Resolved,
    session: Option<&mut Session>,
    policy: &Lazy,
    run: &mut Run,
) {
    let cell = session.map(|s| (RefCell::new(std::mem::take(&mut *s)), s));
    let ctxs: Vec<Ctx> = events
        .iter()
        .map(|e| probe.for_event(e, cell.as_ref().map(|(c, _)| c)))
        .collect();
    let note_key = OnceKey::from(UNTRUSTED_NOTE);
    if spec.name == "SessionStart"
        && !resolved.untrusted.is_empty()
        && !ctxs[0].once_spent(&note_key)
    {
        run.outcome.user_notes.push(format!(
            "cuecard: {} in .cuecard/cards {} new or changed and inactive until you review and run `cuecard trust`: {}",
            text::count(resolved.untrusted.len(), "project card", "project cards"),
            if resolved.untrusted.len() == 1 { "is" } else { "are" },
            text::sanitize(&resolved.untrusted.join(", "), 200)
        ));
        run.effects.push(Effect::Note(note_key));
    }
    // A policy line not understood is told at every session start until
    // fixed (issue 33), so a typo never quietly stays advice.
    if spec.name == "SessionStart"
        && let Some(note) = crate::policy::session_note(policy.get())
    {
        run.outcome.user_notes.push(text::sanitize(&note, 500));
    }
    for chosen in &resolved.chosen {
        // A deferred PreToolUse guard sees a PreToolUse.
        let ctx = ctxs
            .iter()
            .find(|c| chosen.card.binds(c.event.name))
            .unwrap_or(&ctxs[0]);
        evaluate(chosen, ctx, run, policy);
    }
    drop(ctxs);
    if let Some((c, s)) = cell {
        *s = c.into_inner();
    }
}

/// SessionStart once: only an answer marks, so a start that said nothing
/// never silences the next; the mark is atomic, so of two surfaces
/// answering the same start at once exactly one prints.
fn once_gate(
    req: &Request,
    spec: &'static EventSpec,
    payload: &Payload,
    run: &mut Run,
) -> Result<(), Stop> {
    if req.once
        && spec.name == "SessionStart"
        && run.answer.is_some()
        && let Some(why) = harness::once::repeated(payload)
    {
        run.answer = None;
        return Err(why);
    }
    Ok(())
}

/// The call's policy, read on first use (or read before the payload, its
/// problems recorded on first use).
struct Lazy<'a> {
    cell: std::cell::OnceCell<crate::policy::Policy>,
    /// Whether the problems of a policy read early were recorded.
    told: std::cell::Cell<bool>,
    project_root: &'a std::path::Path,
    state_root: Option<&'a std::path::Path>,
}

impl Lazy<'_> {
    fn get(&self) -> &crate::policy::Policy {
        let p = self
            .cell
            .get_or_init(|| crate::policy::load(self.project_root, self.state_root));
        if !self.told.replace(true) {
            crate::policy::record_problems(p);
        }
        p
    }
}

/// The once-per-session key of the untrusted-project-cards note.
const UNTRUSTED_NOTE: &str = "untrusted-project-cards";

/// A card that did not fire: its verdict and why.
type NotFired = (Verdict, String);

/// Who judged a finding: a guard, or a card's own trigger.
enum Judge<'a> {
    Guard(&'a str),
    Trigger { card: &'a str },
}

impl Judge<'_> {
    /// The repeat-rule key of a finding of this judge's on `target`.
    fn repeat_key(&self, target: &str) -> RepeatKey {
        match self {
            Judge::Guard(g) => RepeatKey::of(g, target),
            Judge::Trigger { .. } => RepeatKey::of(&self.owner(), target),
        }
    }

    /// The judge's name in repeat keys and rulings (a trigger's is its card,
    /// `card:<name>`).
    fn owner(&self) -> String {
        match self {
            Judge::Guard(g) => g.to_string(),
            Judge::Trigger { card } => format!("card:{card}"),
        }
    }

    fn label(&self) -> String {
        match self {
            Judge::Guard(g) => format!("guard `{g}`"),
            Judge::Trigger { .. } => "trigger".to_string(),
        }
    }
}

/// Judges one card and traces the verdict.
fn evaluate(chosen: &Chosen, ctx: &Ctx, run: &mut Run, policy: &Lazy) {
    let card = &chosen.card;
    let origin = match (chosen.scope, chosen.overrides) {
        (CardScope::Embedded, _) => String::new(),
        (s, Some(lower)) => format!("{} card, overriding the {} one; ", s.label(), lower.label()),
        (s, None) => format!("{} card; ", s.label()),
    };
    let (verdict, why) = match judge(chosen, ctx, run, policy) {
        Ok(why) => (Verdict::Fired, why),
        Err(not) => not,
    };
    run.trace.push(CardTrace {
        card: card.name.clone(),
        verdict,
        why: format!("{origin}{why}"),
    });
}

/// Whether the card applies to this call at all: enabled, bound to the
/// event, admitted by its matcher.
fn applies(card: &Card, ctx: &Ctx) -> Result<(), NotFired> {
    if !card.bindings.enabled {
        return Err((Verdict::Skipped, "disabled (`enabled: false`)".into()));
    }
    if !card.binds(ctx.event.name) {
        return Err((
            Verdict::Skipped,
            format!(
                "bound to {}, not {}",
                card.bindings.events.join(", "),
                ctx.event.name
            ),
        ));
    }
    let subject = match ctx.event.matcher {
        Matcher::ToolName => ctx.payload.tool_name(),
        Matcher::Source => ctx.payload.source(),
        _ => None,
    };
    let matcher_applies = matches!(ctx.event.matcher, Matcher::ToolName | Matcher::Source);
    if matcher_applies && !card::matcher_admits(&card.bindings.matcher, subject) {
        return Err((
            Verdict::Skipped,
            format!(
                "matcher `{}` does not admit {}",
                card.bindings.matcher,
                subject.map_or("a missing value".to_string(), |s| format!(
                    "`{}`",
                    text::sanitize(s, 60)
                ))
            ),
        ));
    }
    Ok(())
}

/// A user or project card's declarative trigger, compiled (bounded).
fn compile_trigger(card: &Card) -> Result<Option<Trigger>, NotFired> {
    // Pack lines (`- effect:`) ride with the trigger keys but are no
    // trigger: a guard card with only those is judged by its guard.
    if card.bindings.triggers.iter().all(|(k, _)| k == "effect") {
        return Ok(None);
    }
    Trigger::compile(&card.bindings).map(Some).map_err(|why| {
        diag::record(Kind::CardError, format!("card {}: {why}", card.name));
        (Verdict::Failed, why)
    })
}

/// A trigger's `once: session` and cooldown.
fn trigger_gate(card: &Card, t: &Trigger, ctx: &Ctx) -> Result<(), NotFired> {
    if t.once_per_session && ctx.once_spent(&OnceKey::card(&card.name)) {
        return Err((
            Verdict::Skipped,
            "`once: session`: already shown in this session".into(),
        ));
    }
    if let Some(cd) = t.cooldown
        && ctx.session().is_some_and(|s| {
            s.stamped_within(&CooldownKey::card(&card.name), cd.as_secs(), state::now())
        })
    {
        return Err((Verdict::Skipped, "in its cooldown".into()));
    }
    Ok(())
}

/// Judges one card: its gates, then its guard or trigger; a finding goes
/// into the outcome, with its policy. Returns the trace line of a card that
/// fired.
fn judge(chosen: &Chosen, ctx: &Ctx, run: &mut Run, policy: &Lazy) -> Result<String, NotFired> {
    let card = &chosen.card;
    applies(card, ctx)?;
    let trigger = compile_trigger(card)?;
    if let Some(t) = &trigger {
        trigger_gate(card, t, ctx)?;
    }
    let judge = match (&card.bindings.guard, &trigger) {
        (Some(g), _) => g.as_str(),
        (None, Some(_)) => "trigger",
        (None, None) => return emit_unguarded(card, run),
    };
    let Some(mut finding) = check(card, judge, trigger.as_ref(), ctx)? else {
        let what = match &trigger {
            Some(_) => "trigger did not match".to_string(),
            None => format!("guard `{judge}` found nothing"),
        };
        return Err((Verdict::Quiet, what));
    };
    let judged_by = match &trigger {
        Some(t) => {
            if t.once_per_session {
                finding.once = Some(OnceKey::card(&card.name));
            }
            if t.cooldown.is_some() {
                run.effects.push(Effect::Stamp {
                    card: card.name.clone(),
                    key: CooldownKey::card(&card.name),
                });
            }
            Judge::Trigger { card: &card.name }
        }
        None => Judge::Guard(judge),
    };
    // The finding's policy (docs/design.md §4a): its id, the card's own
    // decision, the configured sources; only an explicit ask or deny
    // decides, with the filled advisory as the reason.
    let id = match judged_by {
        Judge::Trigger { .. } => card.name.clone(),
        Judge::Guard(g) => guards::finding_id(g, &finding),
    };
    // An opaque finding (a command nobody can read) is for a policy to
    // decide: without one that asks or denies, it stays quiet (issue 26).
    if finding.kind == guards::opaque::KIND && !decided(chosen, &id, policy) {
        return Err((
            Verdict::Quiet,
            format!("`{id}`: no policy decides an opaque finding, so it stays quiet"),
        ));
    }
    let advisory = fill(card, &finding);
    let has_session = ctx.session().is_some();
    let seen = |k: &RepeatKey| ctx.session().is_some_and(|s| s.was_seen(k));
    let mut why = present(card, &judged_by, finding, has_session, seen, run);
    rule(chosen, id, advisory, policy, &mut why, run);
    Ok(why)
}

/// The card's own decision, for the policy.
fn own_decision(chosen: &Chosen) -> Option<crate::policy::CardDecision<'_>> {
    let card = &chosen.card;
    card.bindings
        .decision()
        .map(|level| crate::policy::CardDecision {
            card: &card.name,
            level,
            project: chosen.scope == CardScope::Project,
        })
}

/// Whether the finding's policy asks or denies.
fn decided(chosen: &Chosen, id: &str, policy: &Lazy) -> bool {
    policy
        .get()
        .resolve(id, own_decision(chosen))
        .level
        .decides()
}

/// Applies the finding's policy: an explicit ask or deny joins the call's
/// ruling and the trace line.
fn rule(
    chosen: &Chosen,
    id: String,
    advisory: String,
    policy: &Lazy,
    why: &mut String,
    run: &mut Run,
) {
    let card = &chosen.card;
    let own = card
        .bindings
        .decision()
        .map(|level| crate::policy::CardDecision {
            card: &card.name,
            level,
            project: chosen.scope == CardScope::Project,
        });
    let resolved = policy.get().resolve(&id, own);
    if resolved.level.decides() {
        why.push_str(&format!(
            "; policy `{id}` = {} ({})",
            resolved.level, resolved.from
        ));
        crate::envelope::Ruling::merge(
            &mut run.outcome.ruling,
            resolved.level,
            advisory,
            (id, resolved.from),
        );
    }
}

/// An unguarded card fires whenever its event (and matcher) does.
fn emit_unguarded(card: &Card, run: &mut Run) -> Result<String, NotFired> {
    if catch_unwind(|| test_panic(&format!("card:{}", card.name))).is_err() {
        diag::record(Kind::GuardPanic, format!("card {} panicked", card.name));
        return Err((Verdict::Failed, "panicked (recorded)".into()));
    }
    run.outcome.push(Fragment {
        card: card.name.clone(),
        text: card.emitted_text().to_string(),
        pointer: card.has_procedure().then(|| paths::card_pointer(card)),
    });
    Ok("no guard: emitted whenever its event fires".into())
}

/// Runs the card's guard (named `judge`) or its trigger, containing a panic.
fn check(
    card: &Card,
    judge: &str,
    trigger: Option<&Trigger>,
    ctx: &Ctx,
) -> Result<Option<guards::Finding>, NotFired> {
    let guard = match (trigger, guards::lookup(judge)) {
        (Some(_), _) => None,
        (None, Some(g)) => Some(g),
        (None, None) => {
            diag::record(
                Kind::CardError,
                format!("card {} names unknown guard {judge}", card.name),
            );
            return Err((Verdict::Failed, format!("unknown guard `{judge}`")));
        }
    };
    catch_unwind(AssertUnwindSafe(|| {
        test_panic(&format!("card:{}", card.name));
        match (guard, trigger) {
            (Some(g), _) => g.check(ctx),
            (None, Some(t)) => t.check(ctx),
            (None, None) => None,
        }
    }))
    .map_err(|_| {
        diag::record(
            Kind::GuardPanic,
            format!("{judge} of card {} panicked", card.name),
        );
        (Verdict::Failed, format!("`{judge}` panicked (recorded)"))
    })
}

/// Puts a finding into the outcome. The repeat rule: a finding (judge,
/// target) already injected in full in this session comes back as a
/// one-line reminder that names the card and keeps the pointer. Returns the
/// trace line.
fn present(
    card: &Card,
    judge: &Judge,
    finding: guards::Finding,
    has_session: bool,
    seen: impl Fn(&RepeatKey) -> bool,
    run: &mut Run,
) -> String {
    let repeat_key = judge.repeat_key(&finding.target);
    let repeated = seen(&repeat_key);
    if repeated {
        run.outcome.push(Fragment {
            card: card.name.clone(),
            text: reminder_line(card),
            pointer: Some(paths::card_pointer(card)),
        });
        run.effects.push(Effect::Ledger {
            card: card.name.clone(),
            kind: LedgerKind::Reminder,
        });
    } else {
        run.outcome.push(Fragment {
            card: card.name.clone(),
            text: fill(card, &finding),
            pointer: Some(paths::card_pointer(card)),
        });
        if has_session {
            run.effects.push(Effect::Seen(repeat_key));
        }
        if let Some(n) = finding.user_note {
            run.outcome.user_notes.push(text::sanitize(&n, 500));
        }
    }
    if finding.warning {
        run.effects.push(Effect::Ledger {
            card: card.name.clone(),
            kind: LedgerKind::Warning,
        });
    }
    if let Some(reason) = finding.deny {
        crate::envelope::Ruling::merge(
            &mut run.outcome.ruling,
            crate::policy::Level::Deny,
            reason,
            (judge.owner(), "CUECARD_STRICT".into()),
        );
    }
    if let Some(key) = finding.once {
        run.effects.push(Effect::SpendOnce {
            card: card.name.clone(),
            key,
        });
    }
    let how = if repeated {
        " (repeated in this session: one-line reminder)"
    } else {
        ""
    };
    format!("{}: {}{how}", judge.label(), finding.why)
}

/// A card's text with a finding's values: payload values sanitised to one
/// line, text shipped in the binary verbatim, quoted project text cleaned
/// (newlines kept).
fn fill(card: &Card, finding: &guards::Finding) -> String {
    let quoted: Vec<(&str, String)> = finding
        .quoted
        .iter()
        .map(|(k, v)| (*k, text::clean_block(v)))
        .collect();
    let mut verbatim: Vec<(&str, &str)> = finding.trusted.clone();
    verbatim.extend(quoted.iter().map(|(k, v)| (*k, v.as_str())));
    text::fill_with(card.emitted_text(), &finding.vars, &verbatim)
}

/// The one-line reminder for a repeated finding.
fn reminder_line(card: &Card) -> String {
    format!(
        "Reminder: \"{}\" applies here again (its advisory was given earlier in this session).",
        text::sanitize(&card.title, 120)
    )
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
    use crate::card::{Origin, parse_card};
    use crate::guards::Finding;

    const CARD: &str = "# Dependency manifest changed\n\n## Advisory\nLong advisory about `{percent}`.\n\n## Procedure\nSteps.\n\n## Bindings\n- event: PostToolUse\n- guard: compaction\n";

    #[test]
    fn a_repeated_finding_is_a_one_line_reminder_with_the_pointer() {
        let card = parse_card("dep", CARD, Origin::Embedded).unwrap();
        let finding = || Finding::new("Cargo.toml", "manifest").var("percent", "Cargo.toml");
        let mut session = Session::default();
        let mut first = Run::default();
        present(
            &card,
            &Judge::Guard("compaction"),
            finding(),
            true,
            |k| session.was_seen(k),
            &mut first,
        );
        assert!(
            first.outcome.fragments[0]
                .text
                .contains("Long advisory about `Cargo.toml`")
        );
        first.commit(&mut session);
        let mut second = Run::default();
        let why = present(
            &card,
            &Judge::Guard("compaction"),
            finding(),
            true,
            |k| session.was_seen(k),
            &mut second,
        );
        let f = &second.outcome.fragments[0];
        assert_eq!(
            f.text,
            "Reminder: \"Dependency manifest changed\" applies here again (its advisory was given earlier in this session)."
        );
        assert!(!f.text.contains('\n'), "one line");
        assert_eq!(f.pointer.as_deref(), Some("run `cuecard cards show dep`"));
        assert!(why.contains("reminder"));
        assert_eq!(second.ledger_kind("dep"), LedgerKind::Reminder);
        // Another target is a new finding, in full.
        let mut third = Run::default();
        present(
            &card,
            &Judge::Guard("compaction"),
            Finding::new("package.json", "m").var("percent", "package.json"),
            true,
            |k| session.was_seen(k),
            &mut third,
        );
        assert!(third.outcome.fragments[0].text.contains("Long advisory"));
        // The ledger counted the first in full and the reminder as one.
        second.commit(&mut session);
        let kinds: Vec<&str> = session
            .ledger
            .entries
            .iter()
            .map(|e| e.kind.as_str())
            .collect();
        assert_eq!(kinds, vec!["card", "reminder"]);
    }
}
