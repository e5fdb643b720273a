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
//! The standing decision is rendered before judging begins, so that the
//! deadline's signal handler only has to write bytes prepared beforehand
//! ([`crate::deadline::set_answer`]).

use crate::dispatch::Request;
use crate::envelope::Ruling;
use crate::harness;
use crate::policy::{Level, Policy};
use std::path::{Path, PathBuf};

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
    /// tightens); re-arms the deadline's answer for `req` with it. (What
    /// counts for nothing is recorded where the policy is first used, as
    /// when it is read then.)
    pub fn complete(&mut self, req: &Request, root: &Path) {
        if self.root.as_deref() == Some(root) {
            return;
        }
        self.policy.project = crate::policy::project_source(root, req.state_root.as_deref());
        self.root = Some(root.to_path_buf());
        let absent = matches!(self.policy.project.read, crate::policy::Read::Absent);
        if self.arm_deadline && !absent {
            arm_deadline(req, self);
        }
    }
}

/// Whether `req`'s event takes a decision from this harness at all (no
/// I/O): only there is a policy read before the payload.
pub fn gating(req: &Request) -> bool {
    let (h, native, canonical) = match req.contract {
        Some(h) => match h.spec().row(&req.event) {
            Some(row) => (h, row.native, row.canonical),
            None => return false,
        },
        None => match crate::event::Event::parse(&req.event) {
            Some(e) => (harness::HarnessId::ClaudeCode, e.spec().name, e),
            None => return false,
        },
    };
    h.spec().decides_on(native).is_some()
        && !matches!(
            harness::enforcement(Some(h), canonical),
            harness::Enforcement::AdviceOnly
        )
}

/// The guards of the cards a request runs on its event(s): the cards it
/// names, or every shipped card bound to one of the events evaluated.
fn guards_of(req: &Request, events: &[&str]) -> Vec<String> {
    let cards: Vec<crate::card::Card> = if req.cards.is_empty() {
        crate::card::embedded::all()
            .into_iter()
            .flatten()
            .filter(|c| events.iter().any(|e| c.binds(e)))
            .collect()
    } else {
        req.cards
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

/// The canonical events whose cards a request runs.
fn events_of(req: &Request) -> Vec<&'static str> {
    match req.contract {
        Some(h) => harness::evaluated_events(h, &req.event)
            .into_iter()
            .map(|e| e.spec().name)
            .collect(),
        None => crate::event::lookup(&req.event)
            .map(|s| vec![s.name])
            .unwrap_or_default(),
    }
}

/// The policy's standing decision for `req`: the strictest level that any
/// policy line decides, in precedence (a line a stronger source loosens
/// does not count; a trusted project only tightens), for a guard a card of
/// the call uses, with those lines; `None` when there is none.
pub fn standing(req: &Request, policy: &Policy) -> Option<(Level, Vec<(String, String)>)> {
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
    let events = events_of(req);
    if events.is_empty() {
        return None;
    }
    let guards = guards_of(req, &events);
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
pub fn ruling(req: &Request, policy: &Policy, why: &str) -> Option<Ruling> {
    let (level, by) = standing(req, policy)?;
    Some(Ruling {
        level,
        reason: format!(
            "cuecard could not judge this call ({why}). Your policy decides a call cuecard cannot judge as it would one of its findings: reduce the call to a plain one and try again."
        ),
        by,
    })
}

/// Prepares the deadline's answer for `req`: the standing decision as
/// this harness takes it, or nothing (no policy, not a gating event).
pub fn arm_deadline(req: &Request, u: &Unjudged) {
    let why = format!(
        "its deadline of {} ms passed first",
        crate::deadline::budget().as_millis()
    );
    let answer = ruling(req, &u.policy, &why).and_then(|r| {
        let run = crate::dispatch::decision_only(req, r);
        match (&run.block, &run.answer) {
            (Some(reason), _) => Some(crate::deadline::Answer::Block(
                crate::text::prefix16(reason, crate::text::MAX_CHARS).to_string(),
            )),
            (None, Some(line)) => Some(crate::deadline::Answer::Stdout(line.clone())),
            _ => None,
        }
    });
    crate::deadline::set_answer(answer);
}
