//! The command-line definition (clap), apart from what the commands do.
//!
//! `dispatch` is also declared here for `--help`, but the hook path parses its
//! own arguments leniently (see `commands::dispatch`): a hook must exit 0
//! whatever it is given, and clap exits 2 on bad arguments.

use crate::harness::HarnessId;
use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::{Parser, Subcommand, ValueEnum};

/// A harness id as a value enum (from [`HarnessId::ALL`]): clap suggests
/// the nearest id for a typo and shell completions list them. Parsed to
/// the canonical id string, so the commands keep taking `--harness` as
/// text (`claude` and any case are accepted, as [`HarnessId::parse`] does).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HarnessArg(pub HarnessId);

impl ValueEnum for HarnessArg {
    fn value_variants<'a>() -> &'a [Self] {
        static ALL: std::sync::OnceLock<Vec<HarnessArg>> = std::sync::OnceLock::new();
        ALL.get_or_init(|| HarnessId::ALL.iter().copied().map(HarnessArg).collect())
    }
    fn to_possible_value(&self) -> Option<PossibleValue> {
        let v = PossibleValue::new(self.0.id()).help(self.0.name());
        Some(if self.0 == HarnessId::ClaudeCode {
            v.alias("claude")
        } else {
            v
        })
    }
}

/// `--harness` / `--contract`: a harness id, as its canonical text.
fn harness_parser() -> impl TypedValueParser<Value = String> {
    clap::builder::EnumValueParser::<HarnessArg>::new().map(|h| h.0.id().to_string())
}

/// `--scope`: user, project or managed, as text.
fn scope_parser() -> impl TypedValueParser<Value = String> {
    PossibleValuesParser::new([
        PossibleValue::new("user").help("the user's own configuration, under HOME"),
        PossibleValue::new("project").help(
            "the git root of the working directory (outside a repository: the directory itself)",
        ),
        PossibleValue::new("managed").help("Claude Code managed settings, rendered to a file"),
    ])
}

/// Every event name `explain` can be given: the canonical (Claude Code)
/// names, then each harness's own, for completions and suggestions
/// (`explain` then checks the name against the contract given).
pub fn event_names() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = crate::event::EVENTS.iter().map(|e| e.name).collect();
    for h in HarnessId::ALL {
        for r in h.spec().events {
            if !out.contains(&r.native) {
                out.push(r.native);
            }
        }
    }
    out
}

/// `explain`'s event: offered to shell completions, checked by `explain`
/// itself against the contract given (with the nearest names).
#[derive(Clone, Copy)]
struct EventParser;

impl TypedValueParser for EventParser {
    type Value = String;
    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        clap::builder::StringValueParser::new().parse_ref(cmd, arg, value)
    }
    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(event_names().into_iter().map(PossibleValue::new)))
    }
}

/// `--harness` help for the commands that install: the installable ids,
/// from the one list of harnesses.
fn installable_help() -> String {
    let decisions: Vec<&str> = HarnessId::ALL
        .iter()
        .filter(|h| h.decisions_only())
        .map(|h| h.id())
        .collect();
    format!(
        "One of: {}. With a policy set only: {} (it gets decisions, never context).",
        HarnessId::list(true),
        decisions.join(", ")
    )
}

/// `--harness` help for uninstall: the installable ids.
fn uninstall_help() -> String {
    format!("One of: {}.", HarnessId::list(true))
}

/// `--harness` help for the commands that only look: every harness.
fn any_help() -> String {
    format!(
        "Only this harness (default: every harness): {}.",
        HarnessId::list(false)
    )
}

/// `--contract` help: every harness, from the one list.
fn contract_help() -> String {
    format!(
        "Translate from and to this harness's dialect: {} (none: Claude Code, byte for byte).",
        HarnessId::list(false)
    )
}

/// `cuecard --version`: the package version and the commit it was built
/// from (`build.rs`; `unknown commit` without git).
pub const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (", env!("BUILD_COMMIT"), ")");

#[derive(Debug, Parser)]
#[command(
    name = "cuecard",
    version = VERSION,
    about = "One fast hook binary that carries short guidance cards into AI coding agents' context.",
    long_about = None,
)]
pub struct Cli {
    /// Print diagnostics on stderr.
    #[arg(short, long, global = true, display_order = 900)]
    pub verbose: bool,
    /// Colour keyed to state (ok green, warnings yellow, failures red):
    /// auto (on a terminal, unless NO_COLOR is set; CLICOLOR_FORCE forces
    /// it in a pipe), always or never.
    #[arg(long, global = true, value_name = "WHEN", value_enum, default_value_t = ColorWhen::Auto,
          hide_possible_values = true, display_order = 901)]
    pub color: ColorWhen,
    #[command(subcommand)]
    pub command: Command,
}

