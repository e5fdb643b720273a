//! `cuecard explain`: the dispatcher's own run, told to a human.

use super::{CommandError, ExitStatus};
use crate::cli::ExplainArgs;
use crate::dispatch::{self, Request, Verdict};
use crate::event::{Channel, Class, Decision};
use crate::harness::{self, HarnessId};
use crate::payload;
use crate::printer::Printer;

/// An event this contract (or Claude Code) does not have, or a card that
/// exists nowhere, is an error naming the nearest (issue 33); the hook
/// itself never rejects a name (`cuecard dispatch` stays lenient).
fn check_names(a: &ExplainArgs) -> Result<(), CommandError> {
    let h = a.contract.as_deref().and_then(HarnessId::parse);
    let events: Vec<&str> = match h {
        Some(h) => h.spec().events.iter().map(|r| r.native).collect(),
        None => crate::event::EVENTS.iter().map(|e| e.name).collect(),
    };
    if !events.contains(&a.event.as_str()) {
        let hint = h
            .and_then(|h| {
                let e = crate::event::Event::parse(&a.event)?;
                Some((h, h.spec().primary(e)?.native))
            })
            .map(|(h, native)| {
                format!(
                    "; `{}` is Claude Code's name, {} calls it `{native}`",
                    a.event,
                    h.name()
                )
            })
            .unwrap_or_else(|| crate::suggest::hint(&a.event, &events));
        return Err(CommandError::UnknownName {
            what: match h {
                Some(h) => format!("{} event", h.name()),
                None => "event".into(),
            },
            name: a.event.clone(),
            hint,
            among: match h {
                Some(_) => events.join(", "),
                None => format!(
                    "{} (another harness's own names with --contract)",
                    events.join(", ")
                ),
            },
        });
    }
    if a.cards.is_empty() {
        return Ok(());
    }
    let set = super::cards::visible();
    let mut names: Vec<String> = set.cards.iter().map(|(_, c)| c.name.clone()).collect();
    names.extend(set.untrusted.iter().cloned());
    names.extend(set.errors.iter().map(|(_, e)| e.card.clone()));
    for c in &a.cards {
        if !names.contains(c) {
            return Err(CommandError::UnknownName {
                what: "card".into(),
                hint: crate::suggest::hint(c, &names),
                name: c.clone(),
                among: "see `cuecard cards list`".into(),
            });
        }
    }
    Ok(())
}

pub fn run(p: &Printer, a: ExplainArgs) -> Result<ExitStatus, CommandError> {
    check_names(&a)?;
    let input = payload::read_stdin(payload::MAX_PAYLOAD_BYTES).and_then(|b| payload::parse(&b));
    let root = input
        .as_ref()
        .ok()
        .and_then(|p| p.cwd())
        .map(|c| crate::target::find_project_root(std::path::Path::new(c)))
        .unwrap_or_else(crate::context::project_root_here);
    let mut payload_line = payload_line(&input);
    if matches!(
        input,
        Err(payload::Unusable::Tty | payload::Unusable::Empty)
    ) {
        // No call to judge: how to give one.
        let contract = a
            .contract
            .as_deref()
            .map(|c| format!("--contract {c} "))
            .unwrap_or_default();
        payload_line.push_str(&format!(
            "\n  to judge a call, pipe in its hook payload (the JSON the harness sends): \
             `cuecard explain {contract}{} < payload.json`",
            a.event
        ));
    }
    let mut out = String::new();
    let contract = a.contract.as_deref().map(|id| (id, HarnessId::parse(id)));
    if let Some((id, h)) = contract {
        match h {
            Some(h) => out.push_str(&format!("contract: {} ({})\n", h.id(), h.name())),
            None => out.push_str(&format!("contract: {id} (unknown: no output)\n")),
        }
    }
    let state_root = crate::state::store::root_for_commands();
    // What the hook answers a payload it cannot read, under the policy.
    let unjudged = Some(crate::unjudged::Unjudged::early(false));
    let mut req = Request::new(
        a.event.clone(),
        a.cards.clone(),
        contract.and_then(|(_, h)| h),
    );
    req.state_root = state_root;
    req.unjudged = unjudged;
    let kept = input.clone();
    let run = dispatch::run(&req, input, None);
    if matches!(contract, Some((_, None))) {
        p.out(&out);
        return Ok(ExitStatus::Success);
    }
    event_lines(&run, &a.event, &mut out);
    out.push_str(&payload_line);
    out.push('\n');
    verdict_lines(&run, &mut out);
    untrusted_lines(&root, &mut out);
    compaction_line(&run, &kept, &mut out);
    answer_lines(&run, &mut out);
    p.out(&out);
    Ok(ExitStatus::Success)
}

/// The project's cards that did not run because they are not trusted, and
/// why: never trusted, or changed since `cuecard trust` pinned them.
fn untrusted_lines(root: &std::path::Path, out: &mut String) {
    let state = crate::state::store::root_for_commands();
    let store = state
        .as_deref()
        .map(crate::trust::TrustStore::load)
        .unwrap_or_default();
    let mut lines = Vec::new();
    for (file, sha) in crate::trust::current_project_cards(root) {
        if store.is_trusted(root, &file, &sha) {
            continue;
        }
        let why = if store.was_pinned(root, &file) {
            "changed since `cuecard trust` pinned it"
        } else {
            "new: never trusted"
        };
        lines.push(format!(
            "  {}  not run: {why}; review it, then run `cuecard trust`\n",
            file.trim_end_matches(".md")
        ));
    }
    if !lines.is_empty() {
        out.push_str("project cards not trusted (.cuecard/cards):\n");
        out.extend(lines);
    }
}

