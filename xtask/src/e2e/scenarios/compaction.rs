//! The compaction scenarios: the recovery carried across a compaction, the
//! handoff note, and the plan a plan-mode session wrote.

use super::{Plan, Scenario, card_named, guarded, signature};
use crate::e2e::harness::Harness;
use crate::e2e::outcome::{Outcome, Req, normalise};
use crate::e2e::tools::{shell, text, turn, write};
use cuecard::card::Card;
use serde_json::json;
use std::path::Path;

pub(super) fn compaction_warning() -> Result<Vec<Card>, String> {
    guarded(
        &[
            "compaction",
            "compaction-warning",
            "context",
            "context-size",
            "usage",
        ],
        None,
    )
}

/// A compaction scenario in which the model writes its hand-off note after
/// the first warning (`written`) or does not (a note committed beforehand by
/// `setup` must then never be carried).
pub(super) fn compaction_scenario(
    name: &'static str,
    about: &'static str,
    setup: fn(&Path) -> Result<(), String>,
    written: bool,
) -> Scenario {
    Scenario {
        name,
        about,
        cannot: cannot_compact,
        needs: recovery_cards,
        setup,
        plan: if written {
            |h, p| plan_compaction(h, p, true)
        } else {
            |h, p| plan_compaction(h, p, false)
        },
        check: if written {
            |h, o, cards| {
                let mut p = check_compaction(h, o, cards);
                p.extend(check_handoff(o, cards, true));
                p
            }
        } else {
            |h, o, cards| {
                let mut p = check_compaction(h, o, cards);
                p.extend(check_handoff(o, cards, false));
                p
            }
        },
    }
}

/// Why a harness cannot run the policy scenarios that expect a decision:
/// its contract honours none on PreToolUse (the findings stay advice).
pub(super) fn cannot_decide(h: &Harness) -> Option<&'static str> {
    let id = cuecard::harness::HarnessId::parse(h.id)?;
    (cuecard::harness::enforcement(Some(id), cuecard::event::Event::PreToolUse)
        == cuecard::harness::Enforcement::AdviceOnly)
        .then_some(
            "its hooks cannot refuse one call (Cline: `cancel` ends the whole run and shows the reason to no one, measured): findings stay advice",
        )
}

/// Why a harness cannot run the compaction scenarios (evidence in
/// docs/e2e.md).
fn cannot_compact(h: &Harness) -> Option<&'static str> {
    match h.id {
        "gemini" => Some(
            "Gemini CLI does not compress in -p mode (not by usage, compressionThreshold or /compress)",
        ),
        "copilot" => Some(
            "Copilot CLI fires no sessionStart for a compaction, so nothing can carry the recovery card",
        ),
        "qwen" => {
            Some("Qwen Code fires SessionStart(compact), but its context never reaches the model")
        }
        "cline" => Some(
            "Cline reads no hook output before a turn (TaskStart is run detached), so nothing can carry the recovery card",
        ),
        "factory" => Some(
            "`droid exec` neither compacts nor resumes (`--continue` is refused); Droid compacts through its \
             JSON-RPC mode's `droid.compact_session` (the rig's notes), which this e2e does not drive",
        ),
        "pi" => Some(
            "pi -p did not compact here (measured: no summary request after the scripted usage and overflow); \
             pi compacts through `--mode rpc`'s `compact` command, which this e2e does not drive",
        ),
        _ => None,
    }
}

/// The recovery card, then the card that carries the hand-off back.
pub(super) fn recovery_cards() -> Result<Vec<Card>, String> {
    Ok(vec![
        card_named("compact-recovery")?,
        card_named("handoff-recovery")?,
    ])
}

/// A hand-off note in the compaction-handoff skill's template whose lines
/// start with `tag`.
pub(super) fn handoff_note(tag: &str) -> String {
    format!(
        "# Hand-off (e2e)\n## Goal\n{tag}-GOAL: run the steps, then say done.\n## Done\n- {tag}-DONE: the first step ran.\n## In progress\n- {tag}-IN-PROGRESS: nothing half done.\n## Next step\n- {tag}-NEXT-STEP: run the remaining steps with the shell tool.\n"
    )
}

