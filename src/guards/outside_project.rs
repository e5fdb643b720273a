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

use super::argv::{self, operands, program};
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
        for cmd in ctx.shell_commands() {
            if let Some(f) = repository_above(ctx, cmd) {
                return Some(f);
            }
            let paths = shell_write_paths(cmd).into_iter().chain(delete_paths(cmd));
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

/// The paths a shell command writes, as written in the command.
pub fn shell_write_paths(cmd: &SimpleCommand) -> Vec<&str> {
    let mut out: Vec<&str> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes_file())
        .map(|r| r.target.as_str())
        .collect();
    let args = cmd.args();
    let value_of = |names: &[&str]| -> Option<&str> {
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if names.iter().any(|n| a.eq_ignore_ascii_case(n)) {
                return it.next().map(String::as_str);
            }
            for n in names.iter().filter(|n| n.starts_with("--")) {
                if let Some(v) = a.strip_prefix(n).and_then(|v| v.strip_prefix('=')) {
                    return Some(v);
                }
            }
        }
        None
    };
    match program(cmd).as_str() {
        "tee" | "sponge" | "touch" => out.extend(operands(args)),
        // Installing or removing the user's crontab (`crontab -`, `crontab
        // file`, `-r`); `-l` only lists it.
        "crontab" if !args.iter().any(|a| a == "-l") => out.push(CRONTAB),
        "dd" => out.extend(
            args.iter()
                .filter_map(|a| a.strip_prefix("of="))
                .filter(|p| !p.is_empty()),
        ),
        "unzip" => out.extend(value_of(&["-d"])),
        "tar" | "bsdtar" | "gtar" if tar_extracts(args) => {
            out.extend(value_of(&["-C", "--directory"]));
        }
        "perl" if args.iter().any(|a| is_perl_in_place(a)) => {
            out.extend(edited_files(args, &["-e", "-E"]));
        }
        "sed" | "gsed" if args.iter().any(|a| is_sed_in_place(a)) => {
            out.extend(edited_files(args, &["-e", "-f", "--expression", "--file"]));
        }
        "rsync" if argv::has_flag(args, 'n', &["dry-run"]) => {}
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => {
            if let Some(dir) = value_of(&["-t", "--target-directory"]) {
                out.push(dir);
            } else {
                let ops = operands_skipping(
                    args,
                    &[
                        "-S",
                        "--suffix",
                        "-m",
                        "--mode",
                        "-o",
                        "-g",
                        "--owner",
                        "--group",
                        "-e",
                        "--rsh",
                        "--exclude",
                        "--include",
                        "-P",
                        "-i",
                        "-F",
                    ],
                );
                if ops.len() >= 2 {
                    let last = ops[ops.len() - 1];
                    // host:path is remote.
                    let remote = last
                        .find(':')
                        .is_some_and(|c| !last[..c].contains('/') && c > 1);
                    if !remote {
                        out.push(last);
                    }
                }
            }
        }
        // Output options and prefixes name where a tool writes
        // (`patch -o`, `csplit -f`, `split … PREFIX`, `wget -P`).
        "patch" => out.extend(value_of(&["-o", "--output"])),
        "csplit" | "gcsplit" => out.extend(value_of(&["-f", "--prefix"])),
        "split" | "gsplit" => {
            let ops = operands_skipping(
                args,
                &[
                    "-l",
                    "-b",
                    "-C",
                    "-n",
                    "-a",
                    "-t",
                    "--lines",
                    "--bytes",
                    "--line-bytes",
                    "--number",
                    "--suffix-length",
                    "--additional-suffix",
                    "--separator",
                    "--filter",
                ],
            );
            out.extend(ops.get(1));
        }
        "git" => {
            // A global or system setting written (`git config --global
            // user.name x`, `--unset`, `git config set --system …`); reads
            // (`--get`, `--list`, one key alone) write nothing.
            if let Some(("config", rest)) = argv::git_subcommand(cmd) {
                out.extend(git_config_file(rest));
            }
            if let Some(("clone", rest)) = argv::git_subcommand(cmd) {
                let ops = operands_skipping(
                    rest,
                    &[
                        "-b",
                        "--branch",
                        "-o",
                        "--origin",
                        "--depth",
                        "-c",
                        "--config",
                        "--reference",
                        "--separate-git-dir",
                        "-u",
                        "--upload-pack",
                        "--template",
                        "-j",
                        "--jobs",
                        "--filter",
                        "--shallow-since",
                        "--shallow-exclude",
                    ],
                );
                out.extend(ops.get(1));
            }
        }
        "wget" if value_of(&["-P", "--directory-prefix"]).is_some() => {
            out.extend(value_of(&["-P", "--directory-prefix"]));
        }
        // A package manager's user configuration (`npm config set prefix
        // ~/x` writes `~/.npmrc`); `--location project` keeps it here.
        "npm" | "pnpm" | "pip" | "pip3"
            if operands(args).first() == Some(&"config")
                && matches!(
                    operands(args).get(1),
                    Some(&"set" | &"delete" | &"unset" | &"edit")
                )
                && !args
                    .iter()
                    .any(|a| matches!(a.as_str(), "--location=project" | "--site" | "--venv"))
                && !args
                    .windows(2)
                    .any(|w| matches!(w[0].as_str(), "--location" | "-L") && w[1] == "project") =>
        {
            out.push(if program(cmd).starts_with("pip") {
                "~/.config/pip/pip.conf"
            } else {
                "~/.npmrc"
            });
        }
        "curl" => out.extend(value_of(&["-o", "--output"])),
        "wget" => out.extend(value_of(&["-O", "--output-document"])),
        "set-content" | "add-content" | "out-file" | "new-item" | "sc" | "ac" => {
            match value_of(&["-Path", "-FilePath", "-LiteralPath"]) {
                Some(p) => out.push(p),
                None => out.extend(ps_positional(args).first()),
            }
        }
        "copy-item" | "move-item" | "copy" | "move" | "cpi" | "mi" => {
            match value_of(&["-Destination"]) {
                Some(p) => out.push(p),
                None => out.extend(ps_positional(args).get(1)),
            }
        }
        _ => {}
    }
    out
}

