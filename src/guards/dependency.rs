//! `dependency`: a write to a dependency manifest or lockfile, or a shell
//! command that adds, upgrades or removes a dependency (a removal rewrites
//! the manifest and the lockfile as an add does). Installing what is already
//! declared (`npm ci`, `npm install`, `pip install -r requirements.txt`,
//! `cargo build`, `bundle install`, ...) stays quiet, and so does an edit of
//! a manifest that changes no dependency, source or registry (its version,
//! description, scripts or tool settings: see [`super::manifest_view`]).

use super::argv::{self, operands, program};

mod managers;
mod verbs;
use super::{Finding, Guard};
use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::target;

pub struct Dependency;

impl Guard for Dependency {
    fn name(&self) -> &'static str {
        "dependency"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["subject", "action", "ecosystem", "path", "command"]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        for t in ctx.write_targets() {
            if t.as_str().contains("/node_modules/") {
                continue;
            }
            if let Some((eco, lock)) = manifest(t.file_name(), t.as_str()) {
                if !lock && !super::manifest_view::changes_dependencies(ctx, t) {
                    continue;
                }
                let action = if lock {
                    "edits a lockfile by hand (the package manager normally writes it)"
                } else {
                    "changes a dependency manifest"
                };
                return Some(
                    Finding::new(
                        t.as_str(),
                        format!(
                            "{} is a {eco} {}",
                            t.shown,
                            if lock { "lockfile" } else { "manifest" }
                        ),
                    )
                    .var("subject", t.shown.clone())
                    .var("path", t.shown.clone())
                    .var("command", "")
                    .var("action", action)
                    .var("ecosystem", eco),
                );
            }
        }
        // A manifest written through the shell (a redirection, `tee`,
        // `sed -i`, `cp`, `mv`): harnesses without a file-write tool (Codex
        // with a custom provider) write files this way.
        // An install on another machine (`ssh host 'npm i x'`) changes no
        // manifest here.
        let local = |c: &SimpleCommand| !crate::shell::remote::is_remote(c);
        for (cmd, writes) in ctx.shell_commands().iter().zip(ctx.shell_write_paths()) {
            if !local(cmd) {
                continue;
            }
            for raw in writes {
                let t = target::target_for(ctx, raw);
                // (A scratch copy in the temporary directory, outside the
                // project, is no project's manifest: `uv export > /tmp/r.txt`.)
                if let Some((eco, lock)) = manifest(t.file_name(), t.as_str())
                    && !t.as_str().contains("/node_modules/")
                    && (t.inside_project || !argv::is_temp(ctx, &t))
                {
                    let action = if lock {
                        "writes a lockfile from the shell (the package manager normally writes it)"
                    } else {
                        "writes a dependency manifest from the shell"
                    };
                    return Some(
                        Finding::new(t.as_str(), format!("`{}` {action} ({eco})", t.shown))
                            .var("subject", t.shown.clone())
                            .var("path", t.shown.clone())
                            .var("command", argv::shown(cmd))
                            .var("action", action)
                            .var("ecosystem", eco),
                    );
                }
            }
        }
        for cmd in ctx.shell_commands() {
            // `npm install --dry-run x`, `cargo add x --dry-run`: a preview.
            if super::effects::inert(cmd) || !local(cmd) {
                continue;
            }
            if let Some((eco, action)) = dependency_change(cmd) {
                let shown = argv::shown(cmd);
                return Some(
                    Finding::new(
                        format!("{eco}:{shown}"),
                        format!("`{shown}` {action} ({eco})"),
                    )
                    .var("subject", shown.clone())
                    .var("command", shown)
                    .var("path", "")
                    .var("action", action)
                    .var("ecosystem", eco),
                );
            }
        }
        None
    }
}