/// The quoted lines the recovery carries of [`handoff_note`], and one it
/// leaves out, as a request carries them.
fn carried_lines(tag: &str) -> (Vec<String>, String) {
    let carried = [
        format!("> {tag}-GOAL: run the steps, then say done."),
        format!("> - {tag}-IN-PROGRESS: nothing half done."),
        format!("> - {tag}-NEXT-STEP: run the remaining steps with the shell tool."),
    ];
    (
        carried.iter().map(|l| normalise(l)).collect(),
        normalise(&format!("> - {tag}-DONE: the first step ran.")),
    )
}

fn plan_compaction(h: &Harness, p: &Path, write_note: bool) -> Plan {
    let high = Some((5_000, 190_000));
    let note = p.join("HANDOFF.md").to_string_lossy().to_string();
    // After the first warning, the model writes its hand-off note (or, with
    // a note committed beforehand, does something else).
    let handoff = |usage| {
        if write_note {
            turn(write(&note, &handoff_note("CUECARD-E2E")), usage)
        } else {
            turn(shell("echo no note"), usage)
        }
    };
    match h.id {
        "claude-code" => Plan {
            // Reactive compaction: the server answers "prompt is too long".
            // Usage then climbs again past the first threshold (75% of the
            // 200,000-token window), so the warning cycle must re-arm.
            prompt: "Run four steps with your shell tool, then say done.".into(),
            // The warning may reach the model one call late (a hook can
            // read the transcript before the call's usage is on it), so the
            // note is written after a second call at that usage.
            script: json!({"turns": [
                turn(shell("echo before"), high),
                turn(shell("echo warned"), high),
                handoff(high),
                {"error": {"status": 400, "type": "invalid_request_error",
                           "message": "prompt is too long: 210000 tokens > 200000 maximum"}},
                turn(shell("echo after"), Some((3_000, 12_000))),
                turn(shell("echo again"), Some((5_000, 145_000))),
                // A hook may run before the harness wrote the call's usage
                // to the transcript (measurement lags up to one call).
                turn(shell("echo once more"), Some((5_000, 146_000))),
                text("CUECARD-E2E-FINISHED after compaction.")
            ]}),
            model: Some("claude-sonnet-4-5".into()),
            ..Plan::default()
        },
        "codex" => Plan {
            // Codex compacts on reported usage over its auto-compact limit
            // (230,000 of 258,400 is over 200,000); afterwards usage climbs
            // to 70% of the window, under the limit, past the first threshold.
            // Before it, 180,000 (69%) warns once: a PostToolUse measures the
            // call before it, so the warning comes with the second call and
            // the note is written in the third.
            prompt: "Run four steps with your shell tool, then say done.".into(),
            script: json!({"turns": [
                turn(shell("echo before"), Some((10_000, 170_000))),
                turn(shell("echo warned"), Some((10_000, 170_000))),
                handoff(Some((10_000, 220_000))),
                turn(shell("echo after"), Some((3_000, 12_000))),
                turn(shell("echo again"), Some((9_000, 172_000))),
                // Codex writes a call's token count after its output, so a
                // PostToolUse measures the call before: one more call.
                turn(shell("echo once more"), Some((9_000, 173_000))),
                text("CUECARD-E2E-FINISHED after compaction.")
            ]}),
            codex_toml: "model_auto_compact_token_limit = 200000".into(),
            ..Plan::default()
        },
        "codebuddy" => Plan {
            // CodeBuddy Code compacts in -p ("emergency-auto") when the last
            // reported usage plus its estimate of the tool results since
            // passes 92% of the model's maxInputTokens (184,000 of the
            // driver's 200,000; its log's `shouldCompact` lines), then fires
            // SessionStart `compact`, whose context reaches the next
            // request. The transcript's usage is read for the warning; the
            // note is written in the third call, whose 186,000 compacts;
            // afterwards usage climbs to 75% again, under the trigger.
            prompt: "Run four steps with your shell tool, then say done.".into(),
            script: json!({"turns": [
                turn(shell("echo before"), Some((10_000, 140_000))),
                turn(shell("echo warned"), Some((10_000, 141_000))),
                handoff(Some((10_000, 176_000))),
                turn(shell("echo after"), Some((3_000, 12_000))),
                // Other figures than before it: the re-armed warning must
                // be one no earlier request carried.
                turn(shell("echo again"), Some((9_000, 143_000))),
                turn(shell("echo once more"), Some((9_000, 144_000))),
                text("CUECARD-E2E-FINISHED after compaction.")
            ]}),
            model: Some("claude-sonnet-4-5".into()),
            ..Plan::default()
        },
        "opencode" | "kilo" => Plan {
            // OpenCode (and Kilo Code) compacts when a call reports more
            // than the model's context limit less its output limit
            // (200,000 - 8,192 in the driver's provider entry). The plugin
            // passes the last message's token counts (message.updated),
            // which OpenCode writes when the step finishes, after its tool
            // ran: a tool call measures the call before it, so the warning
            // comes with the second call and the note is written in the
            // third, whose 230,000 compacts. Afterwards usage climbs to 90%
            // again, under the limit: the cycle re-arms.
            prompt: "Run four steps with your shell tool, then say done.".into(),
            script: json!({"turns": [
                turn(shell("echo before"), Some((10_000, 170_000))),
                turn(shell("echo warned"), Some((10_000, 170_000))),
                handoff(Some((10_000, 220_000))),
                turn(shell("echo after"), Some((3_000, 12_000))),
                turn(shell("echo again"), Some((9_000, 172_000))),
                turn(shell("echo once more"), Some((9_000, 173_000))),
                text("CUECARD-E2E-FINISHED after compaction.")
            ]}),
            ..Plan::default()
        },
        _ => Plan {
            // Qwen compacts over a low threshold.
            prompt: "Run two steps with your shell tool, then say done.".into(),
            script: json!({"turns": [
                turn(shell("echo before"), high),
                turn(shell("echo after"), Some((3_000, 12_000))),
                text("CUECARD-E2E-FINISHED after compaction.")
            ]}),
            user_settings: json!({"context": {"autoCompactThreshold": 0.1}}),
            then: vec!["What happened before?".into()],
            ..Plan::default()
        },
    }
}

