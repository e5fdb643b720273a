//! Each card judged: whether it applies, its trigger and guard, the
//! policy's rule for it, and its own decision.

use super::choose::Lazy;
use super::present::{fill, present};
use super::{CardTrace, Effect, Run, Verdict, test_panic};
use crate::card::{self, Card};
use crate::context::Ctx;
use crate::deck::resolve::{self, Chosen};
use crate::deck::sources::CardScope;
use crate::diag::{self, Kind};
use crate::event::{EventSpec, Matcher};
use crate::guards;
use crate::paths;
use crate::state::key::{CooldownKey, OnceKey, RepeatKey};
use crate::state::{self, Session};
use crate::text::{self, Fragment};
use crate::trigger::Trigger;
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// Judges every chosen card, each as the event it is bound to among those
/// evaluated here, with the session's state when there is one.
pub(super) fn judge_each(
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

/// The once-per-session key of the untrusted-project-cards note.
const UNTRUSTED_NOTE: &str = "untrusted-project-cards";

/// A card that did not fire: its verdict and why.
type NotFired = (Verdict, String);

/// Who judged a finding: a guard, or a card's own trigger.
pub(super) enum Judge<'a> {
    Guard(&'a str),
    Trigger { card: &'a str },
}

impl Judge<'_> {
    /// The repeat-rule key of a finding of this judge's on `target`.
    pub(super) fn repeat_key(&self, target: &str) -> RepeatKey {
        match self {
            Judge::Guard(g) => RepeatKey::of(g, target),
            Judge::Trigger { .. } => RepeatKey::of(&self.owner(), target),
        }
    }

    /// The judge's name in repeat keys and rulings (a trigger's is its card,
    /// `card:<name>`).
    pub(super) fn owner(&self) -> String {
        match self {
            Judge::Guard(g) => g.to_string(),
            Judge::Trigger { card } => format!("card:{card}"),
        }
    }

    pub(super) fn label(&self) -> String {
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
    if let Some(t) = &trigger {
        if t.once_per_session {
            finding.once = Some(OnceKey::card(&card.name));
        }
        if t.cooldown.is_some() {
            run.effects.push(Effect::Stamp {
                card: card.name.clone(),
                key: CooldownKey::card(&card.name),
            });
        }
    }
    let judged_by = match (&card.bindings.guard, &trigger) {
        (None, Some(_)) => Judge::Trigger { card: &card.name },
        _ => Judge::Guard(judge),
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
    if finding.is_opaque() && !decided(chosen, &id, policy) {
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
    // A guard card's trigger keys (`once`, `cooldown`, `decision`) only
    // gate it: its guard judges, never an empty trigger.
    let guard = match (card.bindings.guard.is_some(), guards::lookup(judge)) {
        (false, _) => None,
        (true, Some(g)) => Some(g),
        (true, None) => {
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
