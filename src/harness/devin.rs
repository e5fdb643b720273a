//! Devin CLI (Devin for Terminal, which Devin Desktop runs; Windsurf's
//! successor agent). Claude Code-compatible hooks (`.devin/hooks.v1.json`,
//! the `hooks` key of its config files): the same event names and envelope,
//! but lowercase tool names (`exec`, `edit`, `write`, `read`) matched as
//! regexes, and no `cwd` in the payload (`DEVIN_PROJECT_DIR` instead). It
//! also imports Claude Code's hooks from `.claude/`, so SessionStart can
//! arrive twice: see `once`. Windsurf's own Cascade hooks are `windsurf`.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Devin,
    id: "devin",
    name: "Devin CLI",
    events: &[
        row!("SessionStart" => "SessionStart", Context, "Claude Code's envelope [DOC]"),
        row!("UserPromptSubmit" => "UserPromptSubmit", Context, "Claude-compatible [DOC]"),
        row!("PreToolUse" => "PreToolUse", Context, "\"add context to tool calls\" [DOC]"),
        row!("PostToolUse" => "PostToolUse", Context, "Claude-compatible [DOC]"),
        row!("PermissionRequest" => "PermissionRequest", Dropped, "decision only [DOC]"),
        row!("Stop" => "Stop", Dropped, "a block keeps the agent running [DOC]"),
        row!("SessionEnd" => "SessionEnd", Dropped, "[DOC]"),
    ],
    tools: &[
        ("exec", "Bash"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("read", "Read"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: false,
    reads: Reads::Envelope,
    loads_claude_hooks: true,
    translate,
    shape,
    limitation: "not measured on a real run; the payload has no cwd (DEVIN_PROJECT_DIR is \
                 used); also imports Claude Code's hooks (SessionStart is answered once).",
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
    t::rename_input(map, &[("path", "file_path")]);
    t::cwd_from_env(map, &["DEVIN_PROJECT_DIR"]);
}

fn shape(row: &EventRow, v: Value) -> Option<Answer> {
    answer::envelope(row, v)
}
