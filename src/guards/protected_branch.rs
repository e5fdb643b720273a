//! `protected-branch`: a `git push` whose destination is a protected branch
//! (`main`, `master`, `trunk`, `production`, `release/*`, and
//! `CUECARD_PROTECTED_BRANCHES`), any force push, and the deletion of a
//! protected branch. A bare `git push` stays quiet: the current branch is not
//! in the payload, so cuecard cannot tell where it goes.

use super::argv::{self, git_subcommand};
use super::{Finding, FindingKind, Guard};
use crate::context::Ctx;
use crate::shell::SimpleCommand;

pub struct ProtectedBranch;

/// The kind of a protected-branch finding (policy id
/// `protected-branch.<kind>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A force or mirror push, or a command that moves a protected branch
    /// past its rules.
    ForcePush,
    /// A plain push straight to a protected branch.
    Push,
    /// The deletion of a protected branch.
    Delete,
    /// A command that may push or move a branch cuecard cannot name
    /// ([`super::opaque`]).
    Opaque,
}

impl Kind {
    /// Every kind, in the order the guard lists them (a test holds
    /// `KINDS` to it).
    #[cfg(test)]
    pub const ALL: &[Kind] = &[Kind::ForcePush, Kind::Push, Kind::Delete, Kind::Opaque];

    /// The stable id a policy names.
    pub const fn id(self) -> &'static str {
        match self {
            Kind::ForcePush => "force-push",
            Kind::Push => "push",
            Kind::Delete => "delete",
            Kind::Opaque => crate::finding::OPAQUE,
        }
    }
}

impl FindingKind for Kind {
    fn id(self) -> &'static str {
        Kind::id(self)
    }
}

/// The kinds of finding (policy ids `protected-branch.<kind>`), one line
/// per [`Kind`], in the order of its variants (a unit test holds them
/// equal).
const KINDS: &[(&str, &str)] = &[
    (
        Kind::ForcePush.id(),
        "a force or mirror push (rewrites remote history)",
    ),
    (
        Kind::Push.id(),
        "a plain push straight to a protected branch",
    ),
    (Kind::Delete.id(), "the deletion of a protected branch"),
    (Kind::Opaque.id(), super::opaque::PROTECTED_LINE),
];

/// Always protected. `release/*` protects every branch under `release/`.
const DEFAULT_PROTECTED: &[&str] = &["main", "master", "trunk", "production", "release/*"];

impl Guard for ProtectedBranch {
    fn name(&self) -> &'static str {
        "protected-branch"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["branch", "command", "reason"]
    }
    fn kinds(&self) -> &'static [(&'static str, &'static str)] {
        KINDS
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        let cmds = ctx.shell_commands();
        if cmds.is_empty() {
            return None;
        }
        let extra = ctx.var("CUECARD_PROTECTED_BRANCHES").unwrap_or_default();
        for cmd in cmds {
            if let Some(p) = judge_push(cmd, &extra) {
                let shown = argv::shown_in(ctx, cmd);
                return Some(
                    Finding::new(
                        format!("push:{}:{}", p.remote, p.branch),
                        format!("`{shown}`: {}", p.reason),
                    )
                    .kind(p.kind)
                    .var("branch", p.branch)
                    .var("command", shown)
                    .var("reason", p.reason),
                );
            }
        }
        super::opaque::finding(ctx, super::opaque::Owner::ProtectedBranch)
    }
}

pub struct Push {
    /// The finding's kind (its policy id is `protected-branch.<kind>`).
    pub kind: Kind,
    pub remote: String,
    pub branch: String,
    pub reason: String,
}

/// Whether `name` is protected (the defaults plus the comma-separated
/// `extra`; an entry ending in `*` is a prefix).
pub fn is_protected(name: &str, extra: &str) -> bool {
    DEFAULT_PROTECTED
        .iter()
        .copied()
        .chain(extra.split(',').map(str::trim).filter(|s| !s.is_empty()))
        .any(|p| match p.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix) && name.len() > prefix.len(),
            None => name == p,
        })
}

/// GitHub CLI commands that move a protected branch without `git push`:
/// `gh pr merge --admin` (merges past the branch's protection rules) and
/// `gh repo sync --force` (hard-resets a branch to its source).
fn gh_push(cmd: &SimpleCommand) -> Option<Push> {
    if argv::program(cmd) != "gh" {
        return None;
    }
    let args = cmd.args();
    let ops = argv::operands(args);
    let (branch, reason) = match ops.as_slice() {
        ["pr", "merge", ..] if argv::has_flag(args, '\0', &["admin"]) => (
            "(the pull request's base)",
            "merges a pull request past the base branch's protection rules (--admin)",
        ),
        ["repo", "sync", ..] if argv::has_flag(args, '\0', &["force"]) => (
            "(the default branch)",
            "hard-resets a branch to its source, discarding its own commits (--force)",
        ),
        _ => return None,
    };
    Some(Push {
        kind: Kind::ForcePush,
        remote: "gh".into(),
        branch: branch.into(),
        reason: reason.into(),
    })
}