/// Manifests and lockfiles by exact file name: (name, ecosystem, lockfile).
const FILES: &[(&str, &str, bool)] = &[
    ("Cargo.toml", "Rust (Cargo)", false),
    ("Cargo.lock", "Rust (Cargo)", true),
    ("package.json", "JavaScript (npm)", false),
    ("package-lock.json", "JavaScript (npm)", true),
    ("npm-shrinkwrap.json", "JavaScript (npm)", true),
    ("pnpm-lock.yaml", "JavaScript (pnpm)", true),
    ("pnpm-workspace.yaml", "JavaScript (pnpm)", false),
    ("yarn.lock", "JavaScript (Yarn)", true),
    ("bun.lock", "JavaScript (Bun)", true),
    ("bun.lockb", "JavaScript (Bun)", true),
    ("deno.json", "Deno", false),
    ("deno.jsonc", "Deno", false),
    ("deno.lock", "Deno", true),
    ("pyproject.toml", "Python", false),
    ("Pipfile", "Python (Pipenv)", false),
    ("Pipfile.lock", "Python (Pipenv)", true),
    ("poetry.lock", "Python (Poetry)", true),
    ("uv.lock", "Python (uv)", true),
    ("pdm.lock", "Python (PDM)", true),
    ("setup.cfg", "Python", false),
    ("setup.py", "Python", false),
    ("environment.yml", "Python (conda)", false),
    ("pixi.toml", "Python/conda (pixi)", false),
    ("pixi.lock", "Python/conda (pixi)", true),
    ("gleam.toml", "Gleam", false),
    ("elm.json", "Elm", false),
    ("build.zig.zon", "Zig", false),
    ("environment.yaml", "Python (conda)", false),
    ("go.mod", "Go", false),
    ("go.sum", "Go", true),
    ("go.work", "Go", false),
    ("go.work.sum", "Go", true),
    ("Gemfile", "Ruby (Bundler)", false),
    ("Gemfile.lock", "Ruby (Bundler)", true),
    ("composer.json", "PHP (Composer)", false),
    ("composer.lock", "PHP (Composer)", true),
    ("pom.xml", "Java (Maven)", false),
    ("build.gradle", "JVM (Gradle)", false),
    ("build.gradle.kts", "JVM (Gradle)", false),
    ("settings.gradle", "JVM (Gradle)", false),
    ("settings.gradle.kts", "JVM (Gradle)", false),
    ("gradle.lockfile", "JVM (Gradle)", true),
    ("libs.versions.toml", "JVM (Gradle)", false),
    ("build.sbt", "Scala (sbt)", false),
    ("project.clj", "Clojure", false),
    ("deps.edn", "Clojure", false),
    ("mix.exs", "Elixir (Mix)", false),
    ("mix.lock", "Elixir (Mix)", true),
    ("rebar.config", "Erlang (rebar3)", false),
    ("rebar.lock", "Erlang (rebar3)", true),
    ("Package.swift", "Swift (SwiftPM)", false),
    ("Package.resolved", "Swift (SwiftPM)", true),
    ("Podfile", "CocoaPods", false),
    ("Podfile.lock", "CocoaPods", true),
    ("Cartfile", "Carthage", false),
    ("Cartfile.resolved", "Carthage", true),
    ("pubspec.yaml", "Dart (pub)", false),
    ("pubspec.lock", "Dart (pub)", true),
    ("packages.config", ".NET (NuGet)", false),
    ("packages.lock.json", ".NET (NuGet)", true),
    ("Directory.Packages.props", ".NET (NuGet)", false),
    ("paket.dependencies", ".NET (Paket)", false),
    ("paket.lock", ".NET (Paket)", true),
    ("stack.yaml", "Haskell (Stack)", false),
    ("cabal.project", "Haskell (Cabal)", false),
    ("cabal.project.freeze", "Haskell (Cabal)", true),
    ("conanfile.txt", "C/C++ (Conan)", false),
    ("conanfile.py", "C/C++ (Conan)", false),
    ("vcpkg.json", "C/C++ (vcpkg)", false),
    ("cpanfile", "Perl", false),
    ("cpanfile.snapshot", "Perl", true),
    ("DESCRIPTION", "R", false),
    ("renv.lock", "R (renv)", true),
    ("flake.lock", "Nix", true),
];

