//! What a tool call targets: the files a write lands on, the content it
//! writes, the shell command it runs, and where a path named in a command
//! points. Read from the canonical (Claude Code) payload through [`Call`].
//!
//! Paths are resolved lexically (no file system access, symlinks are not
//! followed): `~`, `$HOME`/`${HOME}` (and other leading `$VAR`s that are set),
//! `%USERPROFILE%` and `$env:USERPROFILE` are expanded, relative paths are
//! taken from the payload's `cwd`, Windows backslashes become `/`, and `.`
//! and `..` are folded.

mod call;
mod make;
mod script;
mod tool;

use crate::shell::{self, SimpleCommand};
pub use call::{Call, cwd_of, find_project_root, project_root_here};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
pub use tool::ToolKind;

/// A file a call targets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// Absolute, lexically normalised, with `/` separators.
    pub path: PathBuf,
    /// Relative to the project root when inside it, else as given.
    pub shown: String,
    /// Whether `path` is under the project root.
    pub inside_project: bool,
}

impl Target {
    /// The file name (last component), or "" for a root.
    pub fn file_name(&self) -> &str {
        self.path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default()
    }

    /// The normalised path as a `/`-separated string.
    pub fn as_str(&self) -> &str {
        self.path.to_str().unwrap_or_default()
    }
}

/// The paths a call names, relative to the project root when inside it.
pub fn call_paths(ctx: &Call) -> Vec<String> {
    let mut out: Vec<String> = ctx
        .write_targets()
        .iter()
        .map(|t| t.shown.clone())
        .collect();
    let written = written_path_input(ctx);
    if let Some(input) = ctx.payload.tool_input() {
        for key in ["file_path", "notebook_path", "path"] {
            if let Some(p) = input.get(key).and_then(|v| v.as_str())
                && written != Some(p)
            {
                let t = target_for(ctx, p).shown;
                if !out.contains(&t) {
                    out.push(t);
                }
            }
        }
    }
    out
}

/// The path a file-writing tool's input names (as given), for the tools
/// that name one ([`ToolKind::writes_named_file`]).
pub fn written_path_input<'a>(ctx: &Call<'a>) -> Option<&'a str> {
    let tool = ctx.tool();
    if !tool.writes_named_file() {
        return None;
    }
    let key = if tool == ToolKind::NotebookEdit {
        "notebook_path"
    } else {
        "file_path"
    };
    ctx.payload
        .input_str(key)
        .or_else(|| ctx.payload.input_str("file_path"))
        .filter(|p| !p.trim().is_empty())
}

/// The files a Write/Edit/MultiEdit/NotebookEdit or an `apply_patch` writes
/// (added, updated, deleted or moved to).
pub fn write_targets(ctx: &Call) -> Vec<Target> {
    // A patch's files, each once (a set: a patch can name thousands).
    let mut out: Vec<Target> = Vec::new();
    if let Some(patch) = patch_of(ctx) {
        let mut seen: BTreeSet<PathBuf> = BTreeSet::new();
        for f in crate::patch::files(patch) {
            let t = target_for(ctx, f.path);
            if seen.insert(t.path.clone()) {
                out.push(t);
            }
        }
    }
    if let Some(p) = written_path_input(ctx) {
        let t = target_for(ctx, p);
        if !out.iter().any(|o| o.path == t.path) {
            out.push(t);
        }
    }
    out
}

/// The content each written file receives: Write `content`, Edit
/// `new_string`, MultiEdit `edits[].new_string` (joined by newlines),
/// NotebookEdit `new_source`, and the added (`+`) lines of each file of a
/// patch (an `apply_patch`, or a Write/Edit a contract translated from one,
/// which carries the whole patch: every file of it is judged, not only the
/// first).
pub fn written_content(ctx: &Call) -> Vec<(Target, String)> {
    if let Some(patch) = patch_of(ctx) {
        return patch_texts(ctx, patch, |f| f.added);
    }
    let text = match ctx.tool() {
        ToolKind::Write => ctx.payload.input_str("content").map(str::to_string),
        ToolKind::Edit => ctx.payload.input_str("new_string").map(str::to_string),
        ToolKind::NotebookEdit => ctx.payload.input_str("new_source").map(str::to_string),
        ToolKind::MultiEdit => edits(ctx, "new_string"),
        _ => None,
    };
    match (text, ctx.write_targets().first().cloned()) {
        (Some(text), Some(t)) if !text.is_empty() => vec![(t, text)],
        _ => Vec::new(),
    }
}

