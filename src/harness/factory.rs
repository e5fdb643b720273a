//! Factory Droid (`droid`): Claude Code's hook dialect (event names, matcher
//! groups, `hookSpecificOutput.additionalContext`), measured on 0.225.2
//! against a local mock model (no login; `droid exec`, and its JSON-RPC
//! mode for the prompt and compaction events; payloads recorded in
//! tests/fixtures/factory/). Where the run differs from its hooks reference
//! (docs.factory.ai/reference/hooks-reference) the run wins:
//! - matchers are regular expressions (written anchored, `.*` for all);
//! - the shell tool is `Execute` (a matcher `Bash` does not match it), the
//!   file tools `Create` and `Edit`; there is no `MultiEdit`;
//! - PostToolUse's `tool_response` is a string (the tool's output), kept
//!   as it is, as Codex's (what reads it takes any JSON value);
//! - PreToolUse context never reaches the model (only a deny reason, as
//!   the tool's result `Error: <reason>`), so the PreToolUse cards ride on
//!   PostToolUse; SessionStart, PostToolUse and UserPromptSubmit context
//!   does, each as its own user message;
//! - `droid exec` never fires UserPromptSubmit (its JSON-RPC mode does), so
//!   headless runs have no prompt-time hook.
//!
//! Payload keys are Claude Code's (snake case); the camelCase spelling one
//! integration shows is accepted.
//!
//! Configuration: `~/.factory/settings.json` or `<project>/.factory/settings.json`
//! under `hooks` (Droid reads it when no `hooks.json` sits beside it; both
//! ran with no trust step, and `.claude/settings.json` is not read),
//! commands through a shell, `timeout` in seconds.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Factory,
    id: "factory",
    name: "Factory Droid",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "reaches the model as a user message; sources startup, resume, compact (0.225.2) [RIG]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "reaches the model; fired in the JSON-RPC mode only, never by `droid exec` (0.225.2) [RIG]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "context never reaches the model; a deny becomes the tool result `Error: <reason>` (0.225.2) [RIG]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "reaches the model as a user message; `tool_response` a string (0.225.2) [RIG]; only the first PostToolUse hook's context is kept [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only; fired in the JSON-RPC mode (0.225.2) [RIG]"),
        row!("SubagentStop" => SubagentStop, Dropped, "a block keeps the subagent running [DOC]"),
        row!("Stop" => Stop, Dropped, "fired (0.225.2) [RIG]; a block keeps the agent running [DOC]"),
        row!("PreCompact" => PreCompact, Dropped, "fired on compaction in the JSON-RPC mode (0.225.2) [RIG]"),
        row!("SessionEnd" => SessionEnd, Dropped, "fired (0.225.2) [RIG]"),
    ],
    tools: &TOOLS,
    matchers: MatcherStyle::Anchored,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "PreToolUse context never reaches the model (measured, 0.225.2): tool advisories \
                 ride on PostToolUse; `droid exec` fires no UserPromptSubmit, so a headless run has \
                 no prompt-time card.",
    config: Some(&CONFIG),
    // An ask is sent as a deny: `droid exec --skip-permissions-unsafe` runs an
    // asked call with no one asked (measured, 0.225.2, the e2e's policy-ask).
    decides: &[("PreToolUse", Envelope { ask: false })],
    probe: no_probe,
};

/// Droid's tool names and the canonical ones (0.225.2: no `MultiEdit`).
static TOOLS: [(&str, &str); 5] = [
    ("Execute", "Bash"),
    ("Create", "Write"),
    ("Edit", "Edit"),
    ("Read", "Read"),
    ("Grep", "Grep"),
];

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    for (from, to) in [
        ("sessionId", "session_id"),
        ("transcriptPath", "transcript_path"),
        ("permissionMode", "permission_mode"),
        ("hookEventName", "hook_event_name"),
    ] {
        t::rename(map, from, to);
    }
    t::set_event(row, map);
    t::map_tool(&TOOLS, map);
    // Droid's transcript holds no usage; the session's settings beside it
    // keep the last call's (`lastCallTokenUsage`, measured 0.225.2).
    if let Some(settings) = map
        .get("transcript_path")
        .and_then(Value::as_str)
        .and_then(|t| crate::transcript::agents::factory_settings(Path::new(t)))
    {
        map.insert(
            "usage_file".into(),
            Value::from(settings.to_string_lossy().into_owned()),
        );
    }
    // The window: the compaction limits and the custom model's
    // `maxContextLimit` in `settings.json`, the project's before the
    // user's (`$FACTORY_HOME_OVERRIDE` stands for the home; 0.225.2).
    let home = std::env::var_os("FACTORY_HOME_OVERRIDE")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(t::home);
    t::model_config(
        map,
        "factory",
        ".factory/settings.json",
        home.map(|h| h.join(".factory/settings.json")),
    );
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".factory"),
        programs: &["droid"],
    },
    other_sources,
    notes,
    ..Config::claude_like(HarnessId::Factory, path, skills_dir)
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".factory/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".factory/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![
        r.project.join(".factory/settings.local.json"),
        r.home.join(".factory/settings.local.json"),
    ]
}

fn notes(scope: Scope, path: &Path) -> Vec<String> {
    let hooks = path.with_file_name("hooks.json");
    let mut out = Vec::new();
    if scope != Scope::Managed && hooks.exists() {
        out.push(format!(
            "{} exists: Droid reads hooks from it instead of settings.json; move cuecard's entries there",
            hooks.display()
        ));
    }
    if let Some(first) = first_post_tool_use_command(path)
        && !first.contains("dispatch --contract factory")
    {
        out.push(format!(
            "another PostToolUse hook comes before cuecard's in {} (`{first}`): Droid keeps only \
             the first PostToolUse hook's context (its hooks reference), so put cuecard's entry first",
            path.display()
        ));
    }
    out
}

/// The command of the first PostToolUse hook in a Droid settings file (read
/// with a bound), in the order Droid runs them.
fn first_post_tool_use_command(path: &Path) -> Option<String> {
    let v: Value = serde_json::from_str(&config::read_small(path)?).ok()?;
    v["hooks"]["PostToolUse"]
        .as_array()?
        .iter()
        .filter_map(|g| g["hooks"].as_array())
        .flatten()
        .find_map(|h| h["command"].as_str().map(str::to_string))
}
