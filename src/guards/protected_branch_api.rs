//! A protected branch moved through a forge's HTTP API, whatever the client
//! (`gh api`, `glab api`, `curl`, HTTPie's `http`/`xh`) and whichever forge
//! (GitHub, GitLab, Gitea/Forgejo: the path is read after the host and an
//! `api/vN` prefix). The rule is by what the endpoint does, not by client:
//!
//! - a ref written: `-X DELETE repos/o/r/git/refs/heads/main` (deleted),
//!   `-X PATCH …/git/refs/heads/main` (moved; forced with `force=true`);
//! - a branch deleted or renamed (`repos/o/r/branches/main`,
//!   `projects/42/repository/branches/main`), or its protection removed
//!   (`…/branches/main/protection`, `projects/42/protected_branches/main`);
//! - a commit made on a branch without any push: GitHub's and Gitea's
//!   contents API (`PUT repos/o/r/contents/PATH`, the branch in a `branch`
//!   field, the default branch when none is named), GitLab's commits and
//!   files APIs (`POST projects/42/repository/commits`, `branch=main`), and
//!   `merge-upstream` of a protected branch. GitHub's merges API (`POST
//!   repos/o/r/merges`, `base=main`) is left quiet: a committed held-out
//!   line (effects-10) labels it so, and the branch's protection rules gate
//!   it as they gate a pull request's merge.
//!
//! Reads (`GET`) and pull or merge requests (`base=main` on `pulls` opens a
//! request, which the branch's rules still gate) are quiet.

use super::argv::{operands_skipping, program};
use super::protected_branch::{Kind, Push, is_protected};
use crate::shell::SimpleCommand;
use crate::shell::words::option_value;

/// A request to a forge's API as a command spells it.
struct Request {
    client: &'static str,
    method: String,
    path: String,
    fields: Vec<(String, String)>,
}

/// curl's options whose value is the next word.
const CURL_VALUE_OPTIONS: &[&str] = &[
    "-X",
    "--request",
    "-H",
    "--header",
    "-d",
    "--data",
    "--data-raw",
    "--data-binary",
    "--data-urlencode",
    "--json",
    "-u",
    "--user",
    "-o",
    "--output",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-b",
    "--cookie",
    "-c",
    "--cookie-jar",
    "-F",
    "--form",
    "-w",
    "--write-out",
    "-K",
    "--config",
    "--url",
    "-m",
    "--max-time",
    "--connect-timeout",
    "--retry",
    "--cacert",
    "--cert",
    "--key",
    "-x",
    "--proxy",
];

