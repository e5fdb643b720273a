//! GitHub Copilot CLI: a file of its own, `<project>/.github/hooks/cuecard.json`
//! or `$COPILOT_HOME/hooks/cuecard.json` (`~/.copilot/hooks/`), with
//! `version: 1` and flat camelCase event lists (the matcher sits in the
//! handler), commands through a shell (`command`, the cross-platform key),
//! `timeoutSec` in seconds. No session-start cards: Copilot ignores that
//! output. Copilot also runs Claude Code's `.claude/settings.json` hooks,
//! checked for a second registration.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Copilot,
    layout: Layout::Flat,
    form: Form::Shell,
    typed: true,
    timeout: Some(("timeoutSec", Unit::Seconds)),
    path,
    required,
    skeleton,
    skills_dir,
    other_sources,
    notes,
    default_scope: Scope::User,
};

fn home(r: &Roots) -> PathBuf {
    spec::env_dir("COPILOT_HOME", &r.home, ".copilot")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::user_or_project(
        scope,
        home(r).join("hooks/cuecard.json"),
        r.project.join(".github/hooks/cuecard.json"),
    )
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("version", json!(1))]
}

fn skeleton() -> Value {
    json!({"version": 1})
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::user_or_project(
        scope,
        home(r).join("skills"),
        r.project.join(".github/skills"),
    )
}

/// The other hook files Copilot merges, and the Claude Code settings it reads.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for dir in [r.project.join(".github/hooks"), home(r).join("hooks")] {
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut files: Vec<PathBuf> = rd
                .take(500)
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.extension().is_some_and(|x| x == "json") && !p.ends_with("cuecard.json")
                })
                .collect();
            files.sort();
            out.extend(files);
        }
    }
    out.push(r.project.join(".claude/settings.json"));
    out.push(r.project.join(".claude/settings.local.json"));
    out
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    let mut out = vec![
        "Copilot ignores what a sessionStart hook prints, so no session-start card is registered"
            .to_string(),
    ];
    if scope == Scope::Project {
        out.push("Copilot runs repository hooks only in a trusted folder (`trusted_folders` in ~/.copilot/config.json)".into());
    }
    out
}
