//! Second registrations: cuecard registered twice for the same harness and
//! event makes it run twice and print twice. Sources compared: the
//! harness's user and project configs, and the other files it also reads
//! (plugin hook files, local settings, Codex's `config.toml`, the other
//! Copilot hook files and the Claude Code settings Copilot reads).

use super::document::{self, ConfigFile};
use super::merge::Layout;
use super::ownership;
use crate::harness::config::{Config, Roots, Scope};
use std::path::{Path, PathBuf};

/// cuecard's registrations found in one file.
#[derive(Debug, Clone)]
pub struct Found {
    pub path: PathBuf,
    /// The events (as written in the command after `dispatch`).
    pub events: Vec<String>,
}

/// The event a cuecard command line dispatches.
pub fn dispatched_event(argv: &[String]) -> Option<String> {
    let mut it = argv.iter().skip(2);
    loop {
        let w = it.next()?;
        if w == "--contract" {
            it.next()?;
            continue;
        }
        if w.starts_with("--contract=") || w == "-v" || w == "--verbose" {
            continue;
        }
        return Some(w.clone());
    }
}

/// Every cuecard registration in every source the harness reads.
pub fn find_all(spec: &'static Config, roots: &Roots, bin: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for scope in [Scope::User, Scope::Project] {
        if let Some(t) = ConfigFile::new(spec, scope, roots)
            && let Some(f) = in_json(&t.path, &t, bin, spec.layout)
        {
            out.push(f);
        }
    }
    for p in (spec.other_sources)(roots) {
        if out.iter().any(|f| f.path == p) {
            continue;
        }
        let found = if p.extension().is_some_and(|x| x == "toml") {
            in_toml(&p, bin)
        } else {
            let t = ConfigFile {
                spec,
                scope: Scope::Project,
                path: p.clone(),
                base: p.parent().map(PathBuf::from).unwrap_or_default(),
                replace: Vec::new(),
                sandbox: Vec::new(),
                project: roots.project.clone(),
            };
            // Claude Code's files nest their handlers in groups.
            let layout = if p.to_string_lossy().contains(".claude") || p.ends_with("hooks.v1.json")
            {
                Layout::Grouped
            } else {
                spec.layout
            };
            in_json(&p, &t, bin, layout)
        };
        out.extend(found);
    }
    // Compare canonical events: Copilot's `postToolUse` and the
    // `PostToolUse` it reads from Claude Code's settings are one hook point.
    for f in &mut out {
        for e in &mut f.events {
            if let Some(c) = crate::harness::canonical_event(spec.harness, e) {
                *e = c.to_string();
            }
        }
        f.events.dedup();
    }
    out
}

fn in_json(path: &Path, t: &ConfigFile, bin: &str, layout: Layout) -> Option<Found> {
    let (_, doc) = document::load(t).ok()??;
    // Devin's hooks.v1.json holds the events at its top level.
    let doc = if path.ends_with("hooks.v1.json") {
        serde_json::json!({ "hooks": doc })
    } else {
        doc
    };
    let mut events: Vec<String> = super::merge::ours(&doc, layout, bin)
        .into_iter()
        .map(|(event, _, h)| {
            h.as_object()
                .and_then(ownership::argv)
                .and_then(|a| dispatched_event(&a))
                .unwrap_or(event)
        })
        .collect();
    events.dedup();
    (!events.is_empty()).then(|| Found {
        path: path.to_path_buf(),
        events,
    })
}

/// cuecard commands in a TOML file's strings (Codex `config.toml` hooks).
fn in_toml(path: &Path, bin: &str) -> Option<Found> {
    let text = super::fsio::read(path).ok()??;
    let mut events = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        let Some(rest) = line.strip_prefix("command") else {
            continue;
        };
        let Some(v) = rest.trim_start().strip_prefix('=') else {
            continue;
        };
        let v = v.trim();
        let s: Option<String> = if v.starts_with('"') {
            serde_json::from_str::<String>(v).ok()
        } else {
            v.strip_prefix('\'')
                .and_then(|x| x.strip_suffix('\''))
                .map(String::from)
        };
        let Some(cmd) = s else { continue };
        let h = serde_json::json!({ "command": cmd });
        if ownership::is_ours(&h, bin)
            && let Some(e) = h
                .as_object()
                .and_then(ownership::argv)
                .and_then(|a| dispatched_event(&a))
        {
            events.push(e);
        }
    }
    (!events.is_empty()).then(|| Found {
        path: path.to_path_buf(),
        events,
    })
}

/// Pairs of sources registering cuecard on the same event, as messages.
pub fn doubles(found: &[Found]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, a) in found.iter().enumerate() {
        for b in &found[i + 1..] {
            let shared: Vec<&String> = a.events.iter().filter(|e| b.events.contains(e)).collect();
            if !shared.is_empty() {
                out.push(format!(
                    "cuecard is registered twice on {}: in {} and in {} (it would run and print twice; \
                     uninstall one of them)",
                    shared.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", "),
                    a.path.display(),
                    b.path.display()
                ));
            }
        }
    }
    out
}
