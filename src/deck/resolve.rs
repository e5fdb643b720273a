//! Which cards one dispatch evaluates: the cards its registration lists,
//! plus the user's and the (trusted) project's own cards bound to the event,
//! each resolved by precedence (project, then user, then shipped).
//!
//! Only what the call needs is read: shipped cards are parsed by name, and
//! user and project cards come from the parsed-card cache, each looked at
//! once (is it listed, bound, could it fire) and decoded only if chosen.

use super::sources::{self, Always, CardDir, CardScope, FileCard, Glance, Vouch};
use super::{cache, precedence};
use crate::card::{Card, CardError, embedded};
use std::path::Path;

/// One card chosen for evaluation.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub scope: CardScope,
    pub card: Card,
    /// The lower scope this card overrides, if any.
    pub overrides: Option<CardScope>,
}

#[derive(Debug, Default)]
pub struct Resolved {
    pub chosen: Vec<Chosen>,
    /// Requested names that exist nowhere.
    pub unknown: Vec<String>,
    /// Cards that failed to load (the lower scope is used where there is one).
    pub errors: Vec<(CardScope, CardError)>,
    /// Project cards that are present but not trusted.
    pub untrusted: Vec<String>,
    /// Trusted project cards not used because the lower card of their name
    /// is held by a policy from outside the project: (name, why).
    pub held: Vec<(String, String)>,
    /// User and project cards on the event passed over because their tools
    /// or paths cannot match this call.
    pub passed_over: usize,
    /// The card directories as this resolution read them.
    pub listed: Listed,
}

/// The user's and the project's card directories as one resolution read
/// them, for what else the call reads of their cards (their `- effect:`
/// pack lines, `policy::packs`), so that no directory is listed twice.
#[derive(Debug, Default)]
pub struct Listed {
    /// The user's, read in full (empty: no directory).
    pub user: CardDir,
    /// The project's, with whether each of its cards was checked on disk
    /// (a glance checks only those that matter to the call); `None` when
    /// it was not listed (the cache's summary answered the call).
    pub project: Option<(CardDir, bool)>,
}

pub struct Sources<'a> {
    pub project_root: Option<&'a Path>,
    pub cache_dir: Option<&'a Path>,
    /// Judges the project's cards (see `trust`).
    pub vouch: &'a dyn Vouch,
    /// A cheap look at the call, given a card of the user's or the
    /// project's (its reach, then its trigger keys: see `trigger::reach`
    /// and `trigger::may_fire`): cards it rejects are not evaluated, nor
    /// even decoded.
    pub may_fire: &'a dyn Fn(&FileCard) -> bool,
    /// Whether a reach (see `trigger::reach`) admits the call: the first
    /// part of `may_fire`, asked of the reaches a cache's summary line
    /// gathers (see `cache::quiet`).
    pub admits: &'a dyn Fn(&str) -> bool,
    /// Whether a card of the user's or a shipped one holds its place
    /// against a project card of its name, and why (its guard is set to
    /// ask or deny by a policy from outside the project): see
    /// [`precedence::winner_held`]. Asked only when a trusted project card
    /// would win, so a call without one never reads the policy.
    pub keep: Keep<'a>,
    /// The hook path of a tool call: the project's cards are checked
    /// against the file system only as far as this call needs (see
    /// [`sources::glance`]). Off where everything must be current (the
    /// session start's note on untrusted cards).
    pub quick: bool,
}

/// Whether a lower card holds its place against the project's, and why.
pub type Keep<'a> = &'a dyn Fn(&Card) -> Option<String>;

/// What one look at a card of the user's or the project's says about a call.
#[derive(Debug, Clone, Copy, Default)]
struct Look {
    /// A listed name selects it (an override, or a switch-off).
    listed: bool,
    /// It is bound to the event.
    bound: bool,
    /// It joins the listed cards: bound, and it could fire on the call.
    joins: bool,
}

/// One card of the user's or the project's, with the look taken at it.
type Active<'a> = (CardScope, FileCard<'a>, Look);

/// Takes the one look at each card of the user's or the project's: whether
/// a listed name selects it, whether it is bound to the event, and whether
/// it joins the listed ones (bound, and the cheap look does not rule it
/// out). Taken once per card, for trusted cards only.
struct Looker<'a> {
    names: &'a [String],
    events: &'a [&'a str],
    may_fire: &'a dyn Fn(&FileCard) -> bool,
}

