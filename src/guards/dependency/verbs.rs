//! Dependency changes as a family of verbs: what a package manager's
//! remove verb does (it rewrites the manifest and the lockfile, as its add
//! verb does), and the noun-first spellings (`dotnet package add|remove|
//! update`) and smaller managers' upgrade verbs that the per-manager tables
//! in [`super`] and [`super::managers`] do not name. Read after them, only
//! for the programs the tables here name (a `match` on the program, no scan).

use super::super::argv::{self, operands};
use super::{ADDS, REMOVES, UPGRADES, names_packages};

/// The remove verbs of a project's package manager and its ecosystem: the
/// verb is the first operand and a package name follows it (`npm uninstall
/// lodash`, `uv remove httpx`, `cargo rm tokio`, `composer remove a/b`).
/// A global removal (`-g`, `--global`, `yarn global remove`) changes no
/// project, like a global install.
fn remover(prog: &str) -> Option<(&'static str, &'static [&'static str])> {
    const NPM: &[&str] = &["uninstall", "remove", "rm", "r", "un", "unlink"];
    const REMOVE_RM: &[&str] = &["remove", "rm", "uninstall", "un"];
    const REMOVE: &[&str] = &["remove"];
    Some(match prog {
        "npm" => ("JavaScript (npm)", NPM),
        "pnpm" => ("JavaScript (pnpm)", REMOVE_RM),
        "yarn" => ("JavaScript (Yarn)", REMOVE),
        "bun" => ("JavaScript (Bun)", REMOVE_RM),
        "deno" => ("Deno", REMOVE_RM),
        "uv" => ("Python (uv)", REMOVE),
        "poetry" | "pdm" => ("Python", REMOVE_RM),
        "rye" => ("Python (Rye)", REMOVE_RM),
        "pipenv" => ("Python (Pipenv)", &["uninstall"]),
        "conda" | "mamba" | "micromamba" => ("Python (conda)", &["remove", "uninstall"]),
        "pixi" => ("pixi", REMOVE_RM),
        "cargo" => ("Rust (Cargo)", &["remove", "rm"]),
        "composer" => ("PHP (Composer)", &["remove", "rm", "rem", "uninstall"]),
        "bundle" | "bundler" => ("Ruby (Bundler)", REMOVE),
        "gem" => ("Ruby (RubyGems)", &["uninstall"]),
        "gleam" => ("Gleam", REMOVE),
        "paket" => (".NET (Paket)", REMOVE),
        "bower" => ("JavaScript (Bower)", &["uninstall", "remove", "rm", "unlink"]),
        "spago" => ("PureScript (Spago)", &["uninstall", "remove"]),
        "dub" => ("D (dub)", REMOVE),
        "meteor" => ("Meteor", REMOVE),
        "jspm" => ("JavaScript (jspm)", &["uninstall", "remove"]),
        _ => return None,
    })
}

/// Whether `prog args` removes a dependency from the project, and more
/// spellings of adds and upgrades than the per-manager tables read:
/// (ecosystem, action).
pub(super) fn family(prog: &str, args: &[String]) -> Option<(&'static str, &'static str)> {
    let ops = operands(args);
    let sub = ops.first().copied().unwrap_or_default();
    let global = argv::has_flag(args, 'g', &["global"]);
    if let Some((eco, verbs)) = remover(prog)
        && verbs.contains(&sub)
    {
        // `npm unlink` with no name unlinks the project itself.
        return (!global && names_packages(args)).then_some((eco, REMOVES));
    }
    match (prog, ops.as_slice()) {
        // pip and `python -m pip` and `uv pip` remove from the project's
        // environment as `pip install NAME` adds to it.
        ("pip" | "pip3", ["uninstall", _, ..]) => Some(("Python (pip)", REMOVES)),
        ("python" | "python3" | "py", _) => match args {
            [m, module, rest @ ..] if m == "-m" && (module == "pip" || module == "pip3") => {
                matches!(operands(rest).as_slice(), ["uninstall", _, ..])
                    .then_some(("Python (pip)", REMOVES))
            }
            _ => None,
        },
        ("uv", ["pip", "uninstall", _, ..]) => Some(("Python (uv)", REMOVES)),
        // .NET: `dotnet remove [PROJECT] package NAME`, and .NET 10's
        // noun-first `dotnet package add|remove|update NAME`.
        ("dotnet", ["remove", "package", _, ..] | ["remove", _, "package", _, ..]) => {
            Some((".NET (NuGet)", REMOVES))
        }
        ("dotnet", ["package", "add", _, ..]) => Some((".NET (NuGet)", ADDS)),
        ("dotnet", ["package", "remove", _, ..]) => Some((".NET (NuGet)", REMOVES)),
        ("dotnet", ["package", "update", ..]) => Some((".NET (NuGet)", UPGRADES)),
        ("dart" | "flutter", ["pub", "remove", _, ..]) => Some(("Dart (pub)", REMOVES)),
        // rebar3 rewrites rebar.lock to newer versions; `hex.outdated`,
        // `get-deps` only read or fetch what is locked.
        ("rebar3", ["upgrade", ..]) => Some(("Erlang (rebar3)", UPGRADES)),
        // @antfu/ni's `nun NAME` removes NAME with the project's manager;
        // `nu` upgrades (`nu -i`, `nu NAME`).
        ("nun", [_, ..]) if !global => Some(("JavaScript (npm)", REMOVES)),
        // `npm pkg delete dependencies.x` (any `*Dependencies` key).
        ("npm" | "pnpm", ["pkg", "delete", keys @ ..]) => keys
            .iter()
            .any(|k| {
                k.split_once(['.', '['])
                    .is_some_and(|(k, _)| k.ends_with("ependencies"))
            })
            .then_some(("JavaScript (npm)", REMOVES)),
        _ => None,
    }
}

/// A removal in a Julia or R one-liner's code: `Pkg.rm(`, `remove.packages(`,
/// `renv::remove(`, `pak::pkg_remove(`.
pub(super) fn code_removes(code: &str) -> Option<&'static str> {
    const RM: &[(&str, &str)] = &[
        ("Pkg.rm(", "Julia (Pkg)"),
        ("Pkg.remove(", "Julia (Pkg)"),
        ("remove.packages(", "R"),
        ("renv::remove(", "R (renv)"),
        ("pak::pkg_remove(", "R (pak)"),
    ];
    RM.iter().find(|(k, _)| code.contains(k)).map(|(_, e)| *e)
}
