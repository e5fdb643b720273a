//! Launchers: programs that set something up (an environment, secrets, a
//! user, a session, a toolchain) and then run a command given to them,
//! by subcommand (`op run -- cmd`, `nix develop -c cmd`, `conda run -n env
//! cmd`) or by a script option (`nix-shell --run '…'`, `sops exec-env f
//! '…'`, `tmux new -d '…'`). A second table beside [`super::wrappers`],
//! read the same way.

use super::lexer::quote;
use super::options::skip_options;
use super::unwrap::Unwrapped;
use super::wrappers::Rule;

const fn opts(short: &'static str, long: &'static [&'static str], operands: usize) -> Rule {
    Rule::Options {
        short,
        long,
        operands,
    }
}

/// Every launcher, by program name.
pub(super) const LAUNCHERS: &[(&[&str], Rule)] = &[
    (
        &["dbus-run-session"],
        opts("", &["config-file", "dbus-daemon"], 0),
    ),
    (
        &["s6-setuidgid", "setuidgid", "envuidgid"],
        opts("", &[], 1),
    ),
    (&["envdir"], opts("", &[], 1)),
    (&["softlimit"], opts("amdsflcoprt", &[], 0)),
    (
        &["run0"],
        opts(
            "uDg",
            &[
                "user",
                "group",
                "chdir",
                "unit",
                "property",
                "description",
                "slice",
                "setenv",
                "nice",
                "machine",
                "background",
            ],
            0,
        ),
    ),
    (
        // `rtk` (an output-compacting proxy for coding agents) runs the
        // command after it: `rtk git status`.
        &[
            "chronic",
            "ifne",
            "with-contenv",
            "nq",
            "flatpak-spawn",
            "rtk",
        ],
        opts("", &[], 0),
    ),
    (&["lckdo"], opts("w", &[], 1)),
    (
        &["tini", "dumb-init", "catatonit"],
        opts("pelr", &["rewrite"], 0),
    ),
    (&["cross-env"], opts("", &[], 0)),
    (&["cross-env-shell"], Rule::Custom(joined)),
    (
        &["env-cmd"],
        opts("fre", &["file", "rc-file", "environments"], 0),
    ),
    (&["dotenv"], Rule::Custom(dotenv)),
    // `envchain NAMESPACE cmd …` runs the command with the namespace's
    // secrets in its environment.
    (&["envchain"], opts("", &[], 1)),
    (
        &["summon"],
        opts("pfDi", &["provider", "yaml", "ignore"], 0),
    ),
    (
        &["asdf", "rbenv", "pyenv", "nodenv", "goenv", "plenv", "jenv"],
        Rule::Custom(exec_sub),
    ),
    (&["direnv"], Rule::Custom(direnv)),
    (&["nix-shell"], Rule::Custom(nix_shell)),
    (&["nix"], Rule::Custom(nix)),
    (&["conda", "mamba", "micromamba"], Rule::Custom(conda)),
    (
        &[
            "op",
            "doppler",
            "infisical",
            "teller",
            "berglas",
            "chamber",
            "aws-vault",
            "aws-okta",
            "saml2aws",
            "dotenvx",
            "devbox",
            "mise",
            "rtx",
            "distrobox-enter",
            "varlock",
        ],
        Rule::Custom(run_dashdash),
    ),
    (
        &["railway", "foreman", "honcho", "heroku", "toolbox"],
        Rule::Custom(run_sub),
    ),
    (&["sops"], Rule::Custom(sops)),
    (
        &["bundle", "bundler", "poetry", "pipenv", "pdm", "uv"],
        Rule::Custom(project_runner),
    ),
    (&["appraisal"], Rule::Custom(appraisal)),
    (
        &["k3s", "microk8s", "minikube", "k0s"],
        Rule::Custom(bundled_tool),
    ),
    (&["cargo"], Rule::Custom(cargo)),
    (&["hyperfine"], Rule::Custom(hyperfine)),
    (&["tmux"], Rule::Custom(tmux)),
    (&["screen"], opts("SceLpTh", &[], 0)),
    (&["wsl", "wsl.exe"], Rule::Custom(wsl)),
    (&["entr"], Rule::Custom(entr)),
    (
        &["nodemon", "watchman-make", "chokidar", "chokidar-cli"],
        Rule::Custom(watcher_script),
    ),
    (
        &["watchexec", "reflex", "onchange", "watchfiles"],
        Rule::Custom(watcher_dashdash),
    ),
];

/// `entr [-acdnprsz] utility …` runs the utility on each change; with `-s`
/// its first word is a shell script.
fn entr(argv: &[String]) -> Unwrapped {
    let i = skip_options(argv, 1, "", &[]);
    if i >= argv.len() {
        return Unwrapped::No;
    }
    let script = argv[1..i]
        .iter()
        .any(|a| !a.starts_with("--") && a.contains('s'));
    if script {
        Unwrapped::Script(argv[i].clone())
    } else {
        Unwrapped::At(i)
    }
}

/// File watchers that run a shell line on each change, given in an option:
/// `nodemon --exec 'cmd'`, `watchman-make -p '*.c' --run 'cmd'`, `chokidar
/// '*.js' -c 'cmd'`.
fn watcher_script(argv: &[String]) -> Unwrapped {
    script_option(argv, &["--exec", "-x", "--run", "-r", "-c", "--command"])
        .map_or(Unwrapped::No, Unwrapped::Script)
}

/// File watchers that run the command after `--` on each change
/// (`watchexec -e rs -- cmd`, `reflex -r re -- cmd`, `onchange '*.md' --
/// cmd`): read as a shell line, the way they run it.
fn watcher_dashdash(argv: &[String]) -> Unwrapped {
    match argv.iter().position(|a| a == "--") {
        // One word is a shell line (`-- 'make test'`); several are the
        // command's own words.
        Some(k) if k + 2 == argv.len() => Unwrapped::Script(argv[k + 1].clone()),
        Some(k) if k + 1 < argv.len() => Unwrapped::At(k + 1),
        _ => Unwrapped::No,
    }
}

/// `cross-env-shell A=1 'script'`: the words are a script.
fn joined(argv: &[String]) -> Unwrapped {
    let rest = argv.get(1..).unwrap_or(&[]);
    if rest.is_empty() {
        Unwrapped::No
    } else {
        Unwrapped::Script(rest.join(" "))
    }
}

/// `dotenv` is two tools under one name: Node's dotenv-cli runs the
/// command after its options (`dotenv -e .env.test -- jest`), Python's
/// python-dotenv has verbs of its own (`dotenv -f .env list`, `dotenv get
/// KEY`: they print the file's values) and runs a command with `dotenv run
/// cmd`. The verbs are read as Python's, anything else as Node's launcher.
fn dotenv(argv: &[String]) -> Unwrapped {
    // Both tools' valued short options: Node's -e/-c/-v/-p, Python's
    // -f/-q/-e.
    let at = skip_options(argv, 1, "ecvpfq", &["file", "quote", "export"]);
    match argv.get(at).map(String::as_str) {
        Some("list" | "get" | "set" | "unset") => Unwrapped::No,
        Some("run") => Unwrapped::At(skip_options(argv, at + 1, "", &[])),
        _ => Unwrapped::At(at),
    }
}

/// `asdf exec cmd …`, `rbenv exec cmd …`.
fn exec_sub(argv: &[String]) -> Unwrapped {
    match argv.get(1).map(String::as_str) {
        Some("exec") => Unwrapped::At(skip_options(argv, 2, "", &[])),
        _ => Unwrapped::No,
    }
}

/// `direnv exec DIR cmd …`.
fn direnv(argv: &[String]) -> Unwrapped {
    match argv.get(1).map(String::as_str) {
        Some("exec") if argv.len() > 3 => Unwrapped::AtIn(3, argv[2].clone()),
        _ => Unwrapped::No,
    }
}

/// The value of a script option (`--run '…'`, `--command=…`, `-C cmd`);
/// also the remote command of `fly ssh console -C` (`remote.rs`).
pub(super) fn script_option(argv: &[String], names: &[&str]) -> Option<String> {
    let mut it = argv.iter();
    while let Some(a) = it.next() {
        if names.contains(&a.as_str()) {
            return it.next().cloned();
        }
        if let Some(v) = names
            .iter()
            .filter(|n| n.starts_with("--"))
            .find_map(|n| a.strip_prefix(n).and_then(|r| r.strip_prefix('=')))
        {
            return Some(v.to_string());
        }
    }
    None
}

/// `nix-shell … --run 'script'` or `--command 'script'`.
fn nix_shell(argv: &[String]) -> Unwrapped {
    script_option(argv, &["--run", "--command"]).map_or(Unwrapped::No, Unwrapped::Script)
}

/// `nix develop … -c cmd …`, `nix shell pkgs … --command cmd …`.
fn nix(argv: &[String]) -> Unwrapped {
    if !matches!(argv.get(1).map(String::as_str), Some("develop" | "shell")) {
        return Unwrapped::No;
    }
    argv.iter()
        .position(|a| a == "-c" || a == "--command")
        .map_or(Unwrapped::No, |k| Unwrapped::At(k + 1))
}

/// `conda run [-n env | -p prefix | --cwd dir] cmd …`.
fn conda(argv: &[String]) -> Unwrapped {
    if argv.get(1).map(String::as_str) != Some("run") {
        return Unwrapped::No;
    }
    Unwrapped::At(skip_options(argv, 2, "np", &["name", "prefix", "cwd"]))
}

/// `op run [options] -- cmd …`, `doppler run --command 'script'`,
/// `aws-vault exec profile -- cmd`, `mise exec tool@1 -- cmd`: the
/// command after `--`, or a script option's value, once the subcommand is
/// one that runs something.
fn run_dashdash(argv: &[String]) -> Unwrapped {
    const SUBS: &[&str] = &["run", "exec", "x", "exec-env", "shell"];
    let prog = super::program_name(argv.first().map_or("", String::as_str));
    let sub_at = argv
        .iter()
        .skip(1)
        .take(2)
        .position(|a| SUBS.contains(&a.as_str()));
    let runs = sub_at.is_some() || matches!(prog.as_str(), "distrobox-enter");
    if !runs {
        return Unwrapped::No;
    }
    if let Some(k) = argv.iter().position(|a| a == "--") {
        return if k + 1 < argv.len() {
            Unwrapped::At(k + 1)
        } else {
            Unwrapped::No
        };
    }
    let names: &[&str] = match prog.as_str() {
        "doppler" | "infisical" => &["--command"],
        "mise" | "rtx" => &["-c", "--command"],
        _ => &[],
    };
    script_option(argv, names).map_or(Unwrapped::No, Unwrapped::Script)
}

/// `railway run cmd …`, `foreman run cmd`, `heroku local:run cmd`,
/// `toolbox run cmd`.
fn run_sub(argv: &[String]) -> Unwrapped {
    match argv.get(1).map(String::as_str) {
        Some("run" | "local:run") => Unwrapped::At(skip_options(
            argv,
            2,
            "secd",
            &["service", "environment", "container", "distro"],
        )),
        _ => Unwrapped::No,
    }
}

/// `sops exec-env FILE 'script'`, `sops exec-file FILE 'script {}'`.
fn sops(argv: &[String]) -> Unwrapped {
    if !matches!(
        argv.get(1).map(String::as_str),
        Some("exec-env" | "exec-file")
    ) {
        return Unwrapped::No;
    }
    let ops: Vec<&String> = argv[2..].iter().filter(|a| !a.starts_with('-')).collect();
    ops.get(1)
        .map_or(Unwrapped::No, |s| Unwrapped::Script((*s).clone()))
}

/// `hyperfine [options] 'cmd' …`: every command (and `--prepare`,
/// `--setup`, `--cleanup` scripts) runs, again and again.
fn hyperfine(argv: &[String]) -> Unwrapped {
    const SCRIPTS: &[&str] = &["-p", "--prepare", "-s", "--setup", "-c", "--cleanup"];
    const VALUES: &[&str] = &[
        "-w",
        "--warmup",
        "-r",
        "--runs",
        "-m",
        "--min-runs",
        "-M",
        "--max-runs",
        "-S",
        "--shell",
        "-n",
        "--command-name",
        "-u",
        "--time-unit",
        "--style",
        "--export-json",
        "--export-markdown",
        "--export-csv",
        "--export-asciidoc",
        "--export-orgmode",
        "--output",
        "--input",
        "-P",
        "-D",
        "-L",
        "--parameter-scan",
        "--parameter-list",
    ];
    let mut scripts = Vec::new();
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        if SCRIPTS.contains(&a.as_str()) {
            scripts.extend(argv.get(i + 1).cloned());
            i += 2;
        } else if VALUES.contains(&a.as_str()) {
            i += 2;
        } else {
            if !a.starts_with('-') {
                scripts.push(a.clone());
            }
            i += 1;
        }
    }
    if scripts.is_empty() {
        Unwrapped::No
    } else {
        Unwrapped::Script(scripts.join("\n"))
    }
}

