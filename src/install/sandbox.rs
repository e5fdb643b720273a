//! `install --sandbox`: the user's policy rendered into a harness's own
//! operating-system sandbox, a second layer the hook's reader cannot be
//! talked out of (docs/policy.md, "A second layer: the harness's
//! sandbox"; issue 26 must-hold 9).
//!
//! A hook reads a command; a sandbox contains what it does. With
//! `outside-project` (or `destructive`) at `ask` or `deny`, the writes of
//! the agent's shell commands are confined to the project and the
//! temporary directories:
//!
//! - Claude Code: `sandbox.enabled: true` and `sandbox.autoAllowBashIfSandboxed:
//!   false` (the user's permission prompts stay as they were) in the settings
//!   file install writes the hooks into; under `deny` also
//!   `sandbox.allowUnsandboxedCommands: false` (the model's
//!   `dangerouslyDisableSandbox` retry is ignored) and
//!   `sandbox.failIfUnavailable: true` (no silent run without it). The keys
//!   go through the same record as the hooks switch: uninstall puts each back
//!   (the file byte for byte when nothing else changed).
//! - Codex: `sandbox_mode = "workspace-write"` as the first line of the
//!   `config.toml` beside the hooks file, recorded; uninstall takes out
//!   exactly that line (and the file, when install created it).
//!
//! A key or line of the user's own is never changed: it stays, with a
//! warning when it leaves the sandbox off.

use super::error::InstallError;
use crate::harness::HarnessId;
use crate::level::Level;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The guards whose policy the sandbox renders, most specific first.
const IDS: [&str; 3] = [
    "outside-project",
    "destructive.outside-project",
    "destructive",
];

/// The level the sandbox renders and the policy line it came from
/// (`CUECARD_POLICY: outside-project = deny`); `None` when no guard it
/// renders is at ask or deny.
pub fn confinement(policy: &crate::policy::Policy) -> Option<(Level, String)> {
    IDS.iter()
        .map(|id| policy.resolve(id, None))
        .filter(|r| r.level.decides())
        .max_by_key(|r| r.level)
        .map(|r| (r.level, r.from))
}

/// Why `--sandbox` wrote nothing: the policy asks for no confinement.
pub fn no_policy() -> InstallError {
    InstallError::SandboxNeedsPolicy {
        policy_file: crate::policy::user_file()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "config.toml".into()),
    }
}

/// The harnesses `--sandbox` renders into.
pub fn supported(h: HarnessId) -> bool {
    matches!(h, HarnessId::ClaudeCode | HarnessId::Codex)
}

/// Claude Code's `sandbox` keys (dotted) for `level`.
pub fn claude_keys(level: Level) -> Vec<(String, Value)> {
    let mut keys = vec![
        ("sandbox.enabled".to_string(), Value::Bool(true)),
        (
            "sandbox.autoAllowBashIfSandboxed".to_string(),
            Value::Bool(false),
        ),
    ];
    if level == Level::Deny {
        keys.push((
            "sandbox.allowUnsandboxedCommands".to_string(),
            Value::Bool(false),
        ));
        keys.push(("sandbox.failIfUnavailable".to_string(), Value::Bool(true)));
    }
    keys
}

/// The record field under the settings file's entry that holds the
/// sandbox keys install wrote, with their values.
pub const RECORD_FIELD: &str = "sandbox";

/// The sandbox keys install recorded writing into `config`.
pub fn recorded_keys(config: &Path) -> Vec<(String, Value)> {
    match super::record::get(config, RECORD_FIELD) {
        Some(Value::Object(m)) => m.into_iter().collect(),
        _ => Vec::new(),
    }
}

/// Codex's line.
pub const CODEX_LINE: &str = "sandbox_mode = \"workspace-write\" # cuecard install --sandbox: writes confined to the project and the temporary directories; cuecard uninstall removes this line";

/// The top-level `sandbox_mode` of a Codex `config.toml` (before its first
/// table), if any.
pub fn codex_mode(text: &str) -> Option<String> {
    for line in text.lines() {
        let l = line.trim();
        if l.starts_with('[') {
            return None;
        }
        if let Some(rest) = l.strip_prefix("sandbox_mode")
            && let Some(v) = rest.trim_start().strip_prefix('=')
        {
            let v = v.split('#').next().unwrap_or("").trim();
            return Some(v.trim_matches(|c| c == '"' || c == '\'').to_string());
        }
    }
    None
}

/// `text` (none: a new file) with [`CODEX_LINE`] as its first line.
pub fn codex_insert(text: Option<&str>) -> String {
    format!("{CODEX_LINE}\n{}", text.unwrap_or(""))
}