impl Looker<'_> {
    fn look(&self, fc: &FileCard) -> Look {
        let listed = self.names.iter().any(|n| fc.is_named(n));
        let bound = self.events.iter().any(|e| fc.binds(e));
        Look {
            listed,
            bound,
            joins: bound && !listed && (self.may_fire)(fc),
        }
    }

    fn looks(&self, cards: &CardDir) -> Vec<Look> {
        cards
            .files()
            .map(|fc| {
                if fc.trusted() {
                    self.look(&fc)
                } else {
                    Look::default()
                }
            })
            .collect()
    }
}

pub fn resolve(requested: &[String], events: &[&str], src: &Sources) -> Resolved {
    let mut out = Resolved::default();
    let mut names = listed_names(requested, events);
    let looker = Looker {
        names: &names,
        events,
        may_fire: src.may_fire,
    };
    let user: CardDir = sources::user_dir()
        .map(|d| sources::read_dir(&d, CardScope::User, src.cache_dir, &Always))
        .unwrap_or_default();
    let user_looks = looker.looks(&user);
    let (project, project_looks, checked) = match src.project_root {
        None => (CardDir::default(), Vec::new(), None),
        Some(root) => project_cards(root, &user, &user_looks, &looker, src, &mut out),
    };
    let active = active_cards(&project, project_looks, &user, user_looks, &mut out);
    let extra_names = joining_names(&active, &names, &mut out);
    // The cards a name (listed or joined) selects, in precedence order.
    let named: Vec<&Active> = active
        .iter()
        .filter(|(_, fc, seen)| seen.listed || extra_names.iter().any(|n| fc.is_named(n)))
        .collect();
    names.extend(extra_names);
    for name in names {
        choose(name, &named, src.keep, &mut out);
    }
    out.listed = Listed {
        user,
        project: checked.map(|all| (project, all)),
    };
    out
}

/// The names the call asks for: those its registration lists, else the
/// shipped cards bound to the event, by order.
fn listed_names(requested: &[String], events: &[&str]) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    if requested.is_empty() {
        let mut bound: Vec<Card> = embedded::all()
            .into_iter()
            .flatten()
            .filter(|c| events.iter().any(|e| c.binds(e)))
            .collect();
        bound.sort_by(|a, b| (a.bindings.order, &a.name).cmp(&(b.bindings.order, &b.name)));
        names.extend(bound.into_iter().map(|c| c.name));
    } else {
        for n in requested {
            if !names.contains(n) {
                names.push(n.clone());
            }
        }
    }
    names
}

/// The project's cards and the look at each: from the cache's summary or a
/// glance at the directory where the call allows, else read in full; and
/// whether they were listed, each checked on disk (see [`Listed`]).
fn project_cards(
    root: &Path,
    user: &CardDir,
    user_looks: &[Look],
    looker: &Looker,
    src: &Sources,
    out: &mut Resolved,
) -> (CardDir, Vec<Look>, Option<bool>) {
    // The names a project card is chosen by: the listed ones, and those of
    // the user's cards that join (a project card of that name overrides the
    // user's, whatever its own events and reach).
    let joining: Vec<String> = user
        .files()
        .zip(user_looks)
        .filter(|(_, seen)| seen.joins)
        .map(|(fc, _)| fc.name())
        .collect();
    let selecting = || looker.names.iter().chain(&joining);
    let dir = sources::project_dir(root);
    // A call of one event may be answered from the cache's summary.
    let quiet = |summary: &str| match looker.events {
        [event] => cache::quiet(summary, selecting(), event, src.admits),
        _ => None,
    };
    let glance = src
        .cache_dir
        .filter(|_| src.quick)
        .and_then(|c| sources::glance(&dir, c, src.vouch, &quiet));
    let quick = match glance {
        Some(Glance::Quiet(passed)) => {
            out.passed_over += passed;
            Some((CardDir::default(), Vec::new(), None))
        }
        Some(Glance::Absent) => Some((CardDir::default(), Vec::new(), Some(true))),
        Some(Glance::Cards(cards)) => {
            let seen = looker.looks(&cards);
            let matters = |i: usize, fc: &FileCard| {
                !fc.trusted() || seen[i].joins || selecting().any(|n| fc.is_named(n))
            };
            cards
                .verify(&dir, &matters)
                .then_some((cards, seen, Some(false)))
        }
        None => None,
    };
    quick.unwrap_or_else(|| {
        let cards = sources::read_dir(&dir, CardScope::Project, src.cache_dir, src.vouch);
        let seen = looker.looks(&cards);
        (cards, seen, Some(true))
    })
}