/// `tmux new -d 'script'`, `tmux split-window 'script'`, `tmux run-shell
/// 'script'`, `tmux send-keys -t s 'script' Enter`: the shell command a
/// pane (or the server) runs.
fn tmux(argv: &[String]) -> Unwrapped {
    let i = skip_options(argv, 1, "LSfc", &[]);
    let Some(sub) = argv.get(i) else {
        return Unwrapped::No;
    };
    let keys = matches!(sub.as_str(), "send-keys" | "send");
    if !keys
        && !matches!(
            sub.as_str(),
            "new-session"
                | "new"
                | "new-window"
                | "neww"
                | "split-window"
                | "splitw"
                | "respawn-pane"
                | "respawnp"
                | "run-shell"
                | "run"
        )
    {
        return Unwrapped::No;
    }
    let start = skip_options(argv, i + 1, "cefFnstxyl", &[]);
    let words: Vec<&str> = argv
        .get(start..)
        .unwrap_or(&[])
        .iter()
        .map(String::as_str)
        .filter(|w| !(keys && matches!(*w, "Enter" | "C-m" | "KPEnter")))
        .collect();
    if words.is_empty() {
        Unwrapped::No
    } else {
        Unwrapped::Script(words.join(" "))
    }
}

/// `wsl [-d distro] [-u user] [--cd dir] [-e|--exec|--] cmd …` runs a Linux
/// command.
fn wsl(argv: &[String]) -> Unwrapped {
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        match a.as_str() {
            "-e" | "--exec" | "--" => return Unwrapped::At(i + 1),
            "-d" | "--distribution" | "-u" | "--user" | "--cd" => i += 2,
            _ if a.starts_with('-') => return Unwrapped::No,
            _ => return Unwrapped::At(i),
        }
    }
    Unwrapped::No
}