/// Manifests recognised by extension: (suffix, ecosystem).
const SUFFIXES: &[(&str, &str)] = &[
    (".csproj", ".NET (NuGet)"),
    (".fsproj", ".NET (NuGet)"),
    (".vbproj", ".NET (NuGet)"),
    (".gemspec", "Ruby (RubyGems)"),
    (".cabal", "Haskell (Cabal)"),
    (".nimble", "Nim"),
    (".rockspec", "Lua (LuaRocks)"),
];

/// The ecosystem of a manifest file name, and whether it is a lockfile.
pub fn manifest(name: &str, full: &str) -> Option<(&'static str, bool)> {
    if let Some((_, eco, lock)) = FILES.iter().find(|(n, _, _)| *n == name) {
        return Some((eco, *lock));
    }
    if let Some((_, eco)) = SUFFIXES
        .iter()
        .find(|(s, _)| name.len() > s.len() && name.ends_with(s))
    {
        return Some((eco, false));
    }
    let lower = name.to_ascii_lowercase();
    // pip's requirement and constraint files by what the name says, in any
    // spelling (`requirements.txt`, `dev-requirements.txt`,
    // `requirements-test.in`, pip-tools' `.in` sources).
    if (lower.ends_with(".txt") || lower.ends_with(".in"))
        && (lower.contains("requirements") || lower.starts_with("constraints"))
    {
        return Some(("Python (pip)", false));
    }
    // requirements/dev.txt, requirements/base.in
    if (lower.ends_with(".txt") || lower.ends_with(".in")) && full.contains("/requirements/") {
        return Some(("Python (pip)", false));
    }
    None
}

pub(super) const ADDS: &str = "adds a dependency";
pub(super) const UPGRADES: &str = "upgrades dependencies";
pub(super) const REMOVES: &str = "removes a dependency";

/// Whether a command adds, upgrades or removes a dependency: (ecosystem,
/// action).
pub fn dependency_change(cmd: &SimpleCommand) -> Option<(&'static str, &'static str)> {
    let prog = program(cmd);
    let found = change_by(&prog, cmd.args());
    if found.is_some() {
        return found;
    }
    // The tool a package runner starts (`npx nx add x`, `pnpm dlx astro add
    // react`, `corepack pnpm add zod`, `bunx gleam add lustre`) is read as if
    // run directly.
    let (tool, rest) = super::effects::tool(cmd);
    if tool != prog {
        // `npx npm-check-updates@latest -u`, `bunx @scope/tool@1 add x`.
        let bare = match tool.rfind('@') {
            Some(k) if k > 0 => &tool[..k],
            _ => tool.as_str(),
        };
        return change_by(bare, rest);
    }
    None
}

/// [`dependency_change`] for a program's name and its words.
fn change_by(prog: &str, args: &[String]) -> Option<(&'static str, &'static str)> {
    // Clients that take npm's or Yarn's commands under another name.
    let prog = match prog {
        "cnpm" | "tnpm" | "vlt" => "npm",
        "yarnpkg" => "yarn",
        p => p,
    }
    .to_string();
    // `cargo +nightly add x`: a toolchain selector comes before the
    // subcommand.
    let args = match args.first() {
        Some(t) if prog == "cargo" && t.starts_with('+') => &args[1..],
        _ => args,
    };
    let sub = operands(args).first().copied().unwrap_or_default();
    let global = argv::has_flag(args, 'g', &["global"]);
    let found = match prog.as_str() {
        "npm" | "pnpm" | "yarn" | "bun" | "deno" => {
            let args = js_workspace_args(&prog, args);
            let sub = operands(args).first().copied().unwrap_or_default();
            javascript(&prog, args, sub, global)
        }
        "pip" | "pip3" | "python" | "python3" | "py" | "uv" | "poetry" | "pdm" | "pipenv"
        | "conda" | "mamba" | "micromamba" => python(&prog, args, sub),
        _ => other(&prog, args, sub),
    };
    // A remove verb, and the spellings the tables above do not read, past
    // a JavaScript workspace selector (`pnpm --filter api remove zod`).
    let family_args = match prog.as_str() {
        "npm" | "pnpm" | "yarn" | "bun" | "deno" => js_workspace_args(&prog, args),
        _ => args,
    };
    found
        .or_else(|| managers::manifest_edit(&prog, args))
        .or_else(|| verbs::family(&prog, family_args))
}

