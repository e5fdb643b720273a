//! Registrations derived from the cards' Bindings: for each event, the one
//! hook entry a harness needs, with the matcher that covers every card on it
//! and the cards that entry lists. `cargo xtask gen` writes this table into
//! generated/, and the installer writes it into each harness's config.
//!
//! One entry per event (the union of its cards' matchers) means one process
//! per call and one envelope, however many cards apply; the dispatcher checks
//! each card's own matcher.

use crate::card::Card;
use crate::event::{EVENTS, Matcher};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Registration {
    pub event: &'static str,
    /// `*` or `A|B|C` (tool names, or SessionStart sources).
    pub matcher: String,
    /// The cards this entry's command lists, in emission order.
    pub cards: Vec<String>,
}

/// The registrations for a set of cards, in event-table order.
pub fn table(cards: &[Card]) -> Vec<Registration> {
    table_with(cards, &[])
}

/// The registrations for `listed` cards (named in the entries' commands)
/// and `unlisted` ones, which only need their events and matchers
/// registered: the dispatcher finds user and project cards bound to the
/// event by itself, so an entry never names a card that exists only in one
/// project or for one user.
pub fn table_with(listed: &[Card], unlisted: &[Card]) -> Vec<Registration> {
    let mut out = Vec::new();
    for spec in EVENTS {
        let mut on: Vec<&Card> = listed
            .iter()
            .filter(|c| c.bindings.enabled && c.binds(spec.name))
            .collect();
        let extra: Vec<&Card> = unlisted
            .iter()
            .filter(|c| c.bindings.enabled && c.binds(spec.name))
            .collect();
        if on.is_empty() && extra.is_empty() {
            continue;
        }
        on.sort_by(|a, b| (a.bindings.order, &a.name).cmp(&(b.bindings.order, &b.name)));
        let matchers: Vec<String> = on
            .iter()
            .chain(extra.iter())
            .map(|c| effective_matcher(c))
            .collect();
        let matcher = match spec.matcher {
            Matcher::ToolName | Matcher::Source => {
                crate::card::matcher_union(matchers.iter().map(String::as_str))
            }
            _ => "*".to_string(),
        };
        out.push(Registration {
            event: spec.name,
            matcher,
            cards: on.iter().map(|c| c.name.clone()).collect(),
        });
    }
    out
}

/// A card's matcher; for a trigger card left at `*`, the tools its trigger
/// can fire on, so that a `paths:` card does not start cuecard on every
/// shell command.
fn effective_matcher(c: &Card) -> String {
    if c.bindings.matcher.trim() == "*"
        && c.bindings.has_trigger()
        && let Ok(t) = crate::trigger::Trigger::compile(&c.bindings)
        && !t.tools.is_empty()
    {
        return t.tools.join("|");
    }
    c.bindings.matcher.clone()
}

/// The registrations `cuecard install` writes from a project: the shipped
/// cards (minus those a user card disables; a project card never removes
/// one), plus the
/// events and matchers the user's cards and this project's trusted cards
/// need.
pub fn for_install(
    project_root: &std::path::Path,
    state_root: Option<&std::path::Path>,
) -> Vec<Registration> {
    use crate::deck::sources::{self, CardScope};
    let vouch = crate::trust::ProjectTrust::new(state_root, project_root);
    // A project card never switches off a card a policy from outside the
    // project holds (issue 26).
    let policy = crate::policy::load(project_root, state_root);
    let set = sources::load_all(Some(project_root), state_root, &vouch, &|c| policy.holds(c));
    let mut listed = Vec::new();
    let mut unlisted = Vec::new();
    for (scope, card) in set.cards {
        let shipped_name =
            scope == CardScope::Embedded || crate::card::embedded::is_shipped(&card.name);
        if scope == CardScope::Project
            && shipped_name
            && let Some(Ok(shipped)) = crate::card::embedded::card(&card.name)
        {
            // A project card never takes a shipped card out of the entries
            // (issue 26): the dispatcher decides at each call whether the
            // project's card is used, and a policy set after this install
            // can hold the shipped one in place. The project card's own
            // events and matcher are registered beside it.
            listed.push(shipped);
            unlisted.push(card);
        } else if shipped_name {
            listed.push(card);
        } else {
            unlisted.push(card);
        }
    }
    table_with(&listed, &unlisted)
}

/// The registrations for the shipped cards.
pub fn shipped() -> Vec<Registration> {
    let cards: Vec<Card> = crate::card::embedded::all().into_iter().flatten().collect();
    table(&cards)
}

#[cfg(test)]
mod tests {
    #[test]
    fn union_of_matchers() {
        assert_eq!(
            crate::card::matcher_union(["Write|Edit", "Bash|Write"].into_iter()),
            "Bash|Edit|Write"
        );
        assert_eq!(crate::card::matcher_union(["Write", "*"].into_iter()), "*");
    }
}
