//! Gemini CLI: `~/.gemini/settings.json` or `<project>/.gemini/settings.json`,
//! Claude Code's nesting with Gemini's event names, commands through a
//! shell, `timeout` in milliseconds. Hooks must be enabled: the settings get
//! `hooksConfig.enabled: true` (the current switch; its default is true, but
//! an operator's `false` would silence every hook, so install sets it).

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Gemini,
    layout: Layout::Grouped,
    form: Form::Shell,
    typed: true,
    timeout: Some(("timeout", Unit::Millis)),
    path,
    required,
    skeleton: spec::empty_object,
    skills_dir,
    other_sources: spec::no_sources,
    notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".gemini/settings.json")
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("hooksConfig.enabled", Value::Bool(true))]
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".gemini/skills")
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    match scope {
        Scope::Project => vec![
            "Gemini CLI runs project hooks only in a trusted workspace (trust the folder, or GEMINI_CLI_TRUST_WORKSPACE=true)".into(),
        ],
        _ => Vec::new(),
    }
}
