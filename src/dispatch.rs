//! The dispatcher: one payload, the cards of one registration, one answer.
//!
//! `cuecard dispatch` and `cuecard explain` both call [`run`]; explain only
//! prints the trace beside the answer, so what a human is shown is what the
//! hook does.

use crate::card::{self, Card};
use crate::context::Ctx;
use crate::diag::{self, Kind};
use crate::envelope::{self, Outcome};
use crate::event::{self, EventSpec, Matcher};
use crate::guards;
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
    pub spent: Vec<&'static str>,
}

/// Runs the cards of `req` on `input`.
pub fn run(req: &Request, input: Result<Payload, Unusable>, session: Option<&Session>) -> Run {
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
    let cards = resolve_cards(req, &mut run.trace);
    let ctx = Ctx::new(spec, &payload, session);
    for card in cards {
        evaluate(&card, &ctx, &mut run);
    }
    run.answer = envelope::render(spec, &run.outcome).map(|v| v.to_string());
    run
}

/// The cards named in the request (or bound to the event), parsed, in the
/// order given, each once.
fn resolve_cards(req: &Request, trace: &mut Vec<CardTrace>) -> Vec<Card> {
    let mut names: Vec<String> = Vec::new();
    if req.cards.is_empty() {
        let mut bound: Vec<Card> = card::embedded::all()
            .into_iter()
            .flatten()
            .filter(|c| c.binds(&req.event))
            .collect();
        bound.sort_by(|a, b| (a.bindings.order, &a.name).cmp(&(b.bindings.order, &b.name)));
        names.extend(bound.into_iter().map(|c| c.name));
    } else {
        for n in &req.cards {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    let mut out = Vec::new();
    for name in names {
        match card::embedded::card(&name) {
            Some(Ok(c)) => out.push(c),
            Some(Err(e)) => {
                diag::record(Kind::CardError, e.to_string());
                trace.push(CardTrace {
                    card: name,
                    verdict: Verdict::Failed,
                    why: e.message,
                });
            }
            None => {
                let shown = text::sanitize(&name, 64);
                diag::record(Kind::UnknownCard, format!("unknown card {shown:?}"));
                trace.push(CardTrace {
                    card: shown,
                    verdict: Verdict::Failed,
                    why: "no such card".into(),
                });
            }
        }
    }
    out
}

fn evaluate(card: &Card, ctx: &Ctx, run: &mut Run) {
    let mut note = |verdict: Verdict, why: String| {
        run.trace.push(CardTrace {
            card: card.name.clone(),
            verdict,
            why,
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

    let Some(guard_name) = &card.bindings.guard else {
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
    };
    let Some(guard) = guards::lookup(guard_name) else {
        diag::record(
            Kind::CardError,
            format!("card {} names unknown guard {guard_name}", card.name),
        );
        return note(Verdict::Failed, format!("unknown guard `{guard_name}`"));
    };
    let finding = match catch_unwind(AssertUnwindSafe(|| {
        test_panic(&format!("card:{}", card.name));
        guard.check(ctx)
    })) {
        Ok(f) => f,
        Err(_) => {
            diag::record(Kind::GuardPanic, format!("guard {guard_name} panicked"));
            return note(
                Verdict::Failed,
                format!("guard `{guard_name}` panicked (recorded)"),
            );
        }
    };
    let Some(finding) = finding else {
        return note(
            Verdict::Quiet,
            format!("guard `{guard_name}` found nothing"),
        );
    };
    run.outcome.push(Fragment {
        card: card.name.clone(),
        text: text::fill_with(card.emitted_text(), &finding.vars, &finding.trusted),
        pointer: Some(paths::card_pointer(card)),
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
    note(
        Verdict::Fired,
        format!("guard `{guard_name}`: {}", finding.why),
    );
}

/// Debug builds panic at a named point when `CUECARD_TEST_PANIC` names it,
/// so that the integration tests can prove panics are contained. Release
/// builds compile this away.
fn test_panic(point: &str) {
    if cfg!(debug_assertions) && std::env::var("CUECARD_TEST_PANIC").is_ok_and(|v| v == point) {
        panic!("CUECARD_TEST_PANIC={point}");
    }
}