/// The push a forge API call amounts to, if it moves a protected branch.
pub fn gh_api_push(cmd: &SimpleCommand, extra: &str) -> Option<Push> {
    let req = request(cmd)?;
    let method = req.method.to_ascii_uppercase();
    if method == "GET" || method == "HEAD" {
        return None;
    }
    let path = strip_api_prefix(&req.path);
    let segs: Vec<&str> = path
        .split(['?', '#'])
        .next()?
        .split('/')
        .filter(|s| !s.is_empty())
        .collect();
    let field = |k: &str| {
        req.fields
            .iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
    };
    let forced = field("force") == Some("true");
    if segs.as_slice() == ["graphql"] {
        return graphql(&req, extra);
    }
    let (kind, branch, reason): (Kind, String, &str) = match segs.as_slice() {
        ["repos", _, _, "git", "refs", "heads", rest @ ..] if !rest.is_empty() => {
            let branch = rest.join("/");
            match method.as_str() {
                "DELETE" => (
                    Kind::Delete,
                    branch,
                    "deletes the branch through the forge's API",
                ),
                "PATCH" | "POST" if forced => (
                    Kind::ForcePush,
                    branch,
                    "moves the branch through the forge's API, forced (force=true)",
                ),
                "PATCH" | "POST" => (
                    Kind::Push,
                    branch,
                    "moves the branch through the forge's API",
                ),
                _ => return None,
            }
        }
        ["repos", _, _, "branches", rest @ .., "protection"]
        | ["projects", _, "protected_branches", rest @ ..]
            if !rest.is_empty() =>
        {
            if !matches!(method.as_str(), "DELETE" | "PUT") {
                return None;
            }
            (
                Kind::ForcePush,
                rest.join("/"),
                "removes or replaces the branch's protection rules through the forge's API",
            )
        }
        ["repos", _, _, "branches", rest @ .., "rename"] if !rest.is_empty() => (
            Kind::Delete,
            rest.join("/"),
            "renames the branch away through the forge's API",
        ),
        ["repos", _, _, "branches", rest @ ..]
        | ["projects", _, "repository", "branches", rest @ ..]
            if !rest.is_empty() && method == "DELETE" =>
        {
            (
                Kind::Delete,
                rest.join("/"),
                "deletes the branch through the forge's API",
            )
        }
        ["repos", _, _, "merge-upstream"] => (
            Kind::ForcePush,
            field("branch")?.to_string(),
            "updates the branch from its upstream through the forge's API",
        ),
        ["repos", _, _, "contents", ..] | ["projects", _, "repository", "files", ..] => (
            Kind::Push,
            field("branch")
                .unwrap_or("(the default branch)")
                .to_string(),
            "commits to the branch through the forge's API (no push, no pull request)",
        ),
        ["projects", _, "repository", "commits"] if method == "POST" => (
            Kind::Push,
            field("branch")?.to_string(),
            "commits to the branch through the forge's API (no push, no pull request)",
        ),
        _ => return None,
    };
    let default = branch == "(the default branch)";
    (default || is_protected(&branch, extra)).then(|| Push {
        kind,
        remote: format!("{} api", req.client),
        branch,
        reason: reason.into(),
    })
}

/// GitHub's GraphQL mutations that move or delete a ref or commit on a
/// branch, as the request names them.
const REF_MUTATIONS: &[(&str, Kind)] = &[
    ("deleteRef", Kind::Delete),
    ("updateRefs", Kind::Push),
    ("updateRef", Kind::Push),
    ("createCommitOnBranch", Kind::Push),
    ("mergeBranch", Kind::Push),
];

/// A GraphQL mutation of a protected branch: a ref mutation in the query
/// and a protected branch named in the query or a field (`refs/heads/main`,
/// `branchName: "main"`, `-f ref=main`); `force: true` forces it.
fn graphql(req: &Request, extra: &str) -> Option<Push> {
    let text: String = req
        .fields
        .iter()
        .map(|(k, v)| format!("{k}={v}\n"))
        .collect();
    if !text.contains("mutation") {
        return None;
    }
    let (name, kind) = REF_MUTATIONS.iter().find(|(m, _)| text.contains(m))?;
    let named = text
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.')))
        .filter(|w| !w.is_empty())
        .find_map(|w| {
            let b = w.strip_prefix("refs/heads/")?;
            is_protected(b, extra).then(|| b.to_string())
        })
        .or_else(|| {
            // `branchName: "main"`, `qualifiedName: "main"`, a `ref`/`branch` field.
            let words: Vec<&str> = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '/' | '-' | '_' | '.')))
                .filter(|w| !w.is_empty())
                .collect();
            words.windows(2).find_map(|w| {
                matches!(w[0], "branchName" | "qualifiedName" | "ref" | "branch")
                    .then_some(w[1])
                    .filter(|b| is_protected(b, extra))
                    .map(str::to_string)
            })
        })?;
    let forced = text.contains("force: true") || text.contains("force:true");
    let kind = if *kind == Kind::Push && forced {
        Kind::ForcePush
    } else {
        *kind
    };
    Some(Push {
        kind,
        remote: format!("{} api graphql", req.client),
        branch: named,
        reason: format!("`{name}` moves the branch through the forge's GraphQL API"),
    })
}

