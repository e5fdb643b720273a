//! `destructive`: a command whose effect is irreversible data loss — judged
//! on what it destroys, not on the verb: a recursive delete of `/`, the home
//! directory, the project itself or its parents, or anything outside the
//! project (temporary directories excepted); git commands that throw away
//! uncommitted work or unmerged commits; SQL that drops or empties tables,
//! given to a database client; infrastructure teardown; raw writes to disks.
//!
//! A deletion is judged the same whoever writes it: `rm` itself, `find
//! -delete`/`-exec rm`, `fd -x rm`, `xargs rm` (its paths come from its
//! input: unknown unless a `find` feeds it), an interpreter's one-liner
//! (`shutil.rmtree`, `fs.rmSync`, `FileUtils.rm_rf`), from the directory the
//! command line moved to (`cd .. && rm -rf build`).

use super::argv::{self, git_subcommand, has_flag, operands, program};
use super::{Finding, Guard};
use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::target::{self, Target};

pub struct Destructive;

impl Guard for Destructive {
    fn name(&self) -> &'static str {
        "destructive"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["command", "reason"]
    }
    fn kinds(&self) -> &'static [(&'static str, &'static str)] {
        KINDS
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        let cmds = ctx.shell_commands();
        for (i, cmd) in cmds.iter().enumerate() {
            if let Some((target, reason)) = judge(ctx, cmd, &cmds[..i]) {
                let shown = argv::shown(cmd);
                return Some(
                    Finding::new(target.clone(), format!("`{shown}` {reason}"))
                        .kind(kind_of(&target, &reason))
                        .var("command", shown)
                        .var("reason", reason),
                );
            }
        }
        super::opaque::finding(ctx, super::opaque::Owner::Destructive)
    }
}

/// The kinds of finding (policy ids `destructive.<kind>`).
const KINDS: &[(&str, &str)] = &[
    (
        "outside-project",
        "a deletion outside the project: the file system, the home directory, a directory above the project, anything outside it, or paths the command line does not show",
    ),
    ("project", "a recursive deletion of the whole project"),
    (
        "git-discard",
        "git that throws away uncommitted work, untracked files or unmerged commits",
    ),
    (
        "database",
        "SQL or a database client that drops, empties or resets data",
    ),
    (
        "infrastructure",
        "infrastructure teardown (terraform destroy, ...)",
    ),
    (
        "cluster",
        "cluster or container data removed (a namespace, `--all`, volumes)",
    ),
    (
        "cloud-storage",
        "a bucket or a prefix in cloud storage deleted",
    ),
    (
        "disk",
        "a raw write to a disk, a file system formatted, files shredded",
    ),
    ("opaque", super::opaque::DESTRUCTIVE_LINE),
];

/// The kind of a finding, from its target (each judge names its target
/// with a prefix of its own) and reason.
fn kind_of(target: &str, reason: &str) -> &'static str {
    let prefix = target.split(':').next().unwrap_or_default();
    match prefix {
        "rm" | "fed-delete" if reason.contains("(the whole project)") => "project",
        "rm" | "fed-delete" => "outside-project",
        "git" => "git-discard",
        "sql" | "db" | "dropdb" | "mongo" => "database",
        "kubectl" | "docker" => "cluster",
        "cloud" => "cloud-storage",
        "dd" | "dev" | "shred" => "disk",
        _ if target.ends_with(":destroy") => "infrastructure",
        _ => "disk",
    }
}