/// `--color`: when to colour the output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

impl ColorWhen {
    /// The printer's choice.
    pub fn choice(self) -> crate::printer::ColorChoice {
        match self {
            ColorWhen::Auto => crate::printer::ColorChoice::Auto,
            ColorWhen::Always => crate::printer::ColorChoice::Always,
            ColorWhen::Never => crate::printer::ColorChoice::Never,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// The hook entry point: read the event's JSON on stdin, run the cards,
    /// print one envelope (or nothing). Exits 0, except for a deny the user
    /// configured on a harness whose only decision channel is exit code 2
    /// (Kiro, Windsurf). A call it cannot judge (deadline, unreadable
    /// payload) gets nothing, or under an ask/deny policy that policy's
    /// decision (docs/policy.md).
    Dispatch(EventArgs),
    /// What dispatch would emit for a payload on stdin, and why, for humans.
    /// An unknown event, contract or card is an error naming the nearest.
    Explain(ExplainArgs),
    /// Replay a recorded session (a Claude Code transcript, a Codex
    /// rollout, a Qwen Code chat or a CodeBuddy Code transcript) through the
    /// dispatcher: per turn, which cards would have
    /// fired, why, what they would have added, where compaction warnings
    /// would have fallen, and what the recovery after each compaction would
    /// have carried back. With no file, an embedded sample session.
    /// Never reads or writes your cuecard state.
    Replay(ReplayArgs),
    /// One self-contained HTML page of what cuecard did: for a session
    /// (--session) or a transcript replayed (a file), the context curve per
    /// call with the two thresholds, the warnings, the compactions and what
    /// each recovery carried, every card fired and every ask or deny with
    /// its reason and policy line; with neither, the recent sessions. No
    /// script, no network (docs/report.md).
    Report(ReportArgs),
    /// Per-session ledger (calls, compaction warnings, what was injected,
    /// the context curve as a sparkline), newest sessions first, harnesses
    /// installed that have not called since, and the failure record.
    Status {
        /// Only this session (its id as the harness gave it).
        #[arg(long, value_name = "ID")]
        session: Option<String>,
        /// Print JSON instead of text (schema: docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// The cards (shipped, user, project): list, show, new, check.
    Cards {
        #[command(subcommand)]
        command: CardsCommand,
    },
    /// Trust this project's own cards (.cuecard/cards) and policy file
    /// (.cuecard/config.toml), pinned by SHA-256.
    Trust(TrustArgs),
    /// The effective policy (advise, ask or deny per guard and finding id)
    /// and where each line came from: the user's config.toml, a card's own
    /// `decision`, then CUECARD_POLICY and a trusted project's
    /// .cuecard/config.toml (each stricter only); and what the project's
    /// cards would change.
    Policy {
        /// List every finding id a policy can name.
        #[arg(long)]
        ids: bool,
        /// Print JSON instead of text (schema: docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// Write cuecard's hook entries into a harness's own configuration,
    /// keeping everything else in it, and put the cards where their
    /// "Full procedure" pointers lead.
    Install(InstallArgs),
    /// What is installed where, and whether it matches what install would
    /// write now. Exit 0: all is well; 1: a problem; 3: only waiting on you
    /// (hooks the harness has yet to be told to trust).
    Verify(VerifyArgs),
    /// Remove exactly what install added.
    Uninstall(UninstallArgs),
    /// Start every installed entry the way its harness would, feed it a
    /// realistic payload, and report exit code, output shape and latency.
    /// Exit 0: all is well; 1: a failure; 3: only waiting on you (trust).
    Doctor(DoctorArgs),
    /// Build cuecard as a harness plugin (Claude Code, Codex or Copilot CLI
    /// plugin, Gemini CLI extension), with this binary inside: no settings
    /// file is touched.
    Plugin {
        #[command(subcommand)]
        command: PluginCommand,
    },
    /// The audit stream (docs/audit.md): with `[audit] enabled = true` in
    /// your config.toml, or in the machine's managed file for every user
    /// (/etc/cuecard/config.toml; docs/audit.md, "For a fleet"), the hook
    /// appends one OpenTelemetry log record
    /// (OTLP/JSON) per ask or deny, per card added to the context and per
    /// failure, to a rotated file under the state directory, each record
    /// chained to the one before it by its SHA-256.
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// Print a shell completion script (harness ids, scopes, events and
    /// commands complete): `cuecard completions bash > ~/.local/share/bash-completion/completions/cuecard`.
    Completions {
        /// bash, elvish, fish, powershell or zsh.
        shell: clap_complete::Shell,
    },
}

#[derive(Debug, Subcommand)]
pub enum AuditCommand {
    /// Say whether the audit is on and which file set it (the managed
    /// file, your config), and check the chain of every record kept: a
    /// record removed or edited, a removed tail or old file is named.
    /// Exit 0: intact (or no log); 1: broken.
    Verify,
    /// Send the records not yet sent to an OTLP/HTTP endpoint (JSON
    /// encoding, POST /v1/logs), and remember per endpoint what it
    /// accepted: a failed export resumes where it stopped. Plain http://
    /// only: for TLS, send to a local OpenTelemetry Collector.
    Export {
        /// The collector's OTLP/HTTP address, e.g. http://127.0.0.1:4318
        /// (/v1/logs is added when it names no path).
        #[arg(long, value_name = "URL")]
        endpoint: String,
        /// Records per request.
        #[arg(long, value_name = "N", default_value_t = 100,
              value_parser = clap::value_parser!(u32).range(1..=10_000))]
        batch: u32,
        /// Seconds to wait for a connection or an answer.
        #[arg(long, value_name = "SECONDS", default_value_t = 10,
              value_parser = clap::value_parser!(u64).range(1..=300))]
        timeout: u64,
    },
}

