//! The per-user directories (docs/design.md §6, §4a), by each platform's convention
//! through the `directories` crate, kept apart where a platform gives two
//! of them the same place:
//!
//! | | config (user cards) | data (materialised cards) | state |
//! |---|---|---|---|
//! | Linux | `$XDG_CONFIG_HOME/cuecard` | `$XDG_DATA_HOME/cuecard` | `$XDG_STATE_HOME/cuecard` |
//! | macOS | `~/Library/Application Support/cuecard` | `…/cuecard/data` | `…/cuecard/data/state` |
//! | Windows | `%APPDATA%\cuecard\config` | `%LOCALAPPDATA%\cuecard\data` | `%LOCALAPPDATA%\cuecard\data\state` |
//!
//! Where the platform has no state directory (macOS, Windows) the state
//! lives in the platform's *local* data directory (on Windows
//! `%LOCALAPPDATA%`, never the roaming profile that follows the user between
//! machines), in a `state` directory of its own, so it never mixes with the
//! cards install writes there.

//!
//! This file is the one place that resolves them: each has a `CUECARD_*_DIR`
//! override (docs/design.md §11), and the state root also follows a Claude
//! Code plugin's `CLAUDE_PLUGIN_DATA`.

use std::path::{Path, PathBuf};

/// A variable's value when set and not empty.
fn set(key: &str) -> Option<PathBuf> {
    std::env::var_os(key)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// The user's config directory (user cards, `config.toml`):
/// `CUECARD_CONFIG_DIR`, else the platform's.
pub fn config() -> Option<PathBuf> {
    set("CUECARD_CONFIG_DIR").or_else(|| Dirs::current().map(|d| d.config))
}

/// The data directory (materialised cards, the install record):
/// `CUECARD_DATA_DIR`, else the platform's local data directory.
pub fn data() -> Option<PathBuf> {
    set("CUECARD_DATA_DIR").or_else(|| Dirs::current().map(|d| d.data))
}

/// The configured state root, before any check: `CUECARD_STATE_DIR`, else
/// `$CLAUDE_PLUGIN_DATA/state`, else the platform's.
pub fn state() -> Option<PathBuf> {
    set("CUECARD_STATE_DIR")
        .or_else(|| set("CLAUDE_PLUGIN_DATA").map(|d| d.join("state")))
        .or_else(|| Dirs::current().map(|d| d.state))
}

/// Whether the data directory is the platform's own (no override), so that
/// uninstall may remove it when empty.
pub fn data_is_platform() -> bool {
    set("CUECARD_DATA_DIR").is_none()
}

/// Whether the state root is the platform's own (no override).
pub fn state_is_platform() -> bool {
    set("CUECARD_STATE_DIR").is_none() && set("CLAUDE_PLUGIN_DATA").is_none()
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dirs {
    pub config: PathBuf,
    pub data: PathBuf,
    pub state: PathBuf,
}

impl Dirs {
    /// This platform's directories, `None` when it gives none (no home).
    pub fn current() -> Option<Dirs> {
        let p = directories::ProjectDirs::from("", "", "cuecard")?;
        Some(Dirs::from_platform(
            p.config_dir(),
            p.data_local_dir(),
            p.state_dir(),
        ))
    }

    /// The rule, from what a platform gives: its config directory, its local
    /// data directory, and its state directory if it has one.
    pub fn from_platform(config: &Path, data_local: &Path, state: Option<&Path>) -> Dirs {
        let data = if data_local == config {
            data_local.join("data")
        } else {
            data_local.to_path_buf()
        };
        let state = match state {
            Some(s) => s.to_path_buf(),
            None => data.join("state"),
        };
        Dirs {
            config: config.to_path_buf(),
            data,
            state,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Dirs;
    use std::path::{Path, PathBuf};

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn each_platform_keeps_config_data_and_state_apart() {
        // Linux (XDG): three directories of their own.
        let linux = Dirs::from_platform(
            Path::new("/home/u/.config/cuecard"),
            Path::new("/home/u/.local/share/cuecard"),
            Some(Path::new("/home/u/.local/state/cuecard")),
        );
        assert_eq!(linux.data, p("/home/u/.local/share/cuecard"));
        assert_eq!(linux.state, p("/home/u/.local/state/cuecard"));
        // macOS: config and data are one place there; kept apart.
        let app = "/Users/u/Library/Application Support/cuecard";
        let mac = Dirs::from_platform(Path::new(app), Path::new(app), None);
        assert_eq!(mac.config, p(app));
        assert_eq!(mac.data, p(app).join("data"));
        assert_eq!(mac.state, p(app).join("data").join("state"));
        // Windows: no state directory, so the state goes under the local
        // (not roaming) data directory, beside the cards but not among them.
        let local = r"C:\Users\Zoë Doe\AppData\Local\cuecard\data";
        let win = Dirs::from_platform(
            Path::new(r"C:\Users\Zoë Doe\AppData\Roaming\cuecard\config"),
            Path::new(local),
            None,
        );
        assert_eq!(win.data, p(local));
        assert_eq!(win.state, p(local).join("state"));
        assert!(
            win.state
                .to_string_lossy()
                .starts_with(r"C:\Users\Zoë Doe\AppData\Local\")
        );
        for d in [&linux, &mac, &win] {
            assert_ne!(d.config.join("cards"), d.data.join("cards"), "{d:?}");
            assert_ne!(d.state, d.data, "{d:?}");
        }
    }
}
