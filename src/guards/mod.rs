//! Guards: the judges behind guarded cards. Each guard lives in its own file,
//! looks at one call (through [`Ctx`]) and says whether its card should fire
//! and with which placeholder values. A guard never prints, never spawns a
//! process, and reads from the project only through bounded reads.

pub mod argv;
mod askuser_recommended;
pub mod compaction;
mod dependency;
mod destructive;
pub mod effects;
mod eval;
mod eval_rules;
mod generated_file;
mod handoff;
pub mod kb_drift;
#[cfg(test)]
mod kinds_tests;
mod lexical;
mod manifest_view;
pub mod opaque;
mod opaque_words;
mod outside_project;
mod protected_branch;
mod protected_branch_api;
mod protected_branch_vcs;
mod secret_commands;
mod secret_files;
mod secret_tokens;
mod secrets;
pub mod skill_index;
mod stop;

// The secrets guard's readers of particular programs (issue 27, fifth round).
mod credential_files;
mod secret_cmdlets;
mod secret_code;
mod secret_code_env;
mod secret_copies;
mod secret_filters;
mod secret_grammar;
mod secret_meta;
mod secret_network;
mod secret_printers;
mod secret_readers;
mod secret_relay;
mod secret_shells;
mod secret_stores;
mod secret_unlisted;

use crate::context::Ctx;

pub use crate::finding::{Finding, FindingKind};

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
