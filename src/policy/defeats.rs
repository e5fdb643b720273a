//! Harness settings that would defeat a configured policy, for `cuecard
//! doctor`: each check is the harness's own precedence as measured or
//! documented (docs/policy.md), never assumed.
//!
//! - Claude Code `disableAllHooks: true` (user, project or local settings)
//!   turns every hook off, cuecard's decisions with them \[DOC\].
//! - Gemini CLI `hooksConfig.enabled: false` does the same \[DOC\].
//! - Claude Code `permissions.allow` rules that pre-approve a call
//!   (`Bash(rm:*)`) and `defaultMode: "bypassPermissions"` do *not* defeat
//!   a hook's ask or deny (measured, 2.1.332: e2e `policy-ask-preapproved`):
//!   reported as a note only.

use crate::target::ToolKind;
use std::path::{Path, PathBuf};

/// One finding of the check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Defeat {
    pub file: PathBuf,
    /// True when the setting stops the policy being enforced.
    pub defeats: bool,
    pub what: String,
}

fn read_json(path: &Path) -> Option<serde_json::Value> {
    let (bytes, _, _) = crate::fsutil::read_regular(path, true, super::MAX_BYTES * 16).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// The settings files of `home` and `project` that would defeat (or that
/// look as if they would, but do not) a policy that asks or denies.
pub fn check(home: &Path, project: &Path) -> Vec<Defeat> {
    let mut out = Vec::new();
    let claude = [
        home.join(".claude/settings.json"),
        project.join(".claude/settings.json"),
        project.join(".claude/settings.local.json"),
    ];
    for file in claude {
        let Some(v) = read_json(&file) else { continue };
        if v["disableAllHooks"] == serde_json::json!(true) {
            out.push(Defeat {
                file: file.clone(),
                defeats: true,
                what: "Claude Code `disableAllHooks: true`: no hook runs, so no ask or deny is enforced".into(),
            });
        }
        let allow: Vec<String> = v["permissions"]["allow"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|r| r.as_str())
                    // `Bash` and `Bash(<pattern>)`: Claude Code's rules
                    // name the canonical tool.
                    .filter(|r| {
                        r.strip_prefix(ToolKind::Bash.name())
                            .is_some_and(|rest| rest.is_empty() || rest.starts_with('('))
                    })
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default();
        if !allow.is_empty() {
            out.push(Defeat {
                file: file.clone(),
                defeats: false,
                what: format!(
                    "Claude Code {} {}: {} not override a hook's ask or deny (measured, 2.1.332)",
                    if allow.len() == 1 {
                        "allow rule"
                    } else {
                        "allow rules"
                    },
                    allow.join(", "),
                    if allow.len() == 1 {
                        "it does"
                    } else {
                        "they do"
                    },
                ),
            });
        }
        if v["permissions"]["defaultMode"] == serde_json::json!("bypassPermissions") {
            out.push(Defeat {
                file: file.clone(),
                defeats: false,
                what: "Claude Code `defaultMode: bypassPermissions`: a hook's ask and deny still hold (measured, 2.1.332)".into(),
            });
        }
    }
    for file in [
        home.join(".gemini/settings.json"),
        project.join(".gemini/settings.json"),
    ] {
        let Some(v) = read_json(&file) else { continue };
        if v["hooksConfig"]["enabled"] == serde_json::json!(false) {
            out.push(Defeat {
                file,
                defeats: true,
                what:
                    "Gemini CLI `hooksConfig.enabled: false`: no hook runs, so no deny is enforced"
                        .into(),
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hooks_switched_off_defeat_and_allow_rules_do_not() {
        let d = tempfile::tempdir().unwrap();
        let (home, project) = (d.path().join("h"), d.path().join("p"));
        std::fs::create_dir_all(home.join(".claude")).unwrap();
        std::fs::create_dir_all(project.join(".gemini")).unwrap();
        std::fs::write(
            home.join(".claude/settings.json"),
            r#"{"disableAllHooks": true, "permissions": {"allow": ["Bash(rm:*)", "Read"]}}"#,
        )
        .unwrap();
        std::fs::write(
            project.join(".gemini/settings.json"),
            r#"{"hooksConfig": {"enabled": false}}"#,
        )
        .unwrap();
        let found = check(&home, &project);
        assert_eq!(found.iter().filter(|f| f.defeats).count(), 2, "{found:?}");
        let note = found.iter().find(|f| !f.defeats).unwrap();
        assert!(note.what.contains("Bash(rm:*)") && !note.what.contains("Read"));
        assert!(check(&d.path().join("none"), &project).len() == 1);
    }
}
