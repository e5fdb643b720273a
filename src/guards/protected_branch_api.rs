//! A protected branch moved through the GitHub API (`gh api`): the ref
//! deleted (`-X DELETE repos/o/r/git/refs/heads/main`), updated
//! (`-X PATCH …/git/refs/heads/main`, forced with `force=true`), or its
//! protection removed (`-X DELETE repos/o/r/branches/main/protection`).

use super::argv::{operands_skipping, program};
use super::protected_branch::{Kind, Push, is_protected};
use crate::shell::SimpleCommand;

/// The push a `gh api` call amounts to, if it moves a protected branch.
pub fn gh_api_push(cmd: &SimpleCommand, extra: &str) -> Option<Push> {
    if program(cmd) != "gh" {
        return None;
    }
    let args = cmd.args();
    let ops = operands_skipping(args, super::argv::FORGE_API_VALUE_OPTIONS);
    if ops.first() != Some(&"api") {
        return None;
    }
    let method = method(args).to_ascii_uppercase();
    let path = ops.get(1)?.trim_start_matches('/');
    let segs: Vec<&str> = path.split(['?', '#']).next()?.split('/').collect();
    let forced = args.windows(2).any(|w| {
        matches!(w[0].as_str(), "-F" | "-f" | "--field" | "--raw-field") && w[1] == "force=true"
    });
    let (kind, branch, reason) = match segs.as_slice() {
        ["repos", _, _, "git", "refs", "heads", rest @ ..] if !rest.is_empty() => {
            let branch = rest.join("/");
            match method.as_str() {
                "DELETE" => (
                    Kind::Delete,
                    branch,
                    "deletes the branch through the GitHub API",
                ),
                "PATCH" | "POST" if forced => (
                    Kind::ForcePush,
                    branch,
                    "moves the branch through the GitHub API, forced (force=true)",
                ),
                "PATCH" => (
                    Kind::Push,
                    branch,
                    "moves the branch through the GitHub API",
                ),
                _ => return None,
            }
        }
        ["repos", _, _, "branches", rest @ .., "protection"] if !rest.is_empty() => {
            if !matches!(method.as_str(), "DELETE" | "PUT") {
                return None;
            }
            (
                Kind::ForcePush,
                rest.join("/"),
                "removes or replaces the branch's protection rules through the GitHub API",
            )
        }
        _ => return None,
    };
    is_protected(&branch, extra).then(|| Push {
        kind,
        remote: "gh api".into(),
        branch,
        reason: reason.into(),
    })
}

/// The request method: `-X M`, `-XM`, `--method M`, `--method=M`; a call
/// with fields is a POST, else a GET.
fn method(args: &[String]) -> String {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "-X" || a == "--method" {
            return it.next().cloned().unwrap_or_default();
        }
        if let Some(m) = a.strip_prefix("--method=").or_else(|| a.strip_prefix("-X")) {
            return m.to_string();
        }
    }
    if args
        .iter()
        .any(|a| matches!(a.as_str(), "-f" | "-F" | "--field" | "--raw-field"))
    {
        "POST".into()
    } else {
        "GET".into()
    }
}
