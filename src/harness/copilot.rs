//! GitHub Copilot CLI. Registered with its camelCase events, whose payloads
//! use `sessionId`, `toolName` (runtime names: `bash`, `create`, `edit`,
//! `view`, ...), `toolArgs` (an object, or a JSON string), `toolResult`, and
//! no `hook_event_name`. Measured: only a top-level `additionalContext`
//! reaches the model, on userPromptSubmitted, preToolUse and postToolUse;
//! the hooks reference now documents it on sessionStart, subagentStart
//! (prepended to the subagent's prompt) and postToolUseFailure too.
//! `grep` and `ask_user` (one question, plain-string `choices`) are mapped
//! to Grep and AskUserQuestion. Copilot also accepts Claude Code's
//! PascalCase names, which switch payloads to Claude Code's keys and tool
//! names; there only PreToolUse's `hookSpecificOutput.additionalContext`
//! reached the model. The Copilot cloud agent clones the repository into a
//! sandbox with no cuecard binary at the path the project file names, so it
//! is not served.
//!
//! Configuration: a file of its own, `<project>/.github/hooks/cuecard.json`
//! or `$COPILOT_HOME/hooks/cuecard.json` (`~/.copilot/hooks/`), with
//! `version: 1` and flat camelCase event lists (the matcher sits in the
//! handler), commands through a shell under `bash` (Linux, macOS) and
//! `powershell` (Windows) on every host, Copilot picking its own,
//! `timeoutSec` in seconds. Copilot also runs Claude Code's
//! `.claude/settings.json` hooks, and hooks written inline under `hooks` in
//! its own `settings.json` / `config.json` and the repository's
//! `.github/copilot/settings.json`: all checked for a second registration.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::plugin::{Meta, PluginFormat};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// camelCase events: a top-level `additionalContext`.
const FLAT: Shape = Shape::Flat {
    field: "additionalContext",
    decision: false,
};
/// camelCase preToolUse: the same, and the permission decision.
const FLAT_DECIDING: Shape = Shape::Flat {
    field: "additionalContext",
    decision: true,
};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Copilot,
    id: "copilot",
    name: "GitHub Copilot CLI",
    events: &[
        row!("sessionStart" => SessionStart, Context(FLAT), "additionalContext reached the model (e2e benign, kb-drift; 1.0.102 -p) [RIG]; documented [DOC]"),
        row!("userPromptSubmitted" => UserPromptSubmit, Context(FLAT), "user message [RIG]"),
        row!("preToolUse" => PreToolUse, Context(FLAT_DECIDING), "user message [RIG]"),
        row!("postToolUse" => PostToolUse, Context(FLAT), "appended to the tool result; ~10,350 chars kept [RIG]"),
        row!("postToolUseFailure" => PostToolUseFailure, Context(FLAT), "recovery guidance via additionalContext; fires only on a failure since 1.0.15 [DOC]"),
        row!("permissionRequest" => PermissionRequest, Dropped, "plain stdout fails the call [RIG]"),
        row!("subagentStart" => SubagentStart, Context(FLAT), "additionalContext prepended to the subagent's prompt [DOC]"),
        row!("subagentStop" => SubagentStop, Dropped, "decision only [DOC]"),
        row!("agentStop" => Stop, Dropped, "decision only [RIG]"),
        row!("preCompact" => PreCompact, Dropped, "[RIG]"),
        row!("notification" => Notification, Dropped, "asynchronous; context becomes a user message that can start a turn [DOC]"),
        row!("sessionEnd" => SessionEnd, Dropped, "[RIG]"),
        row!("SessionStart" => SessionStart, Dropped, "PascalCase: not delivered [RIG]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Dropped, "PascalCase: not delivered [RIG]"),
        row!("PreToolUse" => PreToolUse, Context(Shape::Envelope), "PascalCase: hookSpecificOutput delivered [RIG]"),
        row!("PostToolUse" => PostToolUse, Dropped, "PascalCase: not delivered [RIG]"),
        row!("PostToolUseFailure" => PostToolUseFailure, Dropped, "PascalCase [DOC]"),
        row!("PermissionRequest" => PermissionRequest, Dropped, "PascalCase [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "PascalCase [DOC]"),
        row!("Stop" => Stop, Dropped, "PascalCase [RIG]"),
        row!("PreCompact" => PreCompact, Dropped, "PascalCase [DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "PascalCase [RIG]"),
    ],
    tools: &[
        ("bash", "Bash"),
        ("powershell", "Bash"),
        ("create", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("view", "Read"),
        ("grep", "Grep"),
        ("ask_user", "AskUserQuestion"),
        // Copilot CLI's freeform patch tool (seen with an OpenAI-compatible
        // provider): translated like Codex's `apply_patch` before this table.
        ("apply_patch", "Write"),
        ("apply_patch", "Edit"),
    ],
    matchers: MatcherStyle::HarnessAnchored,
    source_matcher: false,
    loads_claude_hooks: true,
    translate,
    limitation: "postToolUse keeps about 10,350 characters; repository hooks run only in \
                 trusted folders; the Copilot cloud agent is not served (it runs the repository's \
                 hooks in a sandbox clone, where this machine's cuecard binary does not exist).",
    config: Some(&CONFIG),
    decides: &[("preToolUse", Flat { ask: true })],
    probe,
};

fn pascal(row: &EventRow) -> bool {
    row.native.starts_with(|c: char| c.is_ascii_uppercase())
}

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::rename(map, "sessionId", "session_id");
    t::rename(map, "transcriptPath", "transcript_path");
    t::rename(map, "toolName", "tool_name");
    t::rename(map, "toolArgs", "tool_input");
    t::rename(map, "toolInput", "tool_input");
    t::rename(map, "toolResult", "tool_response");
    t::rename(map, "tool_result", "tool_response");
    t::rename(map, "stopReason", "stop_reason");
    t::unstring(map, "tool_input");
    t::set_event(row, map);
    if !pascal(row) {
        if map.get("tool_name").and_then(Value::as_str) == Some("apply_patch") {
            if let Some(v) = map.get_mut("tool_input").filter(|v| v.is_string()) {
                *v = serde_json::json!({ "command": v.take() });
            }
            super::codex::apply_patch(map);
        }
        t::map_tool(SPEC.tools, map);
        match map.get("tool_name").and_then(Value::as_str) {
            // grep's `path` is Grep's own key, not a file editor's.
            Some("Grep") => {}
            Some("AskUserQuestion") => ask_user(map),
            _ => t::rename_input(map, t::EDITOR_KEYS),
        }
    }
    t::map_source(map, &[("new", "startup")]);
    events_log(map);
}

/// Copilot names no transcript; its per-session events log
/// (`$COPILOT_HOME/session-state/<sessionId>/events.jsonl`, `~/.copilot`
/// without it; measured 1.0.102) records each model call's usage
/// (`session.usage_record`), so it is the transcript cuecard measures. Only
/// for a session id of letters, digits and `-`/`_` (no path is built from
/// anything else).
fn events_log(map: &mut Map<String, Value>) {
    if map.contains_key("transcript_path") {
        return;
    }
    let Some(id) = map.get("session_id").and_then(Value::as_str) else {
        return;
    };
    let clean = !id.is_empty()
        && id.len() <= 128
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    let Some(home) = std::env::var_os("HOME").filter(|h| !h.is_empty()) else {
        return;
    };
    if !clean {
        return;
    }
    let root = config::env_dir("COPILOT_HOME", Path::new(&home), ".copilot");
    let log = root.join("session-state").join(id).join("events.jsonl");
    map.insert(
        "transcript_path".into(),
        Value::from(log.to_string_lossy().into_owned()),
    );
}

/// Copilot's `ask_user` asks one question with plain-string `choices`;
/// the canonical AskUserQuestion input is a `questions` list whose options
/// carry a `label`. Moves nothing when `questions` is already there.
fn ask_user(map: &mut Map<String, Value>) {
    let Some(Value::Object(input)) = map.get_mut("tool_input") else {
        return;
    };
    if input.contains_key("questions") {
        return;
    }
    let Some(question) = input.get("question").cloned() else {
        return;
    };
    let options: Vec<Value> = input
        .get("choices")
        .and_then(Value::as_array)
        .map(|c| c.iter().map(|l| json!({ "label": l })).collect())
        .unwrap_or_default();
    input.insert(
        "questions".into(),
        json!([{ "question": question, "multiSelect": false, "options": options }]),
    );
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: home,
        programs: &["copilot"],
    },
    harness: HarnessId::Copilot,
    layout: config::Layout::Flat,
    // The documented shell-free `command` + `args` form is not what 1.0.102
    // runs: it ran `command` as a shell command line and dropped `args`
    // (measured: `{"command": "hook.sh shellword", "args": ["argword"]}`
    // got `shellword` as its one argument). So the shell form stays, quoted
    // for each shell.
    form: config::Form::PerShell(&[
        ("bash", config::Shell::Posix),
        ("powershell", config::Shell::PowerShell),
    ]),
    typed: true,
    timeout: Some(("timeoutSec", config::Unit::Seconds)),
    path,
    required,
    skeleton,
    skills_dir,
    other_sources,
    notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "",
    trust,
    legacy: None,
    plugin: Some(&PLUGIN),
    owned: None,
    check: config::no_check,
};

/// The Copilot CLI plugin: `plugin.json` at the root naming `hooks.json`
/// (Copilot's own hook format, version 1) and `skills/`. Copilot sets
/// `COPILOT_PLUGIN_ROOT` (and `CLAUDE_PLUGIN_ROOT`, `PLUGIN_ROOT`) and
/// `COPILOT_PLUGIN_DATA`/`CLAUDE_PLUGIN_DATA` for a plugin's hooks (measured
/// with 1.0.102 `--plugin-dir`), and reads `.claude-plugin/marketplace.json`
/// for `copilot plugin marketplace add <dir>`. The entries carry only the
/// `bash` key: the plugin ships the Unix binary of the machine that built it
/// (docs/decisions.md).
static PLUGIN: PluginFormat = PluginFormat {
    manifest: "plugin.json",
    manifest_json: plugin_manifest,
    hooks: "hooks.json",
    root: "${COPILOT_PLUGIN_ROOT}",
    skills: Some("skills"),
    marketplace: Some((
        ".claude-plugin/marketplace.json",
        super::claude_code::marketplace,
    )),
    usage: "try it with `copilot --plugin-dir <dir>`; install it with `copilot plugin marketplace add <dir>` \
            then `copilot plugin install cuecard@cuecard`",
};

/// Copilot's manifest: Claude Code's keys, and where the hooks and skills are.
fn plugin_manifest(m: &Meta) -> Value {
    let mut v = super::claude_code::plugin_manifest(m);
    if let Value::Object(o) = &mut v {
        o.remove("network");
        o.insert("hooks".into(), json!("hooks.json"));
        o.insert("skills".into(), json!("skills/"));
    }
    v
}

fn home(r: &Roots) -> PathBuf {
    config::env_dir("COPILOT_HOME", &r.home, ".copilot")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        home(r).join("hooks/cuecard.json"),
        r.project.join(".github/hooks/cuecard.json"),
    )
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("version", json!(1))]
}