/// `bundle exec cmd …`, `poetry run cmd …`, `uv run [options] cmd …`,
/// `pipenv run`, `pdm run`: a command in the project's environment.
fn project_runner(argv: &[String]) -> Unwrapped {
    let sub = if matches!(
        argv.first().map(|a| super::program_name(a)).as_deref(),
        Some("bundle" | "bundler")
    ) {
        "exec"
    } else {
        "run"
    };
    if argv.get(1).map(String::as_str) != Some(sub) {
        return Unwrapped::No;
    }
    Unwrapped::At(skip_options(
        argv,
        2,
        "pC",
        &[
            "with",
            "with-editable",
            "with-requirements",
            "python",
            "package",
            "extra",
            "group",
            "only-group",
            "env-file",
            "directory",
            "project",
            "index",
            "default-index",
            "index-url",
            "extra-index-url",
            "find-links",
            "gemfile",
        ],
    ))
}

/// `appraisal NAME cmd …` runs the command under one appraisal's Gemfile
/// (`appraisal install|generate|list|clean` are its own).
fn appraisal(argv: &[String]) -> Unwrapped {
    match argv.get(1).map(String::as_str) {
        None | Some("install" | "generate" | "list" | "clean" | "update" | "help" | "version") => {
            Unwrapped::No
        }
        Some(_) => Unwrapped::At(2),
    }
}

