//! `destructive`: a command whose effect is irreversible data loss — judged
//! on what it destroys, not on the verb: a recursive delete of `/`, the home
//! directory, the project itself or its parents, or anything outside the
//! project (temporary directories excepted); git commands that throw away
//! uncommitted work or unmerged commits; SQL that drops or empties tables,
//! given to a database client; infrastructure teardown; raw writes to disks.
//!
//! What a tool does is read from the effect model's tables
//! ([`super::effects`]: cloud and platform CLIs, object stores, clusters and
//! containers, database tools and framework tasks, disks), and no command
//! fires in a help or dry-run form. The judges live by domain: [`fs`] (file
//! deletes), [`git`], [`data`] (SQL, MongoDB, clients in containers); the
//! tables cover the rest.
//!
//! A deletion is judged the same whoever writes it: `rm` itself, `find
//! -delete`/`-exec rm`, `fd -x rm`, `xargs rm` (its paths come from its
//! input: unknown unless a `find` feeds it), an interpreter's one-liner
//! (`shutil.rmtree`, `fs.rmSync`, `FileUtils.rm_rf`), from the directory the
//! command line moved to (`cd .. && rm -rf build`).

mod data;
mod fs;
mod git;
mod http;
mod mounts;
mod query_tools;
mod vcs;

use super::argv::{self, has_flag, operands, program};
use super::effects::{self, Hit, Kind};
use super::{Finding, Guard};
use crate::context::Ctx;
use crate::shell::SimpleCommand;

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
        let packs = if cmds.is_empty() {
            Vec::new()
        } else {
            effects::packs::of(ctx)
        };
        for (i, cmd) in cmds.iter().enumerate() {
            if let Some(hit) = judge(ctx, i).or_else(|| by_pack(&packs, cmd)) {
                let shown = argv::shown_in(ctx, cmd);
                return Some(
                    Finding::new(hit.target, format!("`{shown}` {}", hit.reason))
                        .kind(hit.kind)
                        .var("command", shown)
                        .var("reason", hit.reason),
                );
            }
        }
        crate::guards::opaque::finding(ctx, crate::guards::opaque::Owner::Destructive)
    }
}

/// The kinds of finding (policy ids `destructive.<kind>`), one line each of
/// [`Kind::DESTRUCTIVE`], in its order.
const KINDS: &[(&str, &str)] = &[
    (
        Kind::OutsideProject.id(),
        "a deletion outside the project: the file system, the home directory, a directory above the project, anything outside it, or paths the command line does not show",
    ),
    (
        Kind::Project.id(),
        "a recursive deletion of the whole project",
    ),
    (
        Kind::GitDiscard.id(),
        "git that throws away uncommitted work, untracked files or unmerged commits",
    ),
    (
        Kind::Database.id(),
        "SQL or a database client that drops, empties or resets data",
    ),
    (
        Kind::Infrastructure.id(),
        "infrastructure teardown (terraform destroy, ...)",
    ),
    (
        Kind::Cluster.id(),
        "cluster or container data removed (a namespace, `--all`, volumes)",
    ),
    (
        Kind::CloudStorage.id(),
        "a bucket, a prefix or an object in cloud storage deleted",
    ),
    (
        Kind::CloudResource.id(),
        "a managed resource deleted through its own CLI (a cloud database, cluster, project, secret, backup, ...)",
    ),
    (
        Kind::Disk.id(),
        "a raw write to a disk, a file system formatted, files shredded",
    ),
    (Kind::Opaque.id(), crate::guards::opaque::DESTRUCTIVE_LINE),
];

