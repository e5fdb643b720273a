//! Cline CLI (npm `cline` 3.x, the native CLI on the Cline SDK; measured on
//! 3.0.65 against the mock, notes in docs/decisions.md). Its hooks are files
//! named after the event (`PreToolUse`, `PostToolUse`, `TaskStart`, ...,
//! any case, optional extension), found in `<workspace>/.clinerules/hooks/`,
//! `<workspace>/.cline/hooks/`, `$CLINE_DIR/hooks/` (`~/.cline/hooks/`) and
//! `~/Documents/Cline/Hooks/`; every match in every folder runs. A file
//! without a shebang or a known extension is run as `bash <file>`, so the
//! registration is a small script cuecard owns that `exec`s cuecard.
//!
//! The payload is Cline's own: the event in `hookName` (`tool_call`,
//! `tool_result`, ...), the call in `tool_call{id, name, input}` /
//! `tool_result{id, name, input, output}`, the session in
//! `sessionContext.rootSessionId` (`taskId` is the conversation), the
//! workspace in `workspaceRoots` (there is no `cwd`). Its tools are
//! `run_commands` (`commands: string[]`), `editor` (`path`, `new_text`,
//! `old_text`, `insert_line`), `read_files` (`files[].path`),
//! `search_codebase`, `fetch_web_content`, `ask_question`.
//!
//! Only PreToolUse and PostToolUse are waited for; every other event is
//! spawned detached and its stdout never read (measured). Their stdout must
//! be one JSON object; `context` reaches the model in one extra user message
//! after the turn's tool results (measured), PreToolUse's in the same
//! message as PostToolUse's, after the tool ran. So the PreToolUse cards
//! ride on PostToolUse: one process per call, the same place in front of
//! the model. The exit code is ignored. `cancel: true` aborts the whole run
//! and shows its reason to no one (measured), so cuecard never sends it: a
//! finding on Cline stays advice (docs/decisions.md).

use super::answer::Shape;
use super::config::{self, Config, OwnedFile, Roots, Scope};
use super::table::{Delivery::*, EventRow, MatcherStyle, Spec, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

/// The one shape Cline reads: a top-level `context`.
const CONTEXT: Shape = Shape::Flat {
    field: "context",
    decision: false,
};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Cline,
    id: "cline",
    name: "Cline CLI",
    events: &[
        row!("TaskStart" => SessionStart, Dropped, "run detached, stdout never read [RIG]"),
        row!("TaskResume" => SessionStart, Dropped, "run detached, stdout never read (its source) [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Dropped, "run detached; not run for the user's prompt in 3.0.65 [RIG]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "context reaches the model only after the tool ran, beside PostToolUse's [RIG]"),
        row!("PostToolUse" => PostToolUse, Context(CONTEXT), "`context` in a user message after the tool result [RIG]"),
        row!("TaskComplete" => Stop, Dropped, "run detached, stdout never read [RIG]"),
        row!("TaskError" => StopFailure, Dropped, "run detached (its source) [DOC]"),
        row!("TaskCancel" => Interrupt, Dropped, "run detached (its source) [DOC]"),
        row!("SessionShutdown" => SessionEnd, Dropped, "run detached [RIG]"),
    ],
    tools: &TOOLS,
    matchers: MatcherStyle::Unmatched,
    source_matcher: false,
    loads_claude_hooks: false,
    translate,
    limitation: "only PreToolUse and PostToolUse are read, and both reach the model after the \
                 tool ran: no session-start or prompt cards; no decision is honoured (`cancel` \
                 ends the whole run and tells no one why), so findings stay advice.",
    config: Some(&CONFIG),
    decides: &[],
    probe,
};

/// Cline's tool names and the canonical ones.
static TOOLS: [(&str, &str); 8] = [
    ("run_commands", "Bash"),
    ("editor", "Write"),
    ("editor", "Edit"),
    ("read_files", "Read"),
    ("search_codebase", "Grep"),
    ("fetch_web_content", "WebFetch"),
    ("ask_question", "AskUserQuestion"),
    ("apply_patch", "Edit"),
];

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    let session = map
        .get("sessionContext")
        .and_then(|c| c.get("rootSessionId"))
        .or_else(|| map.get("taskId"))
        .filter(|v| v.is_string())
        .cloned();
    if let Some(s) = session
        && !map.contains_key("session_id")
    {
        map.insert("session_id".into(), s);
    }
    let root = map
        .get("workspaceRoots")
        .and_then(|r| r.get(0))
        .or_else(|| map.get("workspaceInfo").and_then(|w| w.get("rootPath")))
        .filter(|v| v.is_string())
        .cloned();
    if let Some(r) = root
        && !map.get("cwd").is_some_and(Value::is_string)
    {
        map.insert("cwd".into(), r);
    }
    let call = ["tool_result", "tool_call"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_object))
        .cloned();
    if let Some(call) = call {
        for (from, to) in [
            ("name", "tool_name"),
            ("input", "tool_input"),
            ("id", "tool_use_id"),
        ] {
            if let Some(v) = call.get(from)
                && !map.contains_key(to)
            {
                map.insert(to.into(), v.clone());
            }
        }
        if let Some(out) = call.get("output").or_else(|| call.get("error"))
            && !map.contains_key("tool_response")
        {
            map.insert("tool_response".into(), out.clone());
        }
    }
    match map.get("tool_name").and_then(Value::as_str) {
        Some("run_commands") => commands(map),
        Some("editor") => editor(map),
        Some("read_files") => read_files(map),
        Some("search_codebase") => first_of(map, "queries", None, "pattern"),
        Some("fetch_web_content") => first_of(map, "requests", Some("url"), "url"),
        Some("ask_question") => question(map),
        Some("apply_patch") => super::codex::apply_patch(map),
        _ => {}
    }
    t::map_tool(&TOOLS, map);
    if row.canonical == Event::SessionStart {
        let source = if row.native == "TaskResume" {
            "resume"
        } else {
            "startup"
        };
        t::default_source(map, source);
    }
}

