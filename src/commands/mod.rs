//! What each command does. `main` routes the hook path (`dispatch`) around
//! clap, so that it never exits non-zero and pays no parsing cost it does not
//! need; every other command goes through the clap definition in `cli`.

mod cards;
pub mod dispatch;
mod doctor;
mod exit;
mod explain;
mod install;
mod plugin;
mod policy;
mod replay;
mod status;
mod trust;
mod uninstall;
mod verify;

use crate::cli::{CardsCommand, Cli, Command, PluginCommand};
use clap::Parser;
use std::ffi::OsString;

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
    let printer = Printer::new();
    let p = &printer;
    let status = match cli.command {
        // Reached only through `cuecard -v dispatch ...` (its own exit code).
        Command::Dispatch(a) => return dispatch::main(&dispatch::reassemble(&a, cli.verbose)),
        Command::Explain(a) => explain::run(p, a),
        Command::Replay(a) => replay::run(p, a),
        Command::Status { session, json } => status::run(p, session.as_deref(), json),
        Command::Cards { command } => match command {
            CardsCommand::List => cards::list(p),
            CardsCommand::Show { card } => cards::show(p, &card),
            CardsCommand::New { name, project } => cards::new(p, &name, project),
            CardsCommand::Check { file } => cards::check(p, file.as_deref()),
        },
        Command::Trust(a) => trust::run(p, &a),
        Command::Policy { ids } => policy::run(p, ids),
        Command::Install(a) => install::run(p, a),
        Command::Verify(a) => verify::run(p, a),
        Command::Uninstall(a) => uninstall::run(p, a),
        Command::Doctor(a) => doctor::run(p, a),
        Command::Plugin { command } => match command {
            PluginCommand::Build(a) => plugin::build(p, a),
        },
    };
    status.code()
}

/// The installer's description of `--harness <id>`. On failure the reason
/// is printed and the exit code returned: a usage error for an id that is
/// no harness, a problem for one this build cannot install.
pub fn harness_spec(
    p: &Printer,
    id: &str,
) -> Result<&'static crate::harness::config::Config, ExitStatus> {
    crate::install::resolve(id).map_err(|e| {
        p.err(&format!("cuecard: {e}"));
        match e {
            crate::install::Unresolved::Unknown(_) => ExitStatus::Usage,
            crate::install::Unresolved::NotInstallable(_) => ExitStatus::Failure,
        }
    })
}

/// `--scope`: `None` when not given; an unknown one is a usage error,
/// printed, its exit code returned.
pub fn scope_arg(
    p: &Printer,
    scope: Option<&str>,
) -> Result<Option<crate::harness::config::Scope>, ExitStatus> {
    match scope.map(crate::harness::config::Scope::parse) {
        None => Ok(None),
        Some(Some(s)) => Ok(Some(s)),
        Some(None) => {
            p.err("cuecard: --scope is one of user, project, managed");
            Err(ExitStatus::Usage)
        }
    }
}
