//! OpenCode (`opencode-ai`). It has no command hooks: its extension point
//! is a plugin, a JavaScript module in a `plugin/` or `plugins/` folder of
//! a config directory (`{plugin,plugins}/*.{ts,js}`, 1.18.33's loader),
//! whose exported function returns hook functions. cuecard's registration
//! is therefore one whole file it owns ([`config::OwnedFile`]): a small
//! plugin rendered around the entries (the same Bindings and event table
//! as every other harness's), which runs `cuecard dispatch --contract
//! opencode <event> <cards>` with the event's payload on stdin, under a
//! timeout, and fails open.
//!
//! Native events are the plugin hooks that fire them (1.18.33):
//! `session.created` (the first model call of a session, and the first
//! after `session.compacted`: the plugin calls cuecard lazily from
//! `experimental.chat.system.transform`, whose `system` list it appends the
//! answer to), `chat.message` (the user's prompt; the answer joins the
//! system prompt of that turn's model calls), `tool.execute.before` (its
//! `output.args` are the tool input; a deny is thrown, which OpenCode turns
//! into the tool's error result), `tool.execute.after` (the answer is
//! appended to the tool's output, which the model reads). OpenCode's plugin
//! API has no channel for context before a tool runs, so the PreToolUse
//! cards ride on `tool.execute.after`. The plugin builds a Claude-Code-like
//! payload (`session_id`, `cwd`, `tool_name`, `tool_input`, `tool_response`,
//! `prompt`, `source`, and `context_usage`: the token counts of the session's
//! last assistant message, from OpenCode's `message.updated` events, which
//! the compaction warning measures by); tool names are OpenCode's lower-case ids and the
//! file tools' camelCase keys (`filePath`, `oldString`) are translated here.

use super::answer::Shape;
use super::config::{self, Config, OwnedFile, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

/// What the plugin reads: a flat object, the context in
/// `additionalContext`, a decision in `permissionDecision`.
const FLAT: Shape = Shape::Flat {
    field: "additionalContext",
    decision: true,
};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Opencode,
    id: "opencode",
    name: "OpenCode",
    events: &[
        row!("session.created" => SessionStart, Context(FLAT), "a system message, through experimental.chat.system.transform, on a session's first model call and again after session.compacted [RIG]"),
        row!("chat.message" => UserPromptSubmit, Context(FLAT), "joins the system prompt of that turn's model calls [DOC]"),
        row!("tool.execute.before" => PreToolUse, Deferred(Event::PostToolUse), "the plugin API has no context channel before a tool runs; a thrown deny becomes the tool's error result, and the call is not run [RIG]"),
        row!("tool.execute.after" => PostToolUse, Context(FLAT), "appended to the tool's output, the tool message [RIG]"),
        row!("experimental.session.compacting" => PreCompact, Dropped, "goes to the summariser, not the model [DOC]"),
        row!("permission.ask" => PermissionRequest, Dropped, "decision only; not wired [DOC]"),
    ],
    tools: &[
        ("bash", "Bash"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("apply_patch", "Edit"),
        ("apply_patch", "Write"),
        ("apply_patch", "MultiEdit"),
        ("read", "Read"),
        ("grep", "Grep"),
        ("glob", "Glob"),
        ("webfetch", "WebFetch"),
        ("task", "Task"),
        ("todowrite", "TodoWrite"),
        ("question", "AskUserQuestion"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "context before a tool runs has no channel in OpenCode's plugin API, so tool \
                 advisories arrive with the tool's output (tool.execute.after); session-start \
                 and prompt context join the system prompt; an ask becomes a deny (a plugin \
                 cannot ask).",
    config: Some(&CONFIG),
    decides: &[("tool.execute.before", Flat { ask: false })],
    probe: no_probe,
};

/// OpenCode's file tools' camelCase input keys and their canonical names.
const INPUT_KEYS: &[(&str, &str)] = &[
    ("filePath", "file_path"),
    ("oldString", "old_string"),
    ("newString", "new_string"),
    ("replaceAll", "replace_all"),
    ("patchText", "patch"),
];

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::rename(map, "sessionID", "session_id");
    t::rename_input(map, INPUT_KEYS);
    if map.get("tool_name").and_then(Value::as_str) == Some("apply_patch") {
        super::codex::apply_patch(map);
    }
    t::map_tool(SPEC.tools, map);
    if row.canonical == Event::SessionStart {
        t::default_source(map, "startup");
    }
}

pub(super) static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| user_dir(r, "opencode"),
        programs: &["opencode"],
    },
    harness: HarnessId::Opencode,
    layout: config::Layout::Grouped,
    form: config::Form::Exec,
    typed: false,
    timeout: Some(("timeout", config::Unit::Seconds)),
    path,
    required: config::nothing_required,
    skeleton: config::empty_object,
    skills_dir,
    other_sources: config::no_sources,
    notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "",
    trust: config::no_trust_check,
    legacy: None,
    plugin: None,
    owned: Some(&PLUGIN_FILE),
    check: config::no_check,
};

