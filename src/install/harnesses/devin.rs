//! Devin CLI (Windsurf's successor for the terminal): hooks in Claude Code's
//! format under a `hooks` key of `<project>/.devin/config.local.json` (the
//! personal, git-ignored project config; the default scope) or of the user
//! config `~/.config/devin/config.json`; commands through a shell, `timeout`
//! in seconds. Devin also runs `.claude/` hooks: the dispatcher's
//! session-start marker keeps SessionStart from printing twice.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use std::path::PathBuf;

pub static SPEC: Spec = Spec {
    harness: HarnessId::Devin,
    layout: Layout::Grouped,
    form: Form::Shell,
    typed: true,
    timeout: Some(("timeout", Unit::Seconds)),
    path,
    required: spec::nothing_required,
    skeleton: spec::empty_object,
    skills_dir,
    other_sources,
    notes: spec::no_notes,
    default_scope: Scope::Project,
};

fn user_dir(r: &Roots) -> PathBuf {
    r.home.join(".config/devin")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::user_or_project(
        scope,
        user_dir(r).join("config.json"),
        r.project.join(".devin/config.local.json"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::user_or_project(
        scope,
        user_dir(r).join("skills"),
        r.project.join(".devin/skills"),
    )
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![
        r.project.join(".devin/config.json"),
        r.project.join(".devin/hooks.v1.json"),
    ]
}