/// The file a `git config` call writes, if it writes one outside the
/// project: `~/.gitconfig` for `--global`, `/etc/gitconfig` for `--system`.
fn git_config_file(rest: &[String]) -> Option<&'static str> {
    let file = if rest.iter().any(|a| a == "--global") {
        "~/.gitconfig"
    } else if rest.iter().any(|a| a == "--system") {
        "/etc/gitconfig"
    } else {
        return None;
    };
    const READS: &[&str] = &[
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "-l",
        "--list",
        "--show-origin",
        "--show-scope",
        "--name-only",
    ];
    const WRITES: &[&str] = &[
        "--unset",
        "--unset-all",
        "--add",
        "--replace-all",
        "--remove-section",
        "--rename-section",
        "-e",
        "--edit",
    ];
    if rest.iter().any(|a| WRITES.contains(&a.as_str())) {
        return Some(file);
    }
    if rest.iter().any(|a| READS.contains(&a.as_str())) {
        return None;
    }
    let ops = operands_skipping(rest, &["-f", "--file", "--blob", "--type", "--default"]);
    match ops.first().copied() {
        Some("set" | "unset" | "edit" | "rename-section" | "remove-section") => Some(file),
        Some("get" | "list") => None,
        // `git config --global key value` sets; `key` alone reads.
        _ => (ops.len() >= 2).then_some(file),
    }
}

/// Where a user's crontab lives: the path a `crontab` install is judged on.
const CRONTAB: &str = "/var/spool/cron/crontabs";

/// Whether `tar` is told to extract (`-x`, `xzf`, `--extract`, `--get`).
fn tar_extracts(args: &[String]) -> bool {
    let Some(first) = args.first() else {
        return false;
    };
    // The old style: a first word of letters without a dash (`tar xzf a.tgz`).
    (!first.starts_with('-') && first.contains('x'))
        || argv::has_flag_with(args, 'x', &["extract", "get"], "fCfbTXgKNV")
}

/// `perl -i`, `-i.bak`, `-pi`: in-place editing.
fn is_perl_in_place(a: &str) -> bool {
    a.starts_with('-')
        && !a.starts_with("--")
        && a[1..]
            .chars()
            .take_while(|c| *c != 'e' && *c != 'E')
            .any(|c| c == 'i')
}

