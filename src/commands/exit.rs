//! How a command other than the hook ends, and the one place that maps it
//! to the process's exit code (the hook path exits 0, or 2 for a configured
//! deny: see `commands::dispatch`).

/// The outcome of a non-hook command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    /// The command did what it was asked.
    Success,
    /// The command ran and found a problem (a failed check, an unknown card).
    Failure,
    /// The command line itself was wrong (clap's convention).
    Usage,
}

impl ExitStatus {
    pub fn code(self) -> i32 {
        match self {
            ExitStatus::Success => 0,
            ExitStatus::Failure => 1,
            ExitStatus::Usage => 2,
        }
    }
}
