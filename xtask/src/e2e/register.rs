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

/// Builds cuecard's plugin for `h` into the run (`cuecard plugin build`)
/// and returns its directory and how, for the run's record. Nothing is
/// installed into any settings file.
pub fn plugin(
    h: &Harness,
    bin: &Path,
    dirs: &RunDirs,
    env: &[(String, String)],
) -> Result<(std::path::PathBuf, String), String> {
    let dir = super::drivers::of(h)?
        .plugin_dir(dirs)
        .ok_or_else(|| format!("the e2e loads no plugin for {}", h.id))?;
    let out = Command::new(bin)
        .args(["plugin", "build"])
        .arg(&dir)
        .args(["--harness", h.id])
        .current_dir(&dirs.project)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("cuecard plugin build: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cuecard plugin build --harness {} failed: {}{}",
            h.id,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let how = format!("cuecard plugin build {} --harness {}", dir.display(), h.id);
    Ok((dir, how))
}
