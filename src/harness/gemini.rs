//! Gemini CLI. Its own event names (BeforeAgent, BeforeTool, AfterTool,
//! AfterAgent, PreCompress), Claude Code's payload keys, its own tool ids
//! (`run_shell_command`, `write_file`, `replace`, `read_file`) matched as
//! regexes, and `hookSpecificOutput.{hookEventName, additionalContext}`
//! with its own event name. Measured: context reaches the model on
//! SessionStart, BeforeAgent and AfterTool; BeforeTool context is dropped,
//! so the PreToolUse cards ride on AfterTool.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Gemini,
    id: "gemini",
    name: "Gemini CLI",
    events: &[
        row!("SessionStart" => "SessionStart", Context, "<hook_context> in the user turn [RIG]"),
        row!("BeforeAgent" => "UserPromptSubmit", Context, "appended to the prompt [RIG]"),
        row!("BeforeTool" => "PreToolUse", Deferred("PostToolUse"), "context dropped [RIG]"),
        row!("AfterTool" => "PostToolUse", Context, "appended to the functionResponse [RIG]"),
        row!("AfterAgent" => "Stop", Dropped, "a deny retries the turn [DOC]"),
        row!("PreCompress" => "PreCompact", Dropped, "fires before every turn; output dropped [RIG]"),
        row!("Notification" => "Notification", Dropped, "never fired [RIG]"),
        row!("SessionEnd" => "SessionEnd", Dropped, "[RIG]"),
    ],
    tools: &[
        ("run_shell_command", "Bash"),
        ("write_file", "Write"),
        ("replace", "Edit"),
        ("replace", "MultiEdit"),
        ("read_file", "Read"),
        ("read_many_files", "Read"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: false,
    reads: Reads::Envelope,
    loads_claude_hooks: false,
    translate,
    shape,
    limitation: "context before a tool runs (BeforeTool) is dropped, so tool advisories arrive \
                 with the tool's result (AfterTool); plain stdout never reaches the model; \
                 hooks must be enabled and the workspace trusted.",
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
}

fn shape(row: &EventRow, v: Value) -> Option<Answer> {
    answer::envelope(row, v)
}
