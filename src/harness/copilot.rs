//! GitHub Copilot CLI. Registered with its camelCase events, whose payloads
//! use `sessionId`, `toolName` (runtime names: `bash`, `create`, `edit`,
//! `view`, ...), `toolArgs` (an object, or a JSON string), `toolResult`, and
//! no `hook_event_name`. Measured: only a top-level `additionalContext`
//! reaches the model, on userPromptSubmitted, preToolUse and postToolUse
//! (sessionStart output is ignored per the vendor's documentation, so
//! nothing relies on it). Copilot also accepts Claude Code's PascalCase
//! names, which switch payloads to Claude Code's keys and tool names; there
//! only PreToolUse's `hookSpecificOutput.additionalContext` reached the model.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Copilot,
    id: "copilot",
    name: "GitHub Copilot CLI",
    events: &[
        row!("sessionStart" => "SessionStart", Dropped, "output ignored per the docs (do not rely on it) [DOC]"),
        row!("userPromptSubmitted" => "UserPromptSubmit", Context, "user message [RIG]"),
        row!("preToolUse" => "PreToolUse", Context, "user message [RIG]"),
        row!("postToolUse" => "PostToolUse", Context, "appended to the tool result; ~10,350 chars kept [RIG]"),
        row!("postToolUseFailure" => "PostToolUseFailure", Dropped, "never fired [RIG]"),
        row!("permissionRequest" => "PermissionRequest", Dropped, "plain stdout fails the call [RIG]"),
        row!("subagentStart" => "SubagentStart", Dropped, "not measured"),
        row!("subagentStop" => "SubagentStop", Dropped, "decision only [DOC]"),
        row!("agentStop" => "Stop", Dropped, "decision only [RIG]"),
        row!("preCompact" => "PreCompact", Dropped, "[RIG]"),
        row!("notification" => "Notification", Dropped, "[DOC]"),
        row!("sessionEnd" => "SessionEnd", Dropped, "[RIG]"),
        row!("SessionStart" => "SessionStart", Dropped, "PascalCase: not delivered [RIG]"),
        row!("UserPromptSubmit" => "UserPromptSubmit", Dropped, "PascalCase: not delivered [RIG]"),
        row!("PreToolUse" => "PreToolUse", Context, "PascalCase: hookSpecificOutput delivered [RIG]"),
        row!("PostToolUse" => "PostToolUse", Dropped, "PascalCase: not delivered [RIG]"),
        row!("PostToolUseFailure" => "PostToolUseFailure", Dropped, "PascalCase [DOC]"),
        row!("PermissionRequest" => "PermissionRequest", Dropped, "PascalCase [DOC]"),
        row!("SubagentStop" => "SubagentStop", Dropped, "PascalCase [DOC]"),
        row!("Stop" => "Stop", Dropped, "PascalCase [RIG]"),
        row!("PreCompact" => "PreCompact", Dropped, "PascalCase [DOC]"),
        row!("SessionEnd" => "SessionEnd", Dropped, "PascalCase [RIG]"),
    ],
    tools: &[
        ("bash", "Bash"),
        ("powershell", "Bash"),
        ("create", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("view", "Read"),
        // Copilot CLI's freeform patch tool (seen with an OpenAI-compatible
        // provider): translated like Codex's `apply_patch` before this table.
        ("apply_patch", "Write"),
        ("apply_patch", "Edit"),
    ],
    matchers: MatcherStyle::HarnessAnchored,
    source_matcher: false,
    reads: Reads::Flat("additionalContext"),
    loads_claude_hooks: true,
    translate,
    shape,
    limitation: "sessionStart output is ignored (no session-start card); postToolUse keeps \
                 about 10,350 characters; repository hooks run only in trusted folders.",
};

fn pascal(row: &EventRow) -> bool {
    row.native.starts_with(|c: char| c.is_ascii_uppercase())
}

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::rename(map, "sessionId", "session_id");
    t::rename(map, "transcriptPath", "transcript_path");
    t::rename(map, "toolName", "tool_name");
    t::rename(map, "toolArgs", "tool_input");
    t::rename(map, "toolInput", "tool_input");
    t::rename(map, "toolResult", "tool_response");
    t::rename(map, "tool_result", "tool_response");
    t::rename(map, "stopReason", "stop_reason");
    t::unstring(map, "tool_input");
    t::set_event(row, map);
    if !pascal(row) {
        if map.get("tool_name").and_then(Value::as_str) == Some("apply_patch") {
            if let Some(v) = map.get_mut("tool_input").filter(|v| v.is_string()) {
                *v = serde_json::json!({ "command": v.take() });
            }
            super::codex::apply_patch(map);
        }
        t::map_tool(SPEC.tools, map);
        t::rename_input(map, t::EDITOR_KEYS);
    }
    t::map_source(map, &[("new", "startup")]);
}

fn shape(row: &EventRow, v: Value) -> Option<Answer> {
    if pascal(row) {
        answer::envelope(row, v)
    } else {
        answer::flat(&v, "additionalContext", row.canonical == "PreToolUse")
    }
}