#[derive(Debug, Subcommand)]
pub enum PluginCommand {
    /// Write a complete plugin directory into an empty (or new) DIR: the
    /// manifest, the hook file from the cards' Bindings, the skills, a
    /// marketplace file, and this binary as bin/cuecard.
    Build(PluginBuildArgs),
}

/// `--harness` help for `plugin build`: the harnesses with a plugin format.
fn plugin_help() -> String {
    let ids: Vec<&str> = HarnessId::ALL
        .iter()
        .filter(|h| h.config().is_some_and(|c| c.plugin.is_some()))
        .map(|h| h.id())
        .collect();
    format!("One of: {}.", ids.join(", "))
}

#[derive(Debug, clap::Args)]
pub struct PluginBuildArgs {
    /// The plugin directory to write (absent or empty).
    pub dir: std::path::PathBuf,
    #[arg(long, value_name = "HARNESS", default_value = "claude-code", help = plugin_help(),
          value_parser = harness_parser(), ignore_case = true, hide_possible_values = true)]
    pub harness: String,
}

#[derive(Debug, clap::Args)]
pub struct InstallArgs {
    #[arg(long, value_name = "HARNESS", help = installable_help(),
          value_parser = harness_parser(), ignore_case = true, hide_possible_values = true,
          required_unless_present = "detect", conflicts_with = "detect")]
    pub harness: Option<String>,
    /// Find the harnesses used on this machine (each one's own folder in
    /// HOME, or its program on PATH) and install into each; on a terminal
    /// it asks first, and --dry-run lists them.
    #[arg(long)]
    pub detect: bool,
    /// With --detect: do not ask.
    #[arg(long, short = 'y', requires = "detect")]
    pub yes: bool,
    /// user (under HOME), project (the git root of the working directory; outside
    /// a repository, the directory itself), or managed (Claude Code managed
    /// settings, rendered to ./managed-settings.json).
    /// Default: user (project for devin).
    #[arg(long, value_name = "SCOPE", value_parser = scope_parser(), hide_possible_values = true)]
    pub scope: Option<String>,
    /// Show what would be written, write nothing.
    #[arg(long)]
    pub dry_run: bool,
    /// Hand install the entries that run this program's `dispatch` though
    /// install did not write them (an older install, a dev build): they are
    /// replaced. Without it such entries are yours: kept and named.
    #[arg(long, value_name = "PROGRAM")]
    pub replace: Vec<String>,
    /// Copy this binary to ~/.local/bin/cuecard first and install that: a
    /// lasting copy, for a binary in a cargo `target/` folder that `cargo
    /// clean` or a rebuild would take away.
    #[arg(long = "self")]
    pub self_copy: bool,
    /// Also render your policy into the harness's own OS sandbox (Claude
    /// Code, Codex): with outside-project or destructive at ask or deny, the
    /// agent's commands can write only in the project and the temporary
    /// directories, whatever the hook could read. Uninstall removes it
    /// (docs/policy.md).
    #[arg(long, conflicts_with = "detect")]
    pub sandbox: bool,
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    #[arg(long, value_name = "HARNESS", help = any_help(),
          value_parser = harness_parser(), ignore_case = true, hide_possible_values = true)]
    pub harness: Option<String>,
    /// user, project or managed (./managed-settings.json, as `install
    /// --scope managed` renders it). Default: user and project.
    #[arg(long, value_name = "SCOPE", value_parser = scope_parser(), hide_possible_values = true)]
    pub scope: Option<String>,
    /// Print JSON instead of text (schema: docs/json.md).
    #[arg(long)]
    pub json: bool,
    /// Print the harness-by-event capability table instead: a table on a
    /// terminal, Markdown in a pipe.
    #[arg(long)]
    pub capabilities: bool,
    /// With --capabilities: Markdown on a terminal too.
    #[arg(long, requires = "capabilities")]
    pub markdown: bool,
}

