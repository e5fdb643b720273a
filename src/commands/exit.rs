//! How a command other than the hook ends, and the one place that maps it,
//! and every error it can end with, to the process's exit code (the hook
//! path exits 0, or 2 for a configured deny: see `commands::dispatch`).

use super::error::CommandError;
use crate::install::Unresolved;

/// The outcome of a non-hook command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// The command did what it was asked.
    Success,
    /// The command ran and found a problem (a failed check, an unknown card).
    Failure,
    /// The command line itself was wrong (clap's convention).
    Usage,
    /// Nothing is wrong, but something waits on the user before it runs
    /// (`verify`, `doctor`: hooks a harness has not been told to trust).
    Waiting,
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
            ExitStatus::Waiting => 3,
        }
    }
}

impl From<&CommandError> for ExitStatus {
    fn from(e: &CommandError) -> Self {
        use CommandError as E;
        match e {
            // The command line itself was wrong.
            E::Unresolved(Unresolved::Unknown(_))
            | E::UnknownScope
            | E::ManagedNeedsClaudeCode
            | E::BadCardName
            | E::UnknownName { .. } => ExitStatus::Usage,
            // A harness cuecard knows but does not install into, and every
            // refusal or failure of a command that was asked right.
            E::Unresolved(Unresolved::NotInstallable(_))
            | E::Install(_)
            | E::NoUserConfigDir
            | E::CardExists(_)
            | E::CannotWrite { .. }
            | E::NoSuchCard { .. }
            | E::BrokenCard(_)
            | E::NoStateDir
            | E::ReplayNoTempDir(_)
            | E::ReplayOpen { .. }
            | E::ReplayNoRecords { .. }
            | E::Replay(_)
            | E::Audit(_)
            | E::ReportNoSession(_)
            | E::ReportNowhere
            | E::ReportOpen { .. } => ExitStatus::Failure,
        }
    }
}
