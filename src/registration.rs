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
    let mut out = Vec::new();
    for spec in EVENTS {
        let mut on: Vec<&Card> = cards
            .iter()
            .filter(|c| c.bindings.enabled && c.binds(spec.name))
            .collect();
        if on.is_empty() {
            continue;
        }
        on.sort_by(|a, b| (a.bindings.order, &a.name).cmp(&(b.bindings.order, &b.name)));
        let matcher = match spec.matcher {
            Matcher::ToolName | Matcher::Source => {
                union(on.iter().map(|c| c.bindings.matcher.as_str()))
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

/// The union of matchers: `*` if any admits everything, else the sorted
/// alternatives.
fn union<'a>(matchers: impl Iterator<Item = &'a str>) -> String {
    let mut alts: Vec<&str> = Vec::new();
    for m in matchers {
        let m = m.trim();
        if m.is_empty() || m == "*" {
            return "*".to_string();
        }
        for a in m.split('|').map(str::trim) {
            if !alts.contains(&a) {
                alts.push(a);
            }
        }
    }
    alts.sort_unstable();
    alts.join("|")
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
            super::union(["Write|Edit", "Bash|Write"].into_iter()),
            "Bash|Edit|Write"
        );
        assert_eq!(super::union(["Write", "*"].into_iter()), "*");
    }
}
