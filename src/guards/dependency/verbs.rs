//! Dependency changes as a family of verbs: what a package manager's
//! remove verb does (it rewrites the manifest and the lockfile, as its add
//! verb does), and the noun-first spellings (`dotnet package add|remove|
//! update`) and smaller managers' upgrade verbs that the per-manager tables
//! in [`super`] and [`super::managers`] do not name. Read after them, only
//! for the programs the tables here name (a `match` on the program, no scan).

use super::super::argv::{self, operands};
use super::{ADDS, REMOVES, UPGRADES, names_packages};

/// A lockfile re-resolved or a dependency's version or source rewritten.
const RELOCKS: &str = "changes the locked versions or sources of dependencies";
/// A lockfile deleted: the next install resolves every version again.
const LOCK_DELETED: &str = "deletes a lockfile (the next install resolves every version again)";

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
        "bower" => (
            "JavaScript (Bower)",
            &["uninstall", "remove", "rm", "unlink"],
        ),
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
    if let Some(found) = lock_or_source(prog, args, &ops) {
        return Some(found);
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

/// Commands that re-resolve a lockfile or rewrite a requirement by its
/// tool's own editing verb: a lockfile deleted (`rm package-lock.json`,
/// `git rm Cargo.lock`), `go mod edit -require|-droprequire|-replace|-exclude`,
/// `cargo generate-lockfile`, `nix flake update`, `deno outdated --update`,
/// Gradle's `--write-locks`/`--update-locks`, `dart pub downgrade`, `rye
/// sync --update-all`.
fn lock_or_source(
    prog: &str,
    args: &[String],
    ops: &[&str],
) -> Option<(&'static str, &'static str)> {
    match (prog, ops) {
        ("rm" | "unlink" | "trash" | "trash-put" | "del" | "erase" | "remove-item" | "ri", _)
        | ("git", ["rm", ..]) => ops.iter().find_map(|p| {
            let name = p.rsplit(['/', '\\']).next().unwrap_or(p);
            match super::manifest(name, p) {
                Some((eco, true)) if !p.contains("node_modules/") => Some((eco, LOCK_DELETED)),
                _ => None,
            }
        }),
        ("go", ["mod", "edit", ..]) => {
            let flag = |f: &str| {
                args.iter()
                    .any(|a| a.trim_start_matches('-').split('=').next() == Some(f))
            };
            if flag("require") {
                Some(("Go", ADDS))
            } else if flag("droprequire") {
                Some(("Go", REMOVES))
            } else if ["replace", "dropreplace", "exclude", "dropexclude"]
                .iter()
                .any(|f| flag(f))
            {
                Some(("Go", RELOCKS))
            } else {
                None
            }
        }
        ("cargo", ["generate-lockfile", ..]) => Some(("Rust (Cargo)", RELOCKS)),
        ("nix", ["flake", "update", ..]) => Some(("Nix", UPGRADES)),
        ("nix", ["flake", "lock", ..])
            if args
                .iter()
                .any(|a| a == "--update-input" || a == "--override-input") =>
        {
            Some(("Nix", UPGRADES))
        }
        ("deno", ["outdated", ..]) if argv::has_flag(args, 'u', &["update"]) => {
            Some(("Deno", UPGRADES))
        }
        ("gradle" | "gradlew" | "./gradlew", _)
            if args
                .iter()
                .any(|a| a == "--write-locks" || a == "--update-locks") =>
        {
            Some(("JVM (Gradle)", RELOCKS))
        }
        ("dart" | "flutter", ["pub", "downgrade", ..]) => Some(("Dart (pub)", RELOCKS)),
        ("rye", ["sync" | "lock", ..])
            if args.iter().any(|a| a == "--update-all" || a == "--update") =>
        {
            Some(("Python (Rye)", UPGRADES))
        }
        _ => None,
    }
}
