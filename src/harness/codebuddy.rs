//! CodeBuddy Code (Tencent's CLI): documented as fully compatible with
//! Claude Code's hooks (names, keys, tool names, envelope). Not measured on
//! a real run; its documentation shows `additionalContext` on SessionStart,
//! UserPromptSubmit and PostToolUse only, so the PreToolUse cards ride on
//! PostToolUse (the documented channel) rather than on an undocumented one.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};

pub static SPEC: Spec = Spec {
    harness: HarnessId::CodeBuddy,
    id: "codebuddy",
    name: "CodeBuddy Code",
    events: &[
        row!("SessionStart" => "SessionStart", Context, "additionalContext documented [DOC]"),
        row!("UserPromptSubmit" => "UserPromptSubmit", Context, "additionalContext documented [DOC]"),
        row!("PreToolUse" => "PreToolUse", Deferred("PostToolUse"), "context not documented here [DOC]"),
        row!("PostToolUse" => "PostToolUse", Context, "additionalContext documented [DOC]"),
        row!("Notification" => "Notification", Dropped, "observe only [DOC]"),
        row!("Stop" => "Stop", Dropped, "a block keeps the agent running [DOC]"),
        row!("SubagentStop" => "SubagentStop", Dropped, "[DOC]"),
        row!("PreCompact" => "PreCompact", Dropped, "[DOC]"),
        row!("SessionEnd" => "SessionEnd", Dropped, "[DOC]"),
    ],
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    reads: Reads::Envelope,
    loads_claude_hooks: false,
    translate,
    shape,
    limitation: "not measured on a real run; tool advisories ride on PostToolUse, the \
                 documented channel; edited hooks take effect only once approved in `/hooks`.",
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
}

fn shape(row: &EventRow, v: Value) -> Option<Answer> {
    answer::envelope(row, v)
}