/// Trusted project cards first, then the user's: the first card of a name
/// wins. Untrusted project cards and cards that failed to load are noted.
fn active_cards<'a>(
    project: &'a CardDir,
    project_looks: Vec<Look>,
    user: &'a CardDir,
    user_looks: Vec<Look>,
    out: &mut Resolved,
) -> Vec<Active<'a>> {
    let mut active: Vec<Active> = Vec::new();
    for (fc, seen) in project.files().zip(project_looks) {
        if fc.trusted() {
            active.push((CardScope::Project, fc, seen));
        } else {
            out.untrusted.push(fc.name());
        }
    }
    active.extend(
        user.files()
            .zip(user_looks)
            .map(|(fc, seen)| (CardScope::User, fc, seen)),
    );
    for (scope, fc, _) in &active {
        if let Some(e) = fc.error() {
            out.errors.push((*scope, e));
        }
    }
    active
}

/// The names of the bound, unlisted cards that join the call, by order;
/// those that cannot fire on it are counted as passed over.
fn joining_names(active: &[Active], names: &[String], out: &mut Resolved) -> Vec<String> {
    let mut extra: Vec<(u8, String)> = Vec::new();
    for (_, fc, seen) in active {
        if !seen.bound || seen.listed {
            continue;
        }
        if seen.joins {
            extra.push((fc.order(), fc.name()));
        } else {
            out.passed_over += 1;
        }
    }
    extra.sort();
    let mut extra_names: Vec<String> = Vec::new();
    for (_, name) in extra {
        if !names.contains(&name) && !extra_names.contains(&name) {
            extra_names.push(name);
        }
    }
    extra_names
}

/// The card `name` resolves to by precedence among `named` and the shipped
/// ones, or why there is none.
fn choose(name: String, named: &[&Active], keep: Keep, out: &mut Resolved) {
    let hits: Vec<&&Active> = named
        .iter()
        .filter(|(_, fc, _)| fc.is_named(&name) && fc.error().is_none())
        .collect();
    let shipped = embedded::is_shipped(&name).then_some(CardScope::Embedded);
    // Why a lower card holds its place against the project's (asked only
    // when a project card would win).
    let why: std::cell::RefCell<Option<String>> = std::cell::RefCell::new(None);
    let held = |scope: CardScope| {
        let card = match scope {
            CardScope::Embedded => embedded::card(&name).and_then(Result::ok),
            s => hits
                .iter()
                .find(|(h, _, _)| *h == s)
                .and_then(|(_, fc, _)| fc.card().ok()),
        };
        let reason = card.as_ref().and_then(keep);
        let is = reason.is_some();
        if is && why.borrow().is_none() {
            *why.borrow_mut() = reason.map(|r| format!("{r}: the {} card stays", scope.label()));
        }
        is
    };
    let (won, passed) =
        precedence::winner_held(hits.iter().map(|(s, _, _)| *s).chain(shipped), held);
    if passed {
        out.held
            .push((name.clone(), why.into_inner().unwrap_or_default()));
    }
    let mine = won.and_then(|w| hits.iter().find(|(s, _, _)| *s == w.scope));
    match mine {
        Some((scope, fc, _)) => match fc.card() {
            Ok(card) => out.chosen.push(Chosen {
                scope: *scope,
                card,
                overrides: won.and_then(|w| w.overrides),
            }),
            Err(message) => out.errors.push((
                *scope,
                CardError {
                    card: name,
                    message,
                },
            )),
        },
        None => match embedded::card(&name) {
            Some(Ok(card)) => out.chosen.push(Chosen {
                scope: CardScope::Embedded,
                card,
                overrides: None,
            }),
            Some(Err(e)) => out.errors.push((CardScope::Embedded, e)),
            None => {
                if !out.errors.iter().any(|(_, e)| e.card == name) {
                    out.unknown.push(name);
                }
            }
        },
    }
}