/// `text` with the line install wrote taken out (the first line that is
/// exactly it); `None` when it is no longer there as written.
pub fn codex_remove(text: &str) -> Option<String> {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']) == CODEX_LINE {
            return Some(format!("{}{}", &text[..at], &text[at + line.len()..]));
        }
        at += line.len();
    }
    None
}

/// The Codex `config.toml` beside the hooks file `t` writes.
pub fn codex_config(t: &super::document::ConfigFile) -> Option<std::path::PathBuf> {
    t.path.parent().map(|d| d.join("config.toml"))
}

/// What install or uninstall did with the `sandbox_mode` line of Codex's
/// `config.toml` (`path`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CodexLine {
    /// Install: the file already confines writes (`mode`), or holds the
    /// line already: left as it is.
    AlreadySet { path: PathBuf, mode: String },
    /// Install: a `mode` of the user's own that confines nothing: left as
    /// it is (a warning).
    UsersOwn { path: PathBuf, mode: String },
    /// Install: [`CODEX_LINE`] added as the first line (or would be).
    Added { path: PathBuf },
    /// Uninstall: the line install wrote is no longer there as written.
    Gone { path: PathBuf },
    /// Uninstall: the line install wrote taken out.
    Removed { path: PathBuf },
}

/// `install --sandbox` for Codex: [`CODEX_LINE`] put first in the
/// `config.toml` beside the hooks file, recorded; a `sandbox_mode` of the
/// user's own stays. What was done, to tell the user.
pub fn codex_install(
    t: &super::document::ConfigFile,
    dry_run: bool,
) -> Result<Option<CodexLine>, InstallError> {
    use super::fsio;
    let Some(path) = codex_config(t) else {
        return Ok(None);
    };
    fsio::refuse_symlinks(&t.base, &path)?;
    let before = fsio::read(&path)?;
    Ok(Some(match before.as_deref().and_then(codex_mode) {
        Some(mode)
            if super::record::get(&path, CODEX_FIELD).is_some()
                || mode == "workspace-write"
                || mode == "read-only" =>
        {
            CodexLine::AlreadySet { path, mode }
        }
        Some(mode) => CodexLine::UsersOwn { path, mode },
        None => {
            if !dry_run {
                fsio::refuse_read_only(&path)?;
                let created = before.is_none();
                fsio::write_atomic(&path, &codex_insert(before.as_deref()), before.as_deref())?;
                super::record::set(&path, CODEX_FIELD, Value::Bool(true))?;
                super::record::set(&path, "created_file", Value::Bool(created))?;
            }
            CodexLine::Added { path }
        }
    }))
}

/// The record field saying install wrote [`CODEX_LINE`] into a
/// `config.toml`.
const CODEX_FIELD: &str = "sandbox_line";

/// `uninstall` for Codex: the line install wrote taken out of the
/// `config.toml` beside `t` (the file removed when install created it and
/// nothing else is left), the record forgotten. What was done, to tell.
pub fn codex_uninstall(t: &super::document::ConfigFile) -> Result<Option<CodexLine>, InstallError> {
    use super::fsio;
    let Some(path) = codex_config(t) else {
        return Ok(None);
    };
    if super::record::get(&path, CODEX_FIELD).is_none() {
        return Ok(None);
    }
    fsio::refuse_symlinks(&t.base, &path)?;
    let created = super::record::created_file(&path) == Some(true);
    let said = match fsio::read(&path)? {
        None => None,
        Some(text) => match codex_remove(&text) {
            None => Some(CodexLine::Gone { path: path.clone() }),
            Some(after) => {
                fsio::refuse_read_only(&path)?;
                if created && after.is_empty() {
                    std::fs::remove_file(&path).map_err(|error| InstallError::Removing {
                        path: path.clone(),
                        error,
                    })?;
                } else {
                    fsio::write_atomic(&path, &after, None)?;
                }
                fsio::remove_backup(&path)?;
                Some(CodexLine::Removed { path: path.clone() })
            }
        },
    };
    super::record::forget(&path)?;
    Ok(said)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codex_line_goes_in_and_comes_out_byte_for_byte() {
        for before in [
            "",
            "model = \"o3\"\n",
            "# mine\r\n[projects.\"/x\"]\r\ntrust_level = \"trusted\"",
        ] {
            let after = codex_insert(Some(before));
            assert_eq!(codex_mode(&after).as_deref(), Some("workspace-write"));
            assert_eq!(codex_remove(&after).as_deref(), Some(before));
        }
        assert_eq!(codex_remove("model = \"o3\"\n"), None);
    }

    #[test]
    fn a_mode_inside_a_table_is_not_the_top_level_one() {
        assert_eq!(
            codex_mode("[profiles.x]\nsandbox_mode = \"read-only\"\n"),
            None
        );
        assert_eq!(
            codex_mode("sandbox_mode = 'danger-full-access' # mine\n").as_deref(),
            Some("danger-full-access")
        );
    }
}