/// `cargo msrv find|verify -- cmd …` runs the command for each toolchain;
/// `cargo watch -s 'script'` runs a shell line on each change.
fn cargo(argv: &[String]) -> Unwrapped {
    match argv.get(1).map(String::as_str) {
        Some("msrv") => argv
            .iter()
            .position(|a| a == "--")
            .filter(|k| k + 1 < argv.len())
            .map_or(Unwrapped::No, |k| Unwrapped::At(k + 1)),
        Some("watch") => {
            script_option(argv, &["-s", "--shell"]).map_or(Unwrapped::No, Unwrapped::Script)
        }
        _ => Unwrapped::No,
    }
}

/// A cluster tool's bundled client: `k3s kubectl …`, `microk8s kubectl|helm
/// …`, `minikube kubectl -- …`, `k0s kubectl …`.
fn bundled_tool(argv: &[String]) -> Unwrapped {
    const TOOLS: &[&str] = &["kubectl", "helm", "helm3", "crictl", "ctr"];
    let Some(tool) = argv.get(1).filter(|t| TOOLS.contains(&t.as_str())) else {
        return Unwrapped::No;
    };
    let rest = argv.get(2..).unwrap_or(&[]);
    let rest = rest.strip_prefix(&["--".to_string()]).unwrap_or(rest);
    let words: Vec<String> = std::iter::once(tool.trim_end_matches('3').to_string())
        .chain(rest.iter().map(|w| quote(w)))
        .collect();
    Unwrapped::Script(words.join(" "))
}

/// Container tools whose `exec`/`run` runs a command inside a container.
const CONTAINER_TOOLS: &[&str] = &[
    "docker",
    "podman",
    "nerdctl",
    "finch",
    "docker-compose",
    "podman-compose",
    "kubectl",
    "oc",
    "k",
    "kubecolor",
];

/// Whether `prog` runs commands inside containers (`docker exec`, `kubectl
/// exec`, `podman run`).
pub fn container_tool(prog: &str) -> bool {
    CONTAINER_TOOLS.contains(&prog)
}