/// Judges one command (`before`: the commands before it, for what a pipe
/// feeds it). Returns (finding target, reason).
fn judge(ctx: &Ctx, cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<(String, String)> {
    let prog = program(cmd);
    let args = cmd.args();
    if let Some(r) = raw_device_write(cmd) {
        return Some(r);
    }
    if DELETERS.contains(&prog.as_str()) {
        if let Some(r) = fed_delete(ctx, cmd, before) {
            return Some(r);
        }
        if let Some(finder) = cmd
            .wrappers
            .last()
            .filter(|w| FINDERS.contains(&w.as_str()))
        {
            return found_delete(ctx, cmd, finder);
        }
    }
    match prog.as_str() {
        "rm" | "rmdir" if has_flag(args, 'r', &["recursive"]) || has_flag(args, 'R', &[]) => {
            recursive_delete(ctx, cmd, &operands(args))
        }
        "remove-item" | "ri" | "del" | "erase" | "rd" | "rmdir" | "rm"
            if args.iter().any(|a| {
                let l = a.to_ascii_lowercase();
                l.starts_with("-r") || l == "/s"
            }) =>
        {
            let paths: Vec<&str> = args
                .iter()
                .filter(|a| {
                    !a.starts_with('-')
                        && !a.eq_ignore_ascii_case("/s")
                        && !a.eq_ignore_ascii_case("/q")
                })
                .map(String::as_str)
                .collect();
            recursive_delete(ctx, cmd, &paths)
        }
        "rm" | "unlink" => glob_delete(ctx, cmd, &operands(args)),
        "git" => git(cmd),
        "terraform" | "tofu" | "terragrunt" | "pulumi" | "cdk" | "cdktf" => {
            let ops = operands(args);
            let destroy = ops.first() == Some(&"destroy")
                || (ops.first() == Some(&"apply") && args.iter().any(|a| a == "-destroy"));
            destroy.then(|| {
                (
                    format!("{prog}:destroy"),
                    "destroys every resource the configuration manages".to_string(),
                )
            })
        }
        "docker" | "podman" | "kubectl" | "oc" if let Some(inner) = container_client(args) => {
            sql_client(&inner, before)
        }
        "kubectl" | "oc" => kubectl(args),
        "docker" | "podman" => docker(args),
        "aws" | "gsutil" | "gcloud" | "az" | "rclone" => cloud_storage(&prog, args),
        "mongo" | "mongosh" => mongo(args),
        "dd" => None, // raw_device_write covers `of=/dev/…`
        p if p == "mkfs" || p.starts_with("mkfs.") || p == "mke2fs" || p == "wipefs" => Some((
            format!("{prog}:{}", operands(args).last().unwrap_or(&"")),
            "formats or wipes a file system".to_string(),
        )),
        "shred" => Some((
            format!("shred:{}", operands(args).join(" ")),
            "overwrites files so they cannot be recovered".to_string(),
        )),
        "dropdb" => Some((
            format!("dropdb:{}", operands(args).last().unwrap_or(&"")),
            "drops a database".to_string(),
        )),
        p if DB_CLIENTS.contains(&p) => sql_client(cmd, before),
        _ => frameworks(cmd, &prog),
    }
}

/// Programs that delete the files they name.
const DELETERS: &[&str] = &["rm", "unlink", "rmdir", "shred", "srm"];

/// Programs that run a command on each file they find (see
/// [`crate::shell`]): the command's `{}` is what they find under their start.
const FINDERS: &[&str] = &["find", "gfind", "fd", "fdfind"];

/// A delete run by `find -exec`/`-delete` or `fd -x`: every match under the
/// start directory goes, so it is judged as a recursive delete of it (of the
/// plain name it looks for, when it looks for one).
fn found_delete(ctx: &Ctx, cmd: &SimpleCommand, finder: &str) -> Option<(String, String)> {
    let (target, why) = recursive_delete(ctx, cmd, &operands(cmd.args()))?;
    let why = why.replacen(
        "recursively deletes",
        &format!("deletes what {finder} finds under"),
        1,
    );
    Some((target, why))
}

/// A delete given its paths at run time (`ls | xargs rm -rf`, `parallel rm`
/// reading its input): the paths are those a `find` feeding it finds, else
/// unknown, and an unknown path may be anywhere.
fn fed_delete(
    ctx: &Ctx,
    cmd: &SimpleCommand,
    before: &[SimpleCommand],
) -> Option<(String, String)> {
    if !cmd.fed {
        return None;
    }
    let feeder = before.last().filter(|_| cmd.piped);
    if let Some(find) = feeder.filter(|f| FINDERS.contains(&program(f).as_str())) {
        let found = if program(find).starts_with("fd") {
            fd_paths(find)
        } else {
            crate::shell::found_paths(&find.argv)
        };
        let found: Vec<&str> = found.iter().map(String::as_str).collect();
        let (target, why) = recursive_delete(ctx, find, &found)?;
        let why = why.replacen(
            "recursively deletes",
            "deletes what the find before it finds under",
            1,
        );
        return Some((target, why));
    }
    let shown = argv::shown(cmd);
    Some((
        format!("fed-delete:{shown}"),
        "deletes the paths its input names, which the command line does not show".to_string(),
    ))
}

/// The search paths of `fd` (after its pattern), else `.`.
fn fd_paths(fd: &SimpleCommand) -> Vec<String> {
    let paths: Vec<String> = operands(fd.args())
        .into_iter()
        .skip(1)
        .map(String::from)
        .collect();
    if paths.is_empty() {
        vec![".".into()]
    } else {
        paths
    }
}

/// A delete of every file a wildcard matches (`rm /etc/*.conf`), outside
/// the project and temporary directories: many files at once, for good.
fn glob_delete(ctx: &Ctx, cmd: &SimpleCommand, paths: &[&str]) -> Option<(String, String)> {
    paths
        .iter()
        .filter(|p| p.contains(['*', '?']))
        .find_map(|raw| {
            let t = argv::target_of(ctx, cmd, raw);
            (!t.inside_project && !argv::is_temp(ctx, &t)).then(|| {
                (
                    format!("rm:{}", t.as_str()),
                    format!("deletes every file matching {raw} (outside the project)"),
                )
            })
        })
}

/// A recursive delete of the paths given (from the directory `cmd` runs
/// in): fires for the file-system root, the home directory, the project
/// root or any directory above it, and anything outside the project except
/// in temporary directories.
fn recursive_delete(ctx: &Ctx, cmd: &SimpleCommand, paths: &[&str]) -> Option<(String, String)> {
    let root_path = ctx.project_root().to_path_buf();
    let root_t = target::target_for(ctx, &root_path.to_string_lossy());
    for raw in paths {
        let trimmed = raw
            .trim_end_matches('*')
            .trim_end_matches(['/', '\\'])
            .to_string();
        let raw_dir = if trimmed.is_empty() && raw.starts_with('/') {
            "/".to_string()
        } else if trimmed.is_empty() {
            ".".to_string()
        } else {
            trimmed
        };
        let t = argv::target_of(ctx, cmd, &raw_dir);
        if let Some(why) = deletes_what(ctx, &t, &root_t) {
            return Some((
                format!("rm:{}", t.as_str()),
                format!("recursively deletes {raw} ({why})"),
            ));
        }
    }
    None
}

fn deletes_what(ctx: &Ctx, t: &Target, root: &Target) -> Option<&'static str> {
    let p = t.as_str();
    if p == "/" || (p.len() <= 3 && p.ends_with(":/")) {
        return Some("the whole file system");
    }
    let home = target::target_for(ctx, "~");
    if t.path == home.path {
        return Some("the home directory");
    }
    if t.path == root.path {
        return Some("the whole project");
    }
    if target::is_under(&root.path, &t.path) {
        return Some("a directory that contains the project");
    }
    if t.as_str().starts_with("/(unknown directory)/") {
        return Some(
            "from a directory the command line does not tell, so possibly outside the project",
        );
    }
    if !t.inside_project && !argv::is_temp(ctx, t) {
        return Some("outside the project");
    }
    None
}

