//! What each command does. `main` routes the hook path (`dispatch`) around
//! clap, so that it never exits non-zero and pays no parsing cost it does not
//! need; every other command goes through the clap definition in `cli`.

mod audit;
mod cards;
pub mod dispatch;
mod doctor;
mod error;
mod exit;
mod explain;
mod install;
mod install_detect;
mod plugin;
mod policy;
mod replay;
mod report;
mod status;
mod terminal_md;
mod trust;
mod uninstall;
mod verify;

use crate::cli::{AuditCommand, CardsCommand, Cli, Command, PluginCommand};
use clap::Parser;
use std::ffi::OsString;

pub use error::CommandError;
pub use exit::ExitStatus;

use crate::printer::Printer;

pub fn main(args: Vec<OsString>) -> i32 {
    // `dispatch --help` is a person asking (no harness registers it): clap
    // answers it below.
    let asks_help = args.iter().skip(2).any(|a| a == "--help" || a == "-h");
    if args.get(1).is_some_and(|a| a == "dispatch") && !asks_help {
        return dispatch::main(&args[2..]);
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let status = if e.use_stderr() {
                ExitStatus::Usage
            } else {
                ExitStatus::Success
            };
            let _ = e.print();
            return status.code();
        }
    };
    crate::diag::set_verbose(cli.verbose);
    // The one printer of this run: every command prints through it.
    let printer = Printer::new(cli.color.choice());
    let p = &printer;
    let result = match cli.command {
        // Reached only through `cuecard -v dispatch ...` (its own exit code).
        Command::Dispatch(a) => return dispatch::main(&dispatch::reassemble(&a, cli.verbose)),
        Command::Explain(a) => explain::run(p, a),
        Command::Replay(a) => replay::run(p, a),
        Command::Report(a) => report::run(p, a),
        Command::Status { session, json } => Ok(status::run(p, session.as_deref(), json)),
        Command::Cards { command } => match command {
            CardsCommand::List { json } => Ok(cards::list(p, json)),
            CardsCommand::Show { card } => cards::show(p, &card),
            CardsCommand::New { name, project } => cards::new(p, &name, project),
            CardsCommand::Check { file } => Ok(cards::check(p, file.as_deref())),
        },
        Command::Trust(a) => trust::run(p, &a),
        Command::Policy { ids, json } => Ok(policy::run(p, ids, json)),
        Command::Install(a) => install::run(p, a),
        Command::Verify(a) => verify::run(p, a),
        Command::Uninstall(a) => uninstall::run(p, a),
        Command::Doctor(a) => doctor::run(p, a),
        Command::Plugin { command } => match command {
            PluginCommand::Build(a) => plugin::build(p, a),
        },
        Command::Audit { command } => match command {
            AuditCommand::Verify => audit::verify(p),
            AuditCommand::Export {
                endpoint,
                batch,
                timeout,
            } => audit::export(p, &endpoint, batch as usize, timeout),
        },
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            let mut out = Vec::new();
            clap_complete::generate(shell, &mut cmd, "cuecard", &mut out);
            p.out(String::from_utf8_lossy(&out).trim_end());
            Ok(ExitStatus::Success)
        }
    };
    // The one place a command's error is printed and becomes an exit code.
    result.unwrap_or_else(|e| e.report(p)).code()
}

/// The installer's description of `--harness <id>`, or why there is none.
pub fn harness_spec(id: &str) -> Result<&'static crate::harness::config::Config, CommandError> {
    Ok(crate::install::resolve(id)?)
}

/// `--scope`: `None` when not given.
pub fn scope_arg(
    scope: Option<&str>,
) -> Result<Option<crate::harness::config::Scope>, CommandError> {
    match scope.map(crate::harness::config::Scope::parse) {
        None => Ok(None),
        Some(Some(s)) => Ok(Some(s)),
        Some(None) => Err(CommandError::UnknownScope),
    }
}
