//! Pushes through the version-control systems other than git: Mercurial
//! (`hg`, `chg`) and Sapling (`sl`) push a bookmark (`-B main`), a named
//! branch (`-b`) or to a remote bookmark (`sl push --to main`), and force
//! with `-f`; Jujutsu pushes its bookmarks to a git remote (`jj git push -b
//! main`). The same rules as a `git push`: a protected destination, any
//! force push, the deletion of a protected name.

use super::argv::{has_flag, program};
use super::protected_branch::{Kind, Push, is_protected};
use crate::shell::SimpleCommand;

/// Options whose value names where a push goes.
const DESTINATION: &[&str] = &["-B", "--bookmark", "-b", "--branch", "--to", "-t"];

/// A push of another VCS that deserves a word, or `None`.
pub fn other_vcs_push(cmd: &SimpleCommand, extra: &str) -> Option<Push> {
    let prog = program(cmd);
    let args = cmd.args();
    let words: &[String] = match (prog.as_str(), args) {
        ("hg" | "chg" | "sl", [push, rest @ ..]) if push == "push" => rest,
        ("jj", [git, push, rest @ ..]) if git == "git" && push == "push" => rest,
        _ => return None,
    };
    if has_flag(words, 'n', &["dry-run"]) {
        return None;
    }
    let force = prog != "jj" && has_flag(words, 'f', &["force"]);
    let mut names: Vec<(&str, bool)> = Vec::new();
    let mut it = words.iter();
    while let Some(a) = it.next() {
        let (name, value) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (a.as_str(), None),
        };
        let deleting = matches!(name, "--delete" | "-d" | "--deleted");
        if DESTINATION.contains(&name) || (deleting && prog != "jj") {
            let v = value.or_else(|| it.next().map(String::as_str));
            names.extend(v.map(|v| (v, deleting)));
        }
    }
    for (name, deleting) in names {
        if !is_protected(name, extra) {
            continue;
        }
        let (kind, reason) = if deleting {
            (Kind::Delete, format!("deletes the protected branch {name}"))
        } else if force {
            (
                Kind::ForcePush,
                format!("force-pushes to the protected branch {name}"),
            )
        } else {
            (
                Kind::Push,
                format!("pushes straight to the protected branch {name}"),
            )
        };
        return Some(Push {
            kind,
            remote: prog.clone(),
            branch: name.to_string(),
            reason,
        });
    }
    force.then(|| Push {
        kind: Kind::ForcePush,
        remote: prog.clone(),
        branch: "(the pushed heads)".into(),
        reason: format!("`{prog} push --force` creates remote heads past the remote's checks"),
    })
}
