//! `cuecard explain`: the dispatcher's own run, told to a human.

use super::EXIT_OK;
use crate::cli::EventArgs;
use crate::dispatch::{self, Request, Verdict};
use crate::event::{self, Channel, Class, Decision};
use crate::{payload, printer};

pub fn run(a: EventArgs) -> i32 {
    let input = payload::read_stdin(payload::MAX_PAYLOAD_BYTES).and_then(|b| payload::parse(&b));
    let payload_line = match &input {
        Ok(p) => format!(
            "payload: ok ({} field(s){}{})",
            p.raw.len(),
            p.tool_name()
                .map(|t| format!(", tool {t}"))
                .unwrap_or_default(),
            p.source()
                .map(|s| format!(", source {s}"))
                .unwrap_or_default(),
        ),
        Err(e) => format!("payload: none ({})", e.describe()),
    };
    let req = Request {
        event: a.event.clone(),
        cards: a.cards.clone(),
    };
    let state_root = crate::trust::default_state_root().filter(|p| p.is_dir());
    let run = dispatch::run(&req, input, None, state_root.as_deref());

    let mut out = String::new();
    match event::lookup(&a.event) {
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
        }
        None => out.push_str(&format!("event: {} (unknown: no output)\n", a.event)),
    }
    out.push_str(&payload_line);
    out.push('\n');
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
    out.push_str("dispatch would print:\n");
    match &run.answer {
        Some(line) => {
            out.push_str(line);
            out.push('\n');
        }
        None => out.push_str("(nothing)\n"),
    }
    printer::out(&out);
    EXIT_OK
}
