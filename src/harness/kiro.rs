//! Kiro CLI. Kiro CLI 3.0 reads standalone hook files with PascalCase
//! triggers (SessionStart, UserPromptSubmit, PreToolUse, PostToolUse, Stop;
//! kiro.dev/docs/cli/v3/hooks), and, during the transition, the legacy
//! hooks of an agent configuration with camelCase events (agentSpawn,
//! userPromptSubmit, ...). Tool names `execute_bash` / `shell`, `fs_write` /
//! `write`, `fs_read` / `read`, `str_replace`. What reaches the model is a
//! hook's plain stdout at session start and prompt submission; on the tool
//! events and stop, stdout is captured and not shown, so nothing is
//! registered there.
//!
//! Configuration: the V3 hook file `~/.kiro/hooks/cuecard.json` or
//! `<project>/.kiro/hooks/cuecard.json`, `{"version": "v1", "hooks": [{name,
//! trigger, action: {type: "command", command}, timeout, enabled}]}`,
//! commands through a shell, `timeout` in seconds; it applies to every
//! agent. The legacy form, the agent `cuecard` (`.kiro/agents/cuecard.json`,
//! flat camelCase lists, `timeout_ms`), is still read by verify and
//! uninstall, and an install moves cuecard's entries out of it.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Kiro,
    id: "kiro",
    name: "Kiro CLI",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::PlainText), "V3 trigger for agentSpawn; stdout added to the context [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::PlainText), "V3 trigger; stdout added to the context [DOC]"),
        row!("PreToolUse" => PreToolUse, Dropped, "V3 trigger; stdout not shown, only exit 2 stderr [DOC]"),
        row!("PostToolUse" => PostToolUse, Dropped, "V3 trigger; stdout not shown [DOC]"),
        row!("Stop" => Stop, Dropped, "V3 trigger; stdout not shown [DOC]"),
        row!("agentSpawn" => SessionStart, Context(Shape::PlainText), "legacy agent form; stdout added to the context [DOC]"),
        row!("userPromptSubmit" => UserPromptSubmit, Context(Shape::PlainText), "legacy agent form; stdout added to the context [DOC]"),
        row!("preToolUse" => PreToolUse, Dropped, "legacy agent form; stdout not shown, only exit 2 stderr [DOC]"),
        row!("postToolUse" => PostToolUse, Dropped, "legacy agent form; stdout not shown [DOC]"),
        row!("stop" => Stop, Dropped, "legacy agent form; stdout not shown [DOC]"),
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
    loads_claude_hooks: false,
    translate,
    limitation: "only agentSpawn and userPromptSubmit stdout reaches the model: tool advisories \
                 cannot be delivered (a deny policy is answered on preToolUse with exit 2 and the \
                 reason on stderr); the payload carries no session id.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", ExitCode), ("preToolUse", ExitCode)],
    probe: no_probe,
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
    if row.canonical == Event::SessionStart {
        t::default_source(map, "startup");
    }
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".kiro"),
        programs: &["kiro-cli", "kiro"],
    },
    harness: HarnessId::Kiro,
    layout: config::Layout::List,
    form: config::Form::Shell {
        windows: config::Shell::PowerShell,
    },
    typed: false,
    timeout: Some(("timeout", config::Unit::Seconds)),
    path,
    required,
    skeleton,
    skills_dir,
    other_sources: config::no_sources,
    notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "V3 hook file",
    trust: config::no_trust_check,
    legacy: Some(&LEGACY),
    plugin: None,
    owned: None,
    check: config::no_check,
};

/// Kiro's legacy form: hooks inside the agent `cuecard`.
static LEGACY: Config = Config {
    presence: config::Presence::UNKNOWN,
    harness: HarnessId::Kiro,
    layout: config::Layout::Flat,
    form: config::Form::Shell {
        windows: config::Shell::PowerShell,
    },
    typed: false,
    timeout: Some(("timeout_ms", config::Unit::Millis)),
    path: legacy_path,
    required: config::nothing_required,
    skeleton: legacy_skeleton,
    skills_dir,
    other_sources: config::no_sources,
    notes: legacy_notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "legacy agent form (Kiro runs it only during the 3.0 transition; \
                `cuecard install --harness kiro` moves it to the V3 hook file)",
    trust: config::no_trust_check,
    legacy: None,
    plugin: None,
    owned: None,
    check: config::no_check,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".kiro/hooks/cuecard.json")
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("version", json!("v1"))]
}

fn skeleton() -> Value {
    json!({"version": "v1"})
}

fn legacy_path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".kiro/agents/cuecard.json")
}

fn legacy_skeleton() -> Value {
    json!({
        "name": "cuecard",
        "description": "Kiro's tools, with cuecard's guidance cards on hook events",
        "tools": ["*"]
    })
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".kiro/skills")
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Kiro CLI 3.0 runs the hook files in .kiro/hooks/ for every agent; an older Kiro CLI \
         reads hooks only from an agent configuration"
            .into(),
    ]
}

fn legacy_notes(_: Scope, _: &Path) -> Vec<String> {
    Vec::new()
}
