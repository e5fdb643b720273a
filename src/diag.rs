//! Failures on the hook path. cuecard fails open (the harness always gets an
//! answer), but never silently: each failure is collected here, printed to
//! stderr with `-v`, and kept in the failure record so that the next session
//! start and `cuecard status` tell the user. A failure never holds payload
//! contents.

use std::sync::Mutex;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    BadArguments,
    UnknownEvent,
    UnknownCard,
    UnusablePayload,
    CardError,
    GuardPanic,
    Deadline,
    StateRefused,
    StateCorrupt,
    StateIo,
    /// A state counter was asked to make an impossible move (refused).
    StateTransition,
    /// A configuration value was not understood (its default was used).
    BadConfig,
    /// The session's lock stayed busy past its bound (the call ran stateless).
    StateBusy,
    /// An audit record could not be appended (docs/audit.md).
    AuditIo,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Failure {
    pub kind: Kind,
    /// A short description, without payload contents.
    pub detail: String,
}

static FAILURES: Mutex<Vec<Failure>> = Mutex::new(Vec::new());
static VERBOSE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

pub fn set_verbose(on: bool) {
    VERBOSE.store(on, std::sync::atomic::Ordering::Relaxed);
}

pub fn verbose() -> bool {
    VERBOSE.load(std::sync::atomic::Ordering::Relaxed)
}

/// Records a failure of this process.
pub fn record(kind: Kind, detail: impl Into<String>) {
    let detail: String = crate::text::sanitize(&detail.into(), 300);
    if verbose() {
        crate::printer::err(&format!("cuecard: {kind:?}: {detail}"));
    }
    let mut f = FAILURES.lock().unwrap_or_else(|e| e.into_inner());
    if f.len() < 32 {
        f.push(Failure { kind, detail });
    }
}

/// The failures recorded so far, removed (for a process that runs many
/// calls, as the fuzz targets do).
pub fn take() -> Vec<Failure> {
    std::mem::take(&mut *FAILURES.lock().unwrap_or_else(|e| e.into_inner()))
}

/// A copy of the failures recorded so far.
pub fn snapshot() -> Vec<Failure> {
    FAILURES.lock().unwrap_or_else(|e| e.into_inner()).clone()
}
