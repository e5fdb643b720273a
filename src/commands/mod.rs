//! What each command does. `main` routes the hook path (`dispatch`) around
//! clap, so that it never exits non-zero and pays no parsing cost it does not
//! need; every other command goes through the clap definition in `cli`.

mod cards;
pub mod dispatch;
mod explain;
mod replay;
mod status;

use crate::cli::{CardsCommand, Cli, Command};
use clap::Parser;
use std::ffi::OsString;

/// Exit codes of the non-hook commands.
pub const EXIT_OK: i32 = 0;
/// The command ran and found a problem (a failed check, an unknown card).
pub const EXIT_PROBLEM: i32 = 1;
/// The command line itself was wrong (clap's convention).
pub const EXIT_USAGE: i32 = 2;

pub fn main(args: Vec<OsString>) -> i32 {
    if args.get(1).is_some_and(|a| a == "dispatch") {
        return dispatch::main(&args[2..]);
    }
    let cli = match Cli::try_parse_from(&args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    crate::diag::set_verbose(cli.verbose);
    match cli.command {
        // Reached only through `cuecard -v dispatch ...`.
        Command::Dispatch(a) => dispatch::main(&dispatch::reassemble(&a, cli.verbose)),
        Command::Explain(a) => explain::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Status { session, json } => status::run(session.as_deref(), json),
        Command::Cards { command } => match command {
            CardsCommand::List => cards::list(),
            CardsCommand::Show { card } => cards::show(&card),
        },
    }
}