/// What a container tool runs in a container: the words after the
/// container of an `exec`, or from the image on of a `run` (see
/// [`container_command`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InContainer {
    /// A `run` (a new container from an image), not an `exec`.
    pub run: bool,
    /// For `exec`, the command; for `run`, the image and then the command
    /// (the image may be a tool's own: `hashicorp/terraform destroy`).
    pub words: Vec<String>,
}

impl InContainer {
    /// The command run, without a `run`'s image.
    pub fn command(&self) -> &[String] {
        let words = if self.run {
            self.words.get(1..).unwrap_or_default()
        } else {
            &self.words
        };
        words.strip_prefix(&["--".to_string()]).unwrap_or(words)
    }
}

/// The command a container tool's arguments run inside a container (`docker
/// exec -u 0 app cat /run/secrets/db`, `docker compose exec -T web python
/// manage.py flush`, `docker compose run --rm web rake db:reset`, `kubectl
/// exec -n prod -c app api-0 -- cat /etc/secret/token`, `podman run --rm
/// -v $PWD:/w alpine cat /w/.env`). The verb is among the first words
/// (after `compose`, `container` and global options); its options are
/// skipped with the union of the tools' valued options, then the container
/// of an `exec`; `--` ends the options. One reader for every guard.
pub fn container_command(args: &[String]) -> Option<InContainer> {
    const WITH_VALUE: &[&str] = &[
        "-e",
        "--env",
        "--env-file",
        "-u",
        "--user",
        "-w",
        "--workdir",
        "-c",
        "--container",
        "-n",
        "--namespace",
        "--context",
        "--index",
        "--detach-keys",
        "-f",
        "--file",
        "-p",
        "--project-name",
        "-v",
        "--volume",
        "--publish",
        "--name",
        "--network",
        "--entrypoint",
        "--mount",
        "-l",
        "--label",
        "--platform",
        "--image",
    ];
    let exec = args
        .iter()
        .take(4)
        .position(|a| a == "exec" || a == "run")?;
    let run = args[exec] == "run";
    let mut i = exec + 1;
    let mut named = false;
    while let Some(a) = args.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if WITH_VALUE.contains(&a.as_str()) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else if !named && !run {
            named = true;
            i += 1;
        } else {
            break;
        }
    }
    let words = args.get(i..).filter(|r| !r.is_empty())?.to_vec();
    Some(InContainer { run, words })
}

#[cfg(test)]
mod tests {
    use super::container_command;

    fn inside(line: &str) -> Option<(bool, Vec<String>, Vec<String>)> {
        let argv: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        container_command(&argv[1..]).map(|c| (c.run, c.words.clone(), c.command().to_vec()))
    }

    #[test]
    fn exec_runs_the_words_after_the_container() {
        for (line, cmd) in [
            (
                "docker exec -u 0 app cat /run/secrets/db",
                "cat /run/secrets/db",
            ),
            ("docker exec -it --env A=1 -w /x web cat .env", "cat .env"),
            (
                "docker compose exec -T web python manage.py flush",
                "python manage.py flush",
            ),
            ("docker compose -f dev.yml exec web printenv", "printenv"),
            ("podman exec --user root api sh -c x", "sh -c x"),
            (
                "kubectl exec -n prod -c app api-0 -- cat /etc/token",
                "cat /etc/token",
            ),
            ("kubectl exec deploy/api -it -- sh -c x", "sh -c x"),
            ("kubectl --context prod exec api-0 -- env", "env"),
            ("kubectl exec api-0 printenv", "printenv"),
        ] {
            let (run, _, got) = inside(line).unwrap_or_else(|| panic!("{line}"));
            assert!(!run, "{line}");
            assert_eq!(got.join(" "), cmd, "{line}");
        }
    }

    #[test]
    fn run_keeps_the_image_before_the_command() {
        let (run, words, cmd) = inside("docker run --rm -v $PWD:/w alpine cat /w/.env").unwrap();
        assert!(run);
        assert_eq!(words.join(" "), "alpine cat /w/.env");
        assert_eq!(cmd.join(" "), "cat /w/.env");
        let (_, words, cmd) = inside("docker compose run --rm web rake db:reset").unwrap();
        assert_eq!(words[0], "web");
        assert_eq!(cmd.join(" "), "rake db:reset");
    }

    #[test]
    fn no_command_no_container_command() {
        for line in [
            "docker run -d -p 80:80 nginx",
            "docker exec web",
            "docker ps -a",
            "kubectl get pods",
            "docker volume rm run",
        ] {
            let got = inside(line).map(|(_, _, cmd)| cmd).unwrap_or_default();
            assert!(got.is_empty(), "{line}: {got:?}");
        }
    }
}
