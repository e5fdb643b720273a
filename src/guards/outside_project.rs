//! `outside-project`: a write that lands outside the project — by a write
//! tool (Write, Edit, MultiEdit, NotebookEdit, apply_patch) or by a shell
//! command (a redirection, `tee`, `sed -i`, `cp`, `mv`, `install`, `ln`,
//! `rsync`, `curl -o`, `wget -O`, PowerShell's `Set-Content`/`Out-File`/
//! `Copy-Item`/...) — and any write to the harness's own settings or hook
//! files, inside the project or not. Temporary directories stay quiet (a
//! copy into one too: `scp x /tmp/`), and so do the harness's own scratch
//! areas (Claude Code's plans and memory) and dry runs (`rsync -n`).
//!
//! A path is taken from the directory the command runs in (`cd .. && cp x
//! y`); non-recursive deletes and truncations (`rm`, `unlink`, `truncate`)
//! count as writes. Findings in one directory are one target family, so the
//! repeat rule gives a deploy that writes there again the one-line reminder.

use super::argv::{self, operands, operands_skipping, program};
use super::{Finding, Guard};
use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::target::{self, Target};

pub struct OutsideProject;

impl Guard for OutsideProject {
    fn name(&self) -> &'static str {
        "outside-project"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["path", "reason"]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        // Each target with whether it names a directory (`cp x /srv/www/`).
        let mut targets: Vec<(Target, bool)> = ctx
            .write_targets()
            .iter()
            .map(|t| (t.clone(), false))
            .collect();
        for (cmd, writes) in ctx.shell_commands().iter().zip(ctx.shell_write_paths()) {
            // A path on another machine (`ssh host 'cp x /etc/y'`) is not
            // outside this project.
            if crate::shell::remote::is_remote(cmd) {
                continue;
            }
            if let Some(f) = repository_above(ctx, cmd) {
                return Some(f);
            }
            let paths = writes.iter().map(String::as_str).chain(delete_paths(cmd));
            for raw in paths {
                if raw.is_empty() || raw.starts_with("/dev/") {
                    continue;
                }
                if raw.to_ascii_lowercase().starts_with("$profile") {
                    let reason = "a shell start-up file (it runs in every new shell)";
                    return Some(
                        Finding::new("$PROFILE", format!("{raw} is {reason}"))
                            .var("path", raw)
                            .var("reason", reason),
                    );
                }
                let dir = raw.ends_with('/') || raw.ends_with('\\');
                targets.push((argv::target_of(ctx, cmd, raw), dir));
            }
        }
        for (t, dir) in targets {
            if let Some(reason) = judge(ctx, &t) {
                let family = if dir {
                    t.as_str().to_string()
                } else {
                    family(&t)
                };
                return Some(
                    Finding::new(family, format!("{} is {reason}", t.shown))
                        .var("path", t.shown.clone())
                        .var("reason", reason),
                );
            }
        }
        None
    }
}

/// `git init` (or `git -C dir init`) making a repository in HOME, above
/// HOME, or in a directory above the project: it would move what counts as
/// the project (issue 26). The root a session found stays put regardless
/// (`state::pin`), and HOME is never inside a project, but the repository
/// itself is worth a word.
fn repository_above(ctx: &Ctx, cmd: &SimpleCommand) -> Option<Finding> {
    let (sub, rest) = argv::git_subcommand(cmd)?;
    if sub != "init" {
        return None;
    }
    let args = cmd.args();
    // `--git-dir=X/.git init` makes the repository of X.
    let git_dir = args.iter().enumerate().find_map(|(i, a)| {
        a.strip_prefix("--git-dir=").or_else(|| {
            (a == "--git-dir")
                .then(|| args.get(i + 1).map(String::as_str))
                .flatten()
        })
    });
    let dir = match git_dir {
        Some(g) => g.strip_suffix("/.git").unwrap_or(g),
        None => init_dir(rest).unwrap_or("."),
    };
    // Each `-C dir` before the subcommand is taken from the one before.
    let mut base: Option<String> = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a == "-C"
            && let Some(d) = args.get(i + 1)
        {
            base = Some(match base {
                Some(b) if !is_rooted(d) => format!("{b}/{d}"),
                _ => d.clone(),
            });
            i += 2;
            continue;
        }
        if a == "init" {
            break;
        }
        i += 1;
    }
    let raw = match base {
        Some(b) if !is_rooted(dir) => format!("{b}/{dir}"),
        _ => dir.to_string(),
    };
    let t = argv::target_of(ctx, cmd, &raw);
    let home = target::target_for(ctx, "~").path;
    let root = target::target_for(ctx, &ctx.project_root().to_string_lossy()).path;
    let reason = if home.starts_with(&t.path) {
        "HOME or a directory above it: a new git repository there would make HOME part of a project"
    } else if root.starts_with(&t.path) && root != t.path {
        "a directory above the project: a new git repository there would move the project root"
    } else {
        return None;
    };
    let shown = if raw == "." {
        t.as_str().to_string()
    } else {
        raw.clone()
    };
    Some(
        Finding::new(t.as_str().to_string(), format!("{shown} is {reason}"))
            .var("path", shown)
            .var("reason", reason),
    )
}

