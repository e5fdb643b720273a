//! What the installer needs to know about one harness's configuration: where
//! it lives, how hook entries nest, how a command is written, the timeout's
//! key and unit, the keys the file needs for hooks to run, where skills go,
//! and what to tell the user afterwards. Each harness's own file
//! (`harness/<h>.rs`) fills one of these beside its contract.

use crate::harness::HarnessId;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// How a harness nests its handlers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `hooks.<Event>[] = {matcher, hooks: [handler]}` (Claude Code and its
    /// followers: Codex, Qwen, CodeBuddy, Gemini, Devin).
    Grouped,
    /// `hooks.<event>[] = handler` with the matcher inside the handler
    /// (Copilot, Cursor, Kiro's legacy agent form).
    Flat,
    /// `hooks[] = {name, trigger, matcher, action: {type, command}, timeout,
    /// enabled}`: one list, the event in `trigger` (Kiro V3 hook files).
    List,
    /// [`Layout::Grouped`] for most events, [`Layout::Flat`] (a plain list
    /// of handlers, no matcher) for the events named (Antigravity CLI: its
    /// tool events hold groups, its lifecycle events handlers).
    Mixed { flat: &'static [&'static str] },
}

impl Layout {
    /// How the handlers of `event` nest (a [`Layout::Mixed`] resolved for
    /// one event; every other layout is itself).
    pub fn of(self, event: &str) -> Layout {
        match self {
            Layout::Mixed { flat } if flat.contains(&event) => Layout::Flat,
            Layout::Mixed { .. } => Layout::Grouped,
            l => l,
        }
    }
}

/// Where a configuration applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// The user's own configuration (under HOME).
    User,
    /// The project's (under the git root of the working directory).
    Project,
    /// Claude Code managed settings for a fleet, rendered to a file.
    Managed,
}

impl Scope {
    pub fn parse(s: &str) -> Option<Scope> {
        match s {
            "user" => Some(Scope::User),
            "project" => Some(Scope::Project),
            "managed" => Some(Scope::Managed),
            _ => None,
        }
    }
    pub fn id(self) -> &'static str {
        match self {
            Scope::User => "user",
            Scope::Project => "project",
            Scope::Managed => "managed",
        }
    }
}

/// The operating system an install renders its entries for. Chosen from
/// `cfg!` only at the top ([`Host::current`]); everything below takes it as
/// a parameter, so every host's entries are rendered and tested anywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    Unix,
    Windows,
}

impl Host {
    /// The host this binary runs on.
    pub fn current() -> Host {
        if cfg!(windows) {
            Host::Windows
        } else {
            Host::Unix
        }
    }
}

/// A shell a harness runs a hook's command line through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shell {
    /// `sh -c` (or bash): Linux and macOS, and Git Bash on Windows.
    Posix,
    /// Windows PowerShell or `pwsh -Command`: a quoted program needs `& `.
    PowerShell,
    /// `cmd.exe /C`.
    Cmd,
}

/// How the harness starts a hook command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// No shell: `command` is the program, `args` its arguments, on every
    /// host.
    Exec,
    /// Through a shell: `command` is one command line, for `sh` on a Unix
    /// host and for the given shell on a Windows host (see
    /// docs/decisions.md for the evidence per harness).
    Shell { windows: Shell },
    /// One command line per shell, each under its own key, on every host;
    /// the harness picks the key for the host it runs on (Copilot: `bash`
    /// and `powershell`).
    PerShell(&'static [(&'static str, Shell)]),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Seconds,
    Millis,
}

/// The program a shared project file names: found through PATH, so the file
/// holds nothing of this machine.
pub const PATH_PROGRAM: &str = "cuecard";

/// How long a harness waits for cuecard before giving up. The dispatcher
/// answers within its own deadline (well under a second); this bound only
/// matters if the machine stalls.
pub const HOOK_TIMEOUT_SECS: u64 = 10;

/// The roots a scope's paths are relative to.
#[derive(Debug, Clone)]
pub struct Roots {
    pub home: PathBuf,
    pub project: PathBuf,
    /// Where `--scope managed` renders its file (the working directory).
    pub cwd: PathBuf,
}

