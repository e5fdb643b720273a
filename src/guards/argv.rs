//! Small word-level helpers the shell-reading guards share: git's
//! subcommand behind its global options, flag tests and operands (the
//! shell reader's, [`crate::shell::words`]), temporary directories, how a
//! command is shown. Plain string logic; nothing here allocates per call
//! beyond what it returns.

use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::target::{self, Target};
use std::path::PathBuf;

pub use crate::shell::words::{
    git_subcommand, has_flag, has_flag_with, operands, operands_skipping, program,
};

/// Whether a target lies in a temporary directory: `/tmp`, `/var/tmp`,
/// `/private/tmp`, `/private/var/folders`, `/var/folders`, `/dev/shm`,
/// `$TMPDIR`, `$TEMP`, `$TMP`, or a Windows `AppData/Local/Temp` (the
/// directory itself does not count, only what is in it).
pub fn is_temp(ctx: &Ctx, t: &Target) -> bool {
    let p = t.as_str();
    for key in ["TMPDIR", "TEMP", "TMP"] {
        if let Some(dir) = ctx.var(key).filter(|d| d.len() > 1) {
            let dir = dir.replace('\\', "/");
            let dir = dir.trim_end_matches('/');
            if !dir.is_empty() && p.starts_with(dir) && p[dir.len()..].starts_with('/') {
                return true;
            }
        }
    }
    if p.to_ascii_lowercase().contains("/appdata/local/temp/") {
        return true;
    }
    // A home directory that happens to live under /tmp (some CI machines)
    // is still a home directory.
    if let Some(home) = ctx.var("HOME").filter(|h| h.len() > 1) {
        let home = home.replace('\\', "/");
        let home = home.trim_end_matches('/');
        if p == home || (p.starts_with(home) && p[home.len()..].starts_with('/')) {
            return false;
        }
    }
    TEMP_ROOTS.iter().any(|d| p.starts_with(d))
}

/// The system's temporary directories.
const TEMP_ROOTS: &[&str] = &[
    "/tmp/",
    "/var/tmp/",
    "/private/tmp/",
    "/private/var/folders/",
    "/var/folders/",
    "/dev/shm/",
];

/// Whether a target is a temporary directory itself or lies in one: where a
/// copy or a move may land (`scp x /tmp/`).
pub fn in_or_is_temp(ctx: &Ctx, t: &Target) -> bool {
    if is_temp(ctx, t) {
        return true;
    }
    let p = t.as_str().trim_end_matches('/');
    let var_dir = ["TMPDIR", "TEMP", "TMP"].iter().any(|key| {
        ctx.var(key)
            .filter(|d| d.len() > 1)
            .is_some_and(|d| target::target_for(ctx, &d).as_str() == p)
    });
    var_dir || TEMP_ROOTS.iter().any(|d| d.trim_end_matches('/') == p)
}

/// Where a path a command names points, from the directory the command
/// runs in (`cd .. && rm -rf build`: `../build`). A relative path from a
/// directory the command line does not tell (`cd "$X"`) is taken as outside
/// the project.
pub fn target_of(ctx: &Ctx, cmd: &SimpleCommand, raw: &str) -> Target {
    if let Some(p) = in_temp_var(ctx, raw) {
        return target::target_for(ctx, &p);
    }
    // A path (or the directory it is taken from) that starts with a
    // variable the environment does not set is unknown: `rm -rf "$d"`.
    let resolved = cmd
        .cwd
        .resolve(raw)
        .filter(|p| !(p.starts_with('$') && unset_leading_var(ctx, p)));
    match resolved {
        Some(p) => target::target_for(ctx, &p),
        None => Target {
            path: PathBuf::from(format!("/(unknown directory)/{raw}")),
            shown: raw.to_string(),
            inside_project: false,
        },
    }
}

/// A path under one of [`crate::shell::opacity::TEMP_VARS`] with a spelled name after it (no `..`,
/// no computed first part: `$env:TEMP\$x` may be the directory itself), as a
/// path in the temporary directory the environment names (`/tmp` when it
/// names none).
fn in_temp_var(ctx: &Ctx, raw: &str) -> Option<String> {
    let lower = raw.to_ascii_lowercase();
    let var = crate::shell::opacity::TEMP_VARS
        .iter()
        .find(|v| lower.starts_with(**v))?;
    let rest = raw[var.len()..].replace('\\', "/");
    let rest = rest.strip_prefix('/')?;
    let first = rest.split('/').next().unwrap_or("");
    if first.is_empty()
        || first.starts_with(['$', '%', '`'])
        || rest.split('/').any(|seg| seg == ".." || seg == ".")
    {
        return None;
    }
    let dir = ["TMPDIR", "TEMP", "TMP"]
        .iter()
        .find_map(|k| ctx.var(k).filter(|d| d.len() > 1))
        .map_or_else(|| "/tmp".to_string(), |d| d.replace('\\', "/"));
    Some(format!("{}/{rest}", dir.trim_end_matches('/')))
}