/// The directory `git init` is given (its first operand), if any.
fn init_dir(args: &[String]) -> Option<&str> {
    const WITH_VALUE: &[&str] = &[
        "--template",
        "--separate-git-dir",
        "-b",
        "--initial-branch",
        "--object-format",
        "--ref-format",
    ];
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" {
            return args.get(i).map(String::as_str);
        }
        if WITH_VALUE.contains(&a.as_str()) {
            i += 1;
        } else if !a.starts_with('-') {
            return Some(a);
        }
    }
    None
}

/// `/…`, `~…`, `$…`: not taken from another directory.
fn is_rooted(p: &str) -> bool {
    p.starts_with('/') || p.starts_with('~') || p.starts_with('$') || p.starts_with('\\')
}

/// The target family of a finding on a file: the directory it is in.
fn family(t: &Target) -> String {
    t.path.parent().map_or_else(
        || t.as_str().to_string(),
        |d| d.to_string_lossy().into_owned(),
    )
}

/// The files a non-recursive delete or a truncation names (recursive
/// deletes, and deletes of what a finder finds or an input feeds, are the
/// `destructive` guard's).
fn delete_paths(cmd: &SimpleCommand) -> Vec<&str> {
    let prog = program(cmd);
    let args = cmd.args();
    let via_finder = cmd
        .wrappers
        .last()
        .is_some_and(|w| matches!(w.as_str(), "find" | "gfind" | "fd" | "fdfind"));
    match prog.as_str() {
        "rm" | "unlink"
            if !cmd.fed
                && !via_finder
                && !argv::has_flag(args, 'r', &["recursive"])
                && !argv::has_flag(args, 'R', &[]) =>
        {
            operands(args)
        }
        "truncate" => operands_skipping(args, &["-s", "--size", "-r", "--reference"]),
        _ => Vec::new(),
    }
}

/// Why a write to `t` deserves a word, or `None`.
pub fn judge(ctx: &Ctx, t: &Target) -> Option<&'static str> {
    let p = t.as_str();
    if let Some(e) = crate::hookfiles::lookup(p, &|k| ctx.var(k)) {
        return Some(e.kind.reason());
    }
    if t.inside_project || argv::in_or_is_temp(ctx, t) {
        return None;
    }
    if p.starts_with("/(unknown directory)/") {
        return Some(
            "relative to a directory the command line does not tell, so possibly outside the project",
        );
    }
    let home = target::target_for(ctx, "~");
    let in_home = |rel: &str| -> bool {
        let full = format!("{}/{rel}", home.as_str().trim_end_matches('/'));
        p == full || p.starts_with(&format!("{full}/"))
    };
    const SCRATCH: &[&str] = &[".claude/plans", ".claude/projects", ".claude/todos"];
    if SCRATCH.iter().any(|s| in_home(s)) {
        return None;
    }
    const STARTUP: &[&str] = &[
        ".bashrc",
        ".bash_profile",
        ".bash_login",
        ".bash_logout",
        ".profile",
        ".zshrc",
        ".zprofile",
        ".zshenv",
        ".zlogin",
        ".zlogout",
        ".kshrc",
        ".cshrc",
        ".tcshrc",
        ".config/fish/config.fish",
        ".config/fish/conf.d",
    ];
    let lower = p.to_ascii_lowercase();
    if STARTUP.iter().any(|s| in_home(s))
        || ((lower.contains("/documents/powershell/")
            || lower.contains("/documents/windowspowershell/"))
            && lower.ends_with("profile.ps1"))
    {
        return Some("a shell start-up file (it runs in every new shell)");
    }
    if in_home(".ssh") {
        return Some("in the SSH directory (keys, known hosts, client configuration)");
    }
    const SYSTEM: &[&str] = &[
        "/etc/",
        "/usr/",
        "/var/",
        "/boot/",
        "/bin/",
        "/sbin/",
        "/lib/",
        "/lib64/",
        "/opt/",
        "/srv/",
        "/root/",
        "/system/",
        "/library/",
        "/private/etc/",
        "/private/var/",
        "c:/windows/",
        "c:/program files",
        "c:/programdata/",
    ];
    if SYSTEM.iter().any(|s| lower.starts_with(s)) {
        return Some("a system area");
    }
    Some("outside the project")
}

#[cfg(test)]
mod tests {
    #[test]
    fn harness_config() {
        // The one list (`hookfiles::TABLE`), as `judge` reads it.
        let h = |p: &str| crate::hookfiles::lookup(p, &|_| None).is_some();
        assert!(h("/home/u/.claude/settings.json"));
        assert!(h("/p/.claude/settings.local.json"));
        assert!(h("/p/.github/hooks/cuecard.json"));
        assert!(!h("/p/.claude/commands/x.md"));
        assert!(!h("/p/.claude/hooks/README.md"));
        assert!(h("/p/.claude/hooks/pre.sh"));
        assert!(!h("/p/src/settings.json"));
        assert!(h("/p/crush.json"));
        assert!(h("/p/.crush.json"));
        assert!(h("/home/u/.config/crush/crush.json"));
        assert!(h("/p/.crushrc"));
        assert!(!h("/p/src/mycrush.json"));
    }
}
