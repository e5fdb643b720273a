//! Registering cuecard in a harness for one run: `cuecard install --harness
//! <id> --scope project`, run in the temporary project with the run's HOME,
//! exactly as a user would; or `cuecard plugin build` where the run loads
//! cuecard as a plugin.

use super::harness::{Harness, RunDirs};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Installs cuecard for `h`; returns how, for the run's record.
pub fn register(
    h: &Harness,
    bin: &Path,
    dirs: &RunDirs,
    env: &[(String, String)],
    sandbox: bool,
) -> Result<String, String> {
    let mut args: Vec<OsString> = ["install", "--harness", h.id, "--scope", "project"]
        .map(OsString::from)
        .to_vec();
    if sandbox {
        args.push("--sandbox".into());
    }
    run(bin, &args, dirs, env)
}

/// Builds cuecard's plugin for `h` where its driver loads it from (`cuecard
/// plugin build`) and returns its directory and how, for the run's record.
/// Nothing is installed into any settings file.
pub fn plugin(
    h: &Harness,
    bin: &Path,
    dirs: &RunDirs,
    env: &[(String, String)],
) -> Result<(PathBuf, String), String> {
    let dir = super::drivers::of(h)?
        .plugin_dir(dirs)
        .ok_or_else(|| format!("the e2e loads no plugin for {}", h.id))?;
    let args = [
        "plugin".into(),
        "build".into(),
        dir.clone().into_os_string(),
        "--harness".into(),
        h.id.into(),
    ];
    Ok((dir, run(bin, &args, dirs, env)?))
}

/// Runs `cuecard <args>` in the run's project with the run's environment;
/// returns the command line, for the run's record.
fn run(
    bin: &Path,
    args: &[OsString],
    dirs: &RunDirs,
    env: &[(String, String)],
) -> Result<String, String> {
    let line = format!(
        "cuecard {}",
        args.iter()
            .map(|a| a.to_string_lossy())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let out = Command::new(bin)
        .args(args)
        .current_dir(&dirs.project)
        .env_clear()
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{line}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{line} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(line)
}