fn skeleton() -> Value {
    json!({"version": 1})
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        home(r).join("skills"),
        r.project.join(".github/skills"),
    )
}

/// The other hook files Copilot merges, and the Claude Code settings it reads.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [r.project.join(".github/hooks"), home(r).join("hooks")] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut files: Vec<PathBuf> = rd
                .take(500)
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json") && !p.ends_with("cuecard.json")
                })
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    // Hooks written inline under `hooks` in Copilot's own settings (its
    // hooks reference): the user's `settings.json` (and the older
    // `config.json`) and the repository's `.github/copilot/settings.json`.
    out.push(home(r).join("settings.json"));
    out.push(home(r).join("config.json"));
    out.push(r.project.join(".github/copilot/settings.json"));
    out.push(r.project.join(".claude/settings.json"));
    out.push(r.project.join(".claude/settings.local.json"));
    out.extend(plugin_hook_files(r));
    out
}

/// The hook files of the plugins Copilot records: those copied under
/// `installed-plugins/`, and those loaded live from a local marketplace
/// directory named in `settings.json` (`extraKnownMarketplaces`). A plugin
/// recorded as disabled is still counted (enabling it would double cuecard).
fn plugin_hook_files(r: &Roots) -> Vec<PathBuf> {
    let mut roots = vec![home(r).join("installed-plugins")];
    roots.extend(local_marketplaces(&home(r).join("settings.json")));
    let mut out: Vec<PathBuf> = Vec::new();
    for root in roots.iter().take(50) {
        // A plugin's hook file sits beside its `plugin.json`.
        for p in config::plugin_hook_files(root, 5, |p| p.with_file_name("plugin.json").is_file()) {
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// The directories of the local marketplaces Copilot's `settings.json`
/// names (read with a size bound, never through a symlink).
fn local_marketplaces(settings: &Path) -> Vec<PathBuf> {
    let Some(text) = config::read_small(settings) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<Value>(&text) else {
        return Vec::new();
    };
    v.get("extraKnownMarketplaces")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|m| m.values())
        .filter_map(|m| m.pointer("/source/path").and_then(Value::as_str))
        .map(PathBuf::from)
        .collect()
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if scope == Scope::Project {
        out.push("Copilot runs repository hooks only in a trusted folder (`trusted_folders` in ~/.copilot/config.json)".into());
        out.push("the Copilot cloud agent runs these hooks in its own sandbox clone, which has no cuecard binary: they serve the CLI only".into());
    }
    out
}

/// doctor's payload: Copilot's camelCase session key and timestamp.
fn probe(o: &mut Map<String, Value>, _project: &Path) {
    o.insert("sessionId".into(), json!("cuecard-doctor"));
    o.insert("timestamp".into(), json!(0));
}

/// Copilot CLI runs repository hooks only in a trusted folder, listed in
/// `trusted_folders` of `$COPILOT_HOME/config.json`.
fn trust(c: &config::TrustCheck) -> Vec<String> {
    if c.scope != Scope::Project {
        return Vec::new();
    }
    let file = home(c.roots).join("config.json");
    let folders: Vec<String> = config::read_small(&file)
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v.get("trusted_folders").cloned())
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default();
    if folders
        .iter()
        .any(|f| config::within(&c.roots.project, Path::new(f)))
    {
        return Vec::new();
    }
    vec![format!(
        "Copilot CLI has not trusted {} (not in `trusted_folders` of {}): it runs no repository \
         hooks there until you trust the folder when Copilot asks, or add it there",
        c.roots.project.display(),
        file.display()
    )]
}
