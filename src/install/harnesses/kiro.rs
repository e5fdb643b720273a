//! Kiro CLI: hooks live in an agent configuration. cuecard writes (or merges
//! into) the agent `cuecard` — `~/.kiro/agents/cuecard.json` or
//! `<project>/.kiro/agents/cuecard.json` — a full agent with every tool, and
//! tells the user to make it the default (`kiro-cli settings chat.defaultAgent
//! cuecard`) or start it with `--agent cuecard`. Flat camelCase event lists,
//! commands through a shell, `timeout_ms` in milliseconds.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Kiro,
    layout: Layout::Flat,
    form: Form::Shell,
    typed: false,
    timeout: Some(("timeout_ms", Unit::Millis)),
    path,
    required: spec::nothing_required,
    skeleton,
    skills_dir,
    other_sources: spec::no_sources,
    notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".kiro/agents/cuecard.json")
}

fn skeleton() -> Value {
    json!({
        "name": "cuecard",
        "description": "Kiro's tools, with cuecard's guidance cards on hook events",
        "tools": ["*"]
    })
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".kiro/skills")
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Kiro runs hooks of the agent in use: make cuecard's agent the default with \
         `kiro-cli settings chat.defaultAgent cuecard`, or start `kiro-cli chat --agent cuecard` \
         (or copy its `hooks` into your own agent)"
            .into(),
    ]
}
