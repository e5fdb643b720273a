//! OpenAI Codex CLI: `$CODEX_HOME/hooks.json` (`~/.codex/hooks.json`) or
//! `<project>/.codex/hooks.json`, Claude Code's nesting, commands run through
//! the user's login shell, `timeout` in seconds. The file's root may hold
//! only `description` and `hooks` (Codex refuses the file otherwise), so
//! nothing else is added. Codex runs a hook only once the user trusted it in
//! `/hooks`; `config.toml` can hold hooks too (checked for a second
//! registration).

use crate::harness::HarnessId;
use crate::install::merge::Layout;
use crate::install::spec::{self, Form, Roots, Scope, Spec, Unit};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Codex,
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

fn home(r: &Roots) -> PathBuf {
    spec::env_dir("CODEX_HOME", &r.home, ".codex")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::user_or_project(
        scope,
        home(r).join("hooks.json"),
        r.project.join(".codex/hooks.json"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    spec::home_or_project(scope, r, ".agents/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![
        home(r).join("config.toml"),
        r.project.join(".codex/config.toml"),
    ]
}

fn notes(scope: Scope, _: &Path) -> Vec<String> {
    let mut out = vec![
        "Codex runs a hook only after you trust it: start `codex`, type `/hooks`, review the cuecard entries and \
         trust them (changing a hook's command or timeout asks again). Until then `codex exec` runs them silently not at all."
            .to_string(),
    ];
    if scope == Scope::Project {
        out.push(
            "project hooks load only in a trusted project (`[projects.\"<path>\"] trust_level = \"trusted\"` in ~/.codex/config.toml, \
             or accept the trust prompt)"
                .into(),
        );
    }
    out
}