fn input(map: &mut Map<String, Value>) -> Option<&mut Map<String, Value>> {
    map.get_mut("tool_input").and_then(Value::as_object_mut)
}

/// `commands: [..]` becomes one canonical `command`. One command stays as
/// it is. Several are each handed to their own `bash -c '...'` (Cline runs
/// each on its own), so the shell reader judges every one by itself and an
/// unclosed quote or heredoc in one cannot swallow the next.
fn commands(map: &mut Map<String, Value>) {
    let Some(i) = input(map) else { return };
    // Cline runs `commands`; a `command` beside it is the model's decoy.
    let list: Vec<&str> = match i.get("commands") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        Some(Value::String(s)) => vec![s.as_str()],
        _ => return,
    };
    let command = match list.as_slice() {
        [] => return,
        [one] => (*one).to_string(),
        many => many
            .iter()
            .map(|c| format!("bash -c '{}'", c.replace('\'', r"'\''")))
            .collect::<Vec<_>>()
            .join("\n"),
    };
    i.insert("command".into(), json!(command));
}

/// `editor`: with `old_text` an Edit, with `insert_line` an Edit that adds
/// `new_text`, else a Write of the whole file.
fn editor(map: &mut Map<String, Value>) {
    let Some(i) = input(map) else { return };
    t::rename_over(i, "path", "file_path");
    let new = i.get("new_text").cloned().unwrap_or(json!(""));
    let tool = if let Some(old) = i.get("old_text").filter(|v| v.is_string()).cloned() {
        i.insert("old_string".into(), old);
        i.insert("new_string".into(), new);
        "Edit"
    } else if i.get("insert_line").is_some_and(|v| !v.is_null()) {
        i.insert("old_string".into(), json!(""));
        i.insert("new_string".into(), new);
        "Edit"
    } else {
        i.insert("content".into(), new);
        "Write"
    };
    map.insert("tool_name".into(), json!(tool));
}

/// `read_files`: the first file in `file_path`, every one in `file_paths`.
fn read_files(map: &mut Map<String, Value>) {
    let Some(i) = input(map) else { return };
    let paths: Vec<Value> = match i.get("files") {
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(|f| f.get("path").or(Some(f)).filter(|p| p.is_string()).cloned())
            .collect(),
        _ => return,
    };
    if let Some(first) = paths.first() {
        i.insert("file_path".into(), first.clone());
    }
    i.insert("file_paths".into(), Value::Array(paths));
}