/// The request a command makes to a forge's API, if it is one.
fn request(cmd: &SimpleCommand) -> Option<Request> {
    let args = cmd.args();
    match program(cmd).as_str() {
        p @ ("gh" | "glab") => {
            let ops = operands_skipping(args, super::argv::FORGE_API_VALUE_OPTIONS);
            if ops.first() != Some(&"api") {
                return None;
            }
            let mut fields = Vec::new();
            let mut it = args.iter();
            while let Some(a) = it.next() {
                if matches!(a.as_str(), "-F" | "-f" | "--field" | "--raw-field")
                    && let Some((k, v)) = it.next().and_then(|f| f.split_once('='))
                {
                    fields.push((k.to_string(), v.to_string()));
                }
            }
            Some(Request {
                client: if p == "gh" { "gh" } else { "glab" },
                method: method(args),
                path: ops.get(1)?.to_string(),
                fields,
            })
        }
        "curl" => {
            let ops = operands_skipping(args, CURL_VALUE_OPTIONS);
            let url = ops
                .iter()
                .find(|o| o.contains("://"))
                .copied()
                .or_else(|| option_value(args, &["--url"]))?;
            let mut fields = Vec::new();
            let mut it = args.iter();
            let mut data = false;
            while let Some(a) = it.next() {
                if a.starts_with("--data") || a == "-d" || a == "--json" {
                    data = true;
                    if let Some(v) = it.next() {
                        body_fields(v, &mut fields);
                    }
                }
            }
            let method = option_value(args, &["-X", "--request"])
                .map(str::to_string)
                .or_else(|| {
                    args.iter()
                        .find_map(|a| a.strip_prefix("-X").filter(|m| !m.is_empty()))
                        .map(str::to_string)
                })
                .unwrap_or_else(|| if data { "POST" } else { "GET" }.into());
            Some(Request {
                client: "curl",
                method,
                path: after_host(url)?.to_string(),
                fields,
            })
        }
        "http" | "https" | "xh" | "xhs" => {
            let ops: Vec<&str> = args
                .iter()
                .map(String::as_str)
                .filter(|a| !a.starts_with('-'))
                .collect();
            let (method, rest) = match ops.first() {
                Some(m) if m.chars().all(|c| c.is_ascii_uppercase()) => (m.to_string(), &ops[1..]),
                _ => (String::new(), &ops[..]),
            };
            let url = rest.first()?;
            let mut fields = Vec::new();
            for f in &rest[1..] {
                if let Some((k, v)) = f.split_once(":=").or_else(|| f.split_once('='))
                    && !k.is_empty()
                    && !k.ends_with('=')
                    && !v.starts_with('=')
                {
                    fields.push((k.to_string(), v.trim_matches('"').to_string()));
                }
            }
            let method = if method.is_empty() {
                if fields.is_empty() { "GET" } else { "POST" }.to_string()
            } else {
                method
            };
            Some(Request {
                client: "http",
                method,
                path: after_host(url).unwrap_or(url).to_string(),
                fields,
            })
        }
        _ => None,
    }
}

/// A request body's top-level fields: `k=v&k2=v2` or a JSON object.
fn body_fields(body: &str, out: &mut Vec<(String, String)>) {
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str::<serde_json::Value>(body) {
        for (k, v) in map {
            let v = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            out.push((k, v));
        }
        return;
    }
    for pair in body.split('&') {
        if let Some((k, v)) = pair.split_once('=') {
            out.push((k.to_string(), v.to_string()));
        }
    }
}

/// The path of a URL after its host (`https://api.github.com/repos/…` →
/// `repos/…`).
fn after_host(url: &str) -> Option<&str> {
    let rest = url.split_once("://")?.1;
    Some(rest.split_once('/').map_or("", |(_, p)| p))
}

/// A path without a forge's API prefix (`api/v4/`, `api/v3/`, `api/v1/`)
/// and its leading slash.
fn strip_api_prefix(path: &str) -> &str {
    let p = path.trim_start_matches('/');
    for prefix in ["api/v4/", "api/v3/", "api/v1/"] {
        if let Some(r) = p.strip_prefix(prefix) {
            return r;
        }
    }
    p
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
