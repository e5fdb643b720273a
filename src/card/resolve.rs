//! Which cards one dispatch evaluates: the cards its registration lists,
//! plus the user's and the (trusted) project's own cards bound to the event,
//! each resolved by precedence (project, then user, then shipped).
//!
//! Only what the call needs is read: shipped cards are parsed by name, and
//! user and project cards come from the parsed-card cache.

use super::sources::{self, FileCard, Scope};
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
    pub trusted: &'a dyn Fn(&str, &str) -> bool,
    /// A cheap look at the call (see `trigger::may_fire`): user and project
    /// cards it rejects are not evaluated at all.
    pub may_fire: &'a dyn Fn(&Card) -> bool,
}

pub fn resolve(requested: &[String], events: &[&str], src: &Sources) -> Resolved {
    let binds = |c: &Card| events.iter().any(|e| c.binds(e));
    let mut out = Resolved::default();
    let user: Vec<FileCard> = sources::user_dir()
        .map(|d| sources::read_dir(&d, Scope::User, src.cache_dir))
        .unwrap_or_default();
    let project: Vec<FileCard> = src
        .project_root
        .map(|r| sources::read_dir(&sources::project_dir(r), Scope::Project, src.cache_dir))
        .unwrap_or_default();
    // Trusted project cards first, then the user's: the first card of a
    // name wins. Owned, so chosen cards move out instead of being cloned.
    let mut active: Vec<(Scope, FileCard)> = Vec::new();
    for fc in project {
        if (src.trusted)(&fc.file, &fc.sha256) {
            active.push((Scope::Project, fc));
        } else {
            out.untrusted.push(fc.name.clone());
        }
    }
    active.extend(user.into_iter().map(|fc| (Scope::User, fc)));
    for (scope, fc) in &active {
        if let Some(e) = fc.error() {
            out.errors.push((*scope, e));
        }
    }

    let mut names: Vec<String> = Vec::new();
    if requested.is_empty() {
        let mut bound: Vec<Card> = embedded::all()
            .into_iter()
            .flatten()
            .filter(|c| binds(c))
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
    // The user's and project's own cards on this event join the listed ones.
    let mut extra: Vec<&Card> = active
        .iter()
        .filter_map(|(_, fc)| fc.card.as_ref().ok())
        .filter(|c| binds(c) && !names.contains(&c.name))
        .filter(|c| {
            let keep = (src.may_fire)(c);
            if !keep {
                out.passed_over += 1;
            }
            keep
        })
        .collect();
    extra.sort_by(|a, b| (a.bindings.order, &a.name).cmp(&(b.bindings.order, &b.name)));
    for c in extra {
        if !names.contains(&c.name) {
            names.push(c.name.clone());
        }
    }

    for name in names {
        let mut hits = active
            .iter()
            .enumerate()
            .filter(|(_, (_, fc))| fc.name == name && fc.card.is_ok())
            .map(|(i, (scope, _))| (i, *scope));
        let mine = hits.next();
        let lower_mine = hits.next().map(|(_, s)| s);
        let is_shipped = embedded::source(&name).is_some();
        match mine {
            Some((i, scope)) => {
                let Ok(card) = std::mem::replace(&mut active[i].1.card, Err(String::new())) else {
                    continue;
                };
                let overrides = lower_mine.or(is_shipped.then_some(Scope::Embedded));
                out.chosen.push(Chosen {
                    scope,
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
