//! Guards: the judges behind guarded cards. Each guard lives in its own file,
//! looks at one call (through [`Ctx`]) and says whether its card should fire
//! and with which placeholder values. A guard never prints, never spawns a
//! process, and reads from the project only through bounded reads.

mod askuser_recommended;
mod compaction;
mod dependency;
mod destructive;
mod eval;
mod eval_rules;
mod generated_file;
mod handoff;
pub mod kb_drift;
mod lexical;
mod manifest_view;
mod outside_project;
mod protected_branch;
mod secret_commands;
mod secret_files;
mod secret_tokens;
mod secrets;
pub mod skill_index;
mod stop;
pub mod words;

use crate::context::Ctx;

/// What a guard found: the values for its card's placeholders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finding {
    /// The kind of finding: its policy id is `<guard>.<kind>` (empty: the
    /// guard has one kind, and its id is the guard's name).
    pub kind: &'static str,
    /// What the finding is about (a path, a command, a threshold), used to
    /// tell a repeated finding from a new one. Never shown verbatim.
    pub target: String,
    /// Placeholder values, unsanitised; the renderer sanitises them.
    pub vars: Vec<(&'static str, String)>,
    /// Placeholder values that are text shipped inside the binary (never
    /// from a payload or the project), inserted verbatim: the one way a
    /// guard supplies trusted multi-line text, such as the skill index.
    pub trusted: Vec<(&'static str, &'static str)>,
    /// Placeholder values that are project text a guard quotes on purpose
    /// (the hand-off note): multi-line, bounded by the guard, and cleaned of
    /// control characters and bidirectional overrides by the renderer.
    pub quoted: Vec<(&'static str, String)>,
    /// Why it fired, for `cuecard explain` (a human reads it, not the model).
    pub why: String,
    /// A short line for the user (`systemMessage`), if any.
    pub user_note: Option<String>,
    /// The reason for a `permissionDecision: "deny"` (strict mode only).
    pub deny: Option<String>,
    /// A once-per-session key: the dispatcher marks it spent only after the
    /// card was actually emitted.
    pub once: Option<crate::state::key::OnceKey>,
    /// The finding is a warning (compaction): the ledger counts it as one.
    pub warning: bool,
}

impl Finding {
    pub fn new(target: impl Into<String>, why: impl Into<String>) -> Finding {
        Finding {
            target: target.into(),
            why: why.into(),
            ..Finding::default()
        }
    }
    pub fn kind(mut self, kind: &'static str) -> Finding {
        self.kind = kind;
        self
    }
    pub fn var(mut self, name: &'static str, value: impl Into<String>) -> Finding {
        self.vars.push((name, value.into()));
        self
    }
}

pub trait Guard: Sync {
    /// The name cards use in `- guard: <name>`.
    fn name(&self) -> &'static str;
    /// The canonical events the guard can judge.
    fn events(&self) -> &'static [&'static str];
    /// The placeholders it fills.
    fn placeholders(&self) -> &'static [&'static str];
    /// Judges the call. `None`: nothing found, the card stays silent.
    fn check(&self, ctx: &Ctx) -> Option<Finding>;
    /// The kinds of finding it reports, with a line each: stable ids
    /// (`<guard>.<kind>`) a policy can name. Empty: one kind, the guard.
    fn kinds(&self) -> &'static [(&'static str, &'static str)] {
        &[]
    }
}

/// The policy id of a finding of guard `g`.
pub fn finding_id(g: &str, f: &Finding) -> String {
    if f.kind.is_empty() {
        g.to_string()
    } else {
        format!("{g}.{}", f.kind)
    }
}

/// Every finding id a policy can name beyond the guards' own names.
pub fn finding_ids() -> Vec<String> {
    GUARDS
        .iter()
        .flat_map(|g| g.kinds().iter().map(|(k, _)| format!("{}.{k}", g.name())))
        .collect()
}

/// Every built-in guard.
pub static GUARDS: &[&dyn Guard] = &[
    &compaction::Compaction,
    &handoff::Handoff,
    &stop::Stop,
    &skill_index::SkillIndex,
    &kb_drift::KbDrift,
    &eval::Eval,
    &secrets::Secrets,
    &generated_file::GeneratedFile,
    &askuser_recommended::AskUserRecommended,
    &dependency::Dependency,
    &protected_branch::ProtectedBranch,
    &destructive::Destructive,
    &outside_project::OutsideProject,
];

pub fn lookup(name: &str) -> Option<&'static dyn Guard> {
    GUARDS.iter().copied().find(|g| g.name() == name)
}