/// Judges the call's command `i` (the commands before it: what a pipe
/// feeds it).
fn judge(ctx: &Ctx, i: usize) -> Option<Hit> {
    let (before, cmd) = ctx.shell_commands().split_at(i);
    let cmd = cmd.first()?;
    if effects::inert(cmd) {
        return None;
    }
    let prog = program(cmd);
    let args = cmd.args();
    if let Some(r) = fs::raw_device_write(cmd, &ctx.shell_write_paths()[i]) {
        return Some(r);
    }
    if ctx.tool() == crate::target::ToolKind::PowerShell
        && cmd.piped
        && crate::shell::opacity::is_ps_remove(&prog)
        && let Some(lister) = before
            .last()
            .filter(|l| crate::shell::opacity::ps_lister(&program(l)))
    {
        return fs::listed_delete(ctx, lister);
    }
    if fs::DELETERS.contains(&prog.as_str()) {
        if let Some(r) = fs::fed_delete(ctx, cmd, before) {
            return Some(r);
        }
        if let Some(finder) = cmd
            .wrappers
            .last()
            .filter(|w| fs::FINDERS.contains(&w.as_str()))
        {
            return fs::found_delete(ctx, cmd, finder);
        }
    }
    // Node's `rm -rf` ports delete trees by default, also through a package
    // runner (`npx rimraf dir`, `pnpm dlx del-cli dir`).
    let (tool, tool_args) = effects::tool(cmd);
    if matches!(tool.as_str(), "rimraf" | "del-cli" | "premove") {
        return fs::recursive_delete(ctx, cmd, &operands(tool_args));
    }
    match prog.as_str() {
        "rm" | "rmdir" if has_flag(args, 'r', &["recursive"]) || has_flag(args, 'R', &[]) => {
            fs::recursive_delete(ctx, cmd, &operands(args))
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
            fs::recursive_delete(ctx, cmd, &paths)
        }
        "rm" | "unlink" => fs::glob_delete(ctx, cmd, &operands(args)),
        "rsync" => fs::rsync_delete(ctx, cmd),
        "docker" | "podman" | "nerdctl"
            if let Some(hit) = mounts::deletes_through_mount(ctx, cmd) =>
        {
            Some(hit)
        }
        "git" => git::git(cmd),
        "hg" | "chg" | "sl" | "svn" | "fossil" => vcs::other_vcs(cmd),
        _ if crate::shell::container_tool(&prog)
            && let Some(inner) = data::container_client(args) =>
        {
            data::sql_client(&inner, before)
        }
        _ if crate::shell::container_tool(&prog)
            && let Some(inner) = data::container_command(args) =>
        {
            by_table(&inner).or_else(|| {
                let after_image = SimpleCommand {
                    argv: inner.argv.get(1..).unwrap_or_default().to_vec(),
                    ..SimpleCommand::default()
                };
                (operands(args).first() == Some(&"run") || operands(args).get(1) == Some(&"run"))
                    .then(|| by_table(&after_image))
                    .flatten()
            })
        }
        "curl" | "http" | "https" | "xh" | "xhs" | "wget" | "invoke-restmethod" | "irm"
        | "invoke-webrequest" | "iwr" => http::delete_request(&prog, args),
        // `gh api -X DELETE repos/o/r` names the repository it deletes; any
        // other `-X DELETE` is the family's generic delete.
        // A branch or tag ref is the protected-branch guard's.
        "gh" | "glab" if operands(args).first() == Some(&"api") => {
            if args.iter().any(|a| a.contains("git/refs/")) {
                None
            } else {
                http::delete_request(&prog, args).or_else(|| by_table(cmd))
            }
        }
        "mongo" | "mongosh" | "mongos" => data::mongo(cmd, before),
        "redis-cli" | "valkey-cli" | "keydb-cli" => {
            data::kv_fed(cmd, before).or_else(|| by_table(cmd))
        }
        "dd" => None, // raw_device_write covers `of=/dev/…`
        p if fs::makes_file_system(p) && fs::image_in_project(ctx, cmd) => None,
        // A client that is also a cloud CLI (`bq rm -r -d ds`) is judged by
        // its table too.
        p if data::DB_CLIENTS.contains(&p) => {
            data::sql_client(cmd, before).or_else(|| by_table(cmd))
        }
        _ => by_table(cmd)
            .or_else(|| data::session_fed(cmd, before))
            .or_else(|| query_tools::query_tool(cmd, before)),
    }
}

/// A verb of a pack the user added ([`effects::packs`]).
fn by_pack(packs: &[effects::packs::PackVerb], cmd: &SimpleCommand) -> Option<Hit> {
    let (tool, args) = effects::tool(cmd);
    let p = effects::packs::hit(packs, "destructive", &tool, args)?;
    if effects::inert_args(&tool, args) {
        return None;
    }
    // The pack's id is one of KINDS (checked when it was read), and each
    // of them is a Kind (`every_kind_listed_is_a_kind`).
    let kind = Kind::from_id(p.kind)?;
    Some(Hit::new(
        kind,
        format!("pack:{tool}:{}", p.words.join(" ")),
        format!("is `destructive.{}` by your [effects] pack", p.kind),
    ))
}

/// A command the effect tables know: the tool (seen through `npx`, `bundle
/// exec`, `php artisan`, ...), a verb of its family or the family's
/// generic delete-like verbs, or SQL it carries to a query service.
fn by_table(cmd: &SimpleCommand) -> Option<Hit> {
    let (tool, args) = effects::tool(cmd);
    if tool != program(cmd) && effects::inert_args(&tool, args) {
        return None;
    }
    if let Some(hit) = data::carried_sql(&tool, args) {
        return Some(hit);
    }
    let Some((_, mut hit)) = effects::lookup(&tool, args) else {
        return effects::unlisted::lookup(&tool, args)
            .or_else(|| effects::wholesale::lookup(&tool, args))
            .or_else(|| effects::data_options::lookup(&tool, args));
    };
    if hit.target.ends_with(':') {
        hit.target.push_str(&argv::shown(cmd));
    }
    Some(hit)
}

#[cfg(test)]
mod tests {
    use super::{KINDS, Kind};

    /// A pack may name any id the guard lists (`policy/packs.rs`); each
    /// must be a kind a pack verb's hit can carry, none dropped.
    #[test]
    fn every_kind_listed_is_a_kind() {
        let listed: Vec<&str> = KINDS.iter().map(|(id, _)| *id).collect();
        let kinds: Vec<&str> = Kind::DESTRUCTIVE.iter().map(|k| k.id()).collect();
        assert_eq!(listed, kinds);
        for id in listed {
            assert_eq!(Kind::from_id(id).map(Kind::id), Some(id));
        }
    }
}