/// `dd of=/dev/sdX`, or a redirection into a disk device.
fn raw_device_write(cmd: &SimpleCommand) -> Option<(String, String)> {
    let is_disk = |p: &str| {
        p.starts_with("/dev/")
            && !matches!(
                p,
                "/dev/null" | "/dev/zero" | "/dev/stdout" | "/dev/stderr" | "/dev/tty"
            )
            && !p.starts_with("/dev/fd/")
            && !p.starts_with("/dev/shm/")
            && !p.starts_with("/dev/pts/")
    };
    if program(cmd) == "dd"
        && let Some(dev) = cmd
            .args()
            .iter()
            .find_map(|a| a.strip_prefix("of="))
            .filter(|d| is_disk(d))
    {
        return Some((
            format!("dd:{dev}"),
            format!("writes raw data onto the device {dev}"),
        ));
    }
    // A redirection, `tee`, `cp` onto a device.
    super::outside_project::shell_write_paths(cmd)
        .into_iter()
        .find(|p| is_disk(p))
        .map(|p| {
            (
                format!("dev:{p}"),
                format!("writes raw data onto the device {p}"),
            )
        })
}

fn git(cmd: &SimpleCommand) -> Option<(String, String)> {
    let (sub, args) = git_subcommand(cmd)?;
    let ops = operands(args);
    git_discards_changes(sub, args, &ops).or_else(|| git_loses_history(sub, args, &ops))
}

