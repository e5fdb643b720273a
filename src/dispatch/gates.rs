//! The gates before the cards: the contract's row, the canonical event,
//! the channel, an unusable payload, the translation to the canonical
//! shape, the call's audit record and project root, the deadline, and
//! the SessionStart once gate after them.

use super::{Effect, Request, Run, Source, Stop};
use crate::context::Ctx;
use crate::diag::{self, Kind};
use crate::envelope;
use crate::event::{self, EventSpec};
use crate::harness::{self, EventRow, HarnessId};
use crate::payload::{Payload, Unusable};
use crate::state;
use crate::text;

/// The session's project root as its first call found it (issue 26: the
/// root stays put), read from its pin; `None` without a state root. On the
/// hook path a session with no pin yet is pinned to the root found now, as
/// an effect of the call ([`Effect::Pin`], committed with the answer);
/// `explain` and tests read a pin, never make one.
pub(super) fn pinned_root(
    req: &Request,
    source: &Source,
    payload: &Payload,
    probe: &Ctx,
    run: &mut Run,
) -> Option<std::path::PathBuf> {
    let state_root = req.state_root.as_deref()?;
    let (part, _) =
        state::key::session_part(payload.raw.get("session_id"), payload.transcript_path());
    if let Some(root) = state::pin::recorded(state_root, &part) {
        return Some(root);
    }
    if !matches!(source, Source::Load(_)) {
        return None;
    }
    let found = crate::target::find_project_root(&probe.cwd());
    if state::pin::pinned(&part) {
        run.effects.push(Effect::Pin {
            part,
            root: found.clone(),
        });
    }
    Some(found)
}

/// The call as an audit record names it: no payload text but the tool's
/// name and the harness's session and tool-call ids (docs/audit.md).
pub(super) fn audit_call(
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
pub(super) fn contract_row(req: &Request) -> Result<Option<(HarnessId, &'static EventRow)>, Stop> {
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
pub(super) fn canonical_event(
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
pub(super) fn channel_gate(
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
pub(super) fn unreadable(req: &Request, why: &Unusable, run: &mut Run) {
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
    // No standing decision: the neutral answer, where silence is none.
    let answer = answer.or_else(|| {
        req.neutral()
            .map(|line| crate::deadline::Answer::Stdout(line.to_string()))
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

pub(super) fn usable(input: Result<Payload, Unusable>) -> Result<Payload, Stop> {
    input.map_err(|why| {
        diag::record(Kind::UnusablePayload, why.describe());
        format!("no usable payload: {}", why.describe())
    })
}

/// The contract brings the payload into the canonical shape, and names
/// every canonical event whose cards run here (a deferred PreToolUse rides
/// on the after-tool event).
pub(super) fn translate(
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

/// SessionStart once: only an answer marks, so a start that said nothing
/// never silences the next; the mark is atomic, so of two surfaces
/// answering the same start at once exactly one prints.
pub(super) fn once_gate(
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
