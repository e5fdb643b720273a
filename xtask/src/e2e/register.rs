//! Registering cuecard in a harness for one run: `cuecard install --harness
//! <id> --scope project`, run in the temporary project with the run's HOME,
//! exactly as a user would.

use super::harness::{Harness, RunDirs};
use std::path::Path;
use std::process::{Command, Stdio};

/// Installs cuecard for `h`; returns how, for the run's record.
pub fn register(
    h: &Harness,
    bin: &Path,
    dirs: &RunDirs,
    env: &[(String, String)],
) -> Result<String, String> {
    let out = Command::new(bin)
        .args(["install", "--harness", h.id, "--scope", "project"])
        .current_dir(&dirs.project)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cuecard install: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cuecard install --harness {} failed: {}{}",
            h.id,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(format!(
        "cuecard install --harness {} --scope project",
        h.id
    ))
}
