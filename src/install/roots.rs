//! Where things are for this run: the home directory (`HOME`, which tests
//! point at a temporary directory, else the platform's own: the profile
//! folder on Windows, where `HOME` is usually unset), the project (the git
//! root above the working directory), the working directory, and the
//! installed binary.

use super::error::InstallError;
use crate::harness::config::Roots;
use std::path::PathBuf;

impl Roots {
    /// The roots from the environment.
    /// On Unix `HOME` must be set and name an existing folder (no silent
    /// fall-back to the password database's home, nothing created outside
    /// an existing home); an XDG directory variable that names a missing
    /// folder outside the home is refused too.
    pub fn from_env() -> Result<Roots, InstallError> {
        let set = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from);
        let home = if cfg!(unix) {
            set.ok_or(InstallError::NoHome)?
        } else {
            set.or_else(|| directories::BaseDirs::new().map(|b| b.home_dir().to_path_buf()))
                .ok_or(InstallError::NoHome)?
        };
        if !home.is_dir() {
            return Err(InstallError::HomeMissing(home));
        }
        let real_home = std::fs::canonicalize(&home).unwrap_or_else(|_| home.clone());
        for var in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"] {
            if let Some(p) = std::env::var_os(var)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
                && p.is_absolute()
                && !p.starts_with(&home)
                && !p.starts_with(&real_home)
                && !p.exists()
            {
                return Err(InstallError::XdgMissing { var, path: p });
            }
        }
        let cwd = std::env::current_dir().map_err(InstallError::WorkingDir)?;
        let project = crate::context::find_project_root(&cwd);
        Ok(Roots { home, project, cwd })
    }
}

/// The absolute path of the running cuecard binary, which every hook entry
/// names: `CUECARD_BIN` when set (a packaged install whose binary is reached
/// through a stable link), else the running executable, symlinks resolved.
pub fn installed_binary() -> Result<String, InstallError> {
    let path = match std::env::var_os("CUECARD_BIN").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => std::env::current_exe()
            .and_then(|p| p.canonicalize())
            .map_err(InstallError::OwnPath)?,
    };
    if !path.is_absolute() {
        return Err(InstallError::RelativeBin(path));
    }
    path.into_os_string()
        .into_string()
        .map(|p| plain_windows_path(&p))
        .map_err(InstallError::BinNotUtf8)
}

/// A Windows path without the `\\?\` prefix `canonicalize` gives it there
/// (`\\?\C:\...` is `C:\...`, `\\?\UNC\server\share` is
/// `\\server\share`), the form harnesses and their shells take; any other
/// path as it is.
pub fn plain_windows_path(p: &str) -> String {
    match p.strip_prefix(r"\\?\") {
        Some(rest)
            if rest.len() >= 3 && rest.as_bytes()[1] == b':' && rest.as_bytes()[2] == b'\\' =>
        {
            rest.to_string()
        }
        Some(rest) if rest.starts_with(r"UNC\") => format!(r"\\{}", &rest[4..]),
        _ => p.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::plain_windows_path;

    #[test]
    fn canonical_windows_paths_lose_their_verbatim_prefix() {
        assert_eq!(
            plain_windows_path(r"\\?\C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe"),
            r"C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe"
        );
        assert_eq!(
            plain_windows_path(r"\\?\UNC\server\share\cuecard.exe"),
            r"\\server\share\cuecard.exe"
        );
        for kept in [
            "/usr/local/bin/cuecard",
            r"C:\x\cuecard.exe",
            r"\\?\Volume{x}\cuecard.exe",
        ] {
            assert_eq!(plain_windows_path(kept), kept);
        }
    }
}
