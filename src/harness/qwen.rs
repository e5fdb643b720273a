//! Qwen Code. Claude Code's event names, envelope and payload keys, with
//! its own tool ids (`run_shell_command`, `write_file`, `edit`, `read_file`,
//! `grep_search`, `ask_user_question`: packages/core/src/tools/tool-names.ts)
//! matched as regexes (so written anchored). Measured: context returned on
//! PreToolUse is dropped even with `permissionDecision: "allow"`, so the
//! PreToolUse cards ride on PostToolUse, which reaches the model.
//!
//! Configuration: `~/.qwen/settings.json` or `<project>/.qwen/settings.json`,
//! Claude Code's nesting, commands through a shell. Matchers are regexes
//! matched against runtime tool ids (`run_shell_command`, `write_file`,
//! `edit`): the contract writes them anchored. The command `timeout` unit is
//! documented as milliseconds but ran as seconds in 0.24 (measured), so no
//! timeout is written and Qwen's default applies.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Qwen,
    id: "qwen",
    name: "Qwen Code",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "system message; not after a compaction [RIG]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "in the user turn, before every model call [RIG]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "context dropped even with allow [RIG]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "tool message [RIG]"),
        row!("PostToolBatch" => PostToolBatch, Context(Shape::Envelope), "tool message [RIG]"),
        row!("PostToolUseFailure" => PostToolUseFailure, Context(Shape::Envelope), "appended to the error the model reads (0.24.4 bundle, `safelyFirePostToolUseFailureHook`; not in ACP mode) [DOC]"),
        row!("UserPromptExpansion" => UserPromptExpansion, Context(Shape::Envelope), "appended to the expanded prompt (0.24.4 bundle) [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "a block keeps the subagent running; no context (0.24.4 bundle) [DOC]"),
        row!("PermissionDenied" => PermissionDenied, Dropped, "observe only (0.24.4 bundle) [DOC]"),
        row!("StopFailure" => StopFailure, Dropped, "fire-and-forget: output ignored (0.24.4 bundle) [DOC]"),
        row!("MessageDisplay" => MessageDisplay, Dropped, "fire-and-forget: output ignored (0.24.4 bundle) [DOC]"),
        row!("SubagentStart" => SubagentStart, Dropped, "not measured"),
        row!("PermissionRequest" => PermissionRequest, Dropped, "decision only [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only [RIG]"),
        row!("InstructionsLoaded" => InstructionsLoaded, Dropped, "observe only [RIG]"),
        row!("Stop" => Stop, Dropped, "not measured; the Stop card is Claude Code's opt-in"),
        row!("PreCompact" => PreCompact, Dropped, "goes to the summariser, not the model [RIG]"),
        row!("PostCompact" => PostCompact, Dropped, "[RIG]"),
        row!("SessionEnd" => SessionEnd, Dropped, "never fired in -p [RIG]"),
    ],
    tools: &[
        ("run_shell_command", "Bash"),
        ("write_file", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("read_file", "Read"),
        ("grep_search", "Grep"),
        ("ask_user_question", "AskUserQuestion"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "context before a tool runs (PreToolUse) is dropped, so tool advisories arrive \
                 with the tool's result (PostToolUse); SessionStart context after a compaction \
                 did not reach the model in measurement.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: true })],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".qwen"),
        programs: &["qwen"],
    },
    timeout: None,
    notes,
    ..Config::claude_like(HarnessId::Qwen, path, skills_dir)
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".qwen/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".qwen/skills")
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    match scope {
        Scope::Project => vec![
            "with `security.folderTrust.enabled`, Qwen Code loads project hooks only in a trusted folder".into(),
        ],
        _ => Vec::new(),
    }
}
