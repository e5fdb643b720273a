//! The package managers of smaller ecosystems, the framework CLIs whose
//! `add` installs a package, manifest upgraders, and package calls in a
//! Julia or R one-liner: what [`super::dependency_change`] reads after the
//! big ecosystems' managers.

use super::super::argv::{self, operands};
use super::{ADDS, REMOVES, UPGRADES, names_packages};

/// Package managers of smaller ecosystems, and the framework CLIs whose
/// `add` installs a package into the project (`ng add`, `astro add`, `nx
/// add`, `sv add`, `nuxi module add`): the verb that writes the manifest,
/// with a name after it.
pub(super) fn more_managers(
    prog: &str,
    args: &[String],
    sub: &str,
) -> Option<(&'static str, &'static str)> {
    let pkgs = || names_packages(args);
    let ops = operands(args);
    match prog {
        "gleam" => (sub == "add").then_some(("Gleam", ADDS)),
        // @antfu/ni: `ni NAME` adds NAME with the project's own manager
        // (`ni` alone installs what is declared); `nup` upgrades.
        "ni" => (!argv::has_flag(args, 'g', &["global"]) && !ops.is_empty())
            .then_some(("JavaScript (npm)", ADDS)),
        "nup" => Some(("JavaScript (npm)", UPGRADES)),
        "dub" | "meteor" => (sub == "add" && pkgs())
            .then_some((if prog == "dub" { "D (dub)" } else { "Meteor" }, ADDS)),
        "ember" | "clib" => (sub == "install" && pkgs()).then_some(("JavaScript (npm)", ADDS)),
        "carthage" => (sub == "update").then_some(("Carthage", UPGRADES)),
        // Package calls in a one-liner of Julia or R.
        "julia" | "r" | "rscript" => code_installs(args),
        // Upgraders that rewrite the manifest's versions when told to write
        // (`ncu -u`, `taze -w`), and pip-tools' compile when told to upgrade.
        "ncu" | "npm-check-updates" => {
            argv::has_flag(args, 'u', &["upgrade"]).then_some(("JavaScript (npm)", UPGRADES))
        }
        "taze" => argv::has_flag(args, 'w', &["write"]).then_some(("JavaScript (npm)", UPGRADES)),
        "pip-compile" => upgrades_lock(args).then_some(("Python (pip)", UPGRADES)),
        "rye" => match sub {
            "add" => Some(("Python (Rye)", ADDS)),
            _ => None,
        },
        "pixi" => match sub {
            "add" => Some(("pixi", ADDS)),
            "upgrade" | "update" => Some(("pixi", UPGRADES)),
            _ => None,
        },
        "paket" => match sub {
            "add" => Some((".NET (Paket)", ADDS)),
            "update" => Some((".NET (Paket)", UPGRADES)),
            _ => None,
        },
        "vcpkg" => {
            matches!(ops.as_slice(), ["add", "port", _, ..]).then_some(("C/C++ (vcpkg)", ADDS))
        }
        // `zig fetch --save URL` records the package in build.zig.zon; a
        // plain `zig fetch` only fills the cache.
        "zig" => (sub == "fetch"
            && args
                .iter()
                .any(|a| a == "--save" || a.starts_with("--save=") || a == "--save-exact"))
        .then_some(("Zig", ADDS)),
        "spago" => (sub == "install" && pkgs()).then_some(("PureScript (Spago)", ADDS)),
        "bower" => (sub == "install" && pkgs()).then_some(("JavaScript (Bower)", ADDS)),
        "elm" => (sub == "install" && pkgs()).then_some(("Elm", ADDS)),
        "ng" | "nx" | "astro" | "sv" if sub == "add" => {
            pkgs().then_some(("JavaScript (npm)", ADDS))
        }
        // A framework's own upgrader: `ng update @angular/core`, `nx
        // migrate latest` (it rewrites package.json; `--run-migrations` then
        // only runs the code changes it recorded).
        "ng" if sub == "update" => pkgs().then_some(("JavaScript (npm)", UPGRADES)),
        "nx" if sub == "migrate" => (ops.len() > 1
            && !args.iter().any(|a| a.starts_with("--run-migrations")))
        .then_some(("JavaScript (npm)", UPGRADES)),
        "nuxi" | "nuxt" => matches!(ops.as_slice(), ["module" | "modules", "add", _, ..])
            .then_some(("JavaScript (npm)", ADDS)),
        // `npx expo install expo-camera` and `npx jsr add @std/path` write
        // the package into package.json.
        "npx" | "bunx" | "pnpx" | "expo" | "jsr" => {
            let ops = operands(args);
            let ops = if prog == "expo" || prog == "jsr" {
                &ops[..]
            } else {
                ops.get(1..)
                    .filter(|_| matches!(ops.first(), Some(&("expo" | "jsr"))))?
            };
            matches!(ops, ["install" | "add" | "i", _, ..]).then_some(("JavaScript (npm)", ADDS))
        }
        _ => to_release(&ops),
    }
}

