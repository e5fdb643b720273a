//! The scenarios (issue 7, point 2): what the scripted model does, and what
//! must (and must not) reach it through each real harness.
//!
//! Each scenario names the shipped cards it checks, found in the catalogue by
//! their guard; a scenario whose card is not shipped by this build is
//! reported PENDING (the feature has not landed), never passed.
//!
//! This file holds the table ([`all`]) and what the families share (the
//! canary, the shipped cards by name or guard); each family's plans and
//! checks are in its own file.

mod advisory;
mod compaction;
mod policy;
mod sandbox;

use super::harness::Harness;
use super::outcome::{Outcome, normalise};
use super::tools::{shell, text, turn, write};
use advisory::{
    advisory_after, check_benign, check_disabled, check_warnings, package_add_cards, plan_benign,
    plan_package_add, setup_drifted_kb, start_delivered, transcript_measured,
};
use compaction::{
    PLAN, PLAN_PATH_AFTER, cannot_decide, check_plan, compaction_scenario, compaction_warning,
    handoff_note, recovery_cards,
};
use cuecard::card::Card;
use policy::{
    Expect, check_hidden, check_policy, check_project_env, plan_hidden, plan_policy,
    plan_project_env, policy_cards, setup_project_env,
};
use sandbox::{check_sandbox, plan_sandbox, setup_sandbox};
use serde_json::{Value, json};
use std::path::Path;

/// What the harness is asked to do in one scenario.
#[derive(Default)]
pub struct Plan {
    pub prompt: String,
    pub script: Value,
    pub then: Vec<String>,
    pub env: Vec<(String, String)>,
    pub codex_toml: String,
    pub user_settings: Value,
    pub model: Option<String>,
    /// Load cuecard as the harness's plugin (`cuecard plugin build`, then
    /// `--plugin-dir`) instead of `cuecard install`: no settings file is
    /// written.
    pub plugin: bool,
    /// `cuecard install --sandbox` with this policy (given to the install
    /// only: the hook runs with none, so nothing the reader sees stops a
    /// call and what holds is the harness's sandbox alone).
    pub sandbox: Option<&'static str>,
}

pub struct Scenario {
    pub name: &'static str,
    pub about: &'static str,
    /// Why a harness cannot run this scenario (evidence in docs/e2e.md).
    pub cannot: fn(&Harness) -> Option<&'static str>,
    /// The cards it checks, or why it is pending.
    pub needs: fn() -> Result<Vec<Card>, String>,
    /// Extra files in the temporary project.
    pub setup: fn(&Path) -> Result<(), String>,
    pub plan: fn(&Harness, &Path) -> Plan,
    /// Problems found (empty: passed). Every scenario also gets the common
    /// checks (exit codes, no hook error).
    pub check: fn(&Harness, &Outcome, &[Card]) -> Vec<String>,
}

