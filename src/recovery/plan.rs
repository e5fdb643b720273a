//! The plan a harness records for the session, where it was measured.
//!
//! Claude Code 2.1.328 (read from its bundled source; the e2e `plan`
//! scenario passes on 2.1.332, the pin now):
//! plan mode keeps the session's plan in `<plans>/<slug>.md`, one slug per
//! session (`<slug>-agent-<id>.md` for a subagent's), where `<plans>` is
//! `$CLAUDE_CONFIG_DIR/plans`, by default `~/.claude/plans`; the model
//! writes it with the Write and Edit tools ("No plan file exists yet. You
//! should create your plan at … using the Write tool"; the e2e `plan`
//! scenario saw `<HOME>/.claude/plans/plan-how-to-swap-async-perlis.md`
//! named and written in plan mode). A `plansDirectory`
//! setting can move it under the project; that is not followed here (it
//! would mean reading the harness's settings on the hook path).
//!
//! Not supported elsewhere: Codex 0.171.0's `update_plan` steps live only
//! in its rollout; its TUI Plan mode saves an approved plan as
//! `approved-plan.md` (`core/src/session/approved_plan.rs` in its binary) at
//! a place not measured here (its Plan mode was not driven);
//! Gemini, Qwen and Copilot were not measured.

use super::excerpt::{self, Excerpt};
use std::path::{Path, PathBuf};

/// Where the pinned Claude Code keeps plan files.
pub fn dirs() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(c) = std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(c).join("plans"));
    }
    if let Some(h) = std::env::var_os("HOME").filter(|v| !v.is_empty()) {
        out.push(PathBuf::from(h).join(".claude/plans"));
    }
    out
}

/// Whether `path` (absolute, lexically normalised) is a session's own plan
/// file: a `*.md` directly in a plans directory, not a subagent's.
pub fn is_plan(path: &Path) -> bool {
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return false;
    };
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    !stem.is_empty()
        && !stem.contains("-agent-")
        && path.parent().is_some_and(|p| dirs().iter().any(|d| d == p))
}

/// A plan path as shown: under the home directory as `~/…`.
pub fn shown(path: &str) -> String {
    if let Some(h) = std::env::var("HOME").ok().filter(|h| !h.is_empty())
        && let Some(rest) = path.strip_prefix(&h)
        && rest.starts_with('/')
    {
        return format!("~{rest}");
    }
    path.to_string()
}

/// A list item's checkbox: `Some(true)` done, `Some(false)` open.
fn checkbox(item: &str) -> Option<bool> {
    let rest = item.strip_prefix('[')?;
    match rest.get(..2)? {
        " ]" => Some(false),
        "x]" | "X]" => Some(true),
        _ => None,
    }
}

/// The text of a list item (`- a`, `* a`, `1. a`, `2) a`), if `line` is one.
fn list_item(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if let Some(r) = t.strip_prefix(['-', '*', '+']) {
        return r.strip_prefix(' ');
    }
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 3 {
        return None;
    }
    t[digits..].strip_prefix(['.', ')'])?.strip_prefix(' ')
}

/// What the recovery carries of a plan: its title and its open steps. With
/// task-list checkboxes, the unchecked items; without, the numbered and
/// bulleted items; with neither, the first lines; within `max` bytes.
pub fn excerpt(text: &str, shown: &str, max: usize) -> Excerpt {
    let lines: Vec<&str> = text.lines().collect();
    let title = lines
        .iter()
        .find(|l| super::note::heading(l).is_some_and(|(level, _)| level == 1));
    let boxed = lines
        .iter()
        .any(|l| list_item(l).and_then(checkbox).is_some());
    let steps: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| match list_item(l) {
            Some(item) if boxed => checkbox(item) == Some(false),
            Some(_) => true,
            None => false,
        })
        .collect();
    if steps.is_empty() && !boxed {
        return excerpt::quote(lines, shown, max);
    }
    excerpt::quote(title.into_iter().copied().chain(steps), shown, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_steps_of_a_plan() {
        let plan = "# Plan: add caching\n\nIntro text.\n\n## Steps\n- [x] read the code\n- [ ] add the cache\n  - [ ] with a bound\n1. [X] done too\n\nOutro.\n";
        let e = excerpt(plan, "~/.claude/plans/a.md", 1_500);
        assert_eq!(
            e.text,
            "> # Plan: add caching\n> - [ ] add the cache\n>   - [ ] with a bound"
        );
        let numbered = "# Plan\n1. First\n2) Second\n   - detail\nprose\n";
        assert_eq!(
            excerpt(numbered, "p", 1_500).text,
            "> # Plan\n> 1. First\n> 2) Second\n>    - detail"
        );
        assert_eq!(excerpt("just prose\n", "p", 1_500).text, "> just prose");
        // Every step done: the title alone.
        assert_eq!(excerpt("# P\n- [x] a\n", "p", 1_500).text, "> # P");
    }

    #[test]
    fn plan_files_are_measured_places() {
        let Some(home) = std::env::var_os("HOME") else {
            return;
        };
        let dir = PathBuf::from(home).join(".claude/plans");
        assert!(is_plan(&dir.join("cozy-dancing-pony.md")));
        assert!(!is_plan(&dir.join("cozy-dancing-pony-agent-a1.md")));
        assert!(!is_plan(&dir.join("sub/x.md")));
        assert!(!is_plan(&dir.join("x.txt")));
        assert!(!is_plan(Path::new("/tmp/plans/x.md")));
        assert!(shown(dir.join("a.md").to_str().unwrap()).starts_with("~/.claude/plans/"));
    }
}
