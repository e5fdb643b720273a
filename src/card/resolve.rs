//! Which cards one dispatch evaluates: the cards its registration lists,
//! plus the user's and the (trusted) project's own cards bound to the event,
//! each resolved by precedence (project, then user, then shipped).
//!
//! Only what the call needs is read: shipped cards are parsed by name, and
//! user and project cards come from the parsed-card cache.

use super::sources::{self, CardDir, FileCard, Scope, Vouch};
use super::{Card, CardError, embedded};
use std::path::Path;

/// One card chosen for evaluation.
#[derive(Debug, Clone)]
pub struct Chosen {
    pub scope: Scope,
    pub card: Card,
    /// The lower scope this card overrides, if any.
    pub overrides: Option<Scope>,
}

#[derive(Debug, Default)]
pub struct Resolved {
    pub chosen: Vec<Chosen>,
    /// Requested names that exist nowhere.
    pub unknown: Vec<String>,
    /// Cards that failed to load (the lower scope is used where there is one).
    pub errors: Vec<(Scope, CardError)>,
    /// Project cards that are present but not trusted.
    pub untrusted: Vec<String>,
    /// User and project cards on the event passed over because their tools
    /// or paths cannot match this call.
    pub passed_over: usize,
}

pub struct Sources<'a> {
    pub project_root: Option<&'a Path>,
    pub cache_dir: Option<&'a Path>,
    /// Judges the project's cards (see `trust`).
    pub vouch: &'a Vouch<'a>,
    /// A cheap look at the call, given a card of the user's or the
    /// project's (its reach, then its trigger keys: see `trigger::reach`
    /// and `trigger::may_fire`): cards it rejects are not evaluated, nor
    /// even decoded.
    pub may_fire: &'a dyn Fn(&FileCard) -> bool,
    /// The hook path of a tool call: the project's cards are checked
    /// against the file system only as far as this call needs (see
    /// [`sources::cached`]). Off where everything must be current (the
    /// session start's note on untrusted cards).
    pub quick: bool,
}

pub fn resolve(requested: &[String], events: &[&str], src: &Sources) -> Resolved {
    let mut out = Resolved::default();
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
    // A card of the user's or the project's own joins the listed ones when
    // it is bound to the event and the cheap look does not rule it out.
    let joins = |fc: &FileCard| events.iter().any(|e| fc.binds(e)) && (src.may_fire)(fc);
    let listed = |fc: &FileCard| names.iter().any(|n| fc.is_named(n));

    let user: CardDir = sources::user_dir()
        .map(|d| sources::read_dir(&d, Scope::User, src.cache_dir, &Vouch::always()))
        .unwrap_or_default();
    // The project's cards, with whether each joins (asked once per card).
    let (project, project_joins) = match src.project_root {
        None => (CardDir::default(), Vec::new()),
        Some(root) => {
            let dir = sources::project_dir(root);
            let quick = src
                .cache_dir
                .filter(|_| src.quick)
                .and_then(|c| sources::cached(&dir, c, src.vouch))
                .and_then(|cards| {
                    let joined: Vec<bool> =
                        cards.files().map(|fc| fc.trusted() && joins(&fc)).collect();
                    let matters =
                        |i: usize, fc: &FileCard| !fc.trusted() || joined[i] || listed(fc);
                    cards.verify(&dir, &matters).then_some((cards, joined))
                });
            quick.unwrap_or_else(|| {
                let cards = sources::read_dir(&dir, Scope::Project, src.cache_dir, src.vouch);
                let joined = cards.files().map(|fc| fc.trusted() && joins(&fc)).collect();
                (cards, joined)
            })
        }
    };
    // Trusted project cards first, then the user's: the first card of a
    // name wins.
    let mut active: Vec<(Scope, FileCard, bool)> = Vec::new();
    for (fc, joined) in project.files().zip(project_joins) {
        if fc.trusted() {
            active.push((Scope::Project, fc, joined));
        } else {
            out.untrusted.push(fc.name());
        }
    }
    active.extend(user.files().map(|fc| (Scope::User, fc, joins(&fc))));
    for (scope, fc, _) in &active {
        if let Some(e) = fc.error() {
            out.errors.push((*scope, e));
        }
    }

    let mut extra: Vec<(u8, String)> = Vec::new();
    for (_, fc, joined) in &active {
        if !events.iter().any(|e| fc.binds(e)) || listed(fc) {
            continue;
        }
        if *joined {
            extra.push((fc.order(), fc.name()));
        } else {
            out.passed_over += 1;
        }
    }
    extra.sort();
    for (_, name) in extra {
        if !names.contains(&name) {
            names.push(name);
        }
    }

    for name in names {
        let mut hits = active
            .iter()
            .filter(|(_, fc, _)| fc.is_named(&name) && fc.error().is_none());
        let mine = hits.next();
        let lower_mine = hits.next().map(|(s, _, _)| *s);
        let is_shipped = embedded::source(&name).is_some();
        match mine {
            Some((scope, fc, _)) => {
                let card = match fc.card() {
                    Ok(card) => card,
                    Err(message) => {
                        out.errors.push((
                            *scope,
                            CardError {
                                card: name,
                                message,
                            },
                        ));
                        continue;
                    }
                };
                let overrides = lower_mine.or(is_shipped.then_some(Scope::Embedded));
                out.chosen.push(Chosen {
                    scope: *scope,
                    card,
                    overrides,
                });
            }
            None => match embedded::card(&name) {
                Some(Ok(card)) => out.chosen.push(Chosen {
                    scope: Scope::Embedded,
                    card,
                    overrides: None,
                }),
                Some(Err(e)) => out.errors.push((Scope::Embedded, e)),
                None => {
                    if !out.errors.iter().any(|(_, e)| e.card == name) {
                        out.unknown.push(name);
                    }
                }
            },
        }
    }
    out
}
