//! The version-control systems other than git (Mercurial and its clients
//! `chg` and Sapling's `sl`, Subversion, Fossil): the same acts that git's
//! reader judges (`git clean -f`, `git checkout -- .`, `git reset --hard`,
//! `git stash clear`) in their own words. Discarding the changes of named
//! files stays quiet, as for git (the card recommends that narrow step).

use super::super::argv::{has_flag, operands, program};
use super::super::effects::{Hit, Kind};
use crate::shell::SimpleCommand;

pub(super) fn other_vcs(cmd: &SimpleCommand) -> Option<Hit> {
    let prog = program(cmd);
    let args = cmd.args();
    let ops = operands(args);
    let (sub, rest) = ops.split_first()?;
    let whole = rest.is_empty() || rest.iter().any(|o| matches!(*o, "." | "./"));
    let found = |t: &str, why: &str| Some(Hit::new(Kind::GitDiscard, format!("{prog}:{t}"), why));
    match (prog.as_str(), *sub) {
        // `hg purge` (alias `clean`), `sl clean`: untracked files, and with
        // `--all` the ignored ones, deleted; `--print` only lists them.
        ("hg" | "chg" | "sl", "purge" | "clean") if !has_flag(args, 'p', &["print", "print0"]) => {
            found("purge", "deletes untracked files for good")
        }
        ("hg" | "chg" | "sl", "update" | "up" | "checkout" | "co" | "goto" | "go")
            if has_flag(args, 'C', &["clean"]) =>
        {
            found(
                "update-clean",
                "updates the working copy discarding every uncommitted change",
            )
        }
        ("hg" | "chg" | "sl", "revert") if has_flag(args, 'a', &["all"]) || rest.contains(&".") => {
            found(
                "revert-all",
                "discards every uncommitted change in the working copy",
            )
        }
        ("hg" | "chg" | "sl", "shelve")
            if has_flag(args, '\0', &["cleanup"]) || has_flag(args, 'd', &["delete"]) =>
        {
            found("shelve-delete", "deletes shelved changes for good")
        }
        ("svn", "revert")
            if (has_flag(args, 'R', &["recursive"])
                || args.iter().any(|a| a == "--depth=infinity"))
                && whole =>
        {
            found(
                "revert-recursive",
                "discards every uncommitted change in the working copy",
            )
        }
        ("svn", "cleanup") if has_flag(args, '\0', &["remove-unversioned", "remove-ignored"]) => {
            found("cleanup-remove", "deletes unversioned files for good")
        }
        ("fossil", "clean") if !has_flag(args, 'n', &["dry-run"]) => {
            found("clean", "deletes files Fossil does not manage")
        }
        ("fossil", "revert") if rest.is_empty() => found(
            "revert-all",
            "discards every uncommitted change in the checkout",
        ),
        ("fossil", "stash") if matches!(rest.first(), Some(&("clear" | "drop" | "rm"))) => {
            found("stash-drop", "drops stashed changes for good")
        }
        _ => None,
    }
}
