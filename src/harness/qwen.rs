//! Qwen Code. Claude Code's event names, envelope and payload keys, with
//! its own tool ids (`run_shell_command`, `write_file`, `edit`, `read_file`)
//! matched as regexes (so written anchored). Measured: context returned on
//! PreToolUse is dropped even with `permissionDecision: "allow"`, so the
//! PreToolUse cards ride on PostToolUse, which reaches the model.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Qwen,
    id: "qwen",
    name: "Qwen Code",
    events: &[
        row!("SessionStart" => "SessionStart", Context, "system message; not after a compaction [RIG]"),
        row!("UserPromptSubmit" => "UserPromptSubmit", Context, "in the user turn, before every model call [RIG]"),
        row!("PreToolUse" => "PreToolUse", Deferred("PostToolUse"), "context dropped even with allow [RIG]"),
        row!("PostToolUse" => "PostToolUse", Context, "tool message [RIG]"),
        row!("PostToolBatch" => "PostToolBatch", Context, "tool message [RIG]"),
        row!("PostToolUseFailure" => "PostToolUseFailure", Dropped, "not measured"),
        row!("SubagentStart" => "SubagentStart", Dropped, "not measured"),
        row!("PermissionRequest" => "PermissionRequest", Dropped, "decision only [DOC]"),
        row!("Notification" => "Notification", Dropped, "observe only [RIG]"),
        row!("InstructionsLoaded" => "InstructionsLoaded", Dropped, "observe only [RIG]"),
        row!("Stop" => "Stop", Dropped, "not measured; the Stop card is Claude Code's opt-in"),
        row!("PreCompact" => "PreCompact", Dropped, "goes to the summariser, not the model [RIG]"),
        row!("PostCompact" => "PostCompact", Dropped, "[RIG]"),
        row!("SessionEnd" => "SessionEnd", Dropped, "never fired in -p [RIG]"),
    ],
    tools: &[
        ("run_shell_command", "Bash"),
        ("write_file", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("read_file", "Read"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: true,
    reads: Reads::Envelope,
    loads_claude_hooks: false,
    translate,
    shape,
    limitation: "context before a tool runs (PreToolUse) is dropped, so tool advisories arrive \
                 with the tool's result (PostToolUse); SessionStart context after a compaction \
                 did not reach the model in measurement.",
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
}

fn shape(row: &EventRow, v: Value) -> Option<Answer> {
    answer::envelope(row, v)
}
