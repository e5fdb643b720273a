//! Whether a write to a manifest changes what it depends on: its dependency
//! sets, its sources and registries. Compared before and after for the
//! manifests whose dependency parts can be read without a full parser
//! (`package.json`, `pyproject.toml`, `Cargo.toml`); for any other manifest,
//! and whenever a side cannot be read, the write counts as a change.
//!
//! The file before the write is read with a size bound, without following a
//! symlink; a file that does not exist yet is a new manifest, a change.

use crate::context::Ctx;
use crate::target::{Target, ToolKind};
use serde_json::Value;

/// The most of a manifest read.
const MAX_MANIFEST: u64 = 256 * 1024;

/// Keys of `package.json` that declare dependencies or where they come from.
const PACKAGE_JSON_KEYS: &[&str] = &[
    "dependencies",
    "devDependencies",
    "peerDependencies",
    "optionalDependencies",
    "bundleDependencies",
    "bundledDependencies",
    "overrides",
    "resolutions",
    "pnpm",
    "workspaces",
    "publishConfig",
    "packageManager",
];

/// TOML tables (by header, `*` a wildcard part) whose every line counts.
const TOML_TABLES: &[&str] = &[
    // Cargo
    "dependencies",
    "dev-dependencies",
    "build-dependencies",
    "target.*",
    "workspace.dependencies",
    "patch.*",
    "replace",
    "registries.*",
    "source.*",
    // Python
    "project.optional-dependencies",
    "dependency-groups",
    "build-system",
    "tool.poetry.dependencies",
    "tool.poetry.dev-dependencies",
    "tool.poetry.group.*",
    "tool.poetry.source",
    "tool.uv",
    "tool.uv.sources",
    "tool.uv.index",
    "tool.uv.pip",
    "tool.pdm.dev-dependencies",
    "tool.pdm.source",
    "tool.hatch.envs.*",
];

/// Keys inside other tables that count (`[project] dependencies = [...]`).
const TOML_KEYS: &[(&str, &str)] = &[
    ("project", "dependencies"),
    ("workspace", "members"),
    ("package", "links"),
];

/// Whether the write to `t` (a manifest, not a lockfile) may change a
/// dependency. `false` only when both sides were read and agree, before
/// the tool ran.
pub fn changes_dependencies(ctx: &Ctx, t: &Target) -> bool {
    let name = t.file_name();
    if !matches!(name, "package.json" | "pyproject.toml" | "Cargo.toml") {
        return true;
    }
    // The file on disk is the "before" only until the tool runs: after it
    // (a card deferred there, as on Qwen Code and Gemini CLI) it already
    // holds the new content, and nothing can be compared.
    if ctx.tool_has_run() {
        return true;
    }
    let Some(before) = read_bounded(&t.path) else {
        return true;
    };
    let Some(after) = content_after(ctx, &before) else {
        return true;
    };
    match (view(name, &before), view(name, &after)) {
        (Some(a), Some(b)) => a != b,
        _ => true,
    }
}

fn read_bounded(path: &std::path::Path) -> Option<String> {
    crate::fsutil::read_text_whole(path, false, MAX_MANIFEST)
}

/// The file's content after the call: a Write's `content`, or the file with
/// an Edit's (or each MultiEdit edit's) replacement made.
fn content_after(ctx: &Ctx, before: &str) -> Option<String> {
    let p = ctx.payload;
    match ctx.tool() {
        ToolKind::Write => p.input_str("content").map(str::to_string),
        ToolKind::Edit => {
            let input = p.tool_input()?;
            replace(before, input)
        }
        ToolKind::MultiEdit => {
            let edits = p.tool_input()?.get("edits")?.as_array()?;
            let mut text = before.to_string();
            for e in edits {
                text = replace(&text, e.as_object()?)?;
            }
            Some(text)
        }
        _ => None,
    }
}

fn replace(text: &str, edit: &serde_json::Map<String, Value>) -> Option<String> {
    let old = edit.get("old_string")?.as_str()?;
    let new = edit.get("new_string")?.as_str()?;
    if old.is_empty() || !text.contains(old) {
        return None;
    }
    let all = edit.get("replace_all").and_then(Value::as_bool) == Some(true);
    Some(if all {
        text.replace(old, new)
    } else {
        text.replacen(old, new, 1)
    })
}

