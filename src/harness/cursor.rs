//! Cursor. camelCase events; payloads carry `conversation_id` (the session),
//! `workspace_roots` (no `cwd` outside shell events), and tool types
//! (`Shell`, `Write`, `Edit`/`StrReplace`, `Read`, ...). Context travels in
//! a flat top-level `additional_context` on sessionStart and postToolUse;
//! beforeSubmitPrompt cannot inject context and the permission events
//! (preToolUse, beforeShellExecution, ...) carry only a decision, so the
//! PreToolUse cards ride on postToolUse. Cursor can also run Claude Code's
//! hook files, so SessionStart can arrive twice: see `once`.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Cursor,
    id: "cursor",
    name: "Cursor",
    events: &[
        row!("sessionStart" => "SessionStart", Context, "additional_context [DOC]"),
        row!("beforeSubmitPrompt" => "UserPromptSubmit", Dropped, "continue/user_message only [DOC]"),
        row!("preToolUse" => "PreToolUse", Deferred("PostToolUse"), "permission fields only [DOC]"),
        row!("postToolUse" => "PostToolUse", Context, "additional_context [DOC]"),
        row!("postToolUseFailure" => "PostToolUseFailure", Dropped, "[DOC]"),
        row!("beforeShellExecution" => "PreToolUse", Dropped, "permission fields only [DOC]"),
        row!("beforeMCPExecution" => "PreToolUse", Dropped, "permission fields only [DOC]"),
        row!("beforeReadFile" => "PreToolUse", Dropped, "permission only [DOC]"),
        row!("afterShellExecution" => "PostToolUse", Dropped, "fire-and-forget [3P]"),
        row!("afterMCPExecution" => "PostToolUse", Dropped, "fire-and-forget [3P]"),
        row!("afterFileEdit" => "PostToolUse", Dropped, "fire-and-forget [3P]"),
        row!("subagentStart" => "SubagentStart", Dropped, "[DOC]"),
        row!("subagentStop" => "SubagentStop", Dropped, "[DOC]"),
        row!("stop" => "Stop", Dropped, "followup_message continues the agent [DOC]"),
        row!("preCompact" => "PreCompact", Dropped, "[DOC]"),
        row!("sessionEnd" => "SessionEnd", Dropped, "[DOC]"),
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
    reads: Reads::Flat("additional_context"),
    loads_claude_hooks: true,
    translate,
    shape,
    limitation: "not measured on a real run; prompt submission cannot carry context and \
                 permission events carry only a decision, so tool advisories arrive with the \
                 tool's result (postToolUse); also runs Claude Code's hooks (SessionStart is \
                 answered once).",
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
    if row.canonical == "SessionStart" {
        t::default_source(map, "startup");
    }
}

fn shape(_row: &EventRow, v: Value) -> Option<Answer> {
    answer::flat(&v, "additional_context", false)
}