/// A git finding: its id (`git:<t>`) and what the command does.
fn git_finding(t: &str, why: &str) -> Option<(String, String)> {
    Some((format!("git:{t}"), why.to_string()))
}

/// Operands that name the whole tree.
fn whole_tree(ops: &[&str]) -> bool {
    ops.iter()
        .any(|o| matches!(*o, "." | "./" | "*" | ":/" | ":" | "-A"))
}

/// Subcommands that throw away uncommitted work: reset, clean, checkout,
/// switch, restore, rm.
fn git_discards_changes(sub: &str, args: &[String], ops: &[&str]) -> Option<(String, String)> {
    match sub {
        "reset" if args.iter().any(|a| a == "--hard") => git_finding(
            "reset-hard",
            "discards every uncommitted change in the working tree and index (and moves the branch)",
        ),
        "clean" if has_flag(args, 'f', &["force"]) && !has_flag(args, 'n', &["dry-run"]) => {
            let x = if has_flag(args, 'x', &[]) {
                ", ignored ones included (.env files, build caches, local config)"
            } else {
                ""
            };
            Some((
                "git:clean".into(),
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
fn git_loses_history(sub: &str, args: &[String], ops: &[&str]) -> Option<(String, String)> {
    match sub {
        "branch"
            if has_flag(args, 'D', &[])
                || (has_flag(args, 'd', &["delete"]) && has_flag(args, 'f', &["force"])) =>
        {
            let b = ops.first().copied().unwrap_or("a branch");
            Some((
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
            Some((
                format!("git:update-ref-d:{b}"),
                format!("deletes the ref {b} without any check"),
            ))
        }
        "filter-branch" | "filter-repo" => git_finding(
            "history-rewrite",
            "rewrites the whole history of the repository",
        ),
        _ => None,
    }
}

fn kubectl(args: &[String]) -> Option<(String, String)> {
    let ops = operands(args);
    if ops.first() != Some(&"delete") {
        return None;
    }
    let kind = ops.get(1).copied().unwrap_or("");
    let kind_l = kind.to_ascii_lowercase();
    if matches!(kind_l.as_str(), "namespace" | "namespaces" | "ns")
        || kind_l.starts_with("namespace/")
        || kind_l.starts_with("ns/")
    {
        return Some((
            format!("kubectl:delete-ns:{}", ops.get(2).unwrap_or(&"")),
            "deletes a namespace and everything in it".into(),
        ));
    }
    if args
        .iter()
        .any(|a| a == "--all" || a == "--all-namespaces" || a == "-A")
    {
        return Some((
            format!("kubectl:delete-all:{kind}"),
            format!("deletes every {kind} it matches (--all)"),
        ));
    }
    None
}

fn docker(args: &[String]) -> Option<(String, String)> {
    let ops = operands(args);
    let volumes = args.iter().any(|a| a == "--volumes");
    match ops.as_slice() {
        ["system", "prune", ..] if volumes => Some((
            "docker:system-prune-volumes".into(),
            "removes every unused container, network, image and volume (volume data is lost)"
                .into(),
        )),
        ["volume", "prune", ..] => Some((
            "docker:volume-prune".into(),
            "removes unused volumes and their data".into(),
        )),
        ["volume", "rm", ..] => Some((
            "docker:volume-rm".into(),
            "removes volumes and their data".into(),
        )),
        ["compose", "down", ..] if has_flag(args, 'v', &["volumes"]) => Some((
            "docker:compose-down-v".into(),
            "removes the project's volumes and their data".into(),
        )),
        _ => None,
    }
}

/// Deleting a bucket or everything under a prefix in cloud storage.
fn cloud_storage(prog: &str, args: &[String]) -> Option<(String, String)> {
    let ops = operands(args);
    let recursive = has_flag(args, 'r', &["recursive"]) || has_flag(args, 'R', &[]);
    let hit = match (prog, ops.as_slice()) {
        ("aws", ["s3", "rm", ..]) => recursive,
        ("aws", ["s3", "rb", ..]) => args.iter().any(|a| a == "--force"),
        ("aws", ["s3api", "delete-bucket", ..]) => true,
        ("gsutil", ["rm", ..]) => recursive || args.iter().any(|a| a == "-a"),
        ("gsutil", ["rb", ..]) => true,
        ("gcloud", ["storage", "rm", ..]) => recursive,
        ("gcloud", ["storage", "buckets", "delete", ..]) => true,
        ("az", ["storage", "blob", "delete-batch", ..]) => true,
        ("az", ["storage", "container", "delete", ..]) => true,
        ("rclone", ["purge", ..]) => true,
        ("rclone", ["delete", ..]) => true,
        _ => false,
    };
    hit.then(|| {
        let what = ops
            .iter()
            .find(|o| o.contains("://"))
            .copied()
            .unwrap_or("");
        (
            format!("cloud:{prog}:{what}"),
            format!("deletes cloud storage {what} (there is no undo)"),
        )
    })
}

/// `mongosh --eval '…'` that drops a database or collection, or deletes
/// every document.
fn mongo(args: &[String]) -> Option<(String, String)> {
    let code = args
        .iter()
        .position(|a| a == "--eval")
        .and_then(|i| args.get(i + 1))?;
    let compact: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    let what = if compact.contains(".dropDatabase(") {
        "drops a database"
    } else if compact.contains(".drop()") {
        "drops a collection"
    } else if compact.contains(".deleteMany({})") || compact.contains(".remove({})") {
        "deletes every document of a collection"
    } else {
        return None;
    };
    Some((format!("mongo:{what}"), what.to_string()))
}

/// A database client run in a container (`docker exec db psql -c …`,
/// `kubectl exec pod -- mysql -e …`): the client's own command.
fn container_client(args: &[String]) -> Option<SimpleCommand> {
    let ops = operands(args);
    if !matches!(ops.first(), Some(&"exec" | &"run")) && ops.get(1) != Some(&"exec") {
        return None;
    }
    let at = args
        .iter()
        .position(|a| DB_CLIENTS.contains(&crate::shell::program_name(a).as_str()))?;
    Some(SimpleCommand {
        argv: args[at..].to_vec(),
        ..SimpleCommand::default()
    })
}

/// Database command-line clients that take SQL.
const DB_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "duckdb",
    "sqlcmd",
    "clickhouse-client",
    "clickhouse",
    "cockroach",
    "snowsql",
    "bq",
    "mysqlsh",
    "usql",
    "pgcli",
    "mycli",
    "litecli",
];

/// SQL given to a database client: `-c`/`-e`/`--command`/`--execute`/`-Q`
/// values, the trailing operand (sqlite3, duckdb), a heredoc or
/// here-string, or the output of an `echo`/`printf` piped into it.
fn sql_client(cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<(String, String)> {
    let args = cmd.args();
    let mut texts: Vec<&str> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if matches!(
            a.as_str(),
            "-c" | "-e" | "--command" | "--execute" | "-Q" | "-q" | "--query" | "--sql" | "-cmd"
        ) && let Some(v) = args.get(i + 1)
        {
            texts.push(v);
        }
        for pre in ["--command=", "--execute=", "--query="] {
            if let Some(v) = a.strip_prefix(pre) {
                texts.push(v);
            }
        }
    }
    if let Some(last) = operands(args).last() {
        texts.push(last);
    }
    if let Some(h) = &cmd.heredoc {
        texts.push(h);
    }
    for r in &cmd.redirects {
        if r.op == "<<<" {
            texts.push(&r.target);
        }
    }
    if cmd.piped
        && let Some(prev) = before.last()
        && matches!(program(prev).as_str(), "echo" | "printf" | "cat")
        && prev.heredoc.is_none()
    {
        texts.extend(prev.args().iter().map(String::as_str));
    }
    if cmd.piped
        && let Some(prev) = before.last()
        && let Some(h) = &prev.heredoc
    {
        texts.push(h);
    }
    texts
        .iter()
        .find_map(|t| destructive_sql(t))
        .map(|what| (format!("sql:{what}"), format!("runs {what}")))
}

/// The destructive SQL statement in `sql`, if any: DROP TABLE / DATABASE /
/// SCHEMA, TRUNCATE, or DELETE FROM without WHERE.
pub fn destructive_sql(sql: &str) -> Option<String> {
    for stmt in sql.split(';') {
        let upper = stmt.to_ascii_uppercase();
        let words: Vec<&str> = upper.split_whitespace().collect();
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).copied().unwrap_or("");
            match *w {
                "DROP" if matches!(next, "TABLE" | "DATABASE" | "SCHEMA") => {
                    return Some(format!("DROP {next}"));
                }
                "TRUNCATE" if i == 0 || next == "TABLE" => return Some("TRUNCATE".into()),
                "DELETE" if next == "FROM" && !words.contains(&"WHERE") => {
                    return Some("DELETE FROM without WHERE".into());
                }
                "UPDATE" if i == 0 && words.contains(&"SET") && !words.contains(&"WHERE") => {
                    return Some("UPDATE without WHERE".into());
                }
                _ => {}
            }
        }
    }
    None
}

/// Framework commands that drop or reset a database.
fn frameworks(cmd: &SimpleCommand, prog: &str) -> Option<(String, String)> {
    let args = cmd.args();
    let ops = operands(args);
    let any = |names: &[&str]| ops.iter().any(|o| names.contains(o));
    let hit = match prog {
        "rails" | "rake" | "bin/rails" => any(&["db:drop", "db:reset", "db:schema:load"]),
        "prisma" | "npx" => {
            ops.windows(2)
                .any(|w| w == ["migrate", "reset"] || w == ["db", "push"])
                && args
                    .iter()
                    .any(|a| a == "--force-reset" || ops.contains(&"reset"))
        }
        "python" | "python3" => {
            ops.first().is_some_and(|f| f.ends_with("manage.py")) && any(&["flush", "reset_db"])
        }
        "redis-cli" => ops
            .iter()
            .any(|o| o.eq_ignore_ascii_case("flushall") || o.eq_ignore_ascii_case("flushdb")),
        _ => false,
    };
    hit.then(|| {
        (
            format!("db:{}", argv::shown(cmd)),
            "drops or resets a database".to_string(),
        )
    })
}