/// The destination branch a refspec names: `src:dst` → dst, `+x` → x,
/// `refs/heads/x` → x. `None` for tags and `HEAD`.
fn destination(spec: &str) -> Option<&str> {
    let spec = spec.strip_prefix('+').unwrap_or(spec);
    let dst = match spec.rsplit_once(':') {
        Some((_, d)) => d,
        None => spec,
    };
    if dst.starts_with("refs/tags/") || dst == "HEAD" || dst == "@" || dst.is_empty() {
        return None;
    }
    Some(
        dst.strip_prefix("refs/heads/")
            .or_else(|| dst.strip_prefix("heads/"))
            .unwrap_or(dst),
    )
}

/// Judges one command: a push that deserves a word, or `None`.
pub fn judge_push(cmd: &SimpleCommand, extra: &str) -> Option<Push> {
    if let Some(p) = gh_push(cmd) {
        return Some(p);
    }
    if let Some(p) = super::protected_branch_api::gh_api_push(cmd, extra) {
        return Some(p);
    }
    if let Some(p) = super::protected_branch_vcs::judge(cmd, extra) {
        return Some(p);
    }
    let (sub, args) = git_subcommand(cmd)?;
    // `git subtree push --prefix d origin main` and `git send-pack origin
    // main` push too.
    let args = match sub {
        "push" | "send-pack" => args,
        "subtree" if args.first().is_some_and(|a| a == "push") => &args[1..],
        _ => return None,
    };
    if argv::has_flag(args, 'n', &["dry-run"]) {
        return None;
    }
    let repo_given = args
        .iter()
        .take_while(|a| *a != "--")
        .any(|a| a == "--repo" || a.starts_with("--repo="));
    let mut force = false;
    let mut lease = false;
    let mut plain_cancelled = false;
    let mut delete = false;
    let mut mirror = false;
    let mut positional: Vec<&str> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        match a.as_str() {
            "--" => {
                positional.extend(args[i..].iter().map(String::as_str));
                break;
            }
            // `--force-if-includes` only narrows a lease: alone (or with
            // `--force`) git documents it as a no-op, so it forces nothing.
            "--force" => {
                force = true;
                plain_cancelled = false;
            }
            // The last of `--force` and `--no-force` wins (so does the
            // lease's own negation); a lease given after still forces.
            "--no-force" => {
                force = lease;
                plain_cancelled = true;
            }
            "--no-force-with-lease" => {
                lease = false;
                force = !plain_cancelled && force_plain(args, i);
            }
            "--delete" => delete = true,
            "--mirror" => mirror = true,
            "-o" | "--push-option" | "--repo" | "--receive-pack" | "--exec" | "--prefix" | "-P"
            | "-m" | "--message" => i += 1,
            "--all" if sub == "send-pack" => {}
            s if s.starts_with("--force-with-lease") => {
                force = true;
                lease = true;
            }
            s if s.starts_with("--") => {}
            s if s.starts_with('-') && s.len() > 1 => {
                if s.contains('f') {
                    force = true;
                    plain_cancelled = false;
                }
                delete |= s.contains('d');
                if s.ends_with('o') {
                    i += 1;
                }
            }
            s => positional.push(s),
        }
    }
    // With `--repo`, every word is a refspec (`git push --repo=origin
    // +main`).
    let (remote, specs) = if repo_given {
        ("(--repo)".to_string(), &positional[..])
    } else {
        (
            positional.first().copied().unwrap_or("").to_string(),
            positional.get(1..).unwrap_or(&[]),
        )
    };
    // A protected destination first: it names the branch.
    for spec in specs {
        let plus = spec.starts_with('+');
        let deleting = delete || spec.starts_with(':');
        let Some(branch) = destination(spec) else {
            continue;
        };
        if !is_protected(branch, extra) {
            continue;
        }
        let (kind, reason) = if deleting {
            (
                Kind::Delete,
                format!("deletes the protected branch {branch}"),
            )
        } else if force || plus {
            (
                Kind::ForcePush,
                format!("force-pushes to the protected branch {branch}"),
            )
        } else {
            (
                Kind::Push,
                format!("pushes straight to the protected branch {branch}"),
            )
        };
        return Some(Push {
            kind,
            remote,
            branch: branch.to_string(),
            reason,
        });
    }
    if mirror {
        return Some(Push {
            kind: Kind::ForcePush,
            remote,
            branch: "(every branch)".into(),
            reason: "a mirror push overwrites and deletes remote branches".into(),
        });
    }
    let forced = specs.iter().find(|s| s.starts_with('+'));
    if force || forced.is_some() {
        let branch = forced
            .or(specs.first())
            .and_then(|s| destination(s))
            .unwrap_or("(the current branch)")
            .to_string();
        return Some(Push {
            kind: Kind::ForcePush,
            remote,
            reason: format!("force push to {branch}: it rewrites the remote history"),
            branch,
        });
    }
    None
}

/// Whether a plain force (`--force`, `-f`) is among the first `end` words.
fn force_plain(args: &[String], end: usize) -> bool {
    args[..end.min(args.len())]
        .iter()
        .any(|a| a == "--force" || (a.starts_with('-') && !a.starts_with("--") && a.contains('f')))
}
