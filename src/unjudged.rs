//! When cuecard cannot judge a call (docs/policy.md, "When cuecard cannot
//! judge"): advice fails open, a policy the user set does not.
//!
//! On a gating event (one whose harness takes a decision there), with an
//! `ask` or `deny` policy line for a guard the call's cards use, a call
//! cuecard could not judge (its deadline passed, its payload could not be
//! read whole) gets the policy's *standing decision*: the strictest level
//! any of those lines sets, rendered by the one renderer into the harness's
//! own decision channel, with a plain reason. With no such line every one
//! of these paths stays as it was: no output, exit 0.
//!
//! The standing decision is rendered (by the dispatcher, which owns the
//! renderer) before judging begins, so that the deadline's signal handler
//! only has to write bytes prepared beforehand
//! ([`crate::deadline::set_answer`]). This module reads the policy and
//! says what the standing decision is; it sits below the dispatcher.

use crate::envelope::Ruling;
use crate::harness::{self, HarnessId};
use crate::policy::{Level, Policy};
use std::path::{Path, PathBuf};

/// What the standing decision depends on: the registered event, the
/// contract, the cards the registration names (empty: every shipped card
/// bound to the event).
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    pub event: &'a str,
    pub contract: Option<HarnessId>,
    pub cards: &'a [String],
}

/// The policy as read for the call before its payload (the environment's
/// and the user's lines), then completed with the project's once the
/// payload names the project ([`Unjudged::complete`]).
#[derive(Debug, Clone)]
pub struct Unjudged {
    pub policy: Policy,
    /// Whether the project's source was read (and for which root).
    pub root: Option<PathBuf>,
    /// Re-arm the deadline's answer once the project is known (the hook
    /// path; `explain` only shows).
    pub arm_deadline: bool,
}

impl Unjudged {
    /// The sources known before the payload: `CUECARD_POLICY` and the
    /// user's file (one open when there is none).
    pub fn early(arm_deadline: bool) -> Unjudged {
        Unjudged {
            policy: crate::policy::load_early(),
            root: None,
            arm_deadline,
        }
    }

    /// Adds the project's source for `root` (a trusted project only
    /// tightens), with the trust store under `state_root`. True when that
    /// changed the policy (a project file is there): the deadline's answer
    /// is then rendered again. (What counts for nothing is recorded where
    /// the policy is first used, as when it is read then.)
    pub fn complete(&mut self, root: &Path, state_root: Option<&Path>) -> bool {
        if self.root.as_deref() == Some(root) {
            return false;
        }
        self.policy.project = crate::policy::project_source(root, state_root);
        self.root = Some(root.to_path_buf());
        !matches!(self.policy.project.read, crate::policy::Read::Absent)
    }
}

/// Whether the call's event takes a decision from this harness at all (no
/// I/O): only there is a policy read before the payload.
pub fn gating(call: Call) -> bool {
    let (h, native, canonical) = match call.contract {
        Some(h) => match h.spec().row(call.event) {
            Some(row) => (h, row.native, row.canonical),
            None => return false,
        },
        None => match crate::event::Event::parse(call.event) {
            Some(e) => (HarnessId::ClaudeCode, e.spec().name, e),
            None => return false,
        },
    };
    h.spec().decides_on(native).is_some()
        && !matches!(
            harness::enforcement(Some(h), canonical),
            harness::Enforcement::AdviceOnly
        )
}

/// The guards of the cards a call runs on its event(s): the cards it
/// names, or every shipped card bound to one of the events evaluated.
fn guards_of(call: Call, events: &[&str]) -> Vec<String> {
    let cards: Vec<crate::card::Card> = if call.cards.is_empty() {
        crate::card::embedded::all()
            .into_iter()
            .flatten()
            .filter(|c| events.iter().any(|e| c.binds(e)))
            .collect()
    } else {
        call.cards
            .iter()
            .filter_map(|n| crate::card::embedded::card(n)?.ok())
            .collect()
    };
    let mut out: Vec<String> = cards
        .into_iter()
        .filter_map(|c| c.bindings.guard.clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The canonical events whose cards a call runs.
fn events_of(call: Call) -> Vec<&'static str> {
    match call.contract {
        Some(h) => harness::evaluated_events(h, call.event)
            .into_iter()
            .map(|e| e.spec().name)
            .collect(),
        None => crate::event::lookup(call.event)
            .map(|s| vec![s.name])
            .unwrap_or_default(),
    }
}

/// The policy's standing decision for `call`: the strictest level that any
/// policy line decides, in precedence (a line a stronger source loosens
/// does not count; a trusted project only tightens), for a guard a card of
/// the call uses, with those lines; `None` when there is none.
pub fn standing(call: Call, policy: &Policy) -> Option<(Level, Vec<(String, String)>)> {
    let mut keys: Vec<&str> = Vec::new();
    for s in policy.sources() {
        if let crate::policy::Read::Rules(r) = &s.read {
            keys.extend(r.lines.iter().map(|(k, _)| k.as_str()));
        }
    }
    keys.sort_unstable();
    keys.dedup();
    let decided: Vec<(&str, crate::policy::ResolvedLevel)> = keys
        .into_iter()
        .map(|k| (k, policy.resolve(k, None)))
        .filter(|(_, r)| r.level.decides())
        .collect();
    if decided.is_empty() {
        return None;
    }
    let events = events_of(call);
    if events.is_empty() {
        return None;
    }
    let guards = guards_of(call, &events);
    let bound: Vec<(&str, crate::policy::ResolvedLevel)> = decided
        .into_iter()
        .filter(|(key, _)| {
            let guard = key.split_once('.').map_or(*key, |(g, _)| g);
            guards.iter().any(|g| g == guard)
        })
        .collect();
    let level = bound.iter().map(|(_, r)| r.level).max()?;
    let by = bound
        .into_iter()
        .filter(|(_, r)| r.level == level)
        .map(|(k, r)| (k.to_string(), r.from))
        .collect();
    Some((level, by))
}

/// The ruling for a call cuecard could not judge, `why` saying what went
/// wrong in plain words.
pub fn ruling(call: Call, policy: &Policy, why: &str) -> Option<Ruling> {
    let (level, by) = standing(call, policy)?;
    Some(Ruling {
        level,
        reason: format!(
            "cuecard could not judge this call ({why}). Your policy decides a call cuecard cannot judge as it would one of its findings: reduce the call to a plain one and try again."
        ),
        by,
    })
}
