//! The dispatcher: one payload, the cards of one registration, one answer.
//!
//! `cuecard dispatch` and `cuecard explain` both call [`run`]; explain only
//! prints the trace beside the answer, so what a human is shown is what the
//! hook does.

use crate::card::resolve::{self, Chosen};
use crate::card;
use crate::card::sources::Scope;
use crate::trigger::Trigger;
use crate::trust::TrustStore;
use std::path::Path;
use crate::context::Ctx;
use crate::diag::{self, Kind};
use crate::envelope::{self, Outcome};
use crate::event::{self, EventSpec, Matcher};
use crate::guards::{self, Finding};
use crate::paths;
use crate::payload::{Payload, Unusable};
use crate::state::Session;
use crate::text::{self, Fragment};
use std::panic::{AssertUnwindSafe, catch_unwind};

/// What the hook was asked to do.
#[derive(Debug, Clone, Default)]
pub struct Request {
    /// The event name as registered (canonical Claude Code name).
    pub event: String,
    /// The cards this registration lists; empty means every shipped card
    /// bound to the event.
    pub cards: Vec<String>,
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
    /// Once-per-session keys spent by cards that actually fired.
    pub spent: Vec<String>,
    /// Cooldown keys of cards that fired (stamped with the time by the state).
    pub fired: Vec<String>,
}

/// Runs the cards of `req` on `input`.
pub fn run(
    req: &Request,
    input: Result<Payload, Unusable>,
    session: Option<&Session>,
    state_root: Option<&Path>,
) -> Run {
    let mut run = Run::default();
    let Some(spec) = event::lookup(&req.event) else {
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
    if !spec.carries_context() {
        run.stopped = Some(format!(
            "`{}` has no channel to the model ({}): no output",
            spec.name, spec.note
        ));
        return run;
    }
    let payload = match input {
        Ok(p) => p,
        Err(why) => {
            diag::record(Kind::UnusablePayload, why.describe());
            run.stopped = Some(format!("no usable payload: {}", why.describe()));
            return run;
        }
    };

    test_panic("pipeline");
    let ctx = Ctx::new(spec, &payload, session);
    let trust = state_root.map(TrustStore::load).unwrap_or_default();
    let project_root = ctx.project_root().to_path_buf();
    let trusted = |file: &str, sha: &str| trust.is_trusted(&project_root, file, sha);
    let resolved = resolve::resolve(
        &req.cards,
        spec.name,
        &resolve::Sources { project_root: Some(&project_root), cache_dir: state_root, trusted: &trusted },
    );
    for (scope, e) in &resolved.errors {
        diag::record(Kind::CardError, format!("{} {e}", scope.label()));
        run.trace.push(CardTrace { card: e.card.clone(), verdict: Verdict::Failed, why: format!("{} card: {}", scope.label(), e.message) });
    }
    for name in &resolved.unknown {
        let shown = text::sanitize(name, 64);
        diag::record(Kind::UnknownCard, format!("unknown card {shown:?}"));
        run.trace.push(CardTrace { card: shown, verdict: Verdict::Failed, why: "no such card".into() });
    }
    if spec.name == "SessionStart" && !resolved.untrusted.is_empty() && !ctx.once_spent(UNTRUSTED_NOTE) {
        run.outcome.user_notes.push(format!(
            "cuecard: {} project card(s) in .cuecard/cards are new or changed and stay inactive until you review them and run `cuecard trust`: {}",
            resolved.untrusted.len(),
            text::sanitize(&resolved.untrusted.join(", "), 200)
        ));
        run.spent.push(UNTRUSTED_NOTE.to_string());
    }
    for chosen in &resolved.chosen {
        evaluate(chosen, &ctx, &mut run);
    }
    run.answer = envelope::render(spec, &run.outcome).map(|v| v.to_string());
    run
}

/// The once-per-session key of the untrusted-project-cards note.
const UNTRUSTED_NOTE: &str = "untrusted-project-cards";

fn evaluate(chosen: &Chosen, ctx: &Ctx, run: &mut Run) {
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

    // The card's judge: its guard, its declarative trigger, or nothing (an
    // unguarded card fires whenever its event and matcher do).
    let once_key = format!("card:{}", card.name);
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
        if t.once_per_session && ctx.once_spent(&once_key) {
            return note(Verdict::Skipped, "`once: session`: already shown in this session".into());
        }
        if let Some(cd) = t.cooldown
            && ctx.session().is_some_and(|s| s.fired_within(&once_key, cd))
        {
            return note(Verdict::Skipped, "in its cooldown".into());
        }
    }
    let judged = catch_unwind(AssertUnwindSafe(|| -> Result<Option<Finding>, String> {
        test_panic(&format!("card:{}", card.name));
        match (&card.bindings.guard, &trigger) {
            (Some(g), _) => match guards::lookup(g) {
                Some(guard) => Ok(guard.check(ctx).map(|mut f| {
                    f.why = format!("guard `{g}`: {}", f.why);
                    f
                })),
                None => Err(format!("unknown guard `{g}`")),
            },
            (None, Some(t)) => Ok(t.check(ctx).map(|mut f| {
                f.why = format!("trigger: {}", f.why);
                if t.once_per_session {
                    f.once = Some(once_key.clone());
                }
                f
            })),
            (None, None) => Ok(Some(Finding::new(card.name.clone(), "no guard: emitted whenever its event fires"))),
        }
    }));
    let finding = match judged {
        Ok(Ok(f)) => f,
        Ok(Err(why)) => {
            diag::record(Kind::CardError, format!("card {}: {why}", card.name));
            return note(Verdict::Failed, why);
        }
        Err(_) => {
            diag::record(Kind::GuardPanic, format!("card {} panicked", card.name));
            return note(Verdict::Failed, "panicked (recorded)".into());
        }
    };
    let Some(finding) = finding else {
        let what = match &card.bindings.guard {
            Some(g) => format!("guard `{g}` found nothing"),
            None => "trigger did not match".to_string(),
        };
        return note(Verdict::Quiet, what);
    };
    run.outcome.push(Fragment {
        card: card.name.clone(),
        text: text::fill(card.emitted_text(), &finding.vars),
        pointer: card.has_procedure().then(|| paths::card_pointer(card)),
    });
    if let Some(n) = finding.user_note {
        run.outcome.user_notes.push(text::sanitize(&n, 500));
    }
    if finding.deny.is_some() && run.outcome.deny.is_none() {
        run.outcome.deny = finding.deny;
    }
    if let Some(k) = finding.once {
        run.spent.push(k);
    }
    if trigger.as_ref().is_some_and(|t| t.cooldown.is_some()) {
        run.fired.push(once_key);
    }
    note(Verdict::Fired, finding.why);
}

/// Debug builds panic at a named point when `CUECARD_TEST_PANIC` names it,
/// so that the integration tests can prove panics are contained. Release
/// builds compile this away.
fn test_panic(point: &str) {
    if cfg!(debug_assertions) && std::env::var("CUECARD_TEST_PANIC").is_ok_and(|v| v == point) {
        panic!("CUECARD_TEST_PANIC={point}");
    }
}
