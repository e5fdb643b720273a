//! CodeBuddy Code (Tencent's CLI): documented as fully compatible with
//! Claude Code's hooks (names, keys, tool names, envelope). Its hook
//! reference (v1.16+, "Hooks 配置参考", cloud.tencent.com/document/product/
//! 1831/137030) lists 27 events, Claude Code's family. Measured on 2.117.0
//! (the CLI inside the npm package `@tencent-ai/agent-sdk` 0.3.201, `-p`,
//! against a local mock model; payloads recorded in
//! tests/fixtures/codebuddy/):
//! - `additionalContext` reaches the model on SessionStart and
//!   UserPromptSubmit (a system reminder in the first user message) and on
//!   PostToolUse (appended to the tool message); on PreToolUse only a deny
//!   reaches it, so the PreToolUse cards ride on PostToolUse;
//! - UserPromptSubmit fires before SessionStart, and SessionStart carries
//!   no `cwd` (the hook's working directory, the project, stands in);
//! - PostToolUse's `tool_response` carries no output text (exit code and
//!   flags only), and failures arrive as PostToolUse with `is_error`;
//! - it also fires `FinalStop` (no canonical counterpart: not registered);
//!   PostToolUseFailure, PreCompact, PostCompact and SessionEnd were not
//!   seen headless.
//!
//! Configuration: `~/.codebuddy/settings.json` or
//! `<project>/.codebuddy/settings.json`, Claude Code's format (documented as
//! fully compatible), commands through the user's shell, `timeout` in
//! seconds. In `-p` runs, project hooks ran with no approval step; the
//! documentation says hooks edited outside an interactive session take
//! effect once approved in `/hooks`.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::CodeBuddy,
    id: "codebuddy",
    name: "CodeBuddy Code",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "reaches the model; fires after the first UserPromptSubmit and carries no `cwd`; sources startup, resume, compact (2.117.0) [RIG]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "reaches the model; fires before SessionStart (2.117.0) [RIG]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "context dropped; a deny reason reaches the model (2.117.0) [RIG]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "appended to the tool message; `tool_response` has no output text; failures too, with `is_error` (2.117.0) [RIG]"),
        row!("PostToolUseFailure" => PostToolUseFailure, Dropped, "listed (v1.16+) [DOC]; not fired headless, failures come as PostToolUse (2.117.0) [RIG]"),
        row!("PermissionRequest" => PermissionRequest, Dropped, "decision only [DOC]"),
        row!("PermissionDenied" => PermissionDenied, Dropped, "fired when `-p` cannot prompt (2.117.0) [RIG]; observe only [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only [DOC]"),
        row!("SubagentStart" => SubagentStart, Dropped, "listed (v1.16+); context not documented [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "[DOC]"),
        row!("Stop" => Stop, Dropped, "fired (2.117.0) [RIG]; a block keeps the agent running [DOC]"),
        row!("StopFailure" => StopFailure, Dropped, "[DOC]"),
        row!("Elicitation" => Elicitation, Dropped, "[DOC]"),
        row!("ElicitationResult" => ElicitationResult, Dropped, "[DOC]"),
        row!("PreCompact" => PreCompact, Dropped, "[DOC]"),
        row!("PostCompact" => PostCompact, Dropped, "[DOC]"),
        row!("InstructionsLoaded" => InstructionsLoaded, Dropped, "[DOC]"),
        row!("ConfigChange" => ConfigChange, Dropped, "[DOC]"),
        row!("TaskCreated" => TaskCreated, Dropped, "[DOC]"),
        row!("TaskCompleted" => TaskCompleted, Dropped, "[DOC]"),
        row!("TeammateIdle" => TeammateIdle, Dropped, "[DOC]"),
        row!("FileChanged" => FileChanged, Dropped, "[DOC]"),
        row!("CwdChanged" => CwdChanged, Dropped, "[DOC]"),
        row!("WorktreeCreate" => WorktreeCreate, Dropped, "stdout is a path: never registered [DOC]"),
        row!("WorktreeRemove" => WorktreeRemove, Dropped, "[DOC]"),
        row!("Setup" => Setup, Dropped, "fired, trigger `init` (2.117.0) [RIG]; context not documented [DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "PreToolUse context is dropped (measured, 2.117.0): tool advisories ride on \
                 PostToolUse; SessionStart comes after the first prompt; in an interactive \
                 session, edited hooks take effect only once approved in `/hooks`.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: false })],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    // The window: `maxInputTokens` of the model's entry in `models.json`,
    // the project's before the user's (`$WORKBUDDY_CONFIG_DIR` or
    // `$CODEBUDDY_CONFIG_DIR`, else `~/.codebuddy`; measured, agent SDK
    // 0.3.201).
    let user = ["WORKBUDDY_CONFIG_DIR", "CODEBUDDY_CONFIG_DIR"]
        .iter()
        .find_map(|v| {
            std::env::var(v)
                .ok()
                .map(|d| d.trim().to_string())
                .filter(|d| !d.is_empty())
                .map(PathBuf::from)
        })
        .or_else(|| t::home().map(|h| h.join(".codebuddy")))
        .map(|d| d.join("models.json"));
    t::model_config(map, "codebuddy", ".codebuddy/models.json", user);
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".codebuddy"),
        programs: &["codebuddy"],
    },
    form: config::Form::Shell {
        windows: config::Shell::Cmd,
    },
    other_sources,
    notes,
    ..Config::claude_like(HarnessId::CodeBuddy, path, skills_dir)
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".codebuddy/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".codebuddy/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![r.project.join(".codebuddy/settings.local.json")]
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "CodeBuddy applies hooks edited outside an interactive session once you approve them in \
         its `/hooks` panel (headless `-p` runs use them at once)"
            .into(),
    ]
}