/// The request that asked for the compaction summary, and the first main
/// request after it; or what is missing.
fn around_compaction(o: &Outcome) -> Result<(&Req, &Req), String> {
    let Some(summary) = o.requests.iter().find(|r| r.reply.starts_with("rule")) else {
        return Err("the harness never asked the model for a compaction summary".into());
    };
    o.requests
        .iter()
        .find(|r| r.seq > summary.seq && !r.reply.starts_with("rule") && r.reply != "side")
        .map(|next| (summary, next))
        .ok_or_else(|| "no model request after the compaction".into())
}

fn check_compaction(_: &Harness, o: &Outcome, cards: &[Card]) -> Vec<String> {
    let sig = signature(&cards[0]);
    let (summary, next) = match around_compaction(o) {
        Ok(r) => r,
        Err(e) => return vec![e],
    };
    let mut p = Vec::new();
    if let Some(r) = o.first_with(&sig).filter(|r| r.seq < summary.seq) {
        p.push(format!(
            "the recovery card appears in request {} before the compaction",
            r.seq
        ));
    }
    if !next.text.contains(&normalise(&sig)) {
        p.push(format!(
            "the first request after the compaction ({}) does not carry the recovery card",
            next.seq
        ));
    }
    // The warning cycle re-arms: a warning (with its figures) that no
    // request before the compaction carried appears after it.
    if let Ok(warnings) = compaction_warning() {
        let snippets = |r: &Req| -> Vec<String> {
            warnings
                .iter()
                .flat_map(|c| {
                    let sig = normalise(&signature(c));
                    r.text
                        .match_indices(&sig)
                        .map(|(i, _)| r.text[i..].chars().take(sig.len() + 60).collect::<String>())
                        .collect::<Vec<_>>()
                })
                .collect()
        };
        let before: Vec<String> = o
            .requests
            .iter()
            .filter(|r| r.seq < summary.seq)
            .flat_map(snippets)
            .collect();
        let rearmed = o
            .requests
            .iter()
            .filter(|r| r.seq > summary.seq)
            .flat_map(snippets)
            .any(|s| !before.contains(&s));
        if !rearmed {
            p.push(
                "no new compaction warning after the compaction (the cycle did not re-arm)".into(),
            );
        }
    }
    p
}

