//! Manifest writers beyond the package managers' own `add`/`update` verbs
//! (`dependency.rs`): the family of tools whose job is to rewrite a
//! dependency manifest. Two kinds:
//!
//! - package managers of ecosystems the main table does not name, by their
//!   add/upgrade verb (`pixi add`, `rye add`, `gleam add`, `elm install`,
//!   `spago install`, `zig fetch --save`, `vcpkg add port`);
//! - upgraders that rewrite version ranges in place when told to write
//!   (`npm-check-updates -u`, `taze -w`, `pur`, `pip-compile --upgrade`,
//!   `npm pkg set dependencies.x=…`), run directly or through a package
//!   runner (`npx`, `bunx`, `pnpx`, `pnpm dlx`, `yarn dlx`, `npm exec`).
//!
//! Without their write flag the upgraders only report, and stay quiet.

use super::argv::{self, operands, program};
use crate::shell::SimpleCommand;

const ADDS: &str = "adds a dependency";
const UPGRADES: &str = "upgrades dependencies";

/// Whether `cmd` rewrites a manifest through one of these tools:
/// (ecosystem, action).
pub fn change(cmd: &SimpleCommand) -> Option<(&'static str, &'static str)> {
    let prog = program(cmd);
    let args = cmd.args();
    let (tool, args) = match runner_tool(&prog, args) {
        Some((tool, rest)) => (tool, rest),
        None => (prog, args),
    };
    let ops = operands(args);
    let sub = ops.first().copied().unwrap_or_default();
    let has = |c: char, long: &[&str]| argv::has_flag(args, c, long);
    if has('h', &["help"]) || has('\0', &["dry-run"]) {
        return None;
    }
    match tool.as_str() {
        "pixi" => match sub {
            "add" => Some(("Python/conda (pixi)", ADDS)),
            "upgrade" => Some(("Python/conda (pixi)", UPGRADES)),
            _ => None,
        },
        "rye" => (sub == "add").then_some(("Python (Rye)", ADDS)),
        "gleam" => (sub == "add").then_some(("Gleam", ADDS)),
        "elm" => (sub == "install" && ops.len() > 1).then_some(("Elm", ADDS)),
        "spago" => (sub == "install" && ops.len() > 1).then_some(("PureScript (Spago)", ADDS)),
        "zig" => (sub == "fetch" && has('\0', &["save"])
            || args.iter().any(|a| a.starts_with("--save=")))
        .then_some(("Zig", ADDS)),
        "vcpkg" => matches!(ops.as_slice(), ["add", "port", ..]).then_some(("C++ (vcpkg)", ADDS)),
        "npm-check-updates" | "ncu" => {
            has('u', &["upgrade"]).then_some(("JavaScript (npm)", UPGRADES))
        }
        "taze" => has('w', &["write"]).then_some(("JavaScript (npm)", UPGRADES)),
        "npm-upgrade" => {
            (sub.is_empty() || sub == "check").then_some(("JavaScript (npm)", UPGRADES))
        }
        "npm" | "pnpm" => matches!(ops.as_slice(), ["pkg", "set", ..])
            .then(|| {
                ops[2..].iter().any(|kv| {
                    kv.split_once(['.', '['])
                        .is_some_and(|(k, _)| k.ends_with("ependencies"))
                })
            })
            .filter(|b| *b)
            .map(|_| ("JavaScript (npm)", ADDS)),
        "pur" => Some(("Python (pip)", UPGRADES)),
        "pip-compile" => {
            has('U', &["upgrade", "upgrade-package"]).then_some(("Python (pip)", UPGRADES))
        }
        _ => None,
    }
}

/// The tool a package runner runs and its arguments: `npx [-y] tool …`,
/// `bunx tool`, `pnpm dlx tool`, `yarn dlx tool`, `npm exec [--] tool`.
fn runner_tool<'a>(prog: &str, args: &'a [String]) -> Option<(String, &'a [String])> {
    let start = match prog {
        "npx" | "bunx" | "pnpx" => 0,
        "pnpm" | "yarn" if args.first().is_some_and(|a| a == "dlx") => 1,
        "npm" if args.first().is_some_and(|a| a == "exec" || a == "x") => 1,
        _ => return None,
    };
    let mut i = start;
    while let Some(a) = args.get(i) {
        match a.as_str() {
            "--" => i += 1,
            "-p" | "--package" => i += 2,
            _ if a.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let tool = args.get(i)?;
    // `npm-check-updates@latest`, `@scope/tool@1`.
    let bare = match tool.rfind('@') {
        Some(k) if k > 0 => &tool[..k],
        _ => tool.as_str(),
    };
    Some((bare.to_string(), &args[i + 1..]))
}

#[cfg(test)]
mod tests {
    use crate::shell::parse;

    fn change(line: &str) -> Option<&'static str> {
        parse(line).iter().find_map(super::change).map(|(_, a)| a)
    }

    #[test]
    fn manifest_writers_fire() {
        for line in [
            "pixi add numpy",
            "pixi upgrade",
            "rye add httpx",
            "gleam add gleam_json",
            "elm install elm/json",
            "zig fetch --save https://example.com/z.tar.gz",
            "ncu -u",
            "npx -y npm-check-updates@latest --upgrade",
            "pnpm dlx npm-check-updates -u",
            "npx taze -w",
            "npm pkg set devDependencies.vitest=^2",
            "pip-compile --upgrade requirements.in",
            "pur -r requirements.txt",
        ] {
            assert!(change(line).is_some(), "{line}");
        }
    }

    #[test]
    fn reports_and_other_verbs_are_quiet() {
        for line in [
            "ncu",
            "npx npm-check-updates",
            "pixi run test",
            "pixi install",
            "pixi add --help",
            "npx taze",
            "npm pkg set version=2.0.0",
            "npm pkg get dependencies",
            "rye sync",
            "elm install",
            "pip-compile requirements.in",
        ] {
            assert_eq!(change(line), None, "{line}");
        }
    }
}
