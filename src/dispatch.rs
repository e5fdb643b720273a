//! The dispatcher: one payload, the cards of one registration, one answer.
//!
//! `cuecard dispatch` and `cuecard explain` both call [`run`]; explain only
//! prints the trace beside the answer, so what a human is shown is what the
//! hook does.

use crate::card::resolve::{self, Chosen};
use crate::card::sources::Scope;
use crate::card::{self, Card};
use crate::context::Ctx;
use crate::diag::{self, Kind};
use crate::envelope::{self, Outcome};
use crate::event::{self, EventSpec, Matcher};
use crate::guards;
use crate::harness::{self, EventRow, HarnessId};
use crate::paths;
use crate::payload::{Payload, Unusable};
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
    /// Once-per-session keys with the card that spends them.
    pub spent_by: Vec<(String, String)>,
    /// Once-per-session keys of user notes (spent when the answer is written).
    pub noted: Vec<String>,
    /// Cooldown keys with the card that stamps them when emitted.
    pub fired_by: Vec<(String, String)>,
    /// Repeat-rule keys of findings injected in full by this call.
    pub seen: Vec<String>,
    /// Cards re-injected as a one-line reminder (the repeat rule).
    pub reminded: Vec<String>,
    /// Cards whose finding is a warning (for the ledger).
    pub warnings: Vec<String>,
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
    fn render(&mut self) {
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

    /// Applies what this call did to the session's state: once-per-session
    /// keys, repeat-rule keys, and the ledger. Call it only once the answer
    /// was actually written, so that nothing is marked spent or seen for a
    /// card the model never received.
    pub fn commit(&self, session: &mut Session) {
        let emitted = |card: &str| self.outcome.fragments.iter().any(|f| f.card == card);
        for (card, key) in &self.spent_by {
            if emitted(card) {
                session.spend(key);
            }
        }
        for key in &self.noted {
            session.spend(key);
        }
        for (card, key) in &self.fired_by {
            if emitted(card) {
                session.stamp(key, state::now());
            }
        }
        for k in &self.seen {
            session.mark_seen(k);
        }
        let event = self.event.map_or("?", |e| e.name);
        let now = state::now();
        // Every ask and deny rendered is in the ledger, whatever the
        // answer carried beside it.
        if let (Some((level, reason)), Some(r)) = (&self.decided, &self.outcome.ruling) {
            let ids: Vec<&str> = r.by.iter().map(|(id, _)| id.as_str()).collect();
            session
                .ledger
                .record(now, event, &ids.join(","), level.word(), reason);
        }
        if self.decision_only {
            return;
        }
        let context = self.outcome.context_text();
        for f in &self.outcome.fragments {
            // What of this fragment survived the cap.
            if !context.contains(f.text.lines().next().unwrap_or_default()) {
                continue;
            }
            let kind = if self.reminded.contains(&f.card) {
                "reminder"
            } else if self.warnings.contains(&f.card) {
                "warning"
            } else {
                "card"
            };
            session
                .ledger
                .record(now, event, &f.card, kind, &fragment_text(f));
        }
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
    run_inner(req, input, Source::Given(session)).0
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
    run_inner(req, input, Source::Load(Box::new(load)))
}

/// Loads the call's session state, given the project root the call found.
type Loader<'l> =
    Box<dyn FnOnce(&'static EventSpec, &Payload, &std::path::Path) -> Option<state::Locked> + 'l>;

enum Source<'s, 'l> {
    Given(Option<&'s mut Session>),
    Load(Loader<'l>),
}

fn run_inner(
    req: &Request,
    input: Result<Payload, Unusable>,
    source: Source,
) -> (Run, Option<state::Locked>) {
    let mut locked = None;
    let run = run_with(req, input, source, &mut locked);
    (run, locked)
}

fn run_with(
    req: &Request,
    input: Result<Payload, Unusable>,
    source: Source,
    locked: &mut Option<state::Locked>,
) -> Run {
    let mut run = Run::default();
    let contract = match req.contract {
        None => None,
        Some(h) => match h.spec().row(&req.event) {
            Some(row) => Some((h, row)),
            None => {
                diag::record(
                    Kind::UnknownEvent,
                    format!(
                        "unknown {} event {:?}",
                        h.id(),
                        text::sanitize(&req.event, 60)
                    ),
                );
                run.stopped = Some(format!(
                    "`{}` is not a {} event cuecard knows: no output",
                    req.event,
                    h.name()
                ));
                return run;
            }
        },
    };
    run.contract = contract;
    let canonical = contract.map_or(req.event.as_str(), |(_, row)| row.canonical.name());
    let Some(spec) = event::lookup(canonical) else {
        diag::record(
            Kind::UnknownEvent,
            format!("unknown event {:?}", text::sanitize(&req.event, 60)),
        );
        run.stopped = Some(format!(
            "`{}` is not an event cuecard knows: no output",
            req.event
        ));
        return run;
    };
    run.event = Some(spec);
    // A native event that only carries a decision (Gemini's BeforeTool,
    // Qwen's PreToolUse, Kiro's preToolUse, Windsurf's pre-hooks) runs its
    // cards for their policy alone; registered only with a policy set.
    run.decision_only = contract.is_some_and(|(h, row)| {
        !row.delivery.delivers() && h.spec().decides_on(row.native).is_some()
    });
    if let Some((h, row)) = contract
        && !row.delivery.delivers()
        && !run.decision_only
    {
        run.stopped = Some(format!(
            "{} does not deliver what a hook prints on `{}` ({}): no output",
            h.name(),
            row.native,
            row.note
        ));
        return run;
    }
    if !spec.carries_context() {
        run.stopped = Some(format!(
            "`{}` has no channel to the model ({}): no output",
            spec.name, spec.note
        ));
        return run;
    }
    let mut payload = match input {
        Ok(p) => p,
        Err(why) => {
            diag::record(Kind::UnusablePayload, why.describe());
            run.stopped = Some(format!("no usable payload: {}", why.describe()));
            return run;
        }
    };
    // The contract brings the payload into the canonical shape, and names
    // every canonical event whose cards run here (a deferred PreToolUse
    // rides on the after-tool event).
    let events: Vec<&'static EventSpec> = match contract {
        Some((h, row)) => {
            (h.spec().translate)(row, &mut payload.raw);
            harness::evaluated_events(h, row.native)
                .into_iter()
                .map(event::Event::spec)
                .collect()
        }
        None => vec![spec],
    };
    test_panic("pipeline");
    // One context of the call, whose lazily computed parts (project root,
    // written files, paths) the cheap look and then every guard share.
    let probe = Ctx::new(spec, &payload, None);
    let project_root = probe.project_root().to_path_buf();
    // The trust store is read only when the project has cards whose
    // verdicts are not already cached under the store's current stamp.
    let vouch = crate::trust::ProjectTrust::new(req.state_root.as_deref(), &project_root);
    let names: Vec<&str> = events.iter().map(|e| e.name).collect();
    let tool = payload.tool_name();
    let normalized = std::cell::OnceCell::new();
    let paths = || -> &[String] {
        normalized.get_or_init(|| crate::trigger::normalized(probe.call_paths()))
    };
    let admits = |reach: &str| crate::trigger::reach_admits(reach, tool, paths);
    let may_fire = |fc: &crate::card::sources::FileCard| {
        admits(fc.reach()) && crate::trigger::may_fire(&fc.triggers(), tool, probe.call_paths())
    };
    let resolved = resolve::resolve(
        &req.cards,
        &names,
        &resolve::Sources {
            project_root: Some(&project_root),
            cache_dir: req.state_root.as_deref(),
            vouch: &vouch,
            may_fire: &may_fire,
            admits: &admits,
            quick: events.iter().all(|e| e.is_tool_event()),
        },
    );
    if resolved.passed_over > 0 {
        run.trace.push(CardTrace {
            card: format!("({} more)", resolved.passed_over),
            verdict: Verdict::Skipped,
            why: "user or project cards whose tools or paths cannot match this call".into(),
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
    let cards = resolved.chosen;
    let session: Option<&mut Session> = match source {
        Source::Given(s) => s,
        Source::Load(load) if !cards.is_empty() => {
            *locked = load(spec, &payload, &project_root);
            locked.as_mut().map(|l| &mut l.session)
        }
        Source::Load(_) => None,
    };
    let cell = session.map(|s| (RefCell::new(std::mem::take(&mut *s)), s));
    let ctxs: Vec<Ctx> = events
        .iter()
        .map(|e| probe.for_event(e, cell.as_ref().map(|(c, _)| c)))
        .collect();
    if spec.name == "SessionStart"
        && !resolved.untrusted.is_empty()
        && !ctxs[0].once_spent(UNTRUSTED_NOTE)
    {
        run.outcome.user_notes.push(format!(
            "cuecard: {} project card(s) in .cuecard/cards are new or changed and stay inactive until you review them and run `cuecard trust`: {}",
            resolved.untrusted.len(),
            text::sanitize(&resolved.untrusted.join(", "), 200)
        ));
        run.noted.push(UNTRUSTED_NOTE.to_string());
    }
    // The policy is read only once a guard found something.
    let policy = Lazy {
        cell: std::cell::OnceCell::new(),
        project_root: &project_root,
        state_root: req.state_root.as_deref(),
    };
    for chosen in &cards {
        // Each card is judged as the event it is bound to among those
        // evaluated here, so a deferred PreToolUse guard sees a PreToolUse.
        let ctx = ctxs
            .iter()
            .find(|c| chosen.card.binds(c.event.name))
            .unwrap_or(&ctxs[0]);
        evaluate(chosen, ctx, &mut run, &policy);
    }
    drop(ctxs);
    if let Some((c, s)) = cell {
        *s = c.into_inner();
    }
    run.render();
    // SessionStart once: only an answer marks, so a start that said nothing
    // never silences the next; the mark is atomic, so of two surfaces
    // answering the same start at once exactly one prints.
    if req.once
        && spec.name == "SessionStart"
        && run.answer.is_some()
        && let Some(why) = harness::once::repeated(&payload)
    {
        run.answer = None;
        run.stopped = Some(why);
    }
    run
}

/// The call's policy, read on first use.
struct Lazy<'a> {
    cell: std::cell::OnceCell<crate::policy::Policy>,
    project_root: &'a std::path::Path,
    state_root: Option<&'a std::path::Path>,
}

impl Lazy<'_> {
    fn get(&self) -> &crate::policy::Policy {
        self.cell
            .get_or_init(|| crate::policy::load(self.project_root, self.state_root))
    }
}

/// The once-per-session key of the untrusted-project-cards note.
const UNTRUSTED_NOTE: &str = "untrusted-project-cards";

fn evaluate(chosen: &Chosen, ctx: &Ctx, run: &mut Run, policy: &Lazy) {
    let card = &chosen.card;
    let origin = match (chosen.scope, chosen.overrides) {
        (Scope::Embedded, _) => String::new(),
        (s, Some(lower)) => format!("{} card, overriding the {} one; ", s.label(), lower.label()),
        (s, None) => format!("{} card; ", s.label()),
    };
    let mut note = |verdict: Verdict, why: String| {
        run.trace.push(CardTrace {
            card: card.name.clone(),
            verdict,
            why: format!("{origin}{why}"),
        });
    };
    if !card.bindings.enabled {
        return note(Verdict::Skipped, "disabled (`enabled: false`)".into());
    }
    if !card.binds(ctx.event.name) {
        return note(
            Verdict::Skipped,
            format!(
                "bound to {}, not {}",
                card.bindings.events.join(", "),
                ctx.event.name
            ),
        );
    }
    let subject = match ctx.event.matcher {
        Matcher::ToolName => ctx.payload.tool_name(),
        Matcher::Source => ctx.payload.source(),
        _ => None,
    };
    let matcher_applies = matches!(ctx.event.matcher, Matcher::ToolName | Matcher::Source);
    if matcher_applies && !card::matcher_admits(&card.bindings.matcher, subject) {
        return note(
            Verdict::Skipped,
            format!(
                "matcher `{}` does not admit {}",
                card.bindings.matcher,
                subject.map_or("a missing value".to_string(), |s| format!(
                    "`{}`",
                    text::sanitize(s, 60)
                ))
            ),
        );
    }

    // A user or project card's declarative trigger, compiled (bounded).
    let card_key = format!("card:{}", card.name);
    let trigger = if card.bindings.triggers.is_empty() {
        None
    } else {
        match Trigger::compile(&card.bindings) {
            Ok(t) => Some(t),
            Err(why) => {
                diag::record(Kind::CardError, format!("card {}: {why}", card.name));
                return note(Verdict::Failed, why);
            }
        }
    };
    if let Some(t) = &trigger {
        if t.once_per_session && ctx.once_spent(&card_key) {
            return note(
                Verdict::Skipped,
                "`once: session`: already shown in this session".into(),
            );
        }
        if let Some(cd) = t.cooldown
            && ctx
                .session()
                .is_some_and(|s| s.stamped_within(&card_key, cd.as_secs(), state::now()))
        {
            return note(Verdict::Skipped, "in its cooldown".into());
        }
    }

    let judge = match (&card.bindings.guard, &trigger) {
        (Some(g), _) => g.clone(),
        (None, Some(_)) => "trigger".to_string(),
        (None, None) => {
            // An unguarded card fires whenever its event (and matcher) does.
            if catch_unwind(|| test_panic(&format!("card:{}", card.name))).is_err() {
                diag::record(Kind::GuardPanic, format!("card {} panicked", card.name));
                return note(Verdict::Failed, "panicked (recorded)".into());
            }
            run.outcome.push(Fragment {
                card: card.name.clone(),
                text: card.emitted_text().to_string(),
                pointer: card.has_procedure().then(|| paths::card_pointer(card)),
            });
            return note(
                Verdict::Fired,
                "no guard: emitted whenever its event fires".into(),
            );
        }
    };
    let guard = match (&trigger, guards::lookup(&judge)) {
        (Some(_), _) => None,
        (None, Some(g)) => Some(g),
        (None, None) => {
            diag::record(
                Kind::CardError,
                format!("card {} names unknown guard {judge}", card.name),
            );
            return note(Verdict::Failed, format!("unknown guard `{judge}`"));
        }
    };
    let finding = match catch_unwind(AssertUnwindSafe(|| {
        test_panic(&format!("card:{}", card.name));
        match (guard, &trigger) {
            (Some(g), _) => g.check(ctx),
            (None, Some(t)) => t.check(ctx),
            (None, None) => None,
        }
    })) {
        Ok(f) => f,
        Err(_) => {
            diag::record(
                Kind::GuardPanic,
                format!("{judge} of card {} panicked", card.name),
            );
            return note(Verdict::Failed, format!("`{judge}` panicked (recorded)"));
        }
    };
    let Some(mut finding) = finding else {
        let what = match &trigger {
            Some(_) => "trigger did not match".to_string(),
            None => format!("guard `{judge}` found nothing"),
        };
        return note(Verdict::Quiet, what);
    };
    if let Some(t) = &trigger {
        if t.once_per_session {
            finding.once = Some(card_key.clone());
        }
        if t.cooldown.is_some() {
            run.fired_by.push((card.name.clone(), card_key.clone()));
        }
    }
    let has_session = ctx.session().is_some();
    let seen = |k: &str| ctx.session().is_some_and(|s| s.was_seen(k));
    // The repeat rule keys a finding by its judge and target; a trigger's
    // judge is its card.
    let key_owner = if trigger.is_some() {
        card_key.as_str()
    } else {
        judge.as_str()
    };
    // The finding's policy (DESIGN §4a): its id, the card's own
    // decision, the configured sources; only an explicit ask or deny
    // decides, with the filled advisory as the reason.
    let id = if trigger.is_some() {
        card.name.clone()
    } else {
        guards::finding_id(&judge, &finding)
    };
    let own = card
        .bindings
        .decision()
        .map(|level| crate::policy::CardDecision {
            card: &card.name,
            level,
            project: chosen.scope == Scope::Project,
        });
    let advisory = fill(card, &finding);
    let mut why = present(card, key_owner, finding, has_session, seen, run);
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
    run.trace.push(CardTrace {
        card: card.name.clone(),
        verdict: Verdict::Fired,
        why: format!("{origin}{why}"),
    });
}

/// Puts a guard's finding into the outcome. The repeat rule: a finding
/// (guard, target) already injected in full in this session comes back as a
/// one-line reminder that names the card and keeps the pointer. Returns the
/// trace line.
fn present(
    card: &Card,
    guard_name: &str,
    finding: guards::Finding,
    has_session: bool,
    seen: impl Fn(&str) -> bool,
    run: &mut Run,
) -> String {
    let repeat_key = repeat_key(guard_name, &finding.target);
    let repeated = seen(&repeat_key);
    if repeated {
        run.outcome.push(Fragment {
            card: card.name.clone(),
            text: reminder_line(card),
            pointer: Some(paths::card_pointer(card)),
        });
        run.reminded.push(card.name.clone());
    } else {
        run.outcome.push(Fragment {
            card: card.name.clone(),
            text: fill(card, &finding),
            pointer: Some(paths::card_pointer(card)),
        });
        if has_session {
            run.seen.push(repeat_key);
        }
        if let Some(n) = finding.user_note {
            run.outcome.user_notes.push(text::sanitize(&n, 500));
        }
    }
    if finding.warning {
        run.warnings.push(card.name.clone());
    }
    if let Some(reason) = finding.deny {
        crate::envelope::Ruling::merge(
            &mut run.outcome.ruling,
            crate::policy::Level::Deny,
            reason,
            (guard_name.to_string(), "CUECARD_STRICT".into()),
        );
    }
    if let Some(k) = finding.once {
        run.spent_by.push((card.name.clone(), k));
    }
    let how = if repeated {
        " (repeated in this session: one-line reminder)"
    } else {
        ""
    };
    let judge = if guard_name.starts_with("card:") {
        "trigger".to_string()
    } else {
        format!("guard `{guard_name}`")
    };
    format!("{judge}: {}{how}", finding.why)
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

/// The repeat-rule key of a finding: a digest, so no target is stored.
pub fn repeat_key(guard: &str, target: &str) -> String {
    state::key::digest(&format!("{guard}\u{1f}{target}"))
}

/// The one-line reminder for a repeated finding.
pub fn reminder_line(card: &Card) -> String {
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
            "compaction",
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
            "compaction",
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
        assert_eq!(second.reminded, vec!["dep".to_string()]);
        // Another target is a new finding, in full.
        let mut third = Run::default();
        present(
            &card,
            "compaction",
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
