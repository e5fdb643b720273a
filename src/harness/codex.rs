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
//!
//! Configuration: `$CODEX_HOME/hooks.json` (`~/.codex/hooks.json`) or
//! `<project>/.codex/hooks.json`, Claude Code's nesting, commands run through
//! the user's login shell, `timeout` in seconds. The file's root may hold
//! only `description` and `hooks` (Codex refuses the file otherwise), so
//! nothing else is added. Codex runs a hook only once the user trusted it in
//! `/hooks`; `config.toml` can hold hooks too (checked for a second
//! registration).

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::plugin::PluginFormat;
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Codex,
    id: "codex",
    name: "Codex CLI",
    events: &[
        row!("SessionStart" => SessionStart, Context(STARTS), "developer message [RIG]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(DECIDES), "developer message [RIG]"),
        row!("PreToolUse" => PreToolUse, Context(PRE_TOOL), "developer message [RIG]"),
        row!("PostToolUse" => PostToolUse, Context(DECIDES), "developer message [RIG]"),
        row!("SubagentStart" => SubagentStart, Context(STARTS), "schema allows additionalContext [DOC]"),
        row!("PermissionRequest" => PermissionRequest, Dropped, "decision only [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "no context in schema [DOC]"),
        row!("Stop" => Stop, Dropped, "context is rejected: \"Stop Failed\" [RIG]"),
        row!("PreCompact" => PreCompact, Dropped, "no hookSpecificOutput allowed [RIG]"),
        row!("PostCompact" => PostCompact, Dropped, "no hookSpecificOutput allowed [RIG]"),
        row!("SessionEnd" => SessionEnd, Dropped, "nothing reads it [RIG]"),
        row!("Interrupt" => Interrupt, Dropped, "the user interrupted a turn; not for subagents; capped at 3 s [DOC]"),
    ],
    tools: &[
        ("Bash", "Bash"),
        ("apply_patch", "Edit"),
        ("apply_patch", "Write"),
        ("apply_patch", "MultiEdit"),
    ],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "Stop, PreCompact and PostCompact accept no context (the Stop card is not \
                 registered); hooks run only once reviewed and trusted (`/hooks`), and \
                 `codex exec` runs none without --dangerously-bypass-hook-trust; about 10,000 \
                 characters of hook text are kept.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: false })],
    probe: no_probe,
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
/// SessionStart / SubagentStart: context only. `hookSpecificOutput` itself
/// is kept or dropped by the layout according to `inner`, so it is not
/// listed among the top-level keys.
const STARTS: Shape = Shape::Strict {
    top: COMMON,
    inner: CONTEXT,
};
/// UserPromptSubmit / PostToolUse: context, and the block decision.
const DECIDES: Shape = Shape::Strict {
    top: DECIDING,
    inner: CONTEXT,
};
/// PreToolUse: context, and the permission decision.
const PRE_TOOL: Shape = Shape::Strict {
    top: COMMON,
    inner: &[
        "hookEventName",
        "additionalContext",
        "permissionDecision",
        "permissionDecisionReason",
    ],
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    if map.get("tool_name").and_then(Value::as_str) == Some("apply_patch") {
        apply_patch(map);
    }
}

/// Translates Codex's patch (read by [`crate::patch::files`]) into the
/// canonical Write (a first file that is added) or Edit of its first file,
/// with `file_path`, `content` / `old_string` / `new_string`, every touched
/// path in `file_paths` (a moved file under its destination), and the whole
/// patch kept in `patch`, through which the guards judge every file.
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
    // A move names the file before it anew, and what follows it is that
    // file's.
    let mut files: Vec<crate::patch::PatchFile> = Vec::new();
    for f in crate::patch::files(&patch) {
        match files.last_mut() {
            Some(last) if f.moved => {
                last.path = f.path;
                for (to, from) in [(&mut last.added, f.added), (&mut last.removed, f.removed)] {
                    if !from.is_empty() {
                        if !to.is_empty() {
                            to.push('\n');
                        }
                        to.push_str(&from);
                    }
                }
            }
            _ => files.push(f),
        }
    }
    let Some(first) = files.first() else { return };
    let mut input = Map::new();
    input.insert("file_path".into(), json!(first.path));
    let tool = if first.add {
        input.insert("content".into(), json!(first.added));
        "Write"
    } else {
        input.insert("old_string".into(), json!(first.removed));
        input.insert("new_string".into(), json!(first.added));
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

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: home,
        programs: &["codex"],
    },
    other_sources,
    notes,
    trust,
    plugin: Some(&PLUGIN),
    ..Config::claude_like(HarnessId::Codex, path, skills_dir)
};

/// The Codex plugin: `.codex-plugin/plugin.json`, `hooks/hooks.json` whose
/// commands start `"${CLAUDE_PLUGIN_ROOT}/bin/cuecard"` (Codex sets
/// `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA` for a plugin's hooks, per
/// the pinned 0.171.0), the skills, and the `.claude-plugin/marketplace.json`
/// Codex also reads, so `codex plugin marketplace add <dir>` then `codex
/// plugin add cuecard@cuecard` installs it.
static PLUGIN: PluginFormat = PluginFormat {
    manifest: ".codex-plugin/plugin.json",
    manifest_json: super::claude_code::plugin_manifest,
    hooks: "hooks/hooks.json",
    root: "${CLAUDE_PLUGIN_ROOT}",
    skills: Some("skills"),
    marketplace: Some((
        ".claude-plugin/marketplace.json",
        super::claude_code::marketplace,
    )),
    usage: "install it with `codex plugin marketplace add <dir>` then `codex plugin add cuecard@cuecard`",
};

fn home(r: &Roots) -> PathBuf {
    config::env_dir("CODEX_HOME", &r.home, ".codex")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        home(r).join("hooks.json"),
        r.project.join(".codex/hooks.json"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".agents/skills")
}

/// The TOML configs' inline hooks, and installed plugins' hook files
/// (`plugins/cache/<marketplace>/<plugin>/<version>/hooks/hooks.json`).
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let mut out = vec![
        home(r).join("config.toml"),
        r.project.join(".codex/config.toml"),
    ];
    let cache = home(r).join("plugins/cache");
    let dirs = |d: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(d)
            .into_iter()
            .flatten()
            .flatten()
            .take(200)
            .map(|e| e.path())
            .collect()
    };
    for market in dirs(&cache) {
        for plugin in dirs(&market) {
            for version in dirs(&plugin) {
                let p = version.join("hooks/hooks.json");
                if p.is_file() {
                    out.push(p);
                }
            }
        }
    }
    out
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    let mut out = vec![
        "Codex runs a hook only after you trust it: start `codex`, type `/hooks`, review the cuecard entries and \
         trust them (changing a hook's command or timeout asks again). Until then `codex exec` runs them silently not at all."
            .to_string(),
    ];
    if scope == Scope::Project {
        out.push(
            "project hooks load only in a trusted project (`[projects.\"<path>\"] trust_level = \"trusted\"` in ~/.codex/config.toml, \
             or accept the trust prompt)"
                .into(),
        );
    }
    out
}

