//! Deletes through a container's bind mount: `docker run -v "$HOME":/h
//! alpine rm -rf /h` deletes the home directory. A path inside the
//! container is its own (quiet), unless it lies under a folder mounted from
//! the host: then it is that host path, judged like any delete.

use super::super::argv::{has_flag, operands, program};
use super::super::effects::Hit;
use super::{data, fs};
use crate::context::Ctx;
use crate::shell::SimpleCommand;

/// The finding for a recursive delete a `docker|podman|nerdctl run` makes
/// under a host folder it mounts.
pub(super) fn deletes_through_mount(ctx: &Ctx, cmd: &SimpleCommand) -> Option<Hit> {
    let args = cmd.args();
    let ops = operands(args);
    if ops.first() != Some(&"run") && ops.get(..2) != Some(&["container", "run"][..]) {
        return None;
    }
    let mounts = bind_mounts(args);
    if mounts.is_empty() {
        return None;
    }
    let inner = data::container_command(args)?;
    // The image, then the command it runs.
    let words = inner.argv.get(1..)?;
    let script = words
        .iter()
        .map(|w| format!("'{}'", w.replace('\'', r"'\''")))
        .collect::<Vec<_>>()
        .join(" ");
    for c in crate::shell::parse(&script) {
        let prog = program(&c);
        let recursive = matches!(prog.as_str(), "rm" | "rmdir")
            && (has_flag(c.args(), 'r', &["recursive"]) || has_flag(c.args(), 'R', &[]));
        if !recursive {
            continue;
        }
        for path in operands(c.args()) {
            if let Some(host) = on_host(&mounts, path)
                && let Some(mut hit) = fs::recursive_delete(ctx, cmd, &[host.as_str()])
            {
                hit.reason = format!("{} (mounted into the container at {path})", hit.reason);
                return Some(hit);
            }
        }
    }
    None
}

/// The host path a container path stands for, through the mounts.
fn on_host(mounts: &[(String, String)], path: &str) -> Option<String> {
    mounts.iter().find_map(|(src, dst)| {
        let dst = dst.trim_end_matches('/');
        let rest = if dst.is_empty() {
            Some(path.trim_start_matches('/'))
        } else {
            path.strip_prefix(dst)
                .filter(|r| r.is_empty() || r.starts_with('/'))
                .map(|r| r.trim_start_matches('/'))
        }?;
        // `$PWD`, `$(pwd)`: the folder the command runs in.
        let src = ["$PWD", "${PWD}", "$(pwd)", "`pwd`"]
            .iter()
            .find_map(|p| src.strip_prefix(p))
            .map_or(src.to_string(), |r| format!(".{r}"));
        let src = src.trim_end_matches('/');
        Some(if rest.is_empty() {
            if src.is_empty() {
                "/".into()
            } else {
                src.to_string()
            }
        } else {
            format!("{src}/{rest}")
        })
    })
}

/// The host folders a run mounts, with where: `-v SRC:DST[:opts]`,
/// `--volume[=]SRC:DST`, `--mount type=bind,source=SRC,target=DST`. A named
/// volume (no `/` in its name) is the container engine's, not a host folder.
fn bind_mounts(args: &[String]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let spec = match a.as_str() {
            "-v" | "--volume" | "--mount" => it.next().map(String::as_str),
            _ => a
                .strip_prefix("--volume=")
                .or_else(|| a.strip_prefix("--mount=")),
        };
        let Some(spec) = spec else { continue };
        if spec.contains('=') {
            let field = |names: &[&str]| {
                spec.split(',').find_map(|kv| {
                    let (k, v) = kv.split_once('=')?;
                    names.contains(&k).then(|| v.to_string())
                })
            };
            if let (Some(src), Some(dst)) = (
                field(&["source", "src"]),
                field(&["target", "destination", "dst"]),
            ) && host_path(&src)
            {
                out.push((src, dst));
            }
        } else if let Some((src, rest)) = spec.split_once(':') {
            let dst = rest.split(':').next().unwrap_or(rest);
            if host_path(src) && dst.starts_with('/') {
                out.push((src.to_string(), dst.to_string()));
            }
        }
    }
    out
}

/// A mount source that is a folder on the host.
fn host_path(src: &str) -> bool {
    src.starts_with(['/', '~', '.', '$'])
}
