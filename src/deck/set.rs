//! Every card visible from a project: the shipped cards, the user's and
//! the trusted project's (read by [`super::sources`]), one per name after
//! precedence, with what was overridden, held, broken or untrusted.

use super::sources::{Always, CardDir, CardScope, Vouch, project_dir, read_dir, user_dir};
use crate::card::{Card, CardError, embedded};
use std::collections::BTreeMap;
use std::path::Path;

/// Every card visible from a project, after precedence.
#[derive(Debug, Default)]
pub struct CardSet {
    /// The winning card per name (disabled ones included, so that they
    /// can be reported), sorted by name.
    pub cards: Vec<(CardScope, Card)>,
    /// Names overridden by a higher scope: (name, winner, the next scope
    /// down), one per name.
    pub overrides: Vec<(String, CardScope, CardScope)>,
    /// Cards that failed to load, with their scope.
    pub errors: Vec<(CardScope, CardError)>,
    /// Project cards present but not trusted (new or changed).
    pub untrusted: Vec<String>,
    /// Trusted project cards not used because a policy from outside the
    /// project holds the lower card of their name: (name, why).
    pub held: Vec<(String, String)>,
}

/// Loads every scope; `vouch` judges the project's cards, `keep` says
/// which lower cards a project card may not displace (see
/// [`super::precedence::winner_held`]).
pub fn load_all(
    project_root: Option<&Path>,
    cache_dir: Option<&Path>,
    vouch: &dyn Vouch,
    keep: super::resolve::Keep,
) -> CardSet {
    let mut set = CardSet::default();
    // Every usable card of each name, by scope; precedence picks one.
    let mut by_name: BTreeMap<String, Vec<(CardScope, Card)>> = BTreeMap::new();
    for c in embedded::all() {
        match c {
            Ok(c) => by_name
                .entry(c.name.clone())
                .or_default()
                .push((CardScope::Embedded, c)),
            Err(e) => set.errors.push((CardScope::Embedded, e)),
        }
    }
    let mut scoped: Vec<(CardScope, CardDir)> = Vec::new();
    if let Some(dir) = user_dir() {
        let cards = read_dir(&dir, CardScope::User, cache_dir, &Always);
        scoped.push((CardScope::User, cards));
    }
    if let Some(root) = project_root {
        let cards = read_dir(&project_dir(root), CardScope::Project, cache_dir, vouch);
        scoped.push((CardScope::Project, cards));
    }
    for (scope, dir) in &scoped {
        for fc in dir.files() {
            if !fc.trusted() {
                set.untrusted.push(fc.name());
                continue;
            }
            match fc.card() {
                Ok(card) => by_name
                    .entry(card.name.clone())
                    .or_default()
                    .push((*scope, card)),
                Err(message) => set.errors.push((
                    *scope,
                    CardError {
                        card: fc.name(),
                        message,
                    },
                )),
            }
        }
    }
    for (name, mut cards) in by_name {
        let why = std::cell::RefCell::new(None);
        let held = |scope: CardScope| {
            let r = cards
                .iter()
                .find(|(s, _)| *s == scope)
                .and_then(|(_, c)| keep(c));
            let is = r.is_some();
            if is && why.borrow().is_none() {
                *why.borrow_mut() = r.map(|r| format!("{r}: the {} card stays", scope.label()));
            }
            is
        };
        let (won, passed) = super::precedence::winner_held(cards.iter().map(|(s, _)| *s), held);
        if passed {
            set.held
                .push((name.clone(), why.into_inner().unwrap_or_default()));
        }
        let Some(won) = won else {
            continue;
        };
        if let Some(lost) = won.overrides {
            set.overrides.push((name, won.scope, lost));
        }
        if let Some(i) = cards.iter().position(|(s, _)| *s == won.scope) {
            set.cards.push(cards.swap_remove(i));
        }
    }
    set
}

impl CardSet {
    pub fn get(&self, name: &str) -> Option<&(CardScope, Card)> {
        self.cards.iter().find(|(_, c)| c.name == name)
    }
    pub fn overridden(&self, name: &str) -> Option<CardScope> {
        self.overrides
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, _, lost)| *lost)
    }
}
