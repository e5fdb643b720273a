//! Cursor: `~/.cursor/hooks.json` or `<project>/.cursor/hooks.json`, with
//! `version: 1` and flat camelCase event lists, commands through a shell,
//! `timeout` in seconds. Cursor can also run Claude Code's hook files (the
//! "third-party hooks" setting): the dispatcher's session-start marker keeps
//! that from printing twice, and `verify` reports it.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use serde_json::{Value, json};
use std::path::PathBuf;

pub static SPEC: Spec = Spec {
    harness: HarnessId::Cursor,
    layout: Layout::Flat,
    form: Form::Shell,
    typed: false,
    timeout: Some(("timeout", Unit::Seconds)),
    path,
    required,
    skeleton,
    skills_dir,
    other_sources: spec::no_sources,
    notes: spec::no_notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".cursor/hooks.json")
}

fn required() -> Vec<(&'static str, Value)> {
    vec![("version", json!(1))]
}

fn skeleton() -> Value {
    json!({"version": 1})
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".cursor/skills")
}
