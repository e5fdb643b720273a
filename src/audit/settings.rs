//! The `[audit]` table of the user's `config.toml` (docs/audit.md):
//!
//! ```toml
//! [audit]
//! enabled = true
//! max_file_bytes = 1048576   # the size at which the log is rotated
//! max_files = 5              # files kept, the current one included
//! ```
//!
//! The table is read from the same bytes the policy reader reads (it hands
//! them to [`remember`]), so the hook learns whether the audit is on without
//! opening the file again; [`remembered`] says what was read for a path.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The size at which the current log is rotated, by default.
pub const DEFAULT_MAX_FILE_BYTES: u64 = 1 << 20;
/// The files kept by default (the current one and four rotated ones).
pub const DEFAULT_MAX_FILES: u32 = 5;
/// The bounds a configured size is clamped to.
pub const FILE_BYTES_RANGE: (u64, u64) = (16 * 1024, 64 << 20);
/// The bounds a configured file count is clamped to.
pub const FILES_RANGE: (u32, u32) = (1, 100);

/// What the `[audit]` table says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Settings {
    pub enabled: bool,
    pub max_file_bytes: u64,
    pub max_files: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            enabled: false,
            max_file_bytes: DEFAULT_MAX_FILE_BYTES,
            max_files: DEFAULT_MAX_FILES,
        }
    }
}

/// The line without a `#` comment outside quotes.
fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

fn flag(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}

/// The `[audit]` table of a config file's text, and the lines of it that
/// were not understood (each keeps its default). `None`: the file has no
/// `[audit]` table.
pub fn parse(text: &str) -> Option<(Settings, Vec<String>)> {
    let mut inside = false;
    let mut seen = false;
    let mut s = Settings::default();
    let mut problems = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(h) = line.strip_prefix('[') {
            inside = h.trim_end_matches(']').trim() == "audit";
            seen |= inside;
            continue;
        }
        if !inside {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            problems.push(format!("[audit] line {}: not `key = value`", n + 1));
            continue;
        };
        let key = k.trim().trim_matches('"');
        let value = v.trim().trim_matches('"');
        let ok = match key {
            "enabled" => flag(value).map(|b| s.enabled = b).is_some(),
            "max_file_bytes" => value
                .replace('_', "")
                .parse::<u64>()
                .ok()
                .map(|b| s.max_file_bytes = b.clamp(FILE_BYTES_RANGE.0, FILE_BYTES_RANGE.1))
                .is_some(),
            "max_files" => value
                .parse::<u32>()
                .ok()
                .map(|f| s.max_files = f.clamp(FILES_RANGE.0, FILES_RANGE.1))
                .is_some(),
            _ => false,
        };
        if !ok {
            problems.push(format!(
                "[audit] line {}: `{}` is not understood (enabled = true|false, max_file_bytes = <bytes>, max_files = <count>)",
                n + 1,
                crate::text::sanitize(line, 80)
            ));
        }
    }
    seen.then_some((s, problems))
}

/// What was read for each config file this process read: `None` for a
/// file that is absent or has no `[audit]` table.
static MEMO: Mutex<Vec<(PathBuf, Option<Settings>)>> = Mutex::new(Vec::new());

/// Notes what a config file read by this process says (`text` `None`: no
/// such file).
pub fn remember(path: &Path, text: Option<&str>) {
    let s = text.and_then(parse).map(|(s, _)| s);
    let mut m = MEMO.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = m.iter_mut().find(|(p, _)| p == path) {
        e.1 = s;
    } else if m.len() < 8 {
        m.push((path.to_path_buf(), s));
    }
}

/// What [`remember`] noted for `path`: `None` when this process has not
/// read it; `Some(None)` when it is absent or has no `[audit]` table.
pub fn remembered(path: &Path) -> Option<Option<Settings>> {
    let m = MEMO.lock().unwrap_or_else(|e| e.into_inner());
    m.iter().find(|(p, _)| p == path).map(|(_, s)| *s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_read_and_bounded() {
        assert_eq!(parse("[policy]\nsecrets = \"deny\"\n"), None);
        let (s, p) =
            parse("[audit]\nenabled = true # on\nmax_files = 1000\nmax_file_bytes = 1\n").unwrap();
        assert!(s.enabled && p.is_empty());
        assert_eq!((s.max_files, s.max_file_bytes), (100, 16 * 1024));
        let (s, p) =
            parse("[audit]\nenabled = maybe\ncolour = \"red\"\n[policy]\nenabled = true\n")
                .unwrap();
        assert!(!s.enabled);
        assert_eq!(p.len(), 2, "{p:?}");
    }

    #[test]
    fn a_read_file_is_remembered() {
        let p = Path::new("/nonexistent/cuecard-audit-test.toml");
        assert_eq!(remembered(p), None);
        remember(p, Some("[audit]\nenabled = on\n"));
        assert!(remembered(p).unwrap().unwrap().enabled);
        remember(p, None);
        assert_eq!(remembered(p), Some(None));
    }
}
