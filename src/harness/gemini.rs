//! Gemini CLI. Its own event names (BeforeAgent, BeforeTool, AfterTool,
//! AfterAgent, PreCompress), Claude Code's payload keys, its own tool ids
//! (`run_shell_command`, `write_file`, `replace`, `read_file`,
//! `grep_search`, `ask_user`: packages/core/src/tools/tool-names.ts) matched as
//! regexes, and `hookSpecificOutput.{hookEventName, additionalContext}`
//! with its own event name. Measured: context reaches the model on
//! SessionStart, BeforeAgent and AfterTool; BeforeTool context is dropped,
//! so the PreToolUse cards ride on AfterTool.
//!
//! Configuration: `~/.gemini/settings.json` or `<project>/.gemini/settings.json`,
//! Claude Code's nesting with Gemini's event names, commands through a
//! shell, `timeout` in milliseconds. Hooks must be enabled: the settings get
//! `hooksConfig.enabled: true` (the current switch; its default is true, but
//! an operator's `false` would silence every hook, so install sets it).

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::plugin::{Meta, PluginFormat};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Gemini,
    id: "gemini",
    name: "Gemini CLI",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "<hook_context> in the user turn [RIG]"),
        row!("BeforeAgent" => UserPromptSubmit, Context(Shape::Envelope), "appended to the prompt [RIG]"),
        row!("BeforeTool" => PreToolUse, Deferred(Event::PostToolUse), "context dropped [RIG]"),
        row!("AfterTool" => PostToolUse, Context(Shape::Envelope), "appended to the functionResponse [RIG]"),
        row!("AfterAgent" => Stop, Dropped, "a deny retries the turn [DOC]"),
        row!("PreCompress" => PreCompact, Dropped, "fires before every turn; output dropped [RIG]"),
        row!("Notification" => Notification, Dropped, "never fired [RIG]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[RIG]"),
    ],
    tools: &[
        ("run_shell_command", "Bash"),
        ("write_file", "Write"),
        ("replace", "Edit"),
        ("replace", "MultiEdit"),
        ("read_file", "Read"),
        ("read_many_files", "Read"),
        ("grep_search", "Grep"),
        // The search tool's name before 0.2x, still sent by older installs.
        ("search_file_content", "Grep"),
        ("ask_user", "AskUserQuestion"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: false,
    loads_claude_hooks: false,
    translate,
    limitation: "context before a tool runs (BeforeTool) is dropped, so tool advisories arrive \
                 with the tool's result (AfterTool); plain stdout never reaches the model; \
                 hooks must be enabled and the workspace trusted.",
    config: Some(&CONFIG),
    decides: &[("BeforeTool", TopLevel)],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
    // grep_search names its folder `dir_path`; Grep's is `path`.
    t::rename_input(map, &[("dir_path", "path")]);
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".gemini"),
        programs: &["gemini"],
    },
    timeout: Some(("timeout", config::Unit::Millis)),
    required,
    other_sources,
    notes,
    trust,
    plugin: Some(&PLUGIN),
    ..Config::claude_like(HarnessId::Gemini, path, skills_dir)
};

/// The Gemini CLI extension: `gemini-extension.json` and `hooks/hooks.json`
/// (`{"hooks": {...}}`, read with `${extensionPath}` replaced by the
/// extension's directory: `loadExtensionHooks` in the pinned 0.61.0), skills
/// under `skills/`.
static PLUGIN: PluginFormat = PluginFormat {
    manifest: "gemini-extension.json",
    manifest_json: extension_manifest,
    hooks: "hooks/hooks.json",
    root: "${extensionPath}",
    skills: Some("skills"),
    marketplace: None,
    usage: "install it with `gemini extensions install <dir>` (or `gemini extensions link <dir>`)",
};

fn extension_manifest(m: &Meta) -> Value {
    serde_json::json!({
        "name": m.name,
        "version": m.version,
        "description": m.description,
    })
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".gemini/settings.json")
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("hooksConfig.enabled", Value::Bool(true))]
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".gemini/skills")
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    match scope {
        Scope::Project => vec![
            "Gemini CLI runs project hooks only in a trusted workspace (trust the folder, or GEMINI_CLI_TRUST_WORKSPACE=true)".into(),
        ],
        _ => Vec::new(),
    }
}

/// Gemini CLI runs project hooks only in a trusted workspace when folder
/// trust is on: `~/.gemini/trustedFolders.json` maps folders to
/// `TRUST_FOLDER`, `TRUST_PARENT` or `DO_NOT_TRUST`.
fn trust(c: &config::TrustCheck) -> Vec<String> {
    if c.scope != Scope::Project {
        return Vec::new();
    }
    let Some(text) = config::read_small(&c.roots.home.join(".gemini/trustedFolders.json")) else {
        return Vec::new();
    };
    let Ok(Value::Object(folders)) = serde_json::from_str::<Value>(&text) else {
        return Vec::new();
    };
    let project = &c.roots.project;
    let mut verdict: Option<(usize, &str)> = None;
    for (dir, rule) in &folders {
        let dir = Path::new(dir);
        let Some(rule) = rule.as_str() else { continue };
        let applies = match rule {
            "TRUST_PARENT" => dir.parent().is_some_and(|p| config::within(project, p)),
            _ => config::within(project, dir),
        };
        let depth = dir.components().count();
        if applies && verdict.is_none_or(|(d, _)| depth >= d) {
            verdict = Some((depth, rule));
        }
    }
    match verdict {
        Some((_, "TRUST_FOLDER" | "TRUST_PARENT")) => Vec::new(),
        _ => vec![format!(
            "Gemini CLI has not trusted {} ({}): it runs no project hooks there until you trust \
             the folder (the trust prompt or `/permissions`), or GEMINI_CLI_TRUST_WORKSPACE=true",
            project.display(),
            c.roots.home.join(".gemini/trustedFolders.json").display()
        )],
    }
}

/// Installed extensions' hook files (`~/.gemini/extensions/<name>/hooks/hooks.json`):
/// a cuecard extension there beside a settings install is a double
/// registration.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let dir = r.home.join(".gemini/extensions");
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    rd.flatten()
        .take(500)
        .map(|e| e.path().join("hooks/hooks.json"))
        .filter(|p| p.is_file())
        .collect()
}
