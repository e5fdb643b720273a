//! CodeBuddy Code (Tencent's CLI): documented as fully compatible with
//! Claude Code's hooks (names, keys, tool names, envelope). Its hook
//! reference (v1.16+, "Hooks 配置参考", cloud.tencent.com/document/product/
//! 1831/137030) lists 27 events, Claude Code's family; not measured on a
//! real run. The documentation shows `additionalContext` on SessionStart,
//! UserPromptSubmit and PostToolUse only, so the PreToolUse cards ride on
//! PostToolUse (the documented channel) rather than on an undocumented one,
//! and the other events are rows that deliver nothing until measured.
//!
//! Configuration: `~/.codebuddy/settings.json` or
//! `<project>/.codebuddy/settings.json`, Claude Code's format (documented as
//! fully compatible), commands through the user's shell, `timeout` in
//! seconds. Edits made outside CodeBuddy take effect once approved in `/hooks`.

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
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "context not documented here [DOC]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("PostToolUseFailure" => PostToolUseFailure, Dropped, "listed (v1.16+); context not documented [DOC]"),
        row!("PermissionRequest" => PermissionRequest, Dropped, "decision only [DOC]"),
        row!("PermissionDenied" => PermissionDenied, Dropped, "observe only [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only [DOC]"),
        row!("SubagentStart" => SubagentStart, Dropped, "listed (v1.16+); context not documented [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "[DOC]"),
        row!("Stop" => Stop, Dropped, "a block keeps the agent running [DOC]"),
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
        row!("Setup" => Setup, Dropped, "listed (v1.16+); context not documented [DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "not measured on a real run; tool advisories ride on PostToolUse, the \
                 documented channel; edited hooks take effect only once approved in `/hooks`.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: false })],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
}

static CONFIG: Config = Config {
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
        "CodeBuddy applies hooks edited outside it once you approve them in its `/hooks` panel"
            .into(),
    ]
}
