//! pi coding agent (`pi`, npm `@mariozechner/pi-coding-agent`). It has no
//! command hooks: its extension point is an extension, a module in
//! `~/.pi/agent/extensions/` or a project's `.pi/extensions/` (loaded with
//! no trust step; a `.js` one is CommonJS) that calls `pi.on(event,
//! handler)`. cuecard's registration is therefore one whole file it owns
//! ([`config::OwnedFile`]), as OpenCode's plugin: a small extension rendered
//! around the entries, which runs `cuecard dispatch --contract pi <event>
//! <cards>` with the event's payload on stdin, under a timeout, and fails
//! open.
//!
//! Native events are pi's extension events (0.73.1, measured against a local
//! mock model; the events recorded in the shared rig's payloads-r3/pi):
//! `before_agent_start` (the prompt; a returned `systemPrompt` replaces that
//! turn's system prompt, so the answer is appended to it), `tool_call` (a
//! returned `{block: true, reason}` stops the tool, the reason becoming its
//! result), `tool_result` (returned `content` replaces the result the model
//! reads, so the answer is appended to it). `session_start` has no channel:
//! its cards join the system prompt of the session's first turn, and of the
//! first turn after `session_compact`. pi has no channel for context before
//! a tool runs, so the PreToolUse cards ride on `tool_result`; an ask
//! becomes a deny (an extension's `block` is the one decision). The
//! extension builds a Claude-Code-like payload (`session_id` from the
//! session manager, `cwd`, `tool_name`, `tool_input`, `tool_response` the
//! result's text, `prompt`, `source`); tool names are pi's lower-case ids,
//! and its file tools' keys (`path`, `edits[].oldText`) are translated here.

use super::answer::Shape;
use super::config::{self, Config, OwnedFile, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// What the extension reads: a flat object, the context in
/// `additionalContext`, a decision in `permissionDecision`.
const FLAT: Shape = Shape::Flat {
    field: "additionalContext",
    decision: true,
};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Pi,
    id: "pi",
    name: "pi",
    events: &[
        row!("session_start" => SessionStart, Context(FLAT), "no channel at session_start: appended to the system prompt of the first turn (before_agent_start `systemPrompt`, measured 0.73.1), again after session_compact [RIG]"),
        row!("before_agent_start" => UserPromptSubmit, Context(FLAT), "a returned `systemPrompt` is that turn's system prompt (0.73.1) [RIG]"),
        row!("tool_call" => PreToolUse, Deferred(Event::PostToolUse), "no context channel before a tool runs; a returned `{block, reason}` stops it, the reason its result (0.73.1) [RIG]"),
        row!("tool_result" => PostToolUse, Context(FLAT), "returned `content` is the result the model reads (0.73.1) [RIG]"),
        row!("session_before_compact" => PreCompact, Dropped, "fires before a compaction; not wired (0.73.1) [RIG]"),
        row!("session_shutdown" => SessionEnd, Dropped, "nothing after it reads output (0.73.1) [RIG]"),
    ],
    tools: &[
        ("bash", "Bash"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("read", "Read"),
        ("grep", "Grep"),
        ("find", "Glob"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "pi has no command hooks: cuecard installs an extension it owns; context before a \
                 tool runs has no channel, so tool advisories arrive with the tool's result \
                 (tool_result); session-start and prompt context join the turn's system prompt; \
                 an ask becomes a deny (`block` is the one decision).",
    config: Some(&CONFIG),
    decides: &[("tool_call", Flat { ask: false })],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    let tool = map
        .get("tool_name")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if matches!(tool.as_str(), "write" | "edit" | "read") {
        t::rename_input(map, &[("path", "file_path")]);
    }
    if tool == "edit" {
        edits(map);
    }
    t::map_tool(SPEC.tools, map);
    if row.canonical == Event::SessionStart {
        t::default_source(map, "startup");
    }
}

/// pi's `edit` takes `edits: [{oldText, newText}]`: one edit is a canonical
/// Edit, several a MultiEdit (every one judged); a single `oldText` /
/// `newText` pair at the top is an Edit too.
fn edits(map: &mut Map<String, Value>) {
    let Some(Value::Object(input)) = map.get_mut("tool_input") else {
        return;
    };
    t::rename_over(input, "oldText", "old_string");
    t::rename_over(input, "newText", "new_string");
    let Some(Value::Array(list)) = input.get_mut("edits") else {
        return;
    };
    for e in list.iter_mut() {
        if let Value::Object(e) = e {
            t::rename_over(e, "oldText", "old_string");
            t::rename_over(e, "newText", "new_string");
        }
    }
    if let [Value::Object(only)] = list.as_slice() {
        let only = only.clone();
        for k in ["old_string", "new_string"] {
            if let Some(v) = only.get(k) {
                input.insert(k.into(), v.clone());
            }
        }
    } else if list.len() > 1 {
        map.insert("tool_name".into(), Value::from("MultiEdit"));
    }
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".pi"),
        programs: &["pi"],
    },
    harness: HarnessId::Pi,
    path,
    skills_dir,
    notes,
    owned: Some(&EXTENSION_FILE),
    ..super::opencode::CONFIG
};

/// The extension file: `pi_extension.js` with the entries on its
/// `const HOOKS` line.
static EXTENSION_FILE: OwnedFile = OwnedFile {
    what: "pi extension",
    comment: "//",
    render: extension_js,
    entries_line: super::opencode::ENTRIES_LINE,
};

const TEMPLATE: &str = include_str!("pi_extension.js");

fn extension_js(entries: &str) -> String {
    TEMPLATE.replace("__CUECARD_HOOKS__", entries)
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        r.home.join(".pi/agent/extensions/cuecard.js"),
        r.project.join(".pi/extensions/cuecard.js"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        r.home.join(".pi/agent/skills"),
        r.project.join(".pi/skills"),
    )
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "pi loads extensions when it starts: restart running sessions (or `/reload`) to pick this one up"
            .into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every native event the contract registers or decides on is wired in
    /// the extension template, and nothing else is.
    #[test]
    fn the_template_wires_exactly_the_events_the_table_registers() {
        for r in SPEC.events {
            let registered = r.delivery.delivers() || SPEC.decides_on(r.native).is_some();
            let wired = TEMPLATE.contains(&format!("wired(\"{}\")", r.native));
            assert_eq!(registered, wired, "{}", r.native);
        }
        assert!(TEMPLATE.contains("\nconst HOOKS = __CUECARD_HOOKS__;\n"));
    }

    #[test]
    fn pi_edits_become_an_edit_or_a_multi_edit() {
        let row = SPEC.row("tool_result").unwrap();
        let mut one = serde_json::json!({
            "tool_name": "edit",
            "tool_input": {"path": "/p/a.rs", "edits": [{"oldText": "a", "newText": "b"}]}
        })
        .as_object()
        .cloned()
        .unwrap();
        translate(row, &mut one);
        assert_eq!(one["hook_event_name"], "PostToolUse");
        assert_eq!(one["tool_name"], "Edit");
        assert_eq!(one["tool_input"]["file_path"], "/p/a.rs");
        assert_eq!(one["tool_input"]["new_string"], "b");
        let mut two = serde_json::json!({
            "tool_name": "edit",
            "tool_input": {"path": "/p/a.rs", "edits": [
                {"oldText": "a", "newText": "b"}, {"oldText": "c", "newText": "d"}
            ]}
        })
        .as_object()
        .cloned()
        .unwrap();
        translate(row, &mut two);
        assert_eq!(two["tool_name"], "MultiEdit");
        assert_eq!(two["tool_input"]["edits"][1]["new_string"], "d");
    }
}
