//! What a command other than the hook can end with: one variant per case a
//! user can meet, carrying what the message names, and one message per
//! variant (the whole line printed on stderr). `exit.rs` maps each to the
//! exit code; `report` prints it and returns that code.

use crate::card::CardError;
use crate::install::Unresolved;
use crate::install::error::InstallError;
use crate::printer::Printer;
use std::fmt;
use std::io;
use std::path::PathBuf;

#[derive(Debug)]
pub enum CommandError {
    /// `--harness <id>` names no harness, or one cuecard does not install.
    Unresolved(Unresolved),
    /// `--scope` is not one of user, project, managed.
    UnknownScope,
    /// `--scope managed` with a harness other than Claude Code.
    ManagedNeedsClaudeCode,
    /// Install, uninstall or a plugin build refused or failed.
    Install(InstallError),
    /// `cards new` with a name that is no card name.
    BadCardName,
    /// `cards new` where the platform has no user configuration directory.
    NoUserConfigDir,
    /// `cards new` onto a file that exists.
    CardExists(PathBuf),
    /// A file a command writes could not be written.
    CannotWrite { path: PathBuf, error: io::Error },
    /// `cards show` of a card that exists nowhere (`hint`: the nearest).
    NoSuchCard { name: String, hint: String },
    /// `cards show` of a card that does not load.
    BrokenCard(CardError),
    /// `trust` with no usable state directory.
    NoStateDir,
    /// `replay` could not make its private directory.
    ReplayNoTempDir(io::Error),
    /// `replay` could not open the transcript.
    ReplayOpen { path: PathBuf, error: io::Error },
    /// `replay` read a file holding no transcript records.
    ReplayNoRecords { source: String },
    /// `replay` failed while reading or copying the transcript.
    Replay(io::Error),
    /// `audit verify` or `audit export` could not read the audit log, or
    /// the export stopped (what was sent before stays sent).
    Audit(String),
    /// `report --session` of a session the state does not hold.
    ReportNoSession(String),
    /// `report` with no `-o` and no usable state directory to write in.
    ReportNowhere,
    /// `report --open`: the browser could not be started.
    ReportOpen { program: String, error: io::Error },
    /// `explain` of an event or card that does not exist: the nearest
    /// names (`hint`) and where to find them all (`among`).
    UnknownName {
        what: String,
        name: String,
        hint: String,
        among: String,
    },
}

impl CommandError {
    /// Prints the error and returns its exit code.
    pub fn report(self, p: &Printer) -> super::ExitStatus {
        p.err(&self.to_string());
        super::ExitStatus::from(&self)
    }
}

impl From<InstallError> for CommandError {
    fn from(e: InstallError) -> Self {
        CommandError::Install(e)
    }
}

impl From<Unresolved> for CommandError {
    fn from(e: Unresolved) -> Self {
        CommandError::Unresolved(e)
    }
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use CommandError as E;
        match self {
            E::Unresolved(e) => write!(f, "cuecard: {e}"),
            E::UnknownScope => f.write_str("cuecard: --scope is one of user, project, managed"),
            E::ManagedNeedsClaudeCode => f.write_str(
                "cuecard: --scope managed renders Claude Code managed settings; use --harness claude-code",
            ),
            E::Install(e) => write!(f, "cuecard: {e}"),
            E::Audit(why) => f.write_str(why),
            E::BadCardName => f.write_str(
                "cuecard: a card name is lower-case letters, digits and dashes (e.g. `migrations-guide`)",
            ),
            E::NoUserConfigDir => {
                f.write_str("cuecard: no user configuration directory on this platform")
            }
            E::CardExists(path) => {
                write!(f, "cuecard: {} exists; not overwritten", path.display())
            }
            E::CannotWrite { path, error } => {
                write!(f, "cuecard: cannot write {}: {error}", path.display())
            }
            E::NoSuchCard { name, hint } => write!(
                f,
                "cuecard: no card named {name:?}{hint} (see `cuecard cards list`)"
            ),
            E::BrokenCard(e) => write!(f, "{e}"),
            E::NoStateDir => f.write_str(
                "cuecard: no usable state directory (see `cuecard status`); trust cannot be recorded",
            ),
            E::ReplayNoTempDir(e) => write!(f, "cuecard replay: no temporary directory: {e}"),
            E::ReplayOpen { path, error } => {
                write!(f, "cuecard replay: {}: {error}", path.display())
            }
            E::ReplayNoRecords { source } => write!(
                f,
                "cuecard replay: {source}: no transcript records (expected JSON lines from Claude Code or Codex)"
            ),
            E::Replay(e) => write!(f, "cuecard replay: {e}"),
            E::ReportNoSession(id) => write!(
                f,
                "cuecard report: no session {id:?} in the state (`cuecard status` lists them)"
            ),
            E::ReportNowhere => f.write_str(
                "cuecard report: no usable state directory to write the page in; name a file with -o",
            ),
            E::ReportOpen { program, error } => write!(
                f,
                "cuecard report: the page is written, but {program:?} could not be started ({error}); set BROWSER"
            ),
            E::UnknownName {
                what,
                name,
                hint,
                among,
            } => write!(f, "cuecard: unknown {what} `{name}`{hint}\n  known: {among}"),
        }
    }
}

/// The message is whole on its own; the error it wraps stays reachable.
impl std::error::Error for CommandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use CommandError as E;
        match self {
            E::Unresolved(e) => Some(e),
            E::Install(e) => Some(e),
            E::BrokenCard(e) => Some(e),
            E::CannotWrite { error, .. }
            | E::ReplayNoTempDir(error)
            | E::ReplayOpen { error, .. }
            | E::Replay(error)
            | E::ReportOpen { error, .. } => Some(error),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::PolicyError;
    use std::error::Error;

    /// A caller (or a logger) walking the chain reaches the system's own
    /// error under cuecard's message.
    #[test]
    fn the_chain_reaches_the_underlying_error() {
        let io = io::Error::new(io::ErrorKind::PermissionDenied, "no write bit");
        let e = CommandError::from(InstallError::Writing {
            path: PathBuf::from("/x/settings.json"),
            error: io,
        });
        let install = e.source().expect("the install error");
        assert!(install.to_string().contains("/x/settings.json"));
        let sys = install.source().expect("the system's error");
        assert_eq!(sys.to_string(), "no write bit");
        assert!(sys.source().is_none());

        let line = PolicyError::AtLine {
            line: 3,
            why: Box::new(PolicyError::Twice("destructive".into())),
        };
        let why = line.source().expect("the line's reason");
        assert_eq!(
            why.to_string(),
            PolicyError::Twice("destructive".into()).to_string()
        );
    }
}
