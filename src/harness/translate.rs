//! Small helpers the contracts use to bring a harness's payload into the
//! canonical (Claude Code) shape. A payload that is already canonical passes
//! unchanged. The harness's own keys move only where the canonical key is
//! absent, except inside a tool's input, where the native key wins: the
//! model writes those keys, and the tool runs on the native one.

use super::EventRow;
use serde_json::{Map, Value};

/// Moves `from` to `to` unless `to` is already there.
pub fn rename(map: &mut Map<String, Value>, from: &str, to: &str) {
    if map.contains_key(to) {
        return;
    }
    if let Some(v) = map.remove(from) {
        map.insert(to.to_string(), v);
    }
}

/// Sets `hook_event_name` to the canonical event.
pub fn set_event(row: &EventRow, map: &mut Map<String, Value>) {
    map.insert("hook_event_name".into(), Value::from(row.canonical.name()));
}

/// Replaces a native `tool_name` with its canonical name, when it has one.
pub fn map_tool(tools: &[(&str, &str)], map: &mut Map<String, Value>) {
    let Some(name) = map.get("tool_name").and_then(Value::as_str) else {
        return;
    };
    let canonical = canonical_tool(tools, name);
    if canonical != name {
        map.insert("tool_name".into(), Value::from(canonical.to_string()));
    }
}

/// The canonical name `tools` gives a native tool name (the first pair
/// that names it); a name not listed is returned as it is.
pub fn canonical_tool<'n>(tools: &[(&str, &'n str)], native: &'n str) -> &'n str {
    tools
        .iter()
        .find(|(n, _)| *n == native)
        .map_or(native, |&(_, c)| c)
}

/// A value given as a JSON string holding an object becomes the object.
pub fn unstring(map: &mut Map<String, Value>, key: &str) {
    let parsed = match map.get(key) {
        Some(Value::String(s)) if s.len() <= crate::payload::MAX_PAYLOAD_BYTES => {
            serde_json::from_str::<Value>(s)
                .ok()
                .filter(Value::is_object)
        }
        _ => None,
    };
    if let Some(v) = parsed {
        map.insert(key.to_string(), v);
    }
}

/// Moves `from` to `to`, over a `to` already there. For a tool's input,
/// whose keys the model writes: the harness runs the tool on its native
/// key, so a canonical-named decoy beside it must not be what the guards
/// judge.
pub fn rename_over(map: &mut Map<String, Value>, from: &str, to: &str) {
    if let Some(v) = map.remove(from) {
        map.insert(to.to_string(), v);
    }
}

/// Renames keys inside `tool_input` (an object); the native key wins over
/// a canonical one beside it ([`rename_over`]).
pub fn rename_input(map: &mut Map<String, Value>, pairs: &[(&str, &str)]) {
    if let Some(Value::Object(input)) = map.get_mut("tool_input") {
        for (from, to) in pairs {
            rename_over(input, from, to);
        }
    }
}

/// The text-editor tool's input keys and their canonical names, as Copilot's
/// and Kiro's file tools send them (for [`rename_input`]).
pub const EDITOR_KEYS: &[(&str, &str)] = &[
    ("path", "file_path"),
    ("file_text", "content"),
    ("old_str", "old_string"),
    ("new_str", "new_string"),
];

/// Sets `source` when the payload has none.
pub fn default_source(map: &mut Map<String, Value>, source: &str) {
    if !map.get("source").is_some_and(Value::is_string) {
        map.insert("source".into(), Value::from(source));
    }
}

/// Maps a native `source` value to the canonical one.
pub fn map_source(map: &mut Map<String, Value>, pairs: &[(&str, &str)]) {
    let Some(s) = map.get("source").and_then(Value::as_str) else {
        return;
    };
    if let Some((_, c)) = pairs.iter().find(|(n, _)| *n == s) {
        map.insert("source".into(), Value::from(*c));
    }
}

/// Sets `cwd` from the first of `vars` that is set, when the payload has none.
pub fn cwd_from_env(map: &mut Map<String, Value>, vars: &[&str]) {
    if map
        .get("cwd")
        .and_then(Value::as_str)
        .is_some_and(|s| !s.is_empty())
    {
        return;
    }
    for v in vars {
        if let Some(d) = std::env::var(v).ok().filter(|d| !d.is_empty()) {
            map.insert("cwd".into(), Value::from(d));
            return;
        }
    }
}

/// Names where the harness states its model's window (`model_config`, read
/// by the compaction guard once per session and model): the project's
/// file `project` under the payload's `cwd` (when absolute), then the
/// user's `user`. No file is read here.
pub fn model_config(
    map: &mut Map<String, Value>,
    format: &str,
    project: &str,
    user: Option<std::path::PathBuf>,
) {
    let mut files = Vec::new();
    if let Some(cwd) = map
        .get("cwd")
        .and_then(Value::as_str)
        .map(std::path::Path::new)
        .filter(|c| c.is_absolute())
    {
        files.push(Value::from(
            cwd.join(project).to_string_lossy().into_owned(),
        ));
    }
    if let Some(u) = user {
        files.push(Value::from(u.to_string_lossy().into_owned()));
    }
    map.insert(
        "model_config".into(),
        serde_json::json!({ "format": format, "files": files }),
    );
}

/// The user's home: `$HOME`, else `%USERPROFILE%` (Windows), when set.
pub fn home() -> Option<std::path::PathBuf> {
    ["HOME", "USERPROFILE"]
        .iter()
        .find_map(|v| std::env::var_os(v).filter(|h| !h.is_empty()))
        .map(std::path::PathBuf::from)
}