/// The first element of the list `list` (or its `key`) as the canonical
/// `to`, unless `to` is there.
fn first_of(map: &mut Map<String, Value>, list: &str, key: Option<&str>, to: &str) {
    let Some(i) = input(map) else { return };
    let first = i
        .get(list)
        .and_then(|l| l.get(0))
        .and_then(|f| key.map_or(Some(f), |k| f.get(k)))
        .filter(|v| v.is_string())
        .cloned();
    if let Some(v) = first {
        i.entry(to).or_insert(v);
    }
}

/// `ask_question{question, options}` as AskUserQuestion's `questions`.
fn question(map: &mut Map<String, Value>) {
    let Some(i) = input(map) else { return };
    if i.contains_key("questions") {
        return;
    }
    let q = json!([{
        "question": i.get("question").cloned().unwrap_or(json!("")),
        "options": i.get("options").cloned().unwrap_or(json!([])),
    }]);
    i.insert("questions".into(), q);
}

/// The keys a real Cline payload carries, for `doctor`'s probe.
fn probe(o: &mut Map<String, Value>, project: &Path) {
    o.insert("taskId".into(), json!("cuecard-doctor"));
    o.insert("workspaceRoots".into(), json!([project.to_string_lossy()]));
    o.insert("clineVersion".into(), json!(""));
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: cline_dir,
        programs: &["cline"],
    },
    harness: HarnessId::Cline,
    layout: config::Layout::Flat,
    // Cline runs the file with `bash` on every host (no shebang, no
    // extension): the command in it is a POSIX one, Git Bash's on Windows.
    form: config::Form::Shell {
        windows: config::Shell::Posix,
    },
    typed: false,
    // The file has no place for one; Cline's own 120 s applies.
    timeout: None,
    path,
    required: config::nothing_required,
    skeleton: config::empty_object,
    skills_dir: no_skills,
    other_sources,
    notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "",
    trust: config::no_trust_check,
    legacy: None,
    plugin: None,
    owned: Some(&HOOK_FILE),
    check: config::no_check,
};

/// The one event cuecard registers: Cline reads no other hook's output,
/// and PreToolUse's cards ride on it. The file is named after it.
const HOOK_EVENT: &str = "PostToolUse";

/// The hook file: a bash script that `exec`s cuecard, with the entries on
/// its `# cuecard-entries:` line.
static HOOK_FILE: OwnedFile = OwnedFile {
    what: "Cline hook",
    comment: "#",
    render: hook_script,
    entries_line: ENTRIES_LINE,
};

const ENTRIES_LINE: &str = "# cuecard-entries: ";

/// The script's body: what it is, the entries, and the `exec` of the one
/// registered command (none: it exits quietly, which Cline reads as no
/// answer).
fn hook_script(entries: &str) -> String {
    let command = serde_json::from_str::<Value>(entries).ok().and_then(|doc| {
        doc.get("hooks")?
            .get(HOOK_EVENT)?
            .as_array()?
            .iter()
            .find_map(|h| h.get("command").and_then(Value::as_str).map(str::to_string))
    });
    let run = command.map_or_else(|| "exit 0".to_string(), |c| format!("exec {c}"));
    format!(
        "# Cline runs this file (no shebang) as `bash <file>`, payload on stdin; it reads one JSON\n\
         # object on stdout. cuecard answers on {HOOK_EVENT} only (Cline reads no other hook's output).\n\
         {ENTRIES_LINE}{entries}\n\
         {run}\n"
    )
}

/// Cline's user folder: `$CLINE_DIR` when set, else `~/.cline`.
fn cline_dir(r: &Roots) -> PathBuf {
    config::env_dir("CLINE_DIR", &r.home, ".cline")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        cline_dir(r).join("hooks").join(HOOK_EVENT),
        r.project.join(".clinerules/hooks").join(HOOK_EVENT),
    )
}

/// The other folders Cline reads hook files from (every one runs), for
/// the double-registration check.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![
        r.project.join(".cline/hooks").join(HOOK_EVENT),
        r.home.join("Documents/Cline/Hooks").join(HOOK_EVENT),
    ]
}

/// cuecard installs no skills for Cline (its CLI offers no skills tool in
/// act mode, measured).
fn no_skills(_: Scope, _: &Roots) -> Option<PathBuf> {
    None
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Cline reads hook files when a task starts: tasks already running do not run this one"
            .into(),
        "Cline shows tool advisories to the model after the tool ran; it reads no session-start or prompt cards, and no decision (findings stay advice)"
            .into(),
    ]
}