/// The text each edited file loses: Edit `old_string`, MultiEdit
/// `edits[].old_string` (joined), and the removed (`-`) lines of each file
/// of a patch. A guard uses it to tell what an edit introduces from what was
/// already there.
pub fn replaced_content(ctx: &Call) -> Vec<(Target, String)> {
    if let Some(patch) = patch_of(ctx) {
        return patch_texts(ctx, patch, |f| f.removed);
    }
    let text = match ctx.tool() {
        ToolKind::Edit => ctx.payload.input_str("old_string").map(str::to_string),
        ToolKind::MultiEdit => edits(ctx, "old_string"),
        _ => None,
    };
    match (text, ctx.write_targets().first().cloned()) {
        (Some(text), Some(t)) if !text.is_empty() => vec![(t, text)],
        _ => Vec::new(),
    }
}

/// A MultiEdit's `edits[].<key>`, joined by newlines.
fn edits(ctx: &Call, key: &str) -> Option<String> {
    let edits = ctx.payload.tool_input()?.get("edits")?.as_array()?;
    Some(
        edits
            .iter()
            .filter_map(|e| e.get(key).and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Per target, one text of each patch file (`pick`), files of the same
/// target joined by newlines; in the patch's order, linear in its size.
fn patch_texts(
    ctx: &Call,
    patch: &str,
    pick: impl Fn(crate::patch::PatchFile) -> String,
) -> Vec<(Target, String)> {
    let mut out: Vec<(Target, String)> = Vec::new();
    let mut index: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for f in crate::patch::files(patch) {
        let path = f.path;
        let text = pick(f);
        if text.is_empty() {
            continue;
        }
        let t = target_for(ctx, path);
        match index.get(&t.path) {
            Some(&i) => {
                out[i].1.push('\n');
                out[i].1.push_str(&text);
            }
            None => {
                index.insert(t.path.clone(), out.len());
                out.push((t, text));
            }
        }
    }
    out
}

/// The command line of a Bash or PowerShell call.
pub fn shell_command<'a>(ctx: &Call<'a>) -> Option<&'a str> {
    if ctx.tool().is_shell() {
        ctx.payload.input_str("command")
    } else {
        None
    }
}

/// The simple commands of a Bash or PowerShell call, read with the quoting
/// rules of its shell (see [`shell::parse`]).
pub fn shell_commands(ctx: &Call) -> Vec<SimpleCommand> {
    match (shell_command(ctx), ctx.tool()) {
        (Some(c), ToolKind::PowerShell) => shell::parse_powershell(c),
        (Some(c), _) => {
            let mut cmds = shell::parse(c);
            // The commands of the scripts it runs, read from disk.
            script::add_scripts(ctx, &mut cmds);
            cmds
        }
        _ => Vec::new(),
    }
}

/// Where a path named in a call points.
pub fn target_for(ctx: &Call, raw: &str) -> Target {
    let home = ctx
        .var("HOME")
        .filter(|h| !h.is_empty())
        .or_else(|| ctx.var("USERPROFILE").filter(|h| !h.is_empty()));
    let expanded = expand(raw.trim(), home.as_deref(), &|k| ctx.var(k));
    let path = if is_absolute(&expanded) {
        normalise(&expanded)
    } else {
        let cwd = ctx.cwd();
        normalise(&format!("{}/{}", cwd.to_string_lossy(), expanded))
    };
    let root = normalise(&ctx.project_root().to_string_lossy());
    // HOME itself and its parents are never inside a project (issue 26): a
    // root there (a session started in HOME, a repository made in it)
    // holds nothing, and no path there is inside a project below it.
    let home_n = home.as_deref().map(normalise);
    let holds_home = |p: &str| {
        home_n
            .as_deref()
            .is_some_and(|h| relative_to(h, p).is_some())
    };
    let inside = if holds_home(&root) || holds_home(&path) {
        None
    } else {
        relative_to(&path, &root)
    };
    match inside {
        Some(rel) => Target {
            shown: if rel.is_empty() { ".".into() } else { rel },
            path: PathBuf::from(path),
            inside_project: true,
        },
        None => Target {
            shown: raw.to_string(),
            path: PathBuf::from(path),
            inside_project: false,
        },
    }
}

/// Whether `path` (normalised) lies under `dir` (normalised).
pub fn is_under(path: &Path, dir: &Path) -> bool {
    relative_to(&path.to_string_lossy(), &dir.to_string_lossy()).is_some()
}

/// Whether the call carries a whole patch (an `apply_patch`, or a Write/Edit
/// translated from one): its added lines are not numbered as the file's.
pub fn carries_patch(ctx: &Call) -> bool {
    patch_of(ctx).is_some()
}

/// The patch a call carries: an `apply_patch`'s text, or the whole patch a
/// contract kept beside the Write/Edit it translated the patch into.
fn patch_of<'a>(ctx: &Call<'a>) -> Option<&'a str> {
    let tool = ctx.tool();
    let keys: &[&str] = if tool == ToolKind::Patch {
        &["command", "input", "patch"]
    } else if tool.writes_named_file() {
        &["patch"]
    } else {
        return None;
    };
    keys.iter()
        .find_map(|k| ctx.payload.input_str(k))
        .filter(|p| p.contains("*** "))
}

