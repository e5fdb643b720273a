//! Registering cuecard in a harness for one run.
//!
//! The real path is `cuecard install --harness <id>` (DESIGN §9), run with
//! the run's HOME inside the temporary project; it is used as soon as the
//! binary has an `install` command. Until then (TO BE REPLACED once
//! `cuecard install` is on main) the hook entries are written here, one per
//! registration of the shipped cards, in each harness's own file and event
//! names, as the harness research found them to work.

use super::harness::{Harness, RunDirs, write_json};
use serde_json::{Map, Value, json};
use std::path::Path;
use std::process::{Command, Stdio};

/// How cuecard was registered, for the report.
pub fn register(
    h: &Harness,
    bin: &Path,
    dirs: &RunDirs,
    env: &[(String, String)],
) -> Result<String, String> {
    if has_install(bin) {
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
        return Ok(format!(
            "cuecard install --harness {} --scope project",
            h.id
        ));
    }
    write_hooks(h, bin, dirs)?;
    Ok("hook entries written by xtask (no `cuecard install` yet)".into())
}

fn has_install(bin: &Path) -> bool {
    Command::new(bin)
        .arg("--help")
        .stdin(Stdio::null())
        .output()
        .is_ok_and(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .any(|l| l.trim_start().starts_with("install "))
        })
}

/// The harness's name for a canonical event, from cuecard's own contract
/// table (`None`: not registered there).
fn event_name(h: &str, canonical: &str) -> Option<&'static str> {
    cuecard::harness::native_event(cuecard::harness::HarnessId::parse(h)?, canonical)
}

/// The matcher to register, from the contract table (`None`: none).
fn matcher(h: &str, canonical_event: &str, canonical: &str) -> Option<String> {
    let id = cuecard::harness::HarnessId::parse(h)?;
    cuecard::harness::native_matcher(id, canonical_event, canonical)
        .filter(|m| !m.is_empty() && m != "*")
}

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn write_hooks(h: &Harness, bin: &Path, dirs: &RunDirs) -> Result<(), String> {
    // Several canonical events can ride on one native event (Gemini's
    // AfterTool carries PreToolUse's deferred cards and PostToolUse's): one
    // entry lists them all; differing matchers become no matcher.
    let mut merged: Vec<(&'static str, Vec<String>, Option<String>)> = Vec::new();
    for reg in cuecard::registration::shipped() {
        let Some(name) = event_name(h.id, reg.event) else {
            continue;
        };
        let m = matcher(h.id, reg.event, &reg.matcher);
        match merged.iter_mut().find(|(n, _, _)| *n == name) {
            Some((_, cards, matcher)) => {
                for c in reg.cards {
                    if !cards.contains(&c) {
                        cards.push(c);
                    }
                }
                if *matcher != m {
                    *matcher = None;
                }
            }
            None => merged.push((name, reg.cards, m)),
        }
    }
    let mut hooks = Map::new();
    for (name, cards, m) in merged {
        let mut words = vec![quote(&bin.to_string_lossy()), "dispatch".into()];
        if h.id != "claude-code" {
            words.push(format!("--contract={}", h.id));
        }
        words.push(name.to_string());
        words.extend(cards);
        let command = words.join(" ");
        let entry = match h.id {
            "copilot" => json!({"type": "command", "bash": command, "timeoutSec": 30}),
            "gemini" => json!({"type": "command", "command": command, "timeout": 30000}),
            _ => json!({"type": "command", "command": command, "timeout": 30}),
        };
        let value = if h.id == "copilot" {
            json!([entry])
        } else {
            let mut group = json!({"hooks": [entry]});
            // Match-all is no matcher at all (Gemini CLI skipped a
            // SessionStart group whose matcher was `.*`).
            if let Some(m) = m {
                group["matcher"] = json!(m);
            }
            json!([group])
        };
        hooks.insert(name.to_string(), value);
    }
    let p = &dirs.project;
    let (file, doc): (_, Value) = match h.id {
        "claude-code" => (p.join(".claude/settings.json"), json!({ "hooks": hooks })),
        "codex" => (p.join(".codex/hooks.json"), json!({ "hooks": hooks })),
        "gemini" => (p.join(".gemini/settings.json"), json!({ "hooks": hooks })),
        "qwen" => (p.join(".qwen/settings.json"), json!({ "hooks": hooks })),
        "copilot" => (
            p.join(".github/hooks/cuecard.json"),
            json!({"version": 1, "hooks": hooks}),
        ),
        other => return Err(format!("unknown harness {other}")),
    };
    write_json(&file, &doc)
}