/// Whether a path starts with a `$NAME`/`${NAME}` that is not set.
fn unset_leading_var(ctx: &Ctx, p: &str) -> bool {
    let rest = p.trim_start_matches('$').trim_start_matches('{');
    let rest = rest.strip_prefix("env:").unwrap_or(rest);
    let end = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let name = &rest[..end];
    // `$HOME` is found in `USERPROFILE` too; `$PWD` is where the call runs.
    !name.is_empty()
        && !matches!(name, "HOME" | "PWD")
        && ctx.var(name).is_none_or(|v| v.is_empty())
}

/// `argv` joined for display (the renderer bounds and sanitises it), the
/// password of a connection URL masked (`postgres://app:***@db/app`): an
/// advisory never repeats a credential the command carries.
pub fn shown(cmd: &SimpleCommand) -> String {
    mask_url_passwords(&cmd.argv.join(" "))
}

/// [`shown`], naming the MCP tool first when the call was one
/// (`mcp__db__execute_sql → psql -c DROP TABLE t`): the agent called that
/// tool, not the command it is judged as.
pub fn shown_in(ctx: &Ctx, cmd: &SimpleCommand) -> String {
    match ctx.payload.str_field("mcp_tool") {
        Some(tool) => format!("{tool} → {}", shown(cmd)),
        None => shown(cmd),
    }
}

/// `text` with the password of each `scheme://user:password@host` replaced
/// by `***`.
pub fn mask_url_passwords(text: &str) -> String {
    if !text.contains("://") {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("://") {
        let (head, tail) = rest.split_at(at + 3);
        out.push_str(head);
        let end = tail
            .find(|c: char| c.is_whitespace() || matches!(c, '/' | '"' | '\'' | '`'))
            .unwrap_or(tail.len());
        let authority = &tail[..end];
        match authority.rfind('@').and_then(|a| {
            let user_end = authority[..a].find(':')?;
            Some((user_end, a))
        }) {
            Some((user_end, a)) if a > user_end + 1 => {
                out.push_str(&authority[..=user_end]);
                out.push_str("***");
                out.push_str(&authority[a..]);
            }
            _ => out.push_str(authority),
        }
        rest = &tail[end..];
    }
    out.push_str(rest);
    out
}

/// The options of `gh api` (and `glab api`) that take a value, so that the
/// words after them are not read as the endpoint.
pub const FORGE_API_VALUE_OPTIONS: &[&str] = &[
    "-X",
    "--method",
    "-H",
    "--header",
    "-f",
    "-F",
    "--field",
    "--raw-field",
    "-q",
    "--jq",
    "-t",
    "--template",
    "--hostname",
    "-p",
    "--preview",
    "--input",
    "--cache",
    "-R",
    "--repo",
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn w(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn git_global_options_are_skipped() {
        let c = &parse("git -C repo -c user.name=x --no-pager push -f")[0];
        let (sub, rest) = git_subcommand(c).unwrap();
        assert_eq!(sub, "push");
        assert_eq!(rest, &w(&["-f"])[..]);
        assert!(git_subcommand(&parse("gitk --all")[0]).is_none());
    }

    #[test]
    fn url_passwords_are_masked() {
        assert_eq!(
            mask_url_passwords("psql postgresql://app:S3cr3t@db.internal/app -c 'x'"),
            "psql postgresql://app:***@db.internal/app -c 'x'"
        );
        assert_eq!(
            mask_url_passwords("curl https://example.com/a:b@c https://u@h/x"),
            "curl https://example.com/a:b@c https://u@h/x"
        );
        assert_eq!(mask_url_passwords("é://:@ ://"), "é://:@ ://");
    }

    #[test]
    fn flags_and_operands() {
        let a = w(&["-fr", "--verbose", "x", "--", "-y"]);
        assert!(has_flag(&a, 'r', &["recursive"]));
        assert!(has_flag(&a, 'f', &[]));
        assert!(!has_flag(&a, 'y', &[]));
        assert!(has_flag(&w(&["--recursive"]), 'r', &["recursive"]));
        assert_eq!(operands(&a), vec!["x", "-y"]);
        // A value-taking letter ends the cluster: the rest is its value.
        assert!(!has_flag_with(&w(&["-bfeature"]), 'f', &["force"], "bB"));
        assert!(!has_flag_with(&w(&["-qb", "f"]), 'f', &["force"], "bB"));
        assert!(has_flag_with(&w(&["-qf", "x"]), 'f', &["force"], "bB"));
        assert!(has_flag_with(&w(&["-b", "x", "-f"]), 'f', &[], "bB"));
    }
}
