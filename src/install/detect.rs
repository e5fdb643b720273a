//! `install --detect`: which harnesses are used on this machine, from the
//! signs each harness's registry entry names ([`Presence`]): its own folder
//! in the user's home, or one of its programs on PATH. Nothing is run and
//! nothing is read beyond a `stat`.

use crate::harness::config::{Config, Presence, Roots};
use std::path::{Path, PathBuf};

/// A harness found on this machine, and what showed it.
pub struct Detected {
    pub spec: &'static Config,
    /// `~/.claude exists`, `claude on PATH (/usr/local/bin/claude)`.
    pub signs: Vec<String>,
}

/// Every installable harness with a sign of use here, in the registry's
/// order.
pub fn detect(roots: &Roots) -> Vec<Detected> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| d.is_absolute())
        .collect();
    super::all_specs()
        .into_iter()
        .filter_map(|spec| {
            let signs = signs(&spec.presence, roots, &dirs);
            (!signs.is_empty()).then_some(Detected { spec, signs })
        })
        .collect()
}

/// What shows the harness is here: its folder, its programs on PATH.
fn signs(p: &Presence, roots: &Roots, path: &[PathBuf]) -> Vec<String> {
    let mut out = Vec::new();
    let dir = (p.dir)(roots);
    if !dir.as_os_str().is_empty() && dir.is_dir() {
        out.push(format!("{} exists", shown(&dir, &roots.home)));
    }
    for prog in p.programs {
        if let Some(found) = path.iter().find_map(|d| executable(&d.join(prog))) {
            out.push(format!("`{prog}` on PATH ({})", found.display()));
        }
    }
    out
}

/// `path` (or, on Windows, `path.exe`) when it is an executable file.
fn executable(path: &Path) -> Option<PathBuf> {
    let candidates = if cfg!(windows) {
        vec![path.with_extension("exe"), path.with_extension("cmd")]
    } else {
        vec![path.to_path_buf()]
    };
    candidates.into_iter().find(|p| {
        std::fs::metadata(p).is_ok_and(|m| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                m.is_file() && m.permissions().mode() & 0o111 != 0
            }
            #[cfg(not(unix))]
            {
                m.is_file()
            }
        })
    })
}

/// `~/rest` for a path under HOME.
fn shown(path: &Path, home: &Path) -> String {
    match path.strip_prefix(home) {
        Ok(rest) => format!("~/{}", rest.display()),
        Err(_) => path.display().to_string(),
    }
}