/// One harness's configuration files.
pub struct Config {
    pub harness: HarnessId,
    pub layout: Layout,
    pub form: Form,
    /// Whether handlers carry `"type": "command"`.
    pub typed: bool,
    /// The timeout key and unit; `None` writes no timeout (the harness's
    /// default applies).
    pub timeout: Option<(&'static str, Unit)>,
    /// The config file for a scope, `None` when the harness has no such scope.
    pub path: fn(Scope, &Roots) -> Option<PathBuf>,
    /// Keys (dotted paths) the file needs for hooks to run, with their value.
    pub required: fn() -> Vec<(&'static str, Value)>,
    /// A new file's content before any hook is added.
    pub skeleton: fn() -> Value,
    /// Where the harness looks for skills in a scope.
    pub skills_dir: fn(Scope, &Roots) -> Option<PathBuf>,
    /// Other files where this harness may also find cuecard (plugins, other
    /// hook files, inline hooks in TOML): checked for double registration.
    pub other_sources: fn(&Roots) -> Vec<PathBuf>,
    /// What the user must know after an install in a scope.
    pub notes: fn(Scope, &Path) -> Vec<String>,
    /// The default scope.
    pub default_scope: Scope,
    /// Whether the project-scope file is the harness's local, git-ignored
    /// one (Devin's `config.local.json`): it may name this machine's binary.
    /// A project file a team commits names `cuecard`, found through PATH.
    pub local_project_file: bool,
    /// What this form of the configuration is, for verify (`""` when the
    /// harness has only one).
    pub form_name: &'static str,
    /// What keeps the harness from running installed entries yet, read
    /// from what the harness itself records (its trust stores), each with
    /// its fix; empty when nothing does, or nothing is recorded cuecard
    /// can read.
    pub trust: fn(&TrustCheck) -> Vec<String>,
    /// An older form of the same harness's hooks (Kiro's agent file): never
    /// written, but read by verify and uninstall, and emptied of cuecard's
    /// entries by an install that moves them to this form.
    pub legacy: Option<&'static Config>,
    /// The harness's plugin (or extension) format, for `cuecard plugin
    /// build`; `None` where it has none cuecard builds.
    pub plugin: Option<&'static super::plugin::PluginFormat>,
    /// When cuecard's registration is a whole file cuecard owns (OpenCode's
    /// plugin; later Cline's hook scripts) rather than entries merged into
    /// the user's settings: how that file is rendered around the entries.
    /// `None`: entries in a JSON settings file.
    pub owned: Option<&'static OwnedFile>,
    /// How `install --detect` tells the harness is used on this machine.
    pub presence: Presence,
    /// Reads a file install is about to write back against the harness's
    /// documented schema, for a harness that drops a whole file it cannot
    /// parse (Antigravity CLI): `Err` says why, and nothing is written.
    pub check: fn(&Value) -> Result<(), String>,
}

/// Signs that a harness is used on this machine (`install --detect`): its
/// own folder in the user's home exists, or one of its programs is on
/// PATH. Nothing is run.
#[derive(Clone, Copy)]
pub struct Presence {
    /// The harness's own user folder (`~/.claude`, `$CODEX_HOME`).
    pub dir: fn(&Roots) -> PathBuf,
    /// Its programs, looked for on PATH (`claude`).
    pub programs: &'static [&'static str],
}

impl Presence {
    /// No sign known (the default of [`Config::claude_like`]; a test
    /// holds every installable harness to have one).
    pub const UNKNOWN: Presence = Presence {
        dir: no_dir,
        programs: &[],
    };

    /// Whether a sign is known at all.
    pub fn known(&self) -> bool {
        !self.programs.is_empty()
    }
}

fn no_dir(_: &Roots) -> PathBuf {
    PathBuf::new()
}

/// A registration that is one whole file cuecard writes and owns: the
/// entries (in [`Config::layout`], as they would stand in a settings file)
/// are rendered into it, one JSON line the file carries and cuecard reads
/// back, so verify, uninstall, doctor and the double-registration check
/// see the same entries as in a settings file. The engine (the marker line
/// that names the file cuecard's, with the hash that tells an edited file
/// from an unedited one) is `install::owned`.
pub struct OwnedFile {
    /// What the file is, for messages ("OpenCode plugin").
    pub what: &'static str,
    /// The line comment of the file's language (`//`, `#`).
    pub comment: &'static str,
    /// The file's body around `entries` (the entries document as one line
    /// of JSON), without the marker line.
    pub render: fn(entries: &str) -> String,
    /// The prefix of the body line that holds the entries; the JSON runs
    /// from after it to the end of the line (a trailing `;` is dropped).
    pub entries_line: &'static str,
}

impl Config {
    /// Claude Code's settings shape, which most harnesses took: entries
    /// grouped under each event's matcher, handlers with `"type":
    /// "command"` and a `timeout` in seconds, run through a shell
    /// (PowerShell on Windows); nothing required in the file, a new file an
    /// empty object, user scope by default, a project file the team shares,
    /// one form, no other sources, notes or trust store to read, no legacy
    /// form, no plugin, not a whole file cuecard owns. A harness built on it
    /// (`..Config::claude_like(..)`) states only its files and what differs.
    pub const fn claude_like(
        harness: HarnessId,
        path: fn(Scope, &Roots) -> Option<PathBuf>,
        skills_dir: fn(Scope, &Roots) -> Option<PathBuf>,
    ) -> Config {
        Config {
            harness,
            layout: Layout::Grouped,
            form: Form::Shell {
                windows: Shell::PowerShell,
            },
            typed: true,
            timeout: Some(("timeout", Unit::Seconds)),
            path,
            required: nothing_required,
            skeleton: empty_object,
            skills_dir,
            other_sources: no_sources,
            notes: no_notes,
            default_scope: Scope::User,
            local_project_file: false,
            form_name: "",
            trust: no_trust_check,
            legacy: None,
            plugin: None,
            owned: None,
            presence: Presence::UNKNOWN,
            check: no_check,
        }
    }