pub fn all() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "benign",
            about: "read a file, run the tests, edit a source file: only the session-start cards, no advisory",
            cannot: |_| None,
            needs: || card_named("session-start").map(|c| vec![c]),
            setup: |_| Ok(()),
            plan: |_, p| plan_benign(p, false),
            check: check_benign,
        },
        Scenario {
            name: "disabled",
            about: "CUECARD_DISABLE=1: nothing from cuecard reaches the model, the harness runs normally",
            cannot: |_| None,
            needs: || Ok(shipped()),
            setup: |_| Ok(()),
            plan: |_, p| {
                let mut plan = plan_benign(p, true);
                plan.env.push(("CUECARD_DISABLE".into(), "1".into()));
                plan
            },
            check: check_disabled,
        },
        Scenario {
            name: "dependency-manifest",
            about: "the model writes a dependency manifest: the dependency advisory reaches a later request",
            // Codex (custom provider) writes files through the shell and
            // Copilot with its freeform apply_patch: both are judged (the
            // dependency guard reads shell write targets; the Copilot
            // contract translates apply_patch).
            cannot: |_| None,
            needs: || guarded(&["dependency", "dependencies", "manifest"], None),
            setup: |_| Ok(()),
            plan: |h, p| {
                // Gemini CLI refuses, even with --yolo, to write what it
                // calls build configuration files (package.json): a Python
                // requirements file is a manifest it writes.
                let (file, content) = if h.id == "gemini" {
                    ("requirements.txt", "requests==2.32.3\n")
                } else {
                    (
                        "package.json",
                        "{\n  \"name\": \"demo\",\n  \"version\": \"1.0.0\",\n  \"dependencies\": {\n    \"left-pad\": \"1.3.0\"\n  }\n}\n",
                    )
                };
                let manifest = p.join(file).to_string_lossy().to_string();
                Plan {
                    prompt: format!("Add a dependency to {file}, then say done."),
                    script: json!({"turns": [
                        turn(write(&manifest, content), None),
                        text("Added the dependency.")
                    ]}),
                    ..Plan::default()
                }
            },
            check: |_, o, cards| advisory_after(o, cards, 0),
        },
        Scenario {
            name: "package-add",
            about: "the model runs a package-add command: the dependency advisory reaches a later request",
            cannot: |_| None,
            needs: package_add_cards,
            setup: |_| Ok(()),
            plan: |_, _| plan_package_add(),
            check: |_, o, cards| advisory_after(o, cards, 0),
        },
        Scenario {
            name: "plugin",
            about: "cuecard loaded as a plugin (`cuecard plugin build`; Claude Code's and Copilot CLI's `--plugin-dir`, Codex's plugin marketplace, Gemini CLI's extensions directory), no settings install: the session-start cards and, after a package-add, the dependency advisory reach the model",
            cannot: |h| {
                (!matches!(h.id, "claude-code" | "codex" | "gemini" | "copilot")).then_some(
                    "no plugin format built for it yet (Claude Code's, Codex's and Copilot CLI's plugins and Gemini CLI's extension are)",
                )
            },
            needs: || {
                let mut cards = vec![card_named("session-start")?];
                cards.extend(package_add_cards()?);
                Ok(cards)
            },
            setup: |_| Ok(()),
            plan: |_, _| Plan {
                plugin: true,
                ..plan_package_add()
            },
            check: |_, o, cards| {
                let mut p = Vec::new();
                let start = signature(&cards[0]);
                match o.first_with(&start) {
                    None => p.push(format!(
                        "the session-start card never reached the model (`{start}`)"
                    )),
                    Some(r) if o.requests.first().is_some_and(|f| f.seq != r.seq) => {
                        p.push(format!(
                            "the session-start card first reached request {}, not the first",
                            r.seq
                        ))
                    }
                    Some(_) => {}
                }
                p.extend(advisory_after(o, &cards[1..], 0));
                p
            },
        },
        Scenario {
            name: "usage-warnings",
            about: "reported usage climbs past both thresholds: the compaction warning, at most twice, with figures",
            cannot: |_| None,
            needs: compaction_warning,
            setup: |_| Ok(()),
            plan: |h, _| {
                // Climb to 90% of the window cuecard takes the thresholds of
                // (Codex's gpt-5.4: 258,400 tokens; Copilot CLI states its
                // prompt limit, 128,000 for a BYOK model; Gemini CLI
                // compresses at half of Claude Sonnet's 200,000; else
                // 200,000).
                let window: u64 = match h.id {
                    "codex" => 258_400,
                    "copilot" => 128_000,
                    "gemini" => 100_000,
                    _ => 200_000,
                };
                // Each crossing is held for two calls: a hook may run before
                // the harness wrote the call's usage (lag of one call).
                let percents = [10, 30, 50, 70, 71, 84, 85, 90];
                let mut turns: Vec<Value> = percents
                    .iter()
                    .enumerate()
                    .map(|(i, pc)| {
                        let total = window * pc / 100;
                        // Where cuecard has no transcript to measure (Gemini,
                        // Qwen, Copilot) it estimates from tool output: each
                        // step prints about 2,400 tokens into a 20,000 window.
                        let cmd = if transcript_measured(h) {
                            format!("echo step {i}")
                        } else {
                            // Distinct commands: Qwen halts a run that repeats
                            // an identical call.
                            format!("seq {} {}", i + 1, i + 1200)
                        };
                        turn(shell(&cmd), Some((total / 20, total - total / 20)))
                    })
                    .collect();
                turns.push(text("All steps ran."));
                let mut env = Vec::new();
                if !transcript_measured(h) {
                    env.push(("CUECARD_CONTEXT_WINDOW".to_string(), "20000".to_string()));
                }
                // Copilot CLI compacts in the background between 71% and
                // 84% of its prompt limit (measured: none after 90,880 of
                // 128,000, compaction_start after 107,520), and its events
                // log lags a call behind the hook: the default 80% warning
                // raced that compaction (1 of 2 runs). Lower thresholds
                // (crossed at 50% and 70%) keep both before it.
                // Qwen Code compresses its history once usage reaches 70% of
                // the window (its `chatCompression` default; run 7749 of
                // 2026-12-03: the 70% step's next request was the summary
                // request, and the 80% warning never came): the same lower
                // thresholds keep both warnings before it.
                if h.id == "copilot" || h.id == "qwen" {
                    env.push(("CUECARD_COMPACT_WARN".to_string(), "40,60".to_string()));
                }
                Plan {
                    prompt: "Run the eight steps with your shell tool, then say done.".into(),
                    script: json!({ "turns": turns }),
                    model: Some("claude-sonnet-4-5".into()),
                    // Codex would compact on its own before 93%.
                    codex_toml: "model_auto_compact_token_limit = 1000000".into(),
                    env,
                    ..Plan::default()
                }
            },
            check: check_warnings,
        },
        compaction_scenario(
            "compaction",
            "the model writes HANDOFF.md after the first warning, the harness compacts: the recovery card and the note's Next step in the first request after it",
            |_| Ok(()),
            true,
        ),
        compaction_scenario(
            "compaction-committed-handoff",
            "a HANDOFF.md committed before the session, never written in it: the recovery card after the compaction, the note never",
            |p| {
                super::harness::write(
                    &p.join("HANDOFF.md"),
                    &handoff_note("CUECARD-E2E-COMMITTED"),
                )
            },
            false,
        ),
        Scenario {
            name: "plan",
            about: "Claude Code plan mode: the model writes the plan file the harness names, the harness compacts: the plan and its open steps in the first request after it",
            cannot: |h| {
                (h.id != "claude-code").then_some(
                    "only Claude Code's plan file is supported (Codex keeps update_plan in its rollout and its TUI Plan mode was not driven; the others were not measured)",
                )
            },
            needs: recovery_cards,
            setup: |_| Ok(()),
            plan: |_, _| Plan {
                prompt: "Plan how to swap the operands in add, then say done.".into(),
                script: json!({"turns": [
                    {"tool": [{"name": "Write", "input": {"file_path": "{{path}}", "content": PLAN}}],
                     "path_after": PLAN_PATH_AFTER, "delay_ms": 250,
                     "usage": {"input_tokens": 5_000, "cache_read_input_tokens": 150_000, "output_tokens": 120}},
                    {"error": {"status": 400, "type": "invalid_request_error",
                               "message": "prompt is too long: 210000 tokens > 200000 maximum"}},
                    text("CUECARD-E2E-FINISHED after compaction.")
                ]}),
                model: Some("claude-sonnet-4-5".into()),
                user_settings: json!({"permissions": {"defaultMode": "plan"}}),
                ..Plan::default()
            },
            check: check_plan,
        },
        Scenario {
            name: "kb-drift",
            about: "a project whose knowledge base drifted: the drift line at session start",
            cannot: |h| {
                (!start_delivered(h))
                    .then_some("cuecard's contract for this harness drops SessionStart output")
            },
            needs: || card_named("kb-drift").map(|c| vec![c]),
            setup: setup_drifted_kb,
            plan: |_, _| Plan {
                prompt: "Say hello.".into(),
                script: json!({"turns": [turn(shell("echo hello"), None), text("Hello.")]}),
                ..Plan::default()
            },
            check: |_, o, _| {
                let mut p = Vec::new();
                let line = "consider running the knowledge-wiki skill with `--mode drift --kb knowledge-base`";
                match o.first_with(line) {
                    None => p.push(format!("no request carries the drift line ({line})")),
                    Some(r) if r.seq != o.requests[0].seq => p.push(format!(
                        "the drift line first appears in request {}, not the first one",
                        r.seq
                    )),
                    Some(_) => {}
                }
                p
            },
        },
        Scenario {
            name: "policy-deny",
            about: "CUECARD_POLICY=destructive=deny,protected-branch=deny: the scripted model deletes a canary directory outside the project, then force-pushes; both calls are denied, the canary survives, the reason reaches the model",
            cannot: cannot_decide,
            needs: policy_cards,
            setup: setup_canary,
            plan: |_, p| plan_policy(p, Some("destructive=deny,protected-branch=deny")),
            check: |h, o, c| check_policy(h, o, c, Expect::Denied),
        },
        Scenario {
            name: "policy-deny-hidden",
            about: "policy-deny's deletion written the ways a reader can miss (issue 26): the program in a variable, a launcher (`chrt`), a script piped to bash, a script decoded from base64 into sh; each is refused (deny, or ask for what nobody can read) and the canary survives",
            cannot: cannot_decide,
            needs: policy_cards,
            setup: setup_canary,
            plan: |_, p| plan_hidden(p),
            check: check_hidden,
        },
        Scenario {
            name: "policy-ask",
            about: "CUECARD_POLICY=destructive=ask,protected-branch=ask, in a non-interactive run: what the harness does with an ask (measured; docs/policy.md): the canary must survive",
            cannot: cannot_decide,
            needs: policy_cards,
            setup: setup_canary,
            plan: |_, p| plan_policy(p, Some("destructive=ask,protected-branch=ask")),
            check: |h, o, c| check_policy(h, o, c, Expect::Asked),
        },
        Scenario {
            name: "policy-ask-preapproved",
            about: "policy-ask with Claude Code settings that pre-approve the calls (`permissions.allow` Bash(rm:*), Bash(git push:*), `defaultMode: bypassPermissions`): measured whether an allow rule defeats the hook's ask (doctor reports it)",
            cannot: |h| (h.id != "claude-code").then_some("Claude Code's permission rules only"),
            needs: policy_cards,
            setup: setup_canary,
            plan: |_, p| Plan {
                user_settings: json!({"permissions": {
                    "allow": ["Bash(rm:*)", "Bash(git push:*)"],
                    "defaultMode": "bypassPermissions"
                }}),
                ..plan_policy(p, Some("destructive=ask,protected-branch=ask"))
            },
            check: |h, o, c| check_policy(h, o, c, Expect::Asked),
        },
        Scenario {
            name: "sandbox",
            about: "`cuecard install --sandbox` with outside-project=deny (the policy given to the install only, so the hook decides nothing): the scripted model deletes the canary outside the project through a path read at run time (a `python3 -c` rmtree of the path in old-dir.txt, which the reader gives no decision on even under deny), then writes in the project; the harness's own OS sandbox refuses the delete (the canary survives), the write in the project works",
            cannot: |h| {
                (!matches!(h.id, "claude-code" | "codex")).then_some(
                    "install --sandbox renders into Claude Code's and Codex's sandboxes only",
                )
            },
            needs: policy_cards,
            setup: setup_sandbox,
            plan: |_, p| plan_sandbox(p),
            check: check_sandbox,
        },
        Scenario {
            name: "project-env",
            about: "the user's config file sets destructive = deny; the repository's own settings set the hook's environment to loosen it (Claude Code `.claude/settings.json` `env`, Codex `.codex/config.toml` `shell_environment_policy.set`: CUECARD_DISABLE=1, CUECARD_POLICY=destructive=advise, CUECARD_CONFIG_DIR to a config without policy), and a project hook records the hook environment: measured whether the variables reach the hook (docs/policy.md), and the deny holds either way",
            cannot: |h| {
                (!matches!(h.id, "claude-code" | "codex"))
                    .then_some("measured in Claude Code and Codex (docs/policy.md)")
            },
            needs: policy_cards,
            setup: setup_project_env,
            plan: |_, p| plan_project_env(p),
            check: check_project_env,
        },
        Scenario {
            name: "policy-control",
            about: "the policy scenarios' script with no policy set: the canary is deleted (advice only), no decision reaches the model",
            cannot: |_| None,
            needs: policy_cards,
            setup: setup_canary,
            plan: |_, p| plan_policy(p, None),
            check: |h, o, c| check_policy(h, o, c, Expect::Advised),
        },
    ]
    .into_iter()
    .chain(super::skill_shell::scenarios())
    .collect()
}

