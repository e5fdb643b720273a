//! Claude Code: the canonical dialect. Nothing is translated and the
//! envelope is the renderer's, byte for byte, with or without
//! `--contract claude-code`.
//!
//! Configuration: `~/.claude/settings.json` or `<project>/.claude/settings.json`;
//! handlers in exec form (`command` is the binary, `args` the arguments), so
//! no shell ever parses the install path; `timeout` in seconds. Managed
//! settings (`--scope managed`) are rendered to `managed-settings.json` in the
//! working directory, for an administrator to deploy.

use super::HarnessId;
use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::plugin::{Meta, PluginFormat};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe};
use crate::event::{EVENTS, Event};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::ClaudeCode,
    id: "claude-code",
    name: "Claude Code",
    events: &ROWS,
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "PreCompact, PostCompact and SessionEnd output is dropped (post-compaction \
                 recovery rides on SessionStart `compact`); any context on Stop keeps the agent \
                 running, so the Stop card is opt-in (CUECARD_STOP_CARD=1).",
    config: Some(&CONFIG),
    // A skill's inline shell command: deny and ask both keep it from
    // running, but an ask cannot wait for a person (2.1.332, measured), so
    // an ask is sent as a deny that says a person must run it.
    decides: &[
        ("PreToolUse", Envelope { ask: true }),
        ("PreSkillShellCommand", Envelope { ask: false }),
    ],
    probe: no_probe,
};

/// How many canonical events are Claude Code's.
const COUNT: usize = {
    let mut n = 0;
    let mut i = 0;
    while i < EVENTS.len() {
        if EVENTS[i].claude.is_some() {
            n += 1;
        }
        i += 1;
    }
    n
};

/// Claude Code's rows, built from the event table (`crate::event::EVENTS`):
/// one per event Claude Code has, under its own name, delivering in its
/// envelope wherever the table gives the event a channel to the model.
static ROWS: [EventRow; COUNT] = {
    let mut out = [EventRow {
        native: "",
        canonical: Event::SessionStart,
        delivery: Dropped,
        note: "",
    }; COUNT];
    let (mut i, mut n) = (0, 0);
    while i < EVENTS.len() {
        let e = &EVENTS[i];
        if let Some(note) = e.claude {
            out[n] = EventRow {
                native: e.name,
                canonical: e.event,
                delivery: if e.carries_context() {
                    Context(Shape::Envelope)
                } else {
                    Dropped
                },
                note,
            };
            n += 1;
        }
        i += 1;
    }
    out
};

fn translate(_row: &EventRow, _map: &mut Map<String, Value>) {}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| config::env_dir("CLAUDE_CONFIG_DIR", &r.home, ".claude"),
        programs: &["claude"],
    },
    form: config::Form::Exec,
    other_sources,
    notes,
    plugin: Some(&PLUGIN),
    ..Config::claude_like(HarnessId::ClaudeCode, path, skills_dir)
};

/// The Claude Code plugin: `.claude-plugin/plugin.json`, `hooks/hooks.json`
/// naming `${CLAUDE_PLUGIN_ROOT}/bin/cuecard` (Claude Code expands it and
/// sets `CLAUDE_PLUGIN_DATA`, where the state goes: `state::root`), skills
/// under `skills/` (the harness namespaces them `cuecard:<skill>`) and a
/// `.claude-plugin/marketplace.json` listing the plugin at `./`.
static PLUGIN: PluginFormat = PluginFormat {
    manifest: ".claude-plugin/plugin.json",
    manifest_json: plugin_manifest,
    hooks: "hooks/hooks.json",
    root: "${CLAUDE_PLUGIN_ROOT}",
    skills: Some("skills"),
    marketplace: Some((".claude-plugin/marketplace.json", marketplace)),
    usage: "try it with `claude --plugin-dir <dir>`; publish it from a repository with \
            `/plugin marketplace add <owner>/<repo>` then `/plugin install cuecard@cuecard`",
};

/// A plugin manifest in Claude Code's schema (Codex reads the same keys).
pub(super) fn plugin_manifest(m: &Meta) -> Value {
    serde_json::json!({
        "name": m.name,
        "version": m.version,
        "description": m.description,
        "author": { "name": "cuecard" },
        "license": "MIT",
        // cuecard reaches no host: its hooks read the payload and the
        // project and answer on stdout.
        "network": { "hosts": [] },
    })
}

/// A marketplace listing the plugin at `./` (Codex reads it too).
pub(super) fn marketplace(m: &Meta) -> Value {
    serde_json::json!({
        "name": m.name,
        "description": m.description,
        "owner": { "name": "cuecard" },
        "plugins": [{
            "name": m.name,
            "source": "./",
            "description": m.description,
            "version": m.version,
        }],
    })
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    Some(match scope {
        Scope::User => r.home.join(".claude/settings.json"),
        Scope::Project => r.project.join(".claude/settings.json"),
        Scope::Managed => r.cwd.join("managed-settings.json"),
    })
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".claude/skills")
}

/// The local settings and installed plugins' hook files.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let mut out = vec![
        r.project.join(".claude/settings.local.json"),
        r.home.join(".claude/settings.local.json"),
    ];
    // A plugin's hook file is `hooks/hooks.json`.
    out.extend(config::plugin_hook_files(
        &r.home.join(".claude/plugins"),
        6,
        |p| p.parent().is_some_and(|d| d.ends_with("hooks")),
    ));
    out
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    match scope {
        Scope::Managed => vec![
            "deploy this file as Claude Code's managed settings: /etc/claude-code/managed-settings.json on Linux, \
             /Library/Application Support/ClaudeCode/managed-settings.json on macOS"
                .into(),
        ],
        _ => Vec::new(),
    }
}
