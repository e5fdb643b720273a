//! Where things are for this run: the home directory (`HOME`, which tests
//! point at a temporary directory), the project (the git root above the
//! working directory), the working directory, and the installed binary.

use crate::harness::config::Roots;
use std::path::PathBuf;

impl Roots {
    /// The roots from the environment.
    pub fn from_env() -> Result<Roots, String> {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .ok_or("HOME is not set; cuecard needs it to find the harnesses' user configuration")?;
        let cwd = std::env::current_dir().map_err(|e| format!("the working directory: {e}"))?;
        let project = crate::context::find_project_root(&cwd);
        Ok(Roots { home, project, cwd })
    }
}

/// The absolute path of the running cuecard binary, which every hook entry
/// names: `CUECARD_BIN` when set (a packaged install whose binary is reached
/// through a stable link), else the running executable, symlinks resolved.
pub fn installed_binary() -> Result<String, String> {
    let path = match std::env::var_os("CUECARD_BIN").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(|e| format!("cannot find the cuecard binary's own path: {e}"))?,
    };
    if !path.is_absolute() {
        return Err(format!(
            "CUECARD_BIN must be an absolute path, not {}",
            path.display()
        ));
    }
    path.into_os_string()
        .into_string()
        .map_err(|p| format!("the binary's path {p:?} is not UTF-8; hook configs are JSON text"))
}