/// The canary's directory: beside the project, in the run's home (not a
/// temporary directory, so deleting it is a deletion outside the project).
fn canary(p: &Path) -> std::path::PathBuf {
    p.parent().unwrap_or(p).join("home/canary-dir")
}

/// The file inside the canary directory, whose name a listing shows.
const CANARY_FILE: &str = "CANARY-ALIVE-7f3a";

/// What every deny and ask reason of cuecard's starts with.
pub const POLICY_MARK: &str = cuecard::envelope::POLICY_MARK;

fn setup_canary(p: &Path) -> Result<(), String> {
    let dir = canary(p);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::fs::write(dir.join(CANARY_FILE), "alive\n").map_err(|e| e.to_string())
}

/// Every shipped card.
pub fn shipped() -> Vec<Card> {
    cuecard::card::embedded::all()
        .into_iter()
        .flatten()
        .collect()
}

fn card_named(name: &str) -> Result<Card, String> {
    shipped()
        .into_iter()
        .find(|c| c.name == name)
        .ok_or_else(|| format!("no shipped card `{name}`"))
}

/// Shipped cards whose guard is one of `guards` (and, with `tool`, whose
/// matcher admits that tool).
fn guarded(guards: &[&str], tool: Option<&str>) -> Result<Vec<Card>, String> {
    let found: Vec<Card> = shipped()
        .into_iter()
        .filter(|c| {
            c.bindings
                .guard
                .as_deref()
                .is_some_and(|g| guards.contains(&g))
        })
        .filter(|c| {
            tool.is_none_or(|t| cuecard::card::matcher_admits(&c.bindings.matcher, Some(t)))
        })
        .collect();
    if found.is_empty() {
        Err(format!(
            "no shipped card with guard {}{}",
            guards.join("/"),
            tool.map(|t| format!(" admitting {t}")).unwrap_or_default()
        ))
    } else {
        Ok(found)
    }
}

/// The start of a card's text as a model sees it: its first line, up to the
/// first placeholder.
pub fn signature(card: &Card) -> String {
    let first = card
        .emitted_text()
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or_default();
    let upto = first.split('{').next().unwrap_or_default();
    let mut s: String = normalise(upto);
    if s.chars().count() < 12 {
        // A line that starts with a placeholder: take the longest literal run.
        s = normalise(
            card.emitted_text()
                .split(['{', '}'])
                .step_by(2)
                .max_by_key(|p| p.len())
                .unwrap_or_default(),
        );
    }
    s.chars().take(70).collect()
}
