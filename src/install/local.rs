//! A project file that is this machine's alone (Devin's
//! `.devin/config.local.json`, which names this machine's binary): install
//! says it is not to be committed, and whether the project's own ignore
//! files keep it out of git. Nothing here writes: cuecard never edits a
//! `.gitignore` or anything else of git's unasked.
//!
//! The ignore files read are the project's `.git/info/exclude`, its root
//! `.gitignore` and the `.gitignore` of each folder down to the file, in
//! git's order (the last line that matches decides, a `!` line
//! re-includes). A global ignore file (`core.excludesFile`) is not read:
//! reading git's configuration for it would mean running or parsing git.

use super::report::LocalFile;
use crate::harness::config::{Config, Scope};
use std::path::Path;

/// The report's [`LocalFile`] for the file `path` a `scope` install of
/// `spec` writes, when it is a project file of this machine's alone.
pub fn local_file(spec: &Config, scope: Scope, path: &Path, project: &Path) -> Option<LocalFile> {
    if scope != Scope::Project || !spec.local_project_file {
        return None;
    }
    let rel = path.strip_prefix(project).ok()?;
    let parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let in_git = project.join(".git").exists();
    let ignored_by = if in_git {
        ignored_by(project, &parts)
    } else {
        None
    };
    Some(LocalFile {
        rel: parts.join("/"),
        in_git,
        ignored_by,
    })
}

/// The ignore file (from the project root) whose line keeps the file
/// `parts` out of git, if one does.
fn ignored_by(project: &Path, parts: &[String]) -> Option<String> {
    // (the ignore file, the folder its patterns are relative to, in parts)
    let mut files: Vec<(String, usize)> =
        vec![(".git/info/exclude".into(), 0), (".gitignore".into(), 0)];
    for depth in 1..parts.len() {
        files.push((format!("{}/.gitignore", parts[..depth].join("/")), depth));
    }
    let mut verdict: Option<(bool, String)> = None;
    for (file, depth) in files {
        let Ok(Some(text)) = super::fsio::read(&project.join(&file)) else {
            continue;
        };
        let below = &parts[depth..];
        for line in text.lines() {
            if let Some(ignores) = matches(line, below) {
                verdict = Some((ignores, file.clone()));
            }
        }
    }
    match verdict {
        Some((true, file)) => Some(file),
        _ => None,
    }
}

/// Whether the ignore line `line` matches the file `parts` (or a folder
/// holding it): `Some(true)` ignores it, `Some(false)` re-includes it
/// (`!`), `None` says nothing of it.
fn matches(line: &str, parts: &[String]) -> Option<bool> {
    let line = line.trim_end();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let (ignores, pattern) = match line.strip_prefix('!') {
        Some(p) => (false, p),
        None => (true, line),
    };
    let pattern = pattern.strip_prefix('\\').unwrap_or(pattern);
    let (pattern, dir_only) = match pattern.strip_suffix('/') {
        Some(p) => (p, true),
        None => (pattern, false),
    };
    let anchored = pattern.contains('/');
    let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
    let re = regex::Regex::new(&format!(
        "^{}{}$",
        if anchored { "" } else { "(?:.*/)?" },
        glob(pattern)
    ))
    .ok()?;
    // The file itself, then each folder that holds it.
    let hit = (1..=parts.len()).any(|n| {
        let is_file = n == parts.len();
        !(dir_only && is_file) && re.is_match(&parts[..n].join("/"))
    });
    hit.then_some(ignores)
}

/// An ignore pattern as a regular expression over `/`-separated paths.
fn glob(pattern: &str) -> String {
    let mut out = String::new();
    let mut rest = pattern;
    while let Some(c) = rest.chars().next() {
        if let Some(r) = rest.strip_prefix("**/") {
            out.push_str("(?:.*/)?");
            rest = r;
        } else if let Some(r) = rest.strip_prefix("/**") {
            out.push_str("(?:/.*)?");
            rest = r;
        } else if let Some(r) = rest.strip_prefix("**") {
            out.push_str(".*");
            rest = r;
        } else {
            match c {
                '*' => out.push_str("[^/]*"),
                '?' => out.push_str("[^/]"),
                c => out.push_str(&regex::escape(&c.to_string())),
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::matches;

    fn devin() -> Vec<String> {
        vec![".devin".into(), "config.local.json".into()]
    }

    #[test]
    fn the_lines_that_keep_devins_local_file_out_of_git() {
        for line in [
            ".devin/config.local.json",
            "/.devin/config.local.json",
            "config.local.json",
            "*.local.json",
            "*.local.*",
            ".devin/",
            ".devin",
            "/.devin/",
            ".devin/*",
            "**/config.local.json",
            ".devin/**",
        ] {
            assert_eq!(matches(line, &devin()), Some(true), "{line}");
        }
        for line in [
            "",
            "# .devin/config.local.json",
            "config.json",
            "/config.local.json",
            "config.local.json/",
            ".devin/config.json",
            "devin/",
            "*.md",
        ] {
            assert_eq!(matches(line, &devin()), None, "{line}");
        }
        assert_eq!(matches("!.devin/config.local.json", &devin()), Some(false));
    }
}
