//! Antigravity CLI (`agy`), Google's successor to Gemini CLI. Served from
//! its documentation and third-party measurements; not run here (no
//! package on a registry, and `agy --print` needs a Google login).
//!
//! Hooks live in a `hooks.json` whose top-level keys are hook *names*, each
//! holding events: `PreToolUse` and `PostToolUse` hold Claude Code's groups
//! (`{matcher, hooks: [handler]}`, the matcher a regex on agy's own tool
//! names), `PreInvocation`, `PostInvocation`, `Stop` and `SessionStart` a
//! plain list of handlers (`{type, command, timeout}`, the timeout a whole
//! number of seconds). cuecard's hook is the one named `hooks`, so the
//! file reads as Claude Code's `{"hooks": {...}}` and the one merge serves
//! it. Payloads are camelCase protobuf JSON (`conversationId`,
//! `workspacePaths`, `toolCall.{name, args}`, `transcriptPath`).
//!
//! Answers are read as protobuf messages: a file agy cannot parse is
//! dropped whole, silently, and so may be an answer with a key it does not
//! know, so each event gets only its own keys. `PreToolUse` reads a
//! `decision` (`allow`, `deny`, `ask`, `force_ask`) and `reason`; no
//! context field. Silence there has been read as a refusal (1.1.2), `{}`
//! and an empty decision are refusals (1.2.3), so every call there answers
//! a decision: `ask` when cuecard has no opinion (agy's own permission
//! flow, the user's "always allow" included), `force_ask` for an ask (a
//! person answers), `deny` for a deny; never `allow`. Context reaches the
//! model only through `injectSteps` (PreInvocation, SessionStart).
//! docs/harnesses.md lists each fact with its source.

use super::answer::Shape;
use super::config::{self, Config, Layout, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Antigravity,
    id: "antigravity",
    name: "Antigravity CLI",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Steps), "a flat handler list the binary binds (not in its hooks.md); `injectSteps` measured by third parties on 1.4.12 and 1.5.0 [3P]"),
        row!("PreInvocation" => UserPromptSubmit, Context(Shape::Steps), "before every model call, no prompt text; `injectSteps[].ephemeralMessage` reaches the model [DOC]"),
        row!("PreToolUse" => PreToolUse, Dropped, "`decision` + `reason`, no context field; every call needs a decision [DOC]"),
        row!("PostToolUse" => PostToolUse, Dropped, "its answer is `{}` only [DOC]"),
        row!("Stop" => Stop, Dropped, "`decision: continue` keeps the agent running [DOC]"),
    ],
    tools: &[
        ("run_command", "Bash"),
        ("write_to_file", "Write"),
        ("replace_file_content", "Edit"),
        ("multi_replace_file_content", "MultiEdit"),
        ("view_file", "Read"),
        ("grep_search", "Grep"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: false,
    loads_claude_hooks: false,
    translate,
    limitation: "no context reaches the model around a tool call (PreToolUse reads only a \
                 decision, PostToolUse's answer is `{}`), so tool advisories do not travel; \
                 context travels at session start and before each model call (`injectSteps`); \
                 with a policy set, every PreToolUse call answers a decision (`ask` when \
                 cuecard has none); served from documentation, not run here.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Verdict { neutral: "ask" })],
    probe,
};

/// The tool input keys agy's tools send and their canonical names:
/// `run_command`'s `CommandLine`, the file tools' `TargetFile` (and
/// `CodeContent`), `view_file`'s `AbsolutePath`.
const INPUT_KEYS: &[(&str, &str)] = &[
    ("CommandLine", "command"),
    ("TargetFile", "file_path"),
    ("AbsolutePath", "file_path"),
    ("CodeContent", "content"),
];

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::rename(map, "conversationId", "session_id");
    t::rename(map, "transcriptPath", "transcript_path");
    t::rename(map, "modelName", "model");
    // The hook runs in the folder of its hooks.json: the project is the
    // first workspace path.
    let first = map
        .get("workspacePaths")
        .and_then(Value::as_array)
        .and_then(|w| w.first())
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map(String::from);
    if let Some(dir) = first
        && map
            .get("cwd")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
    {
        map.insert("cwd".into(), Value::from(dir));
    }
    t::set_event(row, map);
    if let Some(Value::Object(mut call)) = map.remove("toolCall") {
        if let Some(name) = call.remove("name") {
            map.insert("tool_name".into(), name);
        }
        t::unstring(&mut call, "args");
        if let Some(Value::Object(mut args)) = call.remove("args") {
            unquote(&mut args);
            map.insert("tool_input".into(), Value::Object(args));
        }
    }
    t::map_tool(SPEC.tools, map);
    t::rename_input(map, INPUT_KEYS);
    if row.canonical == crate::event::Event::SessionStart {
        t::default_source(map, "startup");
    }
}

