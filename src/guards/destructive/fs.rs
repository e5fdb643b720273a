//! File deletes: `rm -r` and its PowerShell and cmd spellings, a delete run
//! by `find`/`fd` or fed by `xargs`/`parallel`, a wildcard delete outside
//! the project, raw writes onto a disk device.

use super::super::argv::{self, operands, program};
use super::super::effects::{Hit, Kind};
use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::target::{self, Target};

/// What a recursive delete of the project root is called (its kind is
/// `destructive.project`).
const WHOLE_PROJECT: &str = "the whole project";

/// What a recursive delete of the project's own `.git` is called (its kind
/// is `destructive.git-discard`): every commit, branch and stash not pushed
/// goes with it. A `.git` of a directory inside the project (a template
/// just cloned) is not the project's.
const GIT_DIR: &str = "the project's git directory: every commit, branch and stash not pushed";

/// Programs that delete the files they name.
pub(super) const DELETERS: &[&str] = &["rm", "unlink", "rmdir", "shred", "srm"];

/// Programs that run a command on each file they find (see
/// [`crate::shell`]): the command's `{}` is what they find under their start.
pub(super) const FINDERS: &[&str] = &["find", "gfind", "fd", "fdfind"];

/// A delete run by `find -exec`/`-delete` or `fd -x`: every match under the
/// start directory goes, so it is judged as a recursive delete of it (of the
/// plain name it looks for, when it looks for one).
pub(super) fn found_delete(ctx: &Ctx, cmd: &SimpleCommand, finder: &str) -> Option<Hit> {
    let mut hit = recursive_delete(ctx, cmd, &operands(cmd.args()))?;
    hit.reason = hit.reason.replacen(
        "recursively deletes",
        &format!("deletes what {finder} finds under"),
        1,
    );
    Some(hit)
}

/// A delete given its paths at run time (`ls | xargs rm -rf`, `parallel rm`
/// reading its input): the paths are those a `find` feeding it finds, else
/// unknown, and an unknown path may be anywhere.
pub(super) fn fed_delete(ctx: &Ctx, cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<Hit> {
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
        let mut hit = recursive_delete(ctx, find, &found)?;
        hit.reason = hit.reason.replacen(
            "recursively deletes",
            "deletes what the find before it finds under",
            1,
        );
        return Some(hit);
    }
    let shown = argv::shown(cmd);
    Some(Hit::new(
        Kind::OutsideProject,
        format!("fed-delete:{shown}"),
        "deletes the paths its input names, which the command line does not show",
    ))
}

