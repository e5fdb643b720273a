//! Charm's Crush (`crush`, npm `@charmland/crush`; 0.96.1 is the newest on
//! npm and the one this contract is written for). Its hooks follow Claude
//! Code's payload and envelope but nest flat: `hooks.<Event>[] = {name?,
//! matcher?, command, timeout?}`, the matcher an unanchored Go regex tested
//! against the tool name. Through 0.96.1 Crush fires one event, PreToolUse
//! (the docs: "there's currently just one"; `internal/hooks/hooks.go`
//! defines only `EventPreToolUse`), on the top-level agent's tool calls
//! only. Its stdin is `{event, session_id, cwd, tool_name, tool_input}`,
//! the tool names are Crush's own lower-case ones (`bash`, `edit`,
//! `multiedit`, `write`, `view`, `grep`, ...), and the tool inputs already
//! use Claude Code's keys (`command`, `file_path`, `content`,
//! `old_string`, `new_string`).
//!
//! On exit 0 Crush parses stdout; an object with `hookSpecificOutput` is
//! read as Claude Code's (`permissionDecision`, `permissionDecisionReason`,
//! `updatedInput`, `additionalContext`, nothing else). The context is
//! appended to the tool's result after the tool runs, which is what the
//! model reads (`internal/agent/hooked_tool.go`); a deny blocks the call and
//! the model sees "Tool call blocked by hook. Reason: ...". `ask` is not a
//! decision Crush knows: it reads as "no opinion" (the normal permission
//! flow, skipped under `--yolo`), so an ask is rendered as a deny. Read
//! from Crush's source and docs, not measured on a real run: the npm
//! package downloads its binary from GitHub at install time, which this
//! workplace cannot reach (docs/e2e.md).
//!
//! Configuration: `crush.json` (or `.crush.json`) in the project,
//! `$CRUSH_GLOBAL_CONFIG/crush.json` or `$XDG_CONFIG_HOME/crush/crush.json`
//! (`~/.config/crush/crush.json`, on Windows too) for the user; strict JSON
//! (Crush rejects a file that is not). Commands run through Crush's
//! embedded POSIX shell (`mvdan.cc/sh`) on every host, Windows included;
//! `timeout` in seconds (default 30).

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Crush,
    id: "crush",
    name: "Crush",
    events: &[
        row!("PreToolUse" => PreToolUse, Context(Shape::Envelope), "hookSpecificOutput.additionalContext appended to the tool's result (internal/hooks/input.go, internal/agent/hooked_tool.go) [DOC]; not measured"),
    ],
    tools: &[
        ("bash", "Bash"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("multiedit", "MultiEdit"),
        ("view", "Read"),
        ("grep", "Grep"),
        ("glob", "Glob"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: false,
    loads_claude_hooks: false,
    translate,
    limitation: "not measured on a real run (read from its source and docs); through 0.96.1 \
                 only PreToolUse fires (no session-start, prompt or after-tool cards), its \
                 context arrives with the tool's result, and only on the top-level agent's \
                 tool calls; `ask` is rendered as a deny.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: false })],
    probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::unstring(map, "tool_input");
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: user_dir,
        programs: &["crush"],
    },
    harness: HarnessId::Crush,
    layout: config::Layout::Flat,
    form: config::Form::Shell {
        windows: config::Shell::Posix,
    },
    typed: false,
    timeout: Some(("timeout", config::Unit::Seconds)),
    path,
    required: config::nothing_required,
    skeleton: config::empty_object,
    skills_dir,
    other_sources,
    notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "",
    trust: config::no_trust_check,
    legacy: None,
    plugin: None,
    owned: None,
    check: config::no_check,
};

/// A directory from the environment variable `var`, when set to an
/// absolute path (a relative one would land in whatever directory install
/// runs from).
fn var_dir(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// `$XDG_CONFIG_HOME`, else `~/.config` (Crush's `home.Config`, Windows too).
fn config_home(r: &Roots) -> PathBuf {
    var_dir("XDG_CONFIG_HOME").unwrap_or_else(|| r.home.join(".config"))
}

/// `$CRUSH_GLOBAL_CONFIG`, else `<config home>/crush` (Crush's
/// `GlobalConfig`).
fn user_dir(r: &Roots) -> PathBuf {
    var_dir("CRUSH_GLOBAL_CONFIG").unwrap_or_else(|| config_home(r).join("crush"))
}

/// The project's JSON config: `.crush.json` when it exists (Crush prefers
/// it over `crush.json` on a conflict), else `crush.json`, the name its
/// docs show.
fn project_file(r: &Roots) -> PathBuf {
    let dot = r.project.join(".crush.json");
    if std::fs::symlink_metadata(&dot).is_ok() {
        dot
    } else {
        r.project.join("crush.json")
    }
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(scope, user_dir(r).join("crush.json"), project_file(r))
}

/// Crush's own skills directories (`<config home>/crush/skills`, not moved
/// by `$CRUSH_GLOBAL_CONFIG`; `.crush/skills` in the project).
fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        config_home(r).join("crush/skills"),
        r.project.join(".crush/skills"),
    )
}

/// The other JSON files Crush merges into its config: the project's other
/// name, the workspace file Crush writes itself (`.crush/crush.json`), and
/// its global data file (`$CRUSH_GLOBAL_DATA`, `$XDG_DATA_HOME/crush`,
/// `~/.local/share/crush`).
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let data = var_dir("CRUSH_GLOBAL_DATA")
        .or_else(|| var_dir("XDG_DATA_HOME").map(|d| d.join("crush")))
        .unwrap_or_else(|| r.home.join(".local/share/crush"));
    let mine = project_file(r);
    let mut out: Vec<PathBuf> = [".crush.json", "crush.json"]
        .iter()
        .map(|n| r.project.join(n))
        .filter(|p| *p != mine)
        .collect();
    out.push(r.project.join(".crush/crush.json"));
    out.push(data.join("crush.json"));
    out
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Crush is not measured on a real run: the entries follow its hooks docs and source".into(),
        "through Crush 0.96.1 only PreToolUse fires: tool advisories reach the model with the \
         tool's result; session-start and prompt cards do not reach Crush"
            .into(),
    ]
}

/// doctor's payload: Crush names the event `event` and sends no transcript.
fn probe(o: &mut Map<String, Value>, _project: &Path) {
    o.remove("transcript_path");
    if let Some(e) = o.remove("hook_event_name") {
        o.insert("event".into(), e);
    } else {
        o.insert("event".into(), json!("PreToolUse"));
    }
}
