//! Which cards a call evaluates: the registration's, resolved across
//! scopes, with the policy read only when it is needed.

use super::{CardTrace, Request, Run, Verdict};
use crate::card::Card;
use crate::context::Ctx;
use crate::deck::resolve;
use crate::diag::{self, Kind};
use crate::event::EventSpec;
use crate::text;

/// The cards that run: the registration's, by precedence, past the cheap
/// look at the user's and project's cards' tools and paths.
pub(super) fn choose_cards(
    req: &Request,
    events: &[&'static EventSpec],
    probe: &Ctx,
    project_root: &std::path::Path,
    policy: &Lazy,
) -> resolve::Resolved {
    // The trust store is read only when the project has cards whose
    // verdicts are not already cached under the store's current stamp.
    let vouch = crate::trust::ProjectTrust::new(req.state_root.as_deref(), project_root);
    let names: Vec<&str> = events.iter().map(|e| e.name).collect();
    let tool = probe.payload.tool_name();
    let normalized = std::cell::OnceCell::new();
    let paths = || -> &[String] {
        normalized.get_or_init(|| crate::trigger::normalized(probe.call_paths()))
    };
    let admits = |reach: &str| crate::trigger::reach_admits(reach, tool, paths);
    let may_fire = |fc: &crate::deck::sources::FileCard| {
        admits(fc.reach()) && crate::trigger::may_fire(&fc.triggers(), tool, probe.call_paths())
    };
    let keep = |c: &Card| policy.get().holds(c);
    resolve::resolve(
        &req.cards,
        &names,
        &resolve::Sources {
            project_root: Some(project_root),
            cache_dir: req.state_root.as_deref(),
            vouch: &vouch,
            keep: &keep,
            may_fire: &may_fire,
            admits: &admits,
            quick: events.iter().all(|e| e.is_tool_event()),
        },
    )
}

/// Hands the guards how this call's `[effects]` packs are read, on the
/// first ask: with the call's state root, the config files its policy read
/// by now, and the card directories resolution `listed`, so that nothing
/// is read twice (`policy::packs::load_known`).
pub(super) fn prepare_packs(
    req: &Request,
    project_root: &std::path::Path,
    policy: &Lazy,
    listed: resolve::Listed,
) {
    let known =
        crate::policy::packs::Known::of_call(req.state_root.clone(), policy.cell.get(), listed);
    let root = project_root.to_path_buf();
    crate::guards::effects::packs::prepare(
        root.clone(),
        Box::new(move || crate::policy::packs::load_known(&root, known)),
    );
}

/// The trace lines of cards passed over, broken or unknown.
pub(super) fn trace_resolution(resolved: &resolve::Resolved, run: &mut Run) {
    if resolved.passed_over > 0 {
        run.trace.push(CardTrace {
            card: format!("({} more)", resolved.passed_over),
            verdict: Verdict::Skipped,
            why: "user or project cards whose tools or paths cannot match this call".into(),
        });
    }
    for (name, why) in &resolved.held {
        run.trace.push(CardTrace {
            card: name.clone(),
            verdict: Verdict::Skipped,
            why: format!("the trusted project card of this name is not used: {why}"),
        });
    }
    for (scope, e) in &resolved.errors {
        diag::record(Kind::CardError, format!("{} {e}", scope.label()));
        run.trace.push(CardTrace {
            card: e.card.clone(),
            verdict: Verdict::Failed,
            why: format!("{} card: {}", scope.label(), e.message),
        });
    }
    for name in &resolved.unknown {
        let shown = text::sanitize(name, 64);
        diag::record(Kind::UnknownCard, format!("unknown card {shown:?}"));
        run.trace.push(CardTrace {
            card: shown,
            verdict: Verdict::Failed,
            why: "no such card".into(),
        });
    }
}

/// The call's policy, read on first use (or read before the payload, its
/// problems recorded on first use).
pub(super) struct Lazy<'a> {
    pub(super) cell: std::cell::OnceCell<crate::policy::Policy>,
    /// Whether the problems of a policy read early were recorded.
    pub(super) told: std::cell::Cell<bool>,
    pub(super) project_root: &'a std::path::Path,
    pub(super) state_root: Option<&'a std::path::Path>,
}

impl Lazy<'_> {
    pub(super) fn get(&self) -> &crate::policy::Policy {
        let p = self
            .cell
            .get_or_init(|| crate::policy::load(self.project_root, self.state_root));
        if !self.told.replace(true) {
            crate::policy::record_problems(p);
        }
        p
    }
}
