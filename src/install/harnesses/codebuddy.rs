//! CodeBuddy Code (Tencent): `~/.codebuddy/settings.json` or
//! `<project>/.codebuddy/settings.json`, Claude Code's format (documented as
//! fully compatible), commands through the user's shell, `timeout` in
//! seconds. Edits made outside CodeBuddy take effect once approved in `/hooks`.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::CodeBuddy,
    layout: Layout::Grouped,
    form: Form::Shell,
    typed: true,
    timeout: Some(("timeout", Unit::Seconds)),
    path,
    required: spec::nothing_required,
    skeleton: spec::empty_object,
    skills_dir,
    other_sources,
    notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".codebuddy/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".codebuddy/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![r.project.join(".codebuddy/settings.local.json")]
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "CodeBuddy applies hooks edited outside it once you approve them in its `/hooks` panel"
            .into(),
    ]
}