/// The plugin file: `plugin.js` with the entries on its `const HOOKS` line.
static PLUGIN_FILE: OwnedFile = OwnedFile {
    what: "OpenCode plugin",
    comment: "//",
    render: plugin_js,
    entries_line: ENTRIES_LINE,
};

pub(super) const ENTRIES_LINE: &str = "const HOOKS = ";
const TEMPLATE: &str = include_str!("opencode_plugin.js");

pub(super) fn plugin_js(entries: &str) -> String {
    TEMPLATE.replace("__CUECARD_HOOKS__", entries)
}

/// An OpenCode-family config directory: `$XDG_CONFIG_HOME/<app>` (when set
/// and absolute), else `~/.config/<app>` (`opencode`; Kilo Code's `kilo`).
pub(super) fn user_dir(r: &Roots, app: &str) -> PathBuf {
    std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .unwrap_or_else(|| r.home.join(".config"))
        .join(app)
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        user_dir(r, "opencode").join("plugins/cuecard.js"),
        r.project.join(".opencode/plugins/cuecard.js"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        user_dir(r, "opencode").join("skills"),
        r.project.join(".opencode/skills"),
    )
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "OpenCode loads plugins when it starts: restart running sessions to pick this one up"
            .into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every native event the contract registers or decides on is wired in
    /// the plugin template, and nothing else is: the template's wiring and
    /// the event table cannot drift apart.
    #[test]
    fn the_template_wires_exactly_the_events_the_table_registers() {
        for r in SPEC.events {
            let registered = r.delivery.delivers() || SPEC.decides_on(r.native).is_some();
            let wired = TEMPLATE.contains(&format!("wired(\"{}\"", r.native));
            assert_eq!(registered, wired, "{}", r.native);
        }
        assert!(TEMPLATE.contains(&format!("\n{ENTRIES_LINE}__CUECARD_HOOKS__;\n")));
    }

    #[test]
    fn opencode_file_tools_translate_to_the_canonical_shape() {
        let row = SPEC.row("tool.execute.after").unwrap();
        let mut m = serde_json::json!({
            "hook_event_name": "tool.execute.after",
            "sessionID": "ses_1",
            "tool_name": "edit",
            "tool_input": {"filePath": "/p/a.rs", "oldString": "a", "newString": "b"}
        })
        .as_object()
        .cloned()
        .unwrap();
        translate(row, &mut m);
        assert_eq!(m["hook_event_name"], "PostToolUse");
        assert_eq!(m["session_id"], "ses_1");
        assert_eq!(m["tool_name"], "Edit");
        assert_eq!(m["tool_input"]["file_path"], "/p/a.rs");
        assert_eq!(m["tool_input"]["new_string"], "b");
    }
}
