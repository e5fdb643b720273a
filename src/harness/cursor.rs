//! Cursor. camelCase events; payloads carry `conversation_id` (the session),
//! `workspace_roots` (no `cwd` outside shell events), and tool types
//! (`Shell`, `Write`, `Edit`/`StrReplace`, `Read`, ...). Context travels in
//! a flat top-level `additional_context` on sessionStart and postToolUse;
//! beforeSubmitPrompt cannot inject context and the permission events
//! (preToolUse, beforeShellExecution, ...) carry only a decision, so the
//! PreToolUse cards ride on postToolUse. Cursor can also run Claude Code's
//! hook files, so SessionStart can arrive twice: see `once`.
//!
//! Configuration: `~/.cursor/hooks.json` or `<project>/.cursor/hooks.json`, with
//! `version: 1` and flat camelCase event lists, commands through a shell,
//! `timeout` in seconds. Cursor can also run Claude Code's hook files (the
//! "third-party hooks" setting): the dispatcher's session-start marker keeps
//! that from printing twice, and `verify` reports it.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// A flat top-level `additional_context`; no decision travels with it.
const FLAT: Shape = Shape::Flat {
    field: "additional_context",
    decision: false,
};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Cursor,
    id: "cursor",
    name: "Cursor",
    events: &[
        row!("sessionStart" => SessionStart, Context(FLAT), "additional_context [DOC]"),
        row!("beforeSubmitPrompt" => UserPromptSubmit, Dropped, "continue/user_message only [DOC]"),
        row!("preToolUse" => PreToolUse, Deferred(Event::PostToolUse), "permission fields only [DOC]"),
        row!("postToolUse" => PostToolUse, Context(FLAT), "additional_context [DOC]"),
        row!("postToolUseFailure" => PostToolUseFailure, Dropped, "[DOC]"),
        row!("beforeShellExecution" => PreToolUse, Dropped, "permission fields only [DOC]"),
        row!("beforeMCPExecution" => PreToolUse, Dropped, "permission fields only [DOC]"),
        row!("beforeReadFile" => PreToolUse, Dropped, "permission only [DOC]"),
        row!("afterShellExecution" => PostToolUse, Dropped, "fire-and-forget [3P]"),
        row!("afterMCPExecution" => PostToolUse, Dropped, "fire-and-forget [3P]"),
        row!("afterFileEdit" => PostToolUse, Dropped, "fire-and-forget [3P]"),
        row!("subagentStart" => SubagentStart, Dropped, "[DOC]"),
        row!("subagentStop" => SubagentStop, Dropped, "[DOC]"),
        row!("stop" => Stop, Dropped, "followup_message continues the agent [DOC]"),
        row!("preCompact" => PreCompact, Dropped, "[DOC]"),
        row!("sessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    tools: &[
        ("Shell", "Bash"),
        ("Write", "Write"),
        ("Edit", "Edit"),
        ("StrReplace", "Edit"),
        ("MultiEdit", "MultiEdit"),
        ("Read", "Read"),
    ],
    matchers: MatcherStyle::Unmatched,
    source_matcher: false,
    loads_claude_hooks: true,
    translate,
    limitation: "not measured on a real run; prompt submission cannot carry context and \
                 permission events carry only a decision, so tool advisories arrive with the \
                 tool's result (postToolUse); also runs Claude Code's hooks (SessionStart is \
                 answered once).",
    config: Some(&CONFIG),
    decides: &[
        ("preToolUse", Permission { ask: true }),
        ("beforeShellExecution", Permission { ask: true }),
    ],
    probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::rename(map, "conversation_id", "session_id");
    if !map.contains_key("cwd")
        && let Some(root) = map
            .get("workspace_roots")
            .and_then(Value::as_array)
            .and_then(|a| a.first())
            .and_then(Value::as_str)
            .map(str::to_string)
    {
        map.insert("cwd".into(), json!(root));
    }
    t::unstring(map, "tool_input");
    t::rename(map, "tool_output", "tool_response");
    match row.native {
        "beforeShellExecution" | "afterShellExecution" => {
            let cmd = map.get("command").cloned().unwrap_or(Value::Null);
            map.insert("tool_name".into(), json!("Bash"));
            map.insert("tool_input".into(), json!({ "command": cmd }));
        }
        "afterFileEdit" => {
            let first = map
                .get("edits")
                .and_then(Value::as_array)
                .and_then(|a| a.first())
                .cloned()
                .unwrap_or(Value::Null);
            let input = json!({
                "file_path": map.get("file_path").cloned().unwrap_or(Value::Null),
                "old_string": first.get("old_string").cloned().unwrap_or(Value::Null),
                "new_string": first.get("new_string").cloned().unwrap_or(Value::Null),
            });
            map.insert("tool_name".into(), json!("Edit"));
            map.insert("tool_input".into(), input);
        }
        _ => t::map_tool(SPEC.tools, map),
    }
    t::rename_input(map, &[("path", "file_path"), ("contents", "content")]);
    t::set_event(row, map);
    if row.canonical == Event::SessionStart {
        t::default_source(map, "startup");
    }
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".cursor"),
        programs: &["cursor-agent", "cursor"],
    },
    harness: HarnessId::Cursor,
    layout: config::Layout::Flat,
    form: config::Form::Shell {
        windows: config::Shell::PowerShell,
    },
    typed: false,
    timeout: Some(("timeout", config::Unit::Seconds)),
    path,
    required,
    skeleton,
    skills_dir,
    other_sources: config::no_sources,
    notes: config::no_notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "",
    trust: config::no_trust_check,
    legacy: None,
    plugin: None,
    owned: None,
    check: config::no_check,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".cursor/hooks.json")
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("version", json!(1))]
}

fn skeleton() -> Value {
    json!({"version": 1})
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".cursor/skills")
}

/// doctor's payload: Cursor's conversation id and workspace roots.
fn probe(o: &mut Map<String, Value>, project: &Path) {
    o.insert("conversation_id".into(), json!("cuecard-doctor"));
    o.insert("workspace_roots".into(), json!([project.to_string_lossy()]));
}