/// agy may send an argument JSON-encoded a second time (`"\"a.txt\""`):
/// such a value becomes the string it encodes.
fn unquote(args: &mut Map<String, Value>) {
    for v in args.values_mut() {
        let decoded = match v {
            Value::String(s) if s.len() >= 2 && s.starts_with('"') && s.ends_with('"') => {
                serde_json::from_str::<String>(s).ok()
            }
            _ => None,
        };
        if let Some(d) = decoded {
            *v = Value::from(d);
        }
    }
}

fn probe(o: &mut Map<String, Value>, project: &Path) {
    o.insert("conversationId".into(), json!("cuecard-doctor"));
    o.insert(
        "workspacePaths".into(),
        json!([project.to_string_lossy()]),
    );
}

/// The events whose handlers stand in a plain list (no groups, no matcher).
const FLAT: &[&str] = &["PreInvocation", "PostInvocation", "Stop", "SessionStart"];

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".gemini/antigravity-cli"),
        programs: &["agy"],
    },
    layout: Layout::Mixed { flat: FLAT },
    // `sh -c` on Unix, `cmd /c` on Windows (its hooks.md, as quoted by
    // third parties).
    form: config::Form::Shell {
        windows: config::Shell::Cmd,
    },
    notes,
    other_sources,
    check,
    ..Config::claude_like(HarnessId::Antigravity, path, no_skills)
};

/// `~/.gemini/config/hooks.json` (user; not `~/.gemini/antigravity-cli/`,
/// which agy's help names and its runtime ignores) or
/// `<project>/.agents/hooks.json`.
fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        r.home.join(".gemini/config/hooks.json"),
        r.project.join(".agents/hooks.json"),
    )
}

/// Not installed: agy reads skills from `.agents/skills`, Codex's folder,
/// and from `~/.gemini/config/skills`, unmeasured here.
fn no_skills(_: Scope, _: &Roots) -> Option<PathBuf> {
    None
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    let mut out = vec![
        "Antigravity CLI gets context at session start and before each model call; tool \
         advisories do not reach it (no context travels around a tool call there)"
            .to_string(),
    ];
    if scope == Scope::Project {
        out.push(
            "agy reads .agents/hooks.json only in a session whose workspace is this project \
             (`agy --print` runs without one)"
                .into(),
        );
    }
    out
}

/// The other hook files agy merges: the other customization roots of the
/// project (`.agent/`, `_agents/`, `_agent/`) and the plugins under the
/// user's and the project's roots.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = [".agent", "_agents", "_agent"]
        .iter()
        .map(|d| r.project.join(d).join("hooks.json"))
        .filter(|p| p.is_file())
        .collect();
    for root in [
        r.home.join(".gemini/config/plugins"),
        r.project.join(".agents/plugins"),
    ] {
        out.extend(config::plugin_hook_files(&root, 2, |_| true));
    }
    out
}

/// The events agy dispatches (keys match case-insensitively): the tool
/// events hold groups, the others a plain list of handlers.
const TOOL_EVENTS: &[&str] = &["PreToolUse", "PostToolUse"];