/// Codex runs a hook only once the user trusted it in `/hooks`, which it
/// records in `config.toml` as `[hooks.state."<file>:<event>:<group>:<hook>"]`
/// with a `trusted_hash`; a project's hooks load only in a trusted project
/// (`[projects."<path>"] trust_level = "trusted"`).
fn trust(c: &config::TrustCheck) -> Vec<String> {
    let toml = config::read_small(&home(c.roots).join("config.toml")).unwrap_or_default();
    let mut out = Vec::new();
    let file = c.path.to_string_lossy();
    let untrusted: Vec<&str> = c
        .events
        .iter()
        .map(String::as_str)
        .filter(|e| {
            let key = format!("[hooks.state.\"{file}:{}:", snake(e));
            !toml.lines().any(|l| l.trim_start().starts_with(&key))
        })
        .collect();
    if !untrusted.is_empty() {
        out.push(format!(
            "Codex has not trusted cuecard's {} hooks yet (no `[hooks.state]` entry for them in {}): \
             start `codex`, type `/hooks` and trust them; `codex exec` runs untrusted hooks only \
             with --dangerously-bypass-hook-trust",
            untrusted.join(", "),
            home(c.roots).join("config.toml").display()
        ));
    }
    if c.scope == Scope::Project {
        let header = format!("[projects.\"{}\"]", c.roots.project.display());
        let trusted = toml
            .lines()
            .skip_while(|l| l.trim() != header)
            .skip(1)
            .take_while(|l| !l.trim_start().starts_with('['))
            .any(|l| l.split_whitespace().collect::<String>() == "trust_level=\"trusted\"");
        if !trusted {
            out.push(format!(
                "Codex loads this project's hooks only in a trusted project: accept the trust prompt, \
                 or add `{header}` with `trust_level = \"trusted\"` to {}",
                home(c.roots).join("config.toml").display()
            ));
        }
    }
    out
}

/// `SessionStart` → `session_start`: the event as `[hooks.state]` keys name it.
fn snake(event: &str) -> String {
    let mut out = String::new();
    for (i, ch) in event.chars().enumerate() {
        if ch.is_ascii_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.push(ch.to_ascii_lowercase());
        } else {
            out.push(ch);
        }
    }
    out
}
