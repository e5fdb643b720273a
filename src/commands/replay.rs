//! `cuecard replay [<transcript.jsonl>] [--json]`: what cuecard would have
//! done on a recorded session, per turn. With no file, the embedded sample.
//!
//! Replay never touches the user's state: before anything runs, the state
//! root is pointed at a fresh private directory (removed afterwards), so the
//! dispatcher's state, failure records and once-per-session marks all land
//! there.

use super::{CommandError, ExitStatus};
use crate::cli::ReplayArgs;
use crate::printer::Printer;
use crate::replay::{self, WorkDir, report};
use std::io::BufReader;

pub fn run(p: &Printer, a: ReplayArgs) -> Result<ExitStatus, CommandError> {
    let r = load(a.transcript.as_deref())?;
    p.out(&if a.json {
        report::json(&r)
    } else {
        report::human(&r)
    });
    Ok(ExitStatus::Success)
}

/// Replays `transcript` (the embedded sample without one) in a private
/// state directory; `report` reuses it.
pub fn load(transcript: Option<&std::path::Path>) -> Result<replay::Replay, CommandError> {
    let work = WorkDir::new().map_err(CommandError::ReplayNoTempDir)?;
    // SAFETY: set once, before any thread exists in this process (replay
    // starts no thread and arms no deadline); every later read of the state
    // root sees the private directory.
    unsafe { std::env::set_var("CUECARD_STATE_DIR", work.0.join("state")) };
    let result = match transcript {
        None => replay::run(
            "the embedded sample session",
            replay::SAMPLE.as_bytes(),
            &work.0,
        ),
        Some(path) => match std::fs::File::open(path) {
            Ok(f) => replay::run(
                &path.display().to_string(),
                BufReader::with_capacity(256 << 10, f),
                &work.0,
            ),
            Err(error) => {
                return Err(CommandError::ReplayOpen {
                    path: path.to_path_buf(),
                    error,
                });
            }
        },
    };
    let r = result.map_err(CommandError::Replay)?;
    if r.records == 0 {
        return Err(CommandError::ReplayNoRecords { source: r.source });
    }
    Ok(r)
}