/// The note's carried sections reach the first request after the
/// compaction, quoted by the hand-off card, when this session wrote it
/// (`written`); when it was committed beforehand, no request carries them.
fn check_handoff(o: &Outcome, cards: &[Card], written: bool) -> Vec<String> {
    let sig = normalise(&signature(&cards[1]));
    let Ok((summary, next)) = around_compaction(o) else {
        return vec![]; // check_compaction said so
    };
    let mut p = Vec::new();
    if let Some(r) = o.first_with(&sig).filter(|r| r.seq < summary.seq) {
        p.push(format!(
            "the hand-off card appears in request {} before the compaction",
            r.seq
        ));
    }
    if !written {
        let (carried, _) = carried_lines("CUECARD-E2E-COMMITTED");
        if let Some(r) = o.first_with(&sig) {
            p.push(format!(
                "the hand-off card reached request {} though no note was written in the session",
                r.seq
            ));
        }
        for line in carried {
            if let Some(r) = o.requests.iter().find(|r| r.text.contains(&line)) {
                p.push(format!(
                    "the committed note's `{line}` reached request {}",
                    r.seq
                ));
            }
        }
        return p;
    }
    // The note counts only when written after the first warning: the
    // request answered with the write (turn 2) must already carry it.
    let warned = compaction_warning()
        .unwrap_or_default()
        .iter()
        .filter_map(|c| o.first_with(&signature(c)).map(|r| r.seq))
        .min();
    if let Some(write) = o.answered_with("turn2")
        && warned.is_none_or(|w| w > write.seq)
    {
        p.push(format!(
            "the first warning reached the model after the note was written (request {}): the run does not test the rule",
            write.seq
        ));
    }
    if !next.text.contains(&sig) {
        p.push(format!(
            "the first request after the compaction ({}) does not carry the hand-off card",
            next.seq
        ));
    }
    let (carried, left_out) = carried_lines("CUECARD-E2E");
    for line in carried {
        if !next.text.contains(&line) {
            p.push(format!(
                "the first request after the compaction ({}) does not carry `{line}`",
                next.seq
            ));
        }
    }
    if next.text.contains(&left_out) {
        p.push(format!(
            "request {} carries the note's Done section (`{left_out}`), which is not carried",
            next.seq
        ));
    }
    p
}

/// What Claude Code 2.1.328's plan-mode reminder says before the plan
/// file's path.
pub(super) const PLAN_PATH_AFTER: &str = "You should create your plan at ";

/// The plan the scripted model writes: one step done, one open.
pub(super) const PLAN: &str = "# Plan: swap the operands\n\n## Steps\n- [x] CUECARD-E2E-PLAN-DONE: read src/lib.rs\n- [ ] CUECARD-E2E-PLAN-OPEN: swap the operands in add\n";

/// The plan file was written where Claude Code named it (under
/// `~/.claude/plans/`), and the first request after the compaction names it
/// with its open step, not its done one.
pub(super) fn check_plan(_: &Harness, o: &Outcome, cards: &[Card]) -> Vec<String> {
    let sig = normalise(&signature(&cards[1]));
    let mut p = Vec::new();
    let Some(write) = o.answered_with("turn0") else {
        return vec!["the plan-mode request was never answered".into()];
    };
    if !write.text.contains(&normalise(PLAN_PATH_AFTER)) {
        p.push(format!(
            "request {} carries no plan-mode reminder naming the plan file",
            write.seq
        ));
    }
    let next = match around_compaction(o) {
        Ok((_, next)) => next,
        Err(e) => {
            p.push(e);
            return p;
        }
    };
    let named = normalise("The plan `~/.claude/plans/");
    let open = normalise("> - [ ] CUECARD-E2E-PLAN-OPEN: swap the operands in add");
    if !next.text.contains(&sig) || !next.text.contains(&named) {
        p.push(format!(
            "the first request after the compaction ({}) does not name the plan (`{named}`)",
            next.seq
        ));
    }
    if !next.text.contains(&open) {
        p.push(format!(
            "the first request after the compaction ({}) does not carry the open step `{open}`",
            next.seq
        ));
    }
    if next
        .text
        .contains(&normalise("> - [x] CUECARD-E2E-PLAN-DONE"))
    {
        p.push(format!("request {} carries the done step", next.seq));
    }
    p
}
