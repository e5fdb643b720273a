//! git commands that throw away uncommitted work, untracked files or
//! unmerged commits, or history itself.

use super::super::argv::{self, git_subcommand, has_flag, operands};
use super::super::effects::{Hit, Kind};
use crate::shell::SimpleCommand;

pub(super) fn git(cmd: &SimpleCommand) -> Option<Hit> {
    let (sub, args) = git_subcommand(cmd)?;
    let ops = operands(args);
    git_discards_changes(sub, args, &ops).or_else(|| git_loses_history(sub, args, &ops))
}

/// A git finding: its id (`git:<t>`) and what the command does.
fn git_finding(t: &str, why: &str) -> Option<Hit> {
    Some(Hit::new(Kind::GitDiscard, format!("git:{t}"), why))
}

/// Operands that name the whole tree.
fn whole_tree(ops: &[&str]) -> bool {
    ops.iter()
        .any(|o| matches!(*o, "." | "./" | "*" | ":/" | ":" | "-A"))
}

/// Subcommands that throw away uncommitted work: reset, clean, checkout,
/// switch, restore, rm.
fn git_discards_changes(sub: &str, args: &[String], ops: &[&str]) -> Option<Hit> {
    match sub {
        "reset" if args.iter().any(|a| a == "--hard") => git_finding(
            "reset-hard",
            "discards every uncommitted change in the working tree and index (and moves the branch)",
        ),
        // `-e` takes a pattern: `git clean -e --dry-run -f` cleans.
        "clean"
            if argv::has_flag_with(args, 'f', &["force"], "e")
                && !argv::has_flag_with(args, 'n', &["dry-run"], "e") =>
        {
            let x = if has_flag(args, 'x', &[]) {
                ", ignored ones included (.env files, build caches, local config)"
            } else {
                ""
            };
            Some(Hit::new(
                Kind::GitDiscard,
                "git:clean",
                format!("deletes untracked files for good{x}"),
            ))
        }
        "checkout"
            if (args.iter().any(|a| a == "--") && whole_tree(ops))
                || (ops.first().is_some_and(|o| *o == ".")) =>
        {
            git_finding(
                "checkout-dot",
                "discards every uncommitted change in the working tree",
            )
        }
        // `-b`/`-B` take the new branch's name: `-bfeature` is no `-f`.
        "checkout" if argv::has_flag_with(args, 'f', &["force"], "bBU") => git_finding(
            "checkout-force",
            "switches branches discarding uncommitted changes",
        ),
        "switch" if argv::has_flag_with(args, 'f', &["force", "discard-changes"], "cC") => {
            git_finding(
                "switch-force",
                "switches branches discarding uncommitted changes",
            )
        }
        "restore"
            if whole_tree(ops)
                && (!has_flag(args, 'S', &["staged"]) || has_flag(args, 'W', &["worktree"])) =>
        {
            git_finding(
                "restore-dot",
                "discards every uncommitted change in the working tree",
            )
        }
        _ => None,
    }
}

/// Subcommands that lose branches, stashes, reflog entries, objects or
/// history itself.
fn git_loses_history(sub: &str, args: &[String], ops: &[&str]) -> Option<Hit> {
    match sub {
        "branch"
            if has_flag(args, 'D', &[])
                || (has_flag(args, 'd', &["delete"]) && has_flag(args, 'f', &["force"])) =>
        {
            let b = ops.first().copied().unwrap_or("a branch");
            Some(Hit::new(
                Kind::GitDiscard,
                format!("git:branch-D:{b}"),
                format!("force-deletes the branch {b}, unmerged commits included"),
            ))
        }
        "rm" if has_flag(args, 'f', &["force"]) && has_flag(args, 'r', &[]) && whole_tree(ops) => {
            git_finding(
                "rm-force-all",
                "removes every tracked file, uncommitted changes included",
            )
        }
        "stash" if ops.first() == Some(&"clear") => {
            git_finding("stash-clear", "drops every stash entry for good")
        }
        "stash" if ops.first() == Some(&"drop") => git_finding(
            "stash-drop",
            "drops a stash entry (its changes are then only in the reflog's unreachable objects)",
        ),
        "reflog" if ops.first() == Some(&"expire") || ops.first() == Some(&"delete") => {
            git_finding(
                "reflog-expire",
                "expires reflog entries: the only record of commits no branch holds any more",
            )
        }
        "gc" if args
            .iter()
            .any(|a| a == "--prune=now" || a == "--prune=all" || a.starts_with("--prune=0")) =>
        {
            git_finding(
                "gc-prune-now",
                "prunes every unreachable object now (lost commits and stashes cannot be recovered)",
            )
        }
        "prune" if !has_flag(args, 'n', &["dry-run"]) => git_finding(
            "prune",
            "deletes unreachable objects (lost commits cannot be recovered)",
        ),
        "update-ref" if has_flag(args, 'd', &[]) => {
            let b = ops.first().copied().unwrap_or("a ref");
            Some(Hit::new(
                Kind::GitDiscard,
                format!("git:update-ref-d:{b}"),
                format!("deletes the ref {b} without any check"),
            ))
        }
        "worktree" if ops.first() == Some(&"remove") && has_flag(args, 'f', &["force"]) => {
            git_finding(
                "worktree-remove-force",
                "removes a worktree with its uncommitted changes and untracked files",
            )
        }
        "filter-branch" | "filter-repo" => git_finding(
            "history-rewrite",
            "rewrites the whole history of the repository",
        ),
        _ => None,
    }
}
