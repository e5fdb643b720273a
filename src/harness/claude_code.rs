//! Claude Code: the canonical dialect. Nothing is translated and the
//! envelope is the renderer's, byte for byte, with or without
//! `--contract claude-code`.

use super::HarnessId;
use super::answer::Answer;
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use serde_json::{Map, Value};

pub static SPEC: Spec = Spec {
    harness: HarnessId::ClaudeCode,
    id: "claude-code",
    name: "Claude Code",
    events: EVENTS,
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    reads: Reads::Envelope,
    loads_claude_hooks: false,
    translate,
    shape,
    limitation: "PreCompact, PostCompact and SessionEnd output is dropped (post-compaction \
                 recovery rides on SessionStart `compact`); any context on Stop keeps the agent \
                 running, so the Stop card is opt-in (CUECARD_STOP_CARD=1).",
};

/// Mirrors the event table (`crate::event::EVENTS`): a unit test keeps the
/// two in step.
const EVENTS: &[EventRow] = &[
    row!("SessionStart" => "SessionStart", Context, "context read at start [RIG]"),
    row!("Setup" => "Setup", Context, "repository set-up [DOC]"),
    row!("UserPromptSubmit" => "UserPromptSubmit", Context, "context beside the prompt [RIG]"),
    row!("UserPromptExpansion" => "UserPromptExpansion", Context, "[DOC]"),
    row!("PreToolUse" => "PreToolUse", Context, "context with the call [RIG]"),
    row!("PermissionRequest" => "PermissionRequest", Dropped, "decision only [DOC]"),
    row!("PermissionDenied" => "PermissionDenied", Dropped, "observe only [DOC]"),
    row!("PostToolUse" => "PostToolUse", Context, "context with the result [RIG]"),
    row!("PostToolUseFailure" => "PostToolUseFailure", Context, "context with the error [DOC]"),
    row!("PostToolBatch" => "PostToolBatch", Context, "[RIG]"),
    row!("Notification" => "Notification", Dropped, "observe only [DOC]"),
    row!("MessageDisplay" => "MessageDisplay", Dropped, "observe only [DOC]"),
    row!("SubagentStart" => "SubagentStart", Context, "context to the subagent [DOC]"),
    row!("SubagentStop" => "SubagentStop", Dropped, "a block keeps it running [DOC]"),
    row!("TaskCreated" => "TaskCreated", Dropped, "[DOC]"),
    row!("TaskCompleted" => "TaskCompleted", Dropped, "[DOC]"),
    row!("Stop" => "Stop", Context, "context keeps the agent running: opt-in card only [RIG]"),
    row!("StopFailure" => "StopFailure", Dropped, "[DOC]"),
    row!("TeammateIdle" => "TeammateIdle", Dropped, "[DOC]"),
    row!("InstructionsLoaded" => "InstructionsLoaded", Dropped, "[DOC]"),
    row!("ConfigChange" => "ConfigChange", Dropped, "[DOC]"),
    row!("CwdChanged" => "CwdChanged", Dropped, "[DOC]"),
    row!("DirectoryAdded" => "DirectoryAdded", Dropped, "[DOC]"),
    row!("FileChanged" => "FileChanged", Dropped, "[DOC]"),
    row!("WorktreeCreate" => "WorktreeCreate", Dropped, "stdout is a path: never registered [DOC]"),
    row!("WorktreeRemove" => "WorktreeRemove", Dropped, "[DOC]"),
    row!("PreCompact" => "PreCompact", Dropped, "output dropped; strict validation [RIG]"),
    row!("PostCompact" => "PostCompact", Dropped, "output dropped; strict validation [RIG]"),
    row!("Elicitation" => "Elicitation", Dropped, "[DOC]"),
    row!("ElicitationResult" => "ElicitationResult", Dropped, "[DOC]"),
    row!("SessionEnd" => "SessionEnd", Dropped, "nothing reads it [RIG]"),
];

fn translate(_row: &EventRow, _map: &mut Map<String, Value>) {}

fn shape(_row: &EventRow, v: Value) -> Option<Answer> {
    Some(Answer::Json(v))
}