/// `C:/…`, `C:\…`, `/…`, `\\server\…`.
fn is_absolute(p: &str) -> bool {
    let b = p.as_bytes();
    p.starts_with('/')
        || p.starts_with('\\')
        || (b.len() >= 3
            && b[0].is_ascii_alphabetic()
            && b[1] == b':'
            && matches!(b[2], b'/' | b'\\'))
}

/// Expands a leading `~`, `~user`, `$VAR`, `${VAR}`, `%VAR%` or `$env:VAR`.
fn expand(raw: &str, home: Option<&str>, var: &dyn Fn(&str) -> Option<String>) -> String {
    if let Some(home) = home {
        if raw == "~" {
            return home.to_string();
        }
        if let Some(rest) = raw.strip_prefix("~/").or_else(|| raw.strip_prefix("~\\")) {
            return format!("{home}/{rest}");
        }
        if let Some(rest) = raw.strip_prefix('~') {
            // `~user/...`: a sibling of this user's home.
            let parent = home.trim_end_matches(['/', '\\']);
            let parent = parent.rfind(['/', '\\']).map_or("", |i| &parent[..i]);
            return format!("{parent}/{rest}");
        }
    }
    let (name, rest) = if let Some(r) = raw.strip_prefix("${") {
        match r.find('}') {
            Some(end) => (&r[..end], &r[end + 1..]),
            None => return raw.to_string(),
        }
    } else if let Some(r) = raw
        .strip_prefix("$env:")
        .or_else(|| raw.strip_prefix("$Env:"))
        .or_else(|| raw.strip_prefix("$ENV:"))
        .or_else(|| raw.strip_prefix('$'))
    {
        let end = r
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(r.len());
        (&r[..end], &r[end..])
    } else if let Some(r) = raw.strip_prefix('%') {
        match r.find('%') {
            Some(end) => (&r[..end], &r[end + 1..]),
            None => return raw.to_string(),
        }
    } else {
        return raw.to_string();
    };
    let value = if name.eq_ignore_ascii_case("HOME") || name.eq_ignore_ascii_case("USERPROFILE") {
        home.map(str::to_string).or_else(|| var(name))
    } else {
        var(name)
    };
    match value.filter(|v| !v.is_empty()) {
        Some(v) => format!("{v}{rest}"),
        None => raw.to_string(),
    }
}

/// Lexical normalisation of an absolute path: `/` separators, no `.`, `..`
/// folded (never above the root), no doubled or trailing separators.
fn normalise(p: &str) -> String {
    let p = p.replace('\\', "/");
    let (prefix, rest) = if p.len() >= 2 && p.as_bytes()[1] == b':' {
        (p[..2].to_string() + "/", &p[2..])
    } else if let Some(r) = p.strip_prefix("//") {
        ("//".to_string(), r)
    } else {
        ("/".to_string(), p.as_str())
    };
    let mut parts: Vec<&str> = Vec::new();
    for part in rest.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            p => parts.push(p),
        }
    }
    prefix + &parts.join("/")
}

/// `path` relative to `dir` ("" when equal), or `None` when outside.
/// Drive-letter paths compare without case, as Windows does.
fn relative_to(path: &str, dir: &str) -> Option<String> {
    let dir = dir.trim_end_matches('/');
    let windows = dir.as_bytes().get(1) == Some(&b':');
    let head = path.get(..dir.len())?;
    let same = if windows {
        head.eq_ignore_ascii_case(dir)
    } else {
        head == dir
    };
    if !same {
        return None;
    }
    let rest = &path[dir.len()..];
    if rest.is_empty() {
        Some(String::new())
    } else {
        rest.strip_prefix('/').map(str::to_string)
    }
}

#[cfg(test)]
mod tests;