/// Reads a hooks.json as agy's loader does (measured on 1.1.25 by a third
/// party; docs/harnesses.md): what makes it drop the whole file is an
/// error here. The root is an object of named hooks; each hook an object
/// whose `enabled` is a boolean and whose events are lists; a tool
/// event's groups have a string `matcher` and a list of handler objects
/// in `hooks`; a handler's `type` is `command` or `prompt` (or absent), a
/// command handler carries no `prompt` or `model` and a prompt handler no
/// `command`, and `timeout` is a whole number within 32 bits. Keys agy
/// ignores (an unknown event, an unknown field) are not errors.
pub fn check(doc: &Value) -> Result<(), String> {
    let root = doc
        .as_object()
        .ok_or("its top level is not an object of named hooks")?;
    for (name, hook) in root {
        let hook = hook
            .as_object()
            .ok_or_else(|| format!("hook `{name}` is not an object"))?;
        for (key, v) in hook {
            let at = format!("`{name}.{key}`");
            if key.eq_ignore_ascii_case("enabled") {
                if !v.is_boolean() && !v.is_null() {
                    return Err(format!("{at} is not a boolean"));
                }
                continue;
            }
            if v.is_null() {
                continue;
            }
            // Go's decoder: an unknown key is dropped whatever it holds;
            // a known one binds case-insensitively.
            let grouped = TOOL_EVENTS.iter().any(|e| e.eq_ignore_ascii_case(key));
            let known = grouped || FLAT.iter().any(|e| e.eq_ignore_ascii_case(key));
            if !known {
                continue;
            }
            let list = v.as_array().ok_or_else(|| format!("{at} is not a list"))?;
            for (i, item) in list.iter().enumerate() {
                let at = format!("{at}[{i}]");
                let item = item
                    .as_object()
                    .ok_or_else(|| format!("{at} is not an object"))?;
                if !grouped {
                    handler(item, &at)?;
                    continue;
                }
                if let Some(m) = item.get("matcher")
                    && !m.is_string()
                    && !m.is_null()
                {
                    return Err(format!("{at}.matcher is not a string"));
                }
                match item.get("hooks") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(hs)) => {
                        for (j, h) in hs.iter().enumerate() {
                            let at = format!("{at}.hooks[{j}]");
                            let h = h
                                .as_object()
                                .ok_or_else(|| format!("{at} is not an object"))?;
                            handler(h, &at)?;
                        }
                    }
                    Some(_) => return Err(format!("{at}.hooks is not a list")),
                }
            }
        }
    }
    Ok(())
}

/// One handler, as [`check`] reads it.
fn handler(h: &Map<String, Value>, at: &str) -> Result<(), String> {
    for k in ["command", "prompt", "model"] {
        if let Some(v) = h.get(k)
            && !v.is_string()
            && !v.is_null()
        {
            return Err(format!("{at}.{k} is not a string"));
        }
    }
    let has = |k: &str| h.get(k).is_some_and(|v| !v.is_null());
    match h.get("type").and_then(Value::as_str) {
        None | Some("") | Some("command") => {
            if has("prompt") || has("model") {
                return Err(format!("{at} is a command hook with `prompt` or `model`"));
            }
        }
        Some("prompt") => {
            if has("command") {
                return Err(format!("{at} is a prompt hook with `command`"));
            }
        }
        Some(other) => return Err(format!("{at}.type {other:?} is neither command nor prompt")),
    }
    if let Some(t) = h.get("type")
        && !t.is_string()
        && !t.is_null()
    {
        return Err(format!("{at}.type is not a string"));
    }
    if let Some(t) = h.get("timeout")
        && !t.is_null()
        && t.as_i64().is_none_or(|n| i32::try_from(n).is_err())
    {
        return Err(format!("{at}.timeout is not a whole number within 32 bits"));
    }
    Ok(())
}
