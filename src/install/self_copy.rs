//! The binary the entries run, and how lasting it is: `install --self`
//! copies it to `~/.local/bin/cuecard`; a binary in a cargo build folder
//! (`cargo clean` takes it) and a managed install's binary writable by
//! this user are reported.

use super::error::InstallError;
use crate::harness::config::Roots;

/// `--self`: `bin` copied to `~/.local/bin/cuecard` (written through a
/// temporary file and renamed, mode 0755; nothing on a dry run, or when
/// the copy there is already this binary); returns the copy's path. A
/// file there that is not a cuecard binary is the user's: refused.
pub fn copy(bin: &str, roots: &Roots, dry_run: bool) -> Result<String, InstallError> {
    let name = if cfg!(windows) {
        "cuecard.exe"
    } else {
        "cuecard"
    };
    let dir = roots.home.join(".local").join("bin");
    let dest = dir.join(name);
    let dest_s = dest.display().to_string();
    let same = std::fs::read(&dest).ok() == std::fs::read(bin).ok();
    if dest.exists() && !same && !is_a_cuecard(&dest) {
        return Err(InstallError::SelfCopyForeign(dest));
    }
    if dry_run || same {
        return Ok(dest_s);
    }
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| InstallError::Io { path, error }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let tmp = dir.join(format!(".{name}.cuecard-{}", std::process::id()));
    std::fs::copy(bin, &tmp).map_err(io(&tmp))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).map_err(io(&tmp))?;
    }
    std::fs::rename(&tmp, &dest).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(&dest)(e)
    })?;
    Ok(dest_s)
}

/// Whether the program at `p` says it is cuecard (`--version`).
fn is_a_cuecard(p: &std::path::Path) -> bool {
    std::process::Command::new(p)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).starts_with("cuecard "))
}

/// Whether `bin` lives in a cargo build folder (`.../target/debug/`,
/// `.../target/<triple>/release/`, ...), which `cargo clean` or a rebuild
/// on another branch empties or replaces.
pub fn in_cargo_target(bin: &str) -> bool {
    let parts: Vec<&str> = bin.split(['/', '\\']).collect();
    parts.iter().enumerate().any(|(i, p)| {
        *p == "target"
            && parts[i + 1..]
                .iter()
                .take(2)
                .any(|q| *q == "debug" || *q == "release")
    })
}

/// Whether this user can write `bin` (checked with `access(2)`, a Unix
/// call): whoever can replace it overrides the managed hooks.
#[cfg(unix)]
pub fn writable(bin: &str) -> bool {
    std::ffi::CString::new(bin)
        .map(|c| unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0)
        .unwrap_or(false)
}

/// Elsewhere nothing is said.
#[cfg(not(unix))]
pub fn writable(_bin: &str) -> bool {
    false
}