    /// The program entries in `scope` start: this machine's binary, except
    /// in a project file a team commits, where it is `cuecard` through PATH.
    pub fn program(&self, scope: Scope, bin: &str) -> String {
        if scope == Scope::Project && !self.local_project_file {
            PATH_PROGRAM.to_string()
        } else {
            bin.to_string()
        }
    }

    /// `, and <keys>` naming the keys the file needs for hooks to run, for
    /// text that says what to add by hand (empty when there are none).
    pub fn required_keys_hint(&self) -> String {
        let keys: Vec<String> = (self.required)()
            .iter()
            .map(|(k, v)| format!("`{k}: {v}`"))
            .collect();
        if keys.is_empty() {
            String::new()
        } else {
            format!(", and {}", keys.join(", "))
        }
    }

    /// The keys a handler's command lines go under on `host`, each with the
    /// shell that runs it (empty for the exec form).
    pub fn shells(&self, host: Host) -> Vec<(&'static str, Shell)> {
        match self.form {
            Form::Exec => Vec::new(),
            Form::Shell { windows } => vec![(
                "command",
                match host {
                    Host::Unix => Shell::Posix,
                    Host::Windows => windows,
                },
            )],
            Form::PerShell(keys) => keys.to_vec(),
        }
    }
    pub fn timeout_value(&self) -> Option<(&'static str, Value)> {
        self.timeout.map(|(k, u)| {
            let v = match u {
                Unit::Seconds => HOOK_TIMEOUT_SECS,
                Unit::Millis => HOOK_TIMEOUT_SECS * 1000,
            };
            (k, Value::from(v))
        })
    }
}

/// What a [`Config::trust`] check looks at.
pub struct TrustCheck<'a> {
    pub scope: Scope,
    pub roots: &'a Roots,
    /// The config file holding cuecard's entries.
    pub path: &'a Path,
    /// The native events of cuecard's entries there.
    pub events: &'a [String],
}

/// A [`Config::trust`] for a harness that records no trust cuecard reads.
pub fn no_trust_check(_: &TrustCheck) -> Vec<String> {
    Vec::new()
}

/// A harness's own small file (a trust store, a config), read with a bound;
/// `None` when absent, unreadable, not a regular file (a symlink or a FIFO
/// is refused as it is opened, not in a check before), or over 1 MiB.
pub fn read_small(path: &Path) -> Option<String> {
    crate::fsutil::read_text_whole(path, false, 1 << 20)
}

/// The `hooks.json` files of the plugins a harness keeps under `root`
/// (at most `depth` levels down, never through a link, at most 5,000
/// entries looked at) that `is_plugins` accepts, for [`Config::other_sources`].
pub fn plugin_hook_files(root: &Path, depth: usize, is_plugins: fn(&Path) -> bool) -> Vec<PathBuf> {
    if !root.is_dir() {
        return Vec::new();
    }
    walkdir::WalkDir::new(root)
        .max_depth(depth)
        .follow_links(false)
        .into_iter()
        .take(5000)
        .flatten()
        .map(walkdir::DirEntry::into_path)
        .filter(|p| p.file_name().is_some_and(|n| n == "hooks.json") && is_plugins(p))
        .collect()
}

/// Whether `dir` is `trusted` or lies below it.
pub fn within(dir: &Path, trusted: &Path) -> bool {
    dir.starts_with(trusted)
}

/// `$VAR` when set and not empty, else `home/default`.
pub fn env_dir(var: &str, home: &Path, default: &str) -> PathBuf {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| home.join(default))
}

/// `user` at user scope, `project` at project scope; none at managed scope
/// (only Claude Code has a managed file).
pub fn user_or_project(scope: Scope, user: PathBuf, project: PathBuf) -> Option<PathBuf> {
    match scope {
        Scope::User => Some(user),
        Scope::Project => Some(project),
        Scope::Managed => None,
    }
}

/// `<home>/<rel>` at user scope, `<project>/<rel>` at project scope.
pub fn home_or_project(scope: Scope, r: &Roots, rel: &str) -> Option<PathBuf> {
    user_or_project(scope, r.home.join(rel), r.project.join(rel))
}

pub fn no_sources(_: &Roots) -> Vec<PathBuf> {
    Vec::new()
}
pub fn nothing_required() -> Vec<(&'static str, Value)> {
    Vec::new()
}
pub fn empty_object() -> Value {
    Value::Object(Default::default())
}
pub fn no_notes(_: Scope, _: &Path) -> Vec<String> {
    Vec::new()
}
/// A [`Config::check`] for a harness with no schema install checks.
pub fn no_check(_: &Value) -> Result<(), String> {
    Ok(())
}
