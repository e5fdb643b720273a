//! Claude Code: `~/.claude/settings.json` or `<project>/.claude/settings.json`;
//! handlers in exec form (`command` is the binary, `args` the arguments), so
//! no shell ever parses the install path; `timeout` in seconds. Managed
//! settings (`--scope managed`) are rendered to `managed-settings.json` in the
//! working directory, for an administrator to deploy.

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::ClaudeCode,
    layout: Layout::Grouped,
    form: Form::Exec,
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
    Some(match scope {
        Scope::User => r.home.join(".claude/settings.json"),
        Scope::Project => r.project.join(".claude/settings.json"),
        Scope::Managed => r.cwd.join("managed-settings.json"),
    })
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".claude/skills")
}

/// The local settings and installed plugins' hook files.
fn other_sources(r: &Roots) -> Vec<PathBuf> {
    let mut out = vec![
        r.project.join(".claude/settings.local.json"),
        r.home.join(".claude/settings.local.json"),
    ];
    let plugins = r.home.join(".claude/plugins");
    if plugins.is_dir() {
        for e in walkdir::WalkDir::new(&plugins)
            .max_depth(6)
            .follow_links(false)
            .into_iter()
            .take(5000)
            .flatten()
        {
            let p = e.path();
            if p.file_name().is_some_and(|n| n == "hooks.json")
                && p.parent().is_some_and(|d| d.ends_with("hooks"))
            {
                out.push(p.to_path_buf());
            }
        }
    }
    out
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    match scope {
        Scope::Managed => vec![
            "deploy this file as Claude Code's managed settings: /etc/claude-code/managed-settings.json on Linux, \
             /Library/Application Support/ClaudeCode/managed-settings.json on macOS"
                .into(),
        ],
        _ => Vec::new(),
    }
}