/// `Get-ChildItem PATH … | Remove-Item`: every file listed under the
/// lister's paths (`-Path`/`-LiteralPath` or its plain words; else `.`)
/// goes, so it is judged as a recursive delete of them, like `find PATH |
/// xargs rm`. A filter's value (`-Filter *.log`) names no path.
pub(super) fn listed_delete(ctx: &Ctx, lister: &SimpleCommand) -> Option<Hit> {
    const VALUED: &[&str] = &[
        "-filter",
        "-include",
        "-exclude",
        "-depth",
        "-attributes",
        "-name",
    ];
    let args = lister.args();
    let mut paths: Vec<&str> = Vec::new();
    let mut filter = None;
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let lower = a.to_ascii_lowercase();
        if lower == "-path" || lower == "-literalpath" {
            paths.extend(args.get(i + 1).map(String::as_str));
            i += 2;
        } else if VALUED.contains(&lower.as_str()) {
            if matches!(lower.as_str(), "-filter" | "-include") {
                filter = args.get(i + 1).map(String::as_str);
            }
            i += 2;
        } else {
            if !a.starts_with('-') {
                paths.push(a);
            }
            i += 1;
        }
    }
    if paths.is_empty() {
        paths.push(".");
    }
    // Only the files a filter keeps (`-Filter *.log`) go, not the folder.
    let paths: Vec<String> = paths
        .iter()
        .map(|p| match filter {
            Some(f) => format!("{}/{f}", p.trim_end_matches(['/', '\\'])),
            None => p.to_string(),
        })
        .collect();
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let mut hit = recursive_delete(ctx, lister, &paths)?;
    hit.reason = hit.reason.replacen(
        "recursively deletes",
        "deletes what the listing before it finds under",
        1,
    );
    Some(hit)
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
pub(super) fn glob_delete(ctx: &Ctx, cmd: &SimpleCommand, paths: &[&str]) -> Option<Hit> {
    paths
        .iter()
        .filter(|p| p.contains(['*', '?']))
        .find_map(|raw| {
            let t = argv::target_of(ctx, cmd, raw);
            (!t.inside_project && !argv::is_temp(ctx, &t)).then(|| {
                Hit::new(
                    Kind::OutsideProject,
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
pub(super) fn recursive_delete(ctx: &Ctx, cmd: &SimpleCommand, paths: &[&str]) -> Option<Hit> {
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
        } else if trimmed.len() == 2 && trimmed.ends_with(':') && raw.len() > 2 {
            // `C:\` is the drive's root; `C:` alone is the drive's current
            // directory.
            format!("{trimmed}/")
        } else {
            trimmed
        };
        // `DIR/*` deletes what is in DIR, not DIR: in a temporary directory
        // itself (`rm -rf /var/tmp/*`, `cd /tmp && rm -rf *`) that is scratch.
        if raw.ends_with('*') && raw_dir != "/" {
            let inside = format!("{}/x", raw_dir.trim_end_matches(['/', '\\']));
            if argv::is_temp(ctx, &argv::target_of(ctx, cmd, &inside)) {
                continue;
            }
        }
        let t = argv::target_of(ctx, cmd, &raw_dir);
        if let Some(why) = deletes_what(ctx, &t, &root_t) {
            let kind = match why {
                WHOLE_PROJECT => Kind::Project,
                GIT_DIR => Kind::GitDiscard,
                _ => Kind::OutsideProject,
            };
            return Some(Hit::new(
                kind,
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
        return Some(WHOLE_PROJECT);
    }
    if t.path == root.path.join(".git") {
        return Some(GIT_DIR);
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

/// `dd of=/dev/sdX`, or a redirection into a disk device (`writes`: the
/// paths the command writes, [`crate::target::Call::shell_write_paths`]).
pub(super) fn raw_device_write(cmd: &SimpleCommand, writes: &[String]) -> Option<Hit> {
    // Streams, not storage: the null and random sources, the standard
    // streams and terminals, shared memory, and bash's network
    // redirections (`exec 3<>/dev/tcp/host/443` opens a socket).
    let is_disk = |p: &str| {
        p.starts_with("/dev/")
            && !matches!(
                p,
                "/dev/null"
                    | "/dev/zero"
                    | "/dev/full"
                    | "/dev/random"
                    | "/dev/urandom"
                    | "/dev/stdin"
                    | "/dev/stdout"
                    | "/dev/stderr"
                    | "/dev/tty"
                    | "/dev/ptmx"
                    | "/dev/log"
            )
            && ![
                "/dev/fd/",
                "/dev/shm/",
                "/dev/pts/",
                "/dev/tcp/",
                "/dev/udp/",
                "/dev/tty",
            ]
            .iter()
            .any(|s| p.starts_with(s))
    };
    if program(cmd) == "dd"
        && let Some(dev) = cmd
            .args()
            .iter()
            .find_map(|a| a.strip_prefix("of="))
            .filter(|d| is_disk(d))
    {
        return Some(Hit::new(
            Kind::Disk,
            format!("dd:{dev}"),
            format!("writes raw data onto the device {dev}"),
        ));
    }
    // A redirection, `tee`, `cp` onto a device.
    writes.iter().find(|p| is_disk(p)).map(|p| {
        Hit::new(
            Kind::Disk,
            format!("dev:{p}"),
            format!("writes raw data onto the device {p}"),
        )
    })
}

/// `rsync --delete src/ dest/` deletes what `dest` holds and `src` does
/// not: judged like a recursive delete of a local destination (another
/// host's is a remote shell's business).
pub(super) fn rsync_delete(ctx: &Ctx, cmd: &SimpleCommand) -> Option<Hit> {
    const WITH_VALUE: &[&str] = &[
        "-e",
        "--rsh",
        "--exclude",
        "--include",
        "--filter",
        "-f",
        "--files-from",
        "--exclude-from",
        "--include-from",
        "--chmod",
        "--chown",
        "--port",
        "--password-file",
        "--log-file",
        "-T",
        "--temp-dir",
        "--partial-dir",
        "--backup-dir",
        "--suffix",
        "--compare-dest",
        "--copy-dest",
        "--link-dest",
    ];
    let args = cmd.args();
    if !args
        .iter()
        .any(|a| a.starts_with("--delete") || a == "--del")
    {
        return None;
    }
    let ops = argv::operands_skipping(args, WITH_VALUE);
    let dest = ops.last().filter(|_| ops.len() >= 2)?;
    let remote = dest
        .split_once(':')
        .is_some_and(|(host, _)| !host.is_empty() && !host.contains('/'));
    if remote {
        return None;
    }
    recursive_delete(ctx, cmd, &[dest]).map(|mut h| {
        h.reason = format!("deletes what {dest} holds beyond the source (rsync --delete)");
        h
    })
}

/// Whether `prog` makes a file system (`mkfs.*`, `mke2fs`, `mkswap`,
/// `newfs_*`, ...).
pub(super) fn makes_file_system(prog: &str) -> bool {
    prog.starts_with("mkfs")
        || prog.starts_with("newfs")
        || matches!(
            prog,
            "mke2fs" | "mkswap" | "mkdosfs" | "mkntfs" | "mkexfatfs"
        )
}

/// A file system made inside an image file of the project (`mkfs.ext4 -F
/// disk.img`, `mkswap build/swap.img`): no device is named, and the image
/// is one of the project's files, so no disk is wiped.
pub(super) fn image_in_project(ctx: &Ctx, cmd: &SimpleCommand) -> bool {
    const IMAGES: &[&str] = &[
        ".img", ".raw", ".bin", ".fs", ".ext4", ".vfat", ".swap", ".iso",
    ];
    let ops = operands(cmd.args());
    !ops.iter()
        .any(|o| o.contains("/dev/") || o.starts_with("dev/"))
        && ops.iter().any(|o| {
            let lower = o.to_ascii_lowercase();
            IMAGES.iter().any(|e| lower.ends_with(e))
                && super::argv::target_of(ctx, cmd, o).inside_project
        })
}
