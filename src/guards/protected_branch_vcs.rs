//! Pushes through the version-control systems other than git: Jujutsu
//! (`jj git push --bookmark main`, `-b main`, `--named main=@`), Sapling
//! (`sl push --to main`, `--delete main`) and Mercurial (`hg push -B main`,
//! a named branch `-b default`). Each names the remote branch it moves in
//! its own option; the rule is the same as `git push`'s: a protected
//! destination, its deletion, or any force push (`hg`/`sl push -f` creates
//! remote heads past the remote's checks) deserves a word; pushing every
//! bookmark (`jj git push --all`) is quiet, as `git push --all` is. Dry runs
//! (`--dry-run`) move nothing.

use super::argv::{self, program};
use super::protected_branch::{Kind, Push, is_protected};
use crate::shell::SimpleCommand;

/// A push of a protected branch through jj, sl or hg, or `None`.
pub fn judge(cmd: &SimpleCommand, extra: &str) -> Option<Push> {
    if let Some(p) = land(cmd, extra) {
        return Some(p);
    }
    let prog = program(cmd);
    let args = cmd.args();
    let (tool, rest, names, deletes): (&str, &[String], &[&str], &[&str]) = match prog.as_str() {
        "jj" => {
            let k = args
                .windows(2)
                .position(|w| w[0] == "git" && w[1] == "push")?;
            (
                "jj",
                &args[k + 2..],
                &["-b", "--bookmark", "--branch", "--named", "-N"],
                &[],
            )
        }
        "sl" | "sapling" => {
            let k = args.iter().position(|a| a == "push")?;
            ("sl", &args[k + 1..], &["--to", "-t"], &["--delete"])
        }
        "hg" | "chg" => {
            let k = args.iter().position(|a| a == "push")?;
            (
                "hg",
                &args[k + 1..],
                &["-B", "--bookmark", "-b", "--branch"],
                &[],
            )
        }
        _ => return None,
    };
    // Long only: `-bmain` is a bookmark, not flags that include `-n`.
    if argv::has_flag(rest, '\0', &["dry-run"]) {
        return None;
    }
    // jj has no force option (it checks the remote's state itself).
    let force = tool != "jj" && argv::has_flag(rest, 'f', &["force"]);
    let push = |kind, branch: &str, reason: String| Push {
        kind,
        remote: tool.to_string(),
        branch: branch.to_string(),
        reason,
    };
    for (name, delete) in valued(rest, names)
        .into_iter()
        .map(|v| (v, false))
        .chain(valued(rest, deletes).into_iter().map(|v| (v, true)))
    {
        // `--named main=@`: the bookmark before `=`; `exact:main`.
        let name = name.split_once('=').map_or(name.as_str(), |(n, _)| n);
        let name = name.strip_prefix("exact:").unwrap_or(name);
        let protected = match name.strip_prefix("glob:") {
            Some(glob) => ["main", "master", "trunk", "production"]
                .iter()
                .find(|b| glob_matches(glob, b))
                .copied(),
            None => is_protected(name, extra).then_some(name),
        };
        let Some(branch) = protected else {
            continue;
        };
        return Some(if delete {
            push(
                Kind::Delete,
                branch,
                format!("deletes the protected branch {branch} ({tool})"),
            )
        } else if force {
            push(
                Kind::ForcePush,
                branch,
                format!("force-pushes to the protected branch {branch} ({tool})"),
            )
        } else {
            push(
                Kind::Push,
                branch,
                format!("pushes straight to the protected branch {branch} ({tool})"),
            )
        });
    }
    force.then(|| {
        push(
            Kind::ForcePush,
            "(the pushed heads)",
            format!("`{tool} push --force` creates remote heads past the remote's checks"),
        )
    })
}

/// The stacked-diff and workflow front-ends whose `land`/`ship` verb merges
/// a change into the trunk and pushes the trunk itself, with no pull
/// request merged by the forge: Phabricator's `arc land` (`--onto`, the
/// trunk by default), `ghstack land` (also as `sl ghstack land`), Git
/// Town's `git town ship` / `git-town ship`. Front-ends that merge through
/// the forge's pull requests (Graphite's `gt merge`, `spr merge`) are left
/// to the forge's rules, as `gh pr merge` is.
const LANDERS: &[(&str, &str, &[&str])] = &[
    ("arc", "land", &["--onto"]),
    ("ghstack", "land", &[]),
    ("git-town", "ship", &[]),
];

