//! Kiro CLI (agent configuration hooks). camelCase events; tool names
//! `execute_bash` / `shell`, `fs_write` / `write`, `fs_read` / `read`,
//! `str_replace`. What reaches the model is a hook's plain stdout on
//! agentSpawn and userPromptSubmit; on the tool events and stop, stdout is
//! captured and not shown, so nothing is registered there.
//!
//! Configuration: hooks live in an agent configuration. cuecard writes (or merges
//! into) the agent `cuecard` — `~/.kiro/agents/cuecard.json` or
//! `<project>/.kiro/agents/cuecard.json` — a full agent with every tool, and
//! tells the user to make it the default (`kiro-cli settings chat.defaultAgent
//! cuecard`) or start it with `--agent cuecard`. Flat camelCase event lists,
//! commands through a shell, `timeout_ms` in milliseconds.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Kiro,
    id: "kiro",
    name: "Kiro CLI",
    events: &[
        row!("agentSpawn" => SessionStart, Context(Shape::PlainText), "stdout added to the context [DOC]"),
        row!("userPromptSubmit" => UserPromptSubmit, Context(Shape::PlainText), "stdout added to the context [DOC]"),
        row!("preToolUse" => PreToolUse, Dropped, "stdout not shown; only exit 2 stderr [DOC]"),
        row!("postToolUse" => PostToolUse, Dropped, "stdout not shown [DOC]"),
        row!("stop" => Stop, Dropped, "stdout not shown [DOC]"),
    ],
    absent: &[
        Event::Setup,
        Event::UserPromptExpansion,
        Event::PermissionRequest,
        Event::PermissionDenied,
        Event::PostToolUseFailure,
        Event::PostToolBatch,
        Event::Notification,
        Event::MessageDisplay,
        Event::SubagentStart,
        Event::SubagentStop,
        Event::TaskCreated,
        Event::TaskCompleted,
        Event::StopFailure,
        Event::TeammateIdle,
        Event::InstructionsLoaded,
        Event::ConfigChange,
        Event::CwdChanged,
        Event::DirectoryAdded,
        Event::FileChanged,
        Event::WorktreeCreate,
        Event::WorktreeRemove,
        Event::PreCompact,
        Event::PostCompact,
        Event::Elicitation,
        Event::ElicitationResult,
        Event::SessionEnd,
        Event::Interrupt,
    ],
    tools: &[
        ("execute_bash", "Bash"),
        ("shell", "Bash"),
        ("fs_write", "Write"),
        ("write", "Write"),
        ("str_replace", "Edit"),
        ("fs_read", "Read"),
        ("read", "Read"),
    ],
    matchers: MatcherStyle::Unmatched,
    source_matcher: false,
    loads_claude_hooks: false,
    translate,
    limitation: "only agentSpawn and userPromptSubmit stdout reaches the model: tool advisories \
                 cannot be delivered; the payload carries no session id.",
    config: Some(&CONFIG),
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    // fs_write's `command` says what it does: str_replace edits, the rest write.
    let edits = matches!(
        map.get("tool_name").and_then(Value::as_str),
        Some("fs_write" | "write")
    ) && map
        .get("tool_input")
        .and_then(|i| i.get("command"))
        .and_then(Value::as_str)
        == Some("str_replace");
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
    if edits {
        map.insert("tool_name".into(), json!("Edit"));
    }
    t::rename_input(map, t::EDITOR_KEYS);
    if row.canonical == Event::SessionStart {
        t::default_source(map, "startup");
    }
}

static CONFIG: Config = Config {
    harness: HarnessId::Kiro,
    layout: config::Layout::Flat,
    form: config::Form::Shell,
    typed: false,
    timeout: Some(("timeout_ms", config::Unit::Millis)),
    path,
    required: config::nothing_required,
    skeleton,
    skills_dir,
    other_sources: config::no_sources,
    notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".kiro/agents/cuecard.json")
}

fn skeleton() -> Value {
    json!({
        "name": "cuecard",
        "description": "Kiro's tools, with cuecard's guidance cards on hook events",
        "tools": ["*"]
    })
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".kiro/skills")
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Kiro runs hooks of the agent in use: make cuecard's agent the default with \
         `kiro-cli settings chat.defaultAgent cuecard`, or start `kiro-cli chat --agent cuecard` \
         (or copy its `hooks` into your own agent)"
            .into(),
    ]
}
