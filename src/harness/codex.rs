//! OpenAI Codex CLI. Claude Code's event names and keys, but strict output
//! schemas (`additionalProperties: false` at the top level and inside
//! `hookSpecificOutput`, codex-rs/hooks/schema/generated/*.command.output
//! .schema.json): only the keys each event's schema lists are written, and
//! Stop / PreCompact / PostCompact allow no `hookSpecificOutput` at all
//! (emitting it fails the hook, measured). Shell calls arrive as `Bash`;
//! file edits as `apply_patch` with the whole patch in `tool_input.command`,
//! which is translated into a canonical `Write` (a patch that only adds
//! files) or `Edit` with `file_path`, `content` / `old_string` /
//! `new_string`, and every touched path in `file_paths`.

use super::answer::{self, Answer};
use super::table::{Delivery::*, EventRow, MatcherStyle, Reads, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Codex,
    id: "codex",
    name: "Codex CLI",
    events: &[
        row!("SessionStart" => "SessionStart", Context, "developer message [RIG]"),
        row!("UserPromptSubmit" => "UserPromptSubmit", Context, "developer message [RIG]"),
        row!("PreToolUse" => "PreToolUse", Context, "developer message [RIG]"),
        row!("PostToolUse" => "PostToolUse", Context, "developer message [RIG]"),
        row!("SubagentStart" => "SubagentStart", Context, "schema allows additionalContext [DOC]"),
        row!("PermissionRequest" => "PermissionRequest", Dropped, "decision only [DOC]"),
        row!("SubagentStop" => "SubagentStop", Dropped, "no context in schema [DOC]"),
        row!("Stop" => "Stop", Dropped, "context is rejected: \"Stop Failed\" [RIG]"),
        row!("PreCompact" => "PreCompact", Dropped, "no hookSpecificOutput allowed [RIG]"),
        row!("PostCompact" => "PostCompact", Dropped, "no hookSpecificOutput allowed [RIG]"),
        row!("SessionEnd" => "SessionEnd", Dropped, "nothing reads it [RIG]"),
    ],
    tools: &[
        ("Bash", "Bash"),
        ("apply_patch", "Edit"),
        ("apply_patch", "Write"),
        ("apply_patch", "MultiEdit"),
    ],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    reads: Reads::StrictEnvelope,
    loads_claude_hooks: false,
    translate,
    shape,
    limitation: "Stop, PreCompact and PostCompact accept no context (the Stop card is not \
                 registered); hooks run only once reviewed and trusted (`/hooks`), and \
                 `codex exec` runs none without --dangerously-bypass-hook-trust; about 10,000 \
                 characters of hook text are kept.",
};

/// Top-level keys every event's schema allows.
const COMMON: &[&str] = &["continue", "stopReason", "suppressOutput", "systemMessage"];
/// COMMON, plus the block decision of UserPromptSubmit and PostToolUse.
const DECIDING: &[&str] = &[
    "continue",
    "stopReason",
    "suppressOutput",
    "systemMessage",
    "decision",
    "reason",
];
/// `hookSpecificOutput` keys of the events that carry context only.
const CONTEXT: &[&str] = &["hookEventName", "additionalContext"];

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    if map.get("tool_name").and_then(Value::as_str) == Some("apply_patch") {
        apply_patch(map);
    }
}

/// `hookSpecificOutput` itself is kept or dropped by [`answer::strict`]
/// according to `inner`, so it is not listed among the top-level keys.
fn shape(row: &EventRow, v: Value) -> Option<Answer> {
    let (top, inner): (&[&str], &[&str]) = match row.canonical {
        "SessionStart" | "SubagentStart" => (COMMON, CONTEXT),
        "UserPromptSubmit" | "PostToolUse" => (DECIDING, CONTEXT),
        "PreToolUse" => (
            COMMON,
            &[
                "hookEventName",
                "additionalContext",
                "permissionDecision",
                "permissionDecisionReason",
            ],
        ),
        _ => return None,
    };
    answer::strict(row, v, top, inner)
}

/// One file a patch touches.
struct PatchFile {
    path: String,
    added: bool,
    minus: Vec<String>,
    plus: Vec<String>,
}

/// Parses Codex's patch format (`*** Begin Patch`, `*** Add File: p`,
/// `*** Update File: p`, `*** Delete File: p`, `*** Move to: p`, hunks of
/// `-`/`+`/` ` lines) into the canonical Write / Edit input.
pub(super) fn apply_patch(map: &mut Map<String, Value>) {
    let patch = match map.get("tool_input") {
        Some(Value::Object(i)) => ["command", "patch", "input"]
            .iter()
            .find_map(|k| i.get(*k).and_then(Value::as_str))
            .map(str::to_string),
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let Some(patch) = patch else { return };
    let mut files: Vec<PatchFile> = Vec::new();
    for line in patch.lines() {
        let header = |p: &str| line.strip_prefix(p).map(|s| s.trim().to_string());
        if let Some(p) = header("*** Add File:") {
            files.push(PatchFile {
                path: p,
                added: true,
                minus: vec![],
                plus: vec![],
            });
        } else if let Some(p) = header("*** Update File:").or_else(|| header("*** Delete File:")) {
            files.push(PatchFile {
                path: p,
                added: false,
                minus: vec![],
                plus: vec![],
            });
        } else if let Some(p) = header("*** Move to:") {
            if let Some(f) = files.last_mut() {
                f.path = p;
            }
        } else if line.starts_with("***") || line.starts_with("@@") {
            continue;
        } else if let Some(f) = files.last_mut() {
            if let Some(s) = line.strip_prefix('+') {
                f.plus.push(s.to_string());
            } else if let Some(s) = line.strip_prefix('-') {
                f.minus.push(s.to_string());
            }
        }
    }
    let Some(first) = files.first() else { return };
    let mut input = Map::new();
    input.insert("file_path".into(), json!(first.path));
    let tool = if first.added {
        input.insert("content".into(), json!(first.plus.join("\n")));
        "Write"
    } else {
        input.insert("old_string".into(), json!(first.minus.join("\n")));
        input.insert("new_string".into(), json!(first.plus.join("\n")));
        "Edit"
    };
    input.insert(
        "file_paths".into(),
        Value::Array(files.iter().map(|f| json!(f.path)).collect()),
    );
    input.insert("patch".into(), json!(patch));
    map.insert("tool_name".into(), json!(tool));
    map.insert("tool_input".into(), Value::Object(input));
}