/// The words from the subcommand on, past a workspace selector before it
/// (`pnpm --filter web add x`, `pnpm -C app add x`, `npm -w web install
/// x`, `yarn workspace web add x`): the package is added to that
/// workspace, which is the project too.
fn js_workspace_args<'a>(prog: &str, args: &'a [String]) -> &'a [String] {
    let mut i = 0;
    let mut selected = false;
    while let Some(a) = args.get(i) {
        let selector = match a.as_str() {
            "--filter" | "-F" | "-C" | "--dir" | "--prefix" | "--cwd" | "--workspace" => true,
            "-w" => prog == "npm",
            "workspace" => prog == "yarn",
            _ => false,
        };
        if selector {
            selected = true;
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    if selected {
        &args[i.min(args.len())..]
    } else {
        args
    }
}

/// Operands after the subcommand: the packages (an option's value is none:
/// `pnpm install --filter web` installs what is declared).
pub(super) fn names_packages(args: &[String]) -> bool {
    const WITH_VALUE: &[&str] = &[
        "--filter",
        "-F",
        "-C",
        "--dir",
        "--prefix",
        "--cwd",
        "--workspace",
        "--registry",
        "--tag",
        "--loglevel",
        "--reporter",
        "--network-concurrency",
    ];
    let mut skip = false;
    let mut done = false;
    // After `--` every word is an operand (`npm i -- -odd-name`).
    args.iter()
        .filter(|a| {
            if done {
                return true;
            }
            if a.as_str() == "--" {
                done = true;
                return false;
            }
            if std::mem::take(&mut skip) {
                return false;
            }
            if WITH_VALUE.contains(&a.as_str()) {
                skip = true;
                return false;
            }
            !a.starts_with('-')
        })
        .count()
        > 1
}

/// npm, pnpm, Yarn, Bun, Deno (a global install changes no project).
fn javascript(
    prog: &str,
    args: &[String],
    sub: &str,
    global: bool,
) -> Option<(&'static str, &'static str)> {
    let pkgs = || names_packages(args);
    // `npm audit fix`, `pnpm audit --fix`, `yarn npm audit --fix`: the
    // lockfile (and with pnpm the manifest's overrides) moves to the fixed
    // versions; a plain `audit` only reports.
    let ops = operands(args);
    if ops.iter().take(2).any(|w| *w == "audit")
        && (ops.contains(&"fix") || args.iter().any(|a| a == "--fix"))
    {
        let label = match prog {
            "pnpm" => "JavaScript (pnpm)",
            "yarn" => "JavaScript (Yarn)",
            "bun" => "JavaScript (Bun)",
            _ => "JavaScript (npm)",
        };
        return Some((label, UPGRADES));
    }
    match prog {
        "npm" => match sub {
            "install" | "i" | "in" | "ins" | "inst" | "insta" | "instal" | "isnt" | "isntall"
            | "add" => (!global && pkgs()).then_some(("JavaScript (npm)", ADDS)),
            "update" | "up" | "upgrade" | "udpate" => {
                (!global).then_some(("JavaScript (npm)", UPGRADES))
            }
            // `npm audit fix` rewrites the lockfile (and, with `--force`,
            // the manifest) to the fixed versions.
            "audit" if operands(args).get(1) == Some(&"fix") => {
                Some(("JavaScript (npm)", UPGRADES))
            }
            _ => None,
        },
        "pnpm" => match sub {
            "add" => (!global).then_some(("JavaScript (pnpm)", ADDS)),
            "install" | "i" => (!global && pkgs()).then_some(("JavaScript (pnpm)", ADDS)),
            "update" | "up" | "upgrade" => (!global).then_some(("JavaScript (pnpm)", UPGRADES)),
            _ => None,
        },
        "yarn" => match sub {
            "add" => Some(("JavaScript (Yarn)", ADDS)),
            "upgrade" | "up" | "upgrade-interactive" => Some(("JavaScript (Yarn)", UPGRADES)),
            _ => None,
        },
        "bun" => match sub {
            "add" | "a" => (!global).then_some(("JavaScript (Bun)", ADDS)),
            "install" | "i" => (!global && pkgs()).then_some(("JavaScript (Bun)", ADDS)),
            "update" => Some(("JavaScript (Bun)", UPGRADES)),
            _ => None,
        },
        // Deno 2's `install NAME` adds NAME to deno.json; `-e`/`--entrypoint`
        // only caches a module's imports.
        "deno" => match sub {
            "add" => Some(("Deno", ADDS)),
            "install" | "i"
                if !global && pkgs() && !args.iter().any(|a| a == "-e" || a == "--entrypoint") =>
            {
                Some(("Deno", ADDS))
            }
            _ => None,
        },
        _ => None,
    }
}

/// pip (also as `python -m pip` and `uv pip`), uv, Poetry, PDM, Pipenv, conda.
fn python(prog: &str, args: &[String], sub: &str) -> Option<(&'static str, &'static str)> {
    let pkgs = || names_packages(args);
    match prog {
        "pip" | "pip3" => pip(args),
        "python" | "python3" | "py" => match args {
            [m, module, rest @ ..] if m == "-m" && (module == "pip" || module == "pip3") => {
                pip(rest)
            }
            _ => None,
        },
        "uv" => match sub {
            "add" => Some(("Python (uv)", ADDS)),
            "pip" if operands(args).get(1) == Some(&"compile") => {
                managers::upgrades_lock(args).then_some(("Python (uv)", UPGRADES))
            }
            "pip" => pip(&args[1..]).map(|_| ("Python (uv)", ADDS)),
            "lock" | "sync"
                if argv::has_flag(args, 'U', &["upgrade", "upgrade-package"])
                    || args.iter().any(|a| a == "-P") =>
            {
                Some(("Python (uv)", UPGRADES))
            }
            _ => None,
        },
        "poetry" | "pdm" => match sub {
            "add" => Some(("Python", ADDS)),
            "update" => Some(("Python", UPGRADES)),
            _ => None,
        },
        "pipenv" => match sub {
            "install" if pkgs() => Some(("Python (Pipenv)", ADDS)),
            "update" | "upgrade" => Some(("Python (Pipenv)", UPGRADES)),
            _ => None,
        },
        "conda" | "mamba" | "micromamba" => match sub {
            "install" if pkgs() => Some(("Python (conda)", ADDS)),
            "update" | "upgrade" => Some(("Python (conda)", UPGRADES)),
            _ => None,
        },
        _ => None,
    }
}

/// Every other ecosystem: Cargo, Go, Ruby, PHP, .NET, Java, Elixir, Swift,
/// Dart, CocoaPods.
fn other(prog: &str, args: &[String], sub: &str) -> Option<(&'static str, &'static str)> {
    let pkgs = || names_packages(args);
    match prog {
        "cargo" => match sub {
            "add" => Some(("Rust (Cargo)", ADDS)),
            "update" | "upgrade" => Some(("Rust (Cargo)", UPGRADES)),
            _ => None,
        },
        "go" => match sub {
            "get" if pkgs() || argv::has_flag(args, 'u', &[]) => Some(("Go", ADDS)),
            _ => None,
        },
        "gem" => match sub {
            "install" | "i" if !args.iter().any(|a| a == "--user-install") => {
                Some(("Ruby (RubyGems)", ADDS))
            }
            "update" => Some(("Ruby (RubyGems)", UPGRADES)),
            _ => None,
        },
        "bundle" | "bundler" => match sub {
            "add" => Some(("Ruby (Bundler)", ADDS)),
            "update" => Some(("Ruby (Bundler)", UPGRADES)),
            "lock" if args.iter().any(|a| a.starts_with("--update")) => {
                Some(("Ruby (Bundler)", UPGRADES))
            }
            _ => None,
        },
        "composer" => match sub {
            "require" | "req" => Some(("PHP (Composer)", ADDS)),
            "update" | "upgrade" | "u" | "bump" => Some(("PHP (Composer)", UPGRADES)),
            _ => None,
        },
        "dotnet" => match operands(args).as_slice() {
            ["add", _, "package", ..] | ["add", "package", ..] => Some((".NET (NuGet)", ADDS)),
            ["outdated", ..] if argv::has_flag(args, 'u', &["upgrade"]) => {
                Some((".NET (NuGet)", UPGRADES))
            }
            _ => None,
        },
        "nuget" => (sub == "install" || sub == "update").then_some((".NET (NuGet)", ADDS)),
        "mvn" | "mvnw" | "./mvnw" => args
            .iter()
            .any(|a| a.starts_with("versions:use-") || a.starts_with("versions:update-"))
            .then_some(("Java (Maven)", UPGRADES)),
        "mix" => match sub {
            "deps.update" | "deps.unlock" => Some(("Elixir (Mix)", UPGRADES)),
            _ => None,
        },
        "swift" => match operands(args).as_slice() {
            ["package", "update", ..] => Some(("Swift (SwiftPM)", UPGRADES)),
            ["package", "add-dependency", ..] => Some(("Swift (SwiftPM)", ADDS)),
            _ => None,
        },
        "dart" | "flutter" => match operands(args).as_slice() {
            ["pub", "add", ..] => Some(("Dart (pub)", ADDS)),
            ["pub", "upgrade", ..] => Some(("Dart (pub)", UPGRADES)),
            _ => None,
        },
        "pod" => (sub == "update").then_some(("CocoaPods", UPGRADES)),
        _ => managers::more_managers(prog, args, sub),
    }
}

/// `pip install` naming at least one package (not `-r file`, `-e .`, a
/// local path or a wheel on disk).
fn pip(args: &[String]) -> Option<(&'static str, &'static str)> {
    let mut it = args.iter();
    let sub = it.by_ref().find(|a| !a.starts_with('-'))?;
    // `--user` installs into the user's own site folder, never the
    // project's environment (a virtual environment refuses it): a tool
    // install, like `pipx` or `npm i -g`.
    if sub != "install" || args.iter().any(|a| a == "--user") {
        return None;
    }
    const WITH_VALUE: &[&str] = &[
        "-r",
        "--requirement",
        "-c",
        "--constraint",
        "-e",
        "--editable",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-t",
        "--target",
        "-f",
        "--find-links",
        "--prefix",
        "--root",
        "--trusted-host",
        "--platform",
        "--python-version",
        "--implementation",
        "--abi",
        "--only-binary",
        "--no-binary",
        "--progress-bar",
        "--src",
        "--cache-dir",
        "--log",
        "--proxy",
        "--timeout",
        "--retries",
        "--exists-action",
        "--cert",
        "--client-cert",
        "--report",
        "--config-settings",
        "-C",
        "--global-option",
        "--python",
        "-p",
        "--group",
        "--upgrade-strategy",
    ];
    let mut skip = false;
    for a in it {
        if skip {
            skip = false;
            continue;
        }
        if a.starts_with('-') {
            skip = WITH_VALUE.contains(&a.as_str());
            continue;
        }
        // An archive or wheel on disk is local (the project's own build);
        // one named by a URL is fetched from wherever the URL points.
        let local = !a.contains("://")
            && (a == "."
                || a.starts_with("./")
                || a.starts_with("../")
                || a.starts_with('/')
                || a.starts_with('~')
                || a.ends_with(".whl")
                || a.ends_with(".tar.gz"));
        if !local {
            return Some(("Python (pip)", ADDS));
        }
    }
    None
}