/// Any tool told to move the project to a named release (`x upgrade
/// latest`, `x migrate next`, `x update canary`): a framework's upgrader,
/// which rewrites the manifest's versions.
fn to_release(ops: &[&str]) -> Option<(&'static str, &'static str)> {
    matches!(
        ops,
        [
            "upgrade" | "migrate" | "update",
            "latest" | "next" | "canary" | "beta" | "rc",
            ..
        ]
    )
    .then_some(("its framework", UPGRADES))
}

/// Manifest edits that are not a manager's add verb: `npm pkg set
/// dependencies.x=…` (or any `*Dependencies` key), `npm-upgrade` (which
/// rewrites package.json's ranges) and `pur` (which rewrites a requirements
/// file's pins).
pub(super) fn manifest_edit(prog: &str, args: &[String]) -> Option<(&'static str, &'static str)> {
    let ops = operands(args);
    match prog {
        "npm" | "pnpm" => match ops.as_slice() {
            ["pkg", "set", kvs @ ..] => kvs
                .iter()
                .any(|kv| {
                    kv.split_once(['.', '['])
                        .is_some_and(|(k, _)| k.ends_with("ependencies"))
                })
                .then_some(("JavaScript (npm)", ADDS)),
            _ => None,
        },
        "npm-upgrade" => {
            matches!(ops.first(), None | Some(&"check")).then_some(("JavaScript (npm)", UPGRADES))
        }
        "pur" => Some(("Python (pip)", UPGRADES)),
        _ => None,
    }
}

/// pip-tools' `--upgrade`/`-U` or `--upgrade-package`/`-P` (pip-compile,
/// `uv pip compile`): the pinned versions are raised.
pub(super) fn upgrades_lock(args: &[String]) -> bool {
    argv::has_flag(args, 'U', &["upgrade", "upgrade-package"])
        || args
            .iter()
            .any(|a| a == "-P" || a.starts_with("--upgrade-package="))
}

/// Julia's `Pkg.add(…)`/`Pkg.update(…)`, R's `install.packages(…)`,
/// `renv::install(…)`, `pak::pkg_install(…)`, `remotes::`/`devtools::install_*`
/// and `renv::update(…)` in a one-liner's code.
fn code_installs(args: &[String]) -> Option<(&'static str, &'static str)> {
    const ADD: &[(&str, &str)] = &[
        ("Pkg.add(", "Julia (Pkg)"),
        ("install.packages(", "R"),
        ("renv::install(", "R (renv)"),
        ("pak::pkg_install(", "R (pak)"),
        ("pak::pak(", "R (pak)"),
        ("remotes::install_", "R"),
        ("devtools::install_", "R"),
    ];
    const UP: &[(&str, &str)] = &[
        ("Pkg.update(", "Julia (Pkg)"),
        ("renv::update(", "R (renv)"),
        ("update.packages(", "R"),
    ];
    let code = args.iter().find(|a| a.contains('('))?;
    if let Some(eco) = super::verbs::code_removes(code) {
        return Some((eco, REMOVES));
    }
    if let Some((_, eco)) = ADD.iter().find(|(k, _)| code.contains(k)) {
        return Some((eco, ADDS));
    }
    UP.iter()
        .find(|(k, _)| code.contains(k))
        .map(|(_, eco)| (*eco, UPGRADES))
}

#[cfg(test)]
mod tests {
    use crate::shell::parse;

    /// As the guard judges: a help form or a dry run (`effects::inert`)
    /// is set aside before the change is read.
    fn change(line: &str) -> Option<&'static str> {
        parse(line)
            .iter()
            .filter(|c| !crate::guards::effects::inert(c))
            .find_map(super::super::dependency_change)
            .map(|(_, a)| a)
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
