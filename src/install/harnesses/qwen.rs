//! Qwen Code: `~/.qwen/settings.json` or `<project>/.qwen/settings.json`,
//! Claude Code's nesting, commands through a shell. Matchers are regexes
//! matched against runtime tool ids (`run_shell_command`, `write_file`,
//! `edit`): the contract writes them anchored. The command `timeout` unit is
//! documented as milliseconds but ran as seconds in 0.24 (measured), so no
//! timeout is written and Qwen's default applies.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Qwen,
    layout: Layout::Grouped,
    form: Form::Shell,
    typed: true,
    timeout: None,
    path,
    required: spec::nothing_required,
    skeleton: spec::empty_object,
    skills_dir,
    other_sources: spec::no_sources,
    notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".qwen/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".qwen/skills")
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    match scope {
        Scope::Project => vec![
            "with `security.folderTrust.enabled`, Qwen Code loads project hooks only in a trusted folder".into(),
        ],
        _ => Vec::new(),
    }
}
