//! The `skill-shell` scenarios: a skill's inline shell command (``!`cmd` ``
//! in a SKILL.md), which Claude Code runs when the skill is loaded, with
//! no PreToolUse; its hook is PreSkillShellCommand (2.1.332), where cuecard
//! judges the command as a Bash call for its decision alone.

use super::harness::Harness;
use super::outcome::Outcome;
use super::scenarios::{POLICY_MARK, Plan, Scenario};
use super::tools::{shell, text, turn};
use cuecard::card::Card;
use serde_json::json;
use std::path::Path;

/// A file `git clean -fdx` removes (ignored, so never committed).
const CANARY: &str = "scratch/skill-canary.txt";

pub fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "skill-shell-deny",
            about: "CUECARD_POLICY=destructive=deny; the prompt `/cuecard-probe` loads a project skill whose inline shell command is `git clean -fdx`: PreSkillShellCommand refuses it and the ignored canary file survives",
            cannot,
            needs: cards,
            setup,
            plan: |_, _| plan(Some("destructive=deny")),
            check: |_, o, _| check(o, true),
        },
        Scenario {
            name: "skill-shell-control",
            about: "skill-shell-deny with no policy set: the skill's command runs and the canary is gone (nothing is registered on PreSkillShellCommand without a policy)",
            cannot,
            needs: cards,
            setup,
            plan: |_, _| plan(None),
            check: |_, o, _| check(o, false),
        },
    ]
}

fn cannot(h: &Harness) -> Option<&'static str> {
    (h.id != "claude-code").then_some(
        "only Claude Code runs a skill's inline shell commands through a hook of their own (PreSkillShellCommand, 2.1.332)",
    )
}

fn cards() -> Result<Vec<Card>, String> {
    super::scenarios::shipped()
        .into_iter()
        .find(|c| c.name == "destructive")
        .map(|c| vec![c])
        .ok_or_else(|| "no shipped card `destructive`".into())
}

fn setup(p: &Path) -> Result<(), String> {
    let w = |rel: &str, t: &str| super::harness::write(&p.join(rel), t);
    w(".gitignore", "scratch/\n")?;
    w(CANARY, "alive\n")?;
    w(
        ".claude/skills/cuecard-probe/SKILL.md",
        "---\nname: cuecard-probe\ndescription: cuecard's end-to-end probe\nallowed-tools: Bash(git clean:*)\n---\nStatus: !`git clean -fdx`\n",
    )
}

fn plan(policy: Option<&str>) -> Plan {
    Plan {
        prompt: "/cuecard-probe".into(),
        script: json!({"turns": [
            turn(shell("ls scratch 2>&1; echo CUECARD-LISTED"), None),
            text("CUECARD-E2E-FINISHED: listed the scratch folder."),
        ]}),
        env: policy
            .map(|v| vec![("CUECARD_POLICY".to_string(), v.to_string())])
            .unwrap_or_default(),
        ..Plan::default()
    }
}

fn check(o: &Outcome, denied: bool) -> Vec<String> {
    let mut p = Vec::new();
    // The request after the listing carries its output (and the command,
    // which names no canary).
    let Some(listed) = o
        .requests
        .iter()
        .rev()
        .find(|r| r.text.contains("CUECARD-LISTED"))
    else {
        return vec!["the listing was never run: the harness stopped early".into()];
    };
    let alive = listed.text.contains("skill-canary.txt");
    let told = o.requests.first().is_some_and(|r| {
        r.text.contains(POLICY_MARK) && r.text.contains("destructive.git-discard")
    });
    match (denied, alive) {
        (true, false) => {
            p.push("the canary was deleted: the deny did not stop the skill's command".into())
        }
        (false, true) => {
            p.push("the control's canary survived: the skill's command did not run".into())
        }
        _ => {}
    }
    // Measured (2.1.332): the refusal stands in the expanded skill, in
    // place of the command's output ("[not run: blocked by hook: ...]").
    if denied && !told {
        p.push("the deny's reason did not reach the model in the expanded skill".into());
    }
    if !denied && o.requests.iter().any(|r| r.text.contains(POLICY_MARK)) {
        p.push("a decision reached the model with no policy set".into());
    }
    p
}
