//! Kiro CLI (agent configuration hooks). camelCase events; tool names
//! `execute_bash` / `shell`, `fs_write` / `write`, `fs_read` / `read`,
//! `str_replace`. What reaches the model is a hook's plain stdout on
//! agentSpawn and userPromptSubmit; on the tool events and stop, stdout is
//! captured and not shown, so nothing is registered there.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Kiro,
    id: "kiro",
    name: "Kiro CLI",
    events: &[
        row!("agentSpawn" => "SessionStart", Context, "stdout added to the context [DOC]"),
        row!("userPromptSubmit" => "UserPromptSubmit", Context, "stdout added to the context [DOC]"),
        row!("preToolUse" => "PreToolUse", Dropped, "stdout not shown; only exit 2 stderr [DOC]"),
        row!("postToolUse" => "PostToolUse", Dropped, "stdout not shown [DOC]"),
        row!("stop" => "Stop", Dropped, "stdout not shown [DOC]"),
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
    reads: Reads::PlainText,
    loads_claude_hooks: false,
    translate,
    shape,
    limitation: "only agentSpawn and userPromptSubmit stdout reaches the model: tool advisories \
                 cannot be delivered; the payload carries no session id.",
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
    if row.canonical == "SessionStart" {
        t::default_source(map, "startup");
    }
}

fn shape(_row: &EventRow, v: Value) -> Option<Answer> {
    answer::plain(&v)
}