#[derive(Debug, clap::Args)]
pub struct UninstallArgs {
    #[arg(long, value_name = "HARNESS", help = uninstall_help(),
          value_parser = harness_parser(), ignore_case = true, hide_possible_values = true,
          required_unless_present = "all", conflicts_with = "all")]
    pub harness: Option<String>,
    /// Every harness and scope (user and project) cuecard is installed in;
    /// then what is left (plugins, extensions, entries of yours) and how
    /// to remove it.
    #[arg(long)]
    pub all: bool,
    /// user, project or managed (default: every scope where cuecard is found).
    #[arg(long, value_name = "SCOPE", value_parser = scope_parser(), hide_possible_values = true)]
    pub scope: Option<String>,
    /// Also remove the entries that run this program's `dispatch` though
    /// install did not write them. Without it such entries are yours: kept
    /// and named.
    #[arg(long, value_name = "PROGRAM")]
    pub replace: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct DoctorArgs {
    #[arg(long, value_name = "HARNESS", help = any_help(),
          value_parser = harness_parser(), ignore_case = true, hide_possible_values = true)]
    pub harness: Option<String>,
    /// Print JSON instead of text (schema: docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct EventArgs {
    #[arg(long, value_name = "HARNESS", help = contract_help())]
    pub contract: Option<String>,
    /// The hook event (Claude Code name, or the harness's own with --contract).
    pub event: String,
    /// The cards to evaluate; none means every shipped card bound to the event.
    pub cards: Vec<String>,
}

/// `explain`'s arguments: those of `dispatch`, checked (the hook path
/// parses its own leniently and never rejects a name).
#[derive(Debug, clap::Args)]
pub struct ExplainArgs {
    #[arg(long, value_name = "HARNESS", help = contract_help(),
          value_parser = harness_parser(), ignore_case = true, hide_possible_values = true)]
    pub contract: Option<String>,
    /// The hook event (Claude Code name, or the harness's own with --contract).
    #[arg(value_parser = EventParser, hide_possible_values = true)]
    pub event: String,
    /// The cards to evaluate; none means every shipped card bound to the event.
    pub cards: Vec<String>,
}

#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The transcript (JSON lines); none replays the embedded sample.
    pub transcript: Option<std::path::PathBuf>,
    /// Print the report as JSON (schema: docs/json.md).
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// A transcript to replay (as `cuecard replay` does) and report on.
    #[arg(conflicts_with = "session")]
    pub transcript: Option<std::path::PathBuf>,
    /// This session (its id as the harness gave it), from cuecard's state.
    #[arg(long, value_name = "ID")]
    pub session: Option<String>,
    /// Write the page here (`-`: standard output). Default: the state
    /// directory's reports/ folder; the path is printed.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<std::path::PathBuf>,
    /// Open the page in a browser: $BROWSER where set, else the platform's
    /// opener (xdg-open, open, start).
    #[arg(long)]
    pub open: bool,
}

#[derive(Debug, Subcommand)]
pub enum CardsCommand {
    /// Every card: event, matcher, guard, and the Advisory's size in
    /// characters and tokens.
    List {
        /// Print JSON instead of text (schema: docs/json.md).
        #[arg(long)]
        json: bool,
    },
    /// A card as a model would read it (license line and Bindings removed).
    Show {
        /// The card's name.
        card: String,
    },
    /// Write a commented template for a new card.
    New {
        /// The card's name (lower-case letters, digits, dashes).
        name: String,
        /// Write it into this project's .cuecard/cards/ instead of the
        /// user's card directory.
        #[arg(long)]
        project: bool,
    },
    /// Validate cards: format, Bindings, regular expressions, placeholders,
    /// size, and wording. Without a file: every user and project card.
    Check {
        /// A card file to check.
        file: Option<std::path::PathBuf>,
    },
}

#[derive(Debug, clap::Args)]
pub struct TrustArgs {
    /// List the trusted projects and the state of this project's cards.
    #[arg(long, conflicts_with = "revoke")]
    pub list: bool,
    /// Withdraw trust from this project's cards.
    #[arg(long)]
    pub revoke: bool,
    /// With --list: print JSON instead of text (schema: docs/json.md).
    #[arg(long, requires = "list")]
    pub json: bool,
}