/// A front-end's land or ship of a change into a protected trunk.
fn land(cmd: &SimpleCommand, extra: &str) -> Option<Push> {
    let prog = program(cmd);
    let args = cmd.args();
    let ops = argv::operands(args);
    let (tool, rest) = match (prog.as_str(), ops.as_slice()) {
        ("git", ["town", ..]) => ("git-town", &ops[1..]),
        ("sl" | "sapling", ["ghstack", ..]) => ("ghstack", &ops[1..]),
        (p, _) => (p, &ops[..]),
    };
    let (_, verb, onto) = LANDERS.iter().find(|(t, _, _)| *t == tool)?;
    if rest.first() != Some(verb) || argv::has_flag(args, '\0', &["dry-run", "help"]) {
        return None;
    }
    let named = valued(args, onto).pop();
    let branch = match named.as_deref() {
        Some(b) if !is_protected(b, extra) => return None,
        Some(b) => b.to_string(),
        None => "(the trunk)".to_string(),
    };
    Some(Push {
        kind: Kind::Push,
        remote: tool.to_string(),
        branch,
        reason: format!(
            "`{tool} {verb}` merges the change into the trunk and pushes it (no pull request merged by the forge)"
        ),
    })
}

/// Every value of the options `names` (`-b x`, `--bookmark=x`, `-bx`).
fn valued(args: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        for n in names {
            if a == n {
                out.extend(it.next().cloned());
                break;
            }
            if let Some(v) = a.strip_prefix(n) {
                if let Some(v) = v.strip_prefix('=') {
                    out.push(v.to_string());
                    break;
                }
                if n.len() == 2 && !v.is_empty() && !a.starts_with("--") {
                    out.push(v.to_string());
                    break;
                }
            }
        }
    }
    out
}

/// A shell-style glob with `*` only.
fn glob_matches(glob: &str, name: &str) -> bool {
    match glob.split_once('*') {
        None => glob == name,
        Some((head, tail)) => {
            name.starts_with(head)
                && name.len() >= head.len() + tail.replace('*', "").len()
                && (tail.contains('*') || name.ends_with(tail))
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::shell::parse;

    fn judged(line: &str) -> Option<String> {
        parse(line)
            .iter()
            .find_map(|c| super::judge(c, ""))
            .map(|p| p.branch)
    }

    #[test]
    fn front_end_pushes_of_protected_branches() {
        assert_eq!(judged("jj git push -b main").as_deref(), Some("main"));
        assert_eq!(judged("jj git push -bmain").as_deref(), Some("main"));
        assert_eq!(
            judged("jj git push --bookmark=master").as_deref(),
            Some("master")
        );
        assert_eq!(
            judged("jj --no-pager git push --named trunk=@-").as_deref(),
            Some("trunk")
        );
        assert_eq!(judged("jj git push -b 'glob:ma*'").as_deref(), Some("main"));
        assert_eq!(judged("sl push --to main").as_deref(), Some("main"));
        assert_eq!(
            judged("sl push -f --to=production").as_deref(),
            Some("production")
        );
        assert_eq!(judged("sl push --delete master").as_deref(), Some("master"));
        assert_eq!(judged("hg push -B main").as_deref(), Some("main"));
        assert_eq!(
            judged("hg push -b default -B main").as_deref(),
            Some("main")
        );
        assert_eq!(
            judged("chg push --force").as_deref(),
            Some("(the pushed heads)")
        );
        assert_eq!(judged("arc land").as_deref(), Some("(the trunk)"));
        assert_eq!(judged("arc land --onto main").as_deref(), Some("main"));
        assert_eq!(
            judged("ghstack land https://github.com/o/r/pull/7").as_deref(),
            Some("(the trunk)")
        );
        assert_eq!(
            judged("git town ship feature-x").as_deref(),
            Some("(the trunk)")
        );
        assert_eq!(judged("git-town ship").as_deref(), Some("(the trunk)"));
    }

    #[test]
    fn other_bookmarks_dry_runs_and_other_verbs_are_quiet() {
        for line in [
            "jj git push -b feature-x",
            "jj git push --change @-",
            "jj git push --dry-run -b main",
            "jj git fetch",
            "jj bookmark set main -r @-",
            "sl push --to feature/x",
            "sl pull",
            "hg push",
            "jj git push --all",
            "sl push --dry-run --to main",
            "arc land --onto feature/base",
            "arc diff",
            "ghstack submit",
            "git town sync",
            "git-town hack feature-y",
        ] {
            assert_eq!(judged(line), None, "{line}");
        }
    }
}