fn is_sed_in_place(a: &str) -> bool {
    a == "--in-place"
        || a.starts_with("--in-place=")
        || (a.starts_with('-')
            && !a.starts_with("--")
            && a[1..].starts_with(|c: char| c.is_ascii_alphabetic())
            && a[1..]
                .chars()
                .take_while(|c| *c != 'e' && *c != 'f')
                .any(|c| c == 'i'))
}

/// The files an in-place editor edits (`sed -i`, `perl -i`): every operand
/// but the script, which is the first operand unless an option gives it: a
/// word of `script_opts` (or a cluster ending in one of their letters)
/// followed by the script, or `--expression=`/`--file=`.
fn edited_files<'a>(args: &'a [String], script_opts: &[&str]) -> Vec<&'a str> {
    let mut files = Vec::new();
    let mut script_given = false;
    let mut i = 0;
    let ends_in_script_letter = |a: &str| {
        script_opts
            .iter()
            .filter(|o| o.len() == 2)
            .any(|o| a.ends_with(&o[1..]))
    };
    while let Some(a) = args.get(i) {
        i += 1;
        if script_opts.contains(&a.as_str()) {
            script_given = true;
            i += 1;
        } else if a.starts_with("--expression=") || a.starts_with("--file=") {
            script_given = true;
        } else if a.starts_with('-') && a.len() > 1 {
            if a.len() > 2 && !a.starts_with("--") && ends_in_script_letter(a) {
                script_given = true;
                i += 1;
            }
        } else {
            files.push(a.as_str());
        }
    }
    if !script_given && !files.is_empty() {
        files.remove(0);
    }
    files
}

/// Operands, skipping the values of the options named.
fn operands_skipping<'a>(args: &'a [String], with_value: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut done = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if done {
            out.push(a.as_str());
        } else if a == "--" {
            done = true;
        } else if with_value.contains(&a.as_str()) {
            i += 1;
        } else if !a.starts_with('-') || a == "-" {
            out.push(a.as_str());
        }
    }
    out
}

/// PowerShell positional arguments (words not starting with `-`, and not
/// the value of a `-Name value` parameter other than switches we know).
fn ps_positional(args: &[String]) -> Vec<&str> {
    const SWITCHES: &[&str] = &[
        "-force",
        "-recurse",
        "-nonewline",
        "-append",
        "-whatif",
        "-confirm",
        "-passthru",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a.starts_with('-') {
            if !SWITCHES.contains(&a.to_ascii_lowercase().as_str()) {
                i += 1;
            }
        } else {
            out.push(a.as_str());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn paths(cmd: &str) -> Vec<String> {
        parse(cmd)
            .iter()
            .flat_map(|c| {
                shell_write_paths(c)
                    .into_iter()
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn shell_writes() {
        assert_eq!(paths("echo x >> ~/.bashrc 2>&1"), ["~/.bashrc"]);
        assert_eq!(paths("echo x | sudo tee -a /etc/hosts"), ["/etc/hosts"]);
        assert_eq!(paths("sed -i 's/a/b/' /etc/x.conf y"), ["/etc/x.conf", "y"]);
        assert_eq!(paths("sed -i.bak -e 's/a/b/' f"), ["f"]);
        assert_eq!(paths("sed -n 's/a/b/p' f"), Vec::<String>::new());
        assert_eq!(paths("cp -r a b ~/.ssh/"), ["~/.ssh/"]);
        assert_eq!(paths("mv -t /usr/local/bin tool"), ["/usr/local/bin"]);
        assert_eq!(paths("rsync -av dist/ host:/srv/www"), Vec::<String>::new());
        assert_eq!(
            paths("curl -fsSL -o /usr/local/bin/x https://e"),
            ["/usr/local/bin/x"]
        );
        assert_eq!(
            paths("Set-Content -Path C:/Windows/x.ini -Value 1"),
            ["C:/Windows/x.ini"]
        );
        assert_eq!(paths("Add-Content $PROFILE 'x'"), ["$PROFILE"]);
    }

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