/// The dependency parts of a manifest, in a form that compares equal when
/// they are the same.
fn view(name: &str, text: &str) -> Option<String> {
    if name == "package.json" {
        let v: Value = serde_json::from_str(text).ok()?;
        let o = v.as_object()?;
        let parts: Vec<String> = PACKAGE_JSON_KEYS
            .iter()
            .map(|k| format!("{k}={}", o.get(*k).unwrap_or(&Value::Null)))
            .collect();
        return Some(parts.join("\n"));
    }
    Some(toml_view(text))
}

/// The lines of a TOML file that declare dependencies or their sources, by
/// table; blank lines and comments left out.
fn toml_view(text: &str) -> String {
    let mut out = String::new();
    let mut table = String::new();
    // Inside a counted key's multi-line value: the bracket depth left.
    let mut open = 0i32;
    for line in text.lines() {
        let t = line.split(" #").next().unwrap_or(line).trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if open == 0 && t.starts_with('[') {
            table = t
                .trim_matches(|c| c == '[' || c == ']')
                .replace([' ', '"', '\''], "");
            if table_counts(&table) {
                out.push_str(t);
                out.push('\n');
            }
            continue;
        }
        let counted = table_counts(&table)
            || open > 0
            || t.split_once('=').is_some_and(|(k, _)| {
                let k = k.trim().trim_matches('"');
                TOML_KEYS.iter().any(|(tb, key)| *tb == table && *key == k)
            });
        if counted {
            if open > 0 || t.contains('=') {
                open += t.matches('[').count() as i32 - t.matches(']').count() as i32;
                open = open.max(0);
            }
            out.push_str(&table);
            out.push_str(": ");
            out.push_str(t);
            out.push('\n');
        }
    }
    out
}

/// Whether every line of the TOML table `header` counts.
fn table_counts(header: &str) -> bool {
    TOML_TABLES.iter().any(|pattern| {
        let mut h = header.split('.');
        let mut p = pattern.split('.');
        loop {
            match (p.next(), h.next()) {
                (Some("*"), Some(_)) => return true,
                (Some(a), Some(b)) if a == b => {}
                (None, None) => return true,
                // `target.x.dependencies` under `target.*`, and a table's
                // sub-tables (`dependencies.serde`).
                (None, Some(_)) => return true,
                _ => return false,
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn toml_views_see_dependencies_only() {
        let a = "[package]\nname = \"x\"\nversion = \"0.1.0\"\n\n[dependencies]\nserde = \"1\"\n";
        let b = "[package]\nname = \"x\"\nversion = \"0.2.0\"\ndescription = \"d\"\n\n[dependencies]\nserde = \"1\"\n";
        let c = "[package]\nname = \"x\"\n\n[dependencies]\nserde = \"1\"\nregex = \"1\"\n";
        assert_eq!(toml_view(a), toml_view(b));
        assert_ne!(toml_view(a), toml_view(c));
        let p1 = "[project]\nname = \"x\"\nversion = \"1\"\ndependencies = [\n  \"requests\",\n]\n\n[tool.ruff]\nline-length = 100\n";
        let p2 = "[project]\nname = \"x\"\nversion = \"2\"\ndependencies = [\n  \"requests\",\n]\n\n[tool.ruff]\nline-length = 120\n";
        let p3 = "[project]\nname = \"x\"\nversion = \"1\"\ndependencies = [\n  \"requests\",\n  \"httpx\",\n]\n";
        assert_eq!(toml_view(p1), toml_view(p2));
        assert_ne!(toml_view(p1), toml_view(p3));
        let s1 = "[tool.uv.sources]\nfoo = { git = \"https://a\" }\n";
        let s2 = "[tool.uv.sources]\nfoo = { git = \"https://b\" }\n";
        assert_ne!(toml_view(s1), toml_view(s2));
    }

    #[test]
    fn package_json_views() {
        let a = r#"{"name":"x","scripts":{"test":"jest"},"dependencies":{"a":"1"}}"#;
        let b = r#"{"name":"y","scripts":{"test":"vitest"},"dependencies":{"a":"1"}}"#;
        let c = r#"{"name":"x","dependencies":{"a":"2"}}"#;
        assert_eq!(view("package.json", a), view("package.json", b));
        assert_ne!(view("package.json", a), view("package.json", c));
        assert_eq!(view("package.json", "{not json"), None);
    }
}