/// What the payload was: its fields, tool and source, or why there is none.
fn payload_line(input: &Result<payload::Payload, payload::Unusable>) -> String {
    match input {
        Ok(p) => format!(
            "payload: ok ({}{}{})",
            crate::text::count(p.raw.len(), "field", "fields"),
            p.tool_name()
                .map(|t| format!(", tool {t}"))
                .unwrap_or_default(),
            p.source()
                .map(|s| format!(", source {s}"))
                .unwrap_or_default(),
        ),
        Err(e) => format!("payload: none ({})", e.describe()),
    }
}

/// The native event's mapping, and the event's class, channel, decision
/// and policy enforcement (from the event table).
fn event_lines(run: &dispatch::Run, event: &str, out: &mut String) {
    if let Some((h, row)) = run.contract {
        out.push_str(&format!(
            "native event: {} → {} (cards evaluated as: {})\n",
            row.native,
            row.canonical,
            harness::evaluated_events(h, row.native)
                .iter()
                .map(|e| e.name())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }

    match run.event {
        Some(spec) => {
            let class = match spec.class {
                Class::Gating => "gating",
                Class::Context => "context",
                Class::Observe => "observe",
            };
            let channel = match spec.channel {
                Channel::AdditionalContext => "hookSpecificOutput.additionalContext",
                Channel::ContinuesTurn => {
                    "hookSpecificOutput.additionalContext (keeps the agent running)"
                }
                Channel::None => "none (nothing reaches the model)",
            };
            let decision = match spec.decision {
                Decision::None => "none",
                Decision::Permission => "permissionDecision",
                Decision::Block => "decision: block",
                Decision::Behavior => "decision.behavior",
                Decision::Action => "action",
            };
            out.push_str(&format!(
                "event: {} ({class}) — {}\n  channel to the model: {channel}\n  decision honoured: {decision}\n",
                spec.name, spec.note
            ));
            let on = run.contract.map(|(h, _)| h);
            out.push_str(&format!(
                "  policy (ask / deny) here: {}\n",
                harness::enforcement(on, spec.event).describe()
            ));
        }
        None => out.push_str(&format!("event: {} (unknown: no output)\n", event)),
    }
}

/// Why the call was decision-only or stopped, and each card's verdict.
fn verdict_lines(run: &dispatch::Run, out: &mut String) {
    if let (true, Some((h, row))) = (run.decision_only, run.contract) {
        out.push_str(&format!(
            "decision only: {} does not deliver what a hook prints on `{}` ({}): only an ask or deny under a policy is sent\n",
            h.name(),
            row.native,
            row.note
        ));
    }
    if let Some(why) = &run.stopped {
        out.push_str(&format!("stopped: {why}\n"));
    }
    if !run.trace.is_empty() {
        out.push_str("cards:\n");
        let width = run.trace.iter().map(|t| t.card.len()).max().unwrap_or(0);
        for t in &run.trace {
            let verdict = match t.verdict {
                Verdict::Fired => "fired",
                Verdict::Quiet => "quiet",
                Verdict::Skipped => "skipped",
                Verdict::Failed => "FAILED",
            };
            out.push_str(&format!("  {:width$}  {verdict:7}  {}\n", t.card, t.why));
        }
    }
}

/// On the compaction guard's events: the size the payload measures, the
/// window, and where each comes from (the guard itself needs the session's
/// state, which `explain` does not load).
fn compaction_line(
    run: &dispatch::Run,
    input: &Result<payload::Payload, payload::Unusable>,
    out: &mut String,
) {
    use crate::guards::Guard;
    let guard = crate::guards::compaction::Compaction;
    if let (Some(spec), Ok(p)) = (run.event, input)
        && guard.events().contains(&spec.name)
    {
        // Under a contract the guard reads the payload as translated (the
        // transcript or usage file the contract names).
        let mut p = p.clone();
        if let Some((h, row)) = run.contract {
            (h.spec().translate)(row, &mut p.raw);
        }
        out.push_str(&crate::guards::compaction::explain(&p));
        out.push('\n');
    }
}

/// The decision, an exit-2 block, and the line dispatch would print.
fn answer_lines(run: &dispatch::Run, out: &mut String) {
    match (&run.decided, &run.outcome.ruling) {
        (Some((level, reason)), _) => out.push_str(&format!(
            "decision: {level} — {}\n",
            reason.lines().next().unwrap_or_default()
        )),
        (None, Some(r)) => out.push_str(&format!(
            "decision: none — a policy says {} ({}), but this harness honours no decision on this event: the finding stays advice\n",
            r.level,
            r.by.iter().map(|(id, _)| id.as_str()).collect::<Vec<_>>().join(", ")
        )),
        (None, None) => {}
    }
    if let Some(reason) = &run.block {
        out.push_str(&format!(
            "dispatch would exit 2 with on stderr:\n{reason}\n"
        ));
    }
    out.push_str("dispatch would print:\n");
    match &run.answer {
        Some(line) => {
            out.push_str(line);
            out.push('\n');
        }
        None => out.push_str("(nothing)\n"),
    }
}
