//! The half of a card's checks that needs the guard registry: a guarded
//! card names a guard that exists, runs on the card's events and fills the
//! Advisory's placeholders. The rest is `Card::validate`, run by
//! `card::parse_card`; a card the hook may load passes both.

use crate::card::{Card, CardError, Origin, parse_card, placeholders};
use crate::guards;

/// Parses one card and checks it against its guard: what a user's, a
/// project's or a shipped card must pass.
pub fn parse_checked(name: &str, src: &str, origin: Origin) -> Result<Card, CardError> {
    let card = parse_card(name, src, origin)?;
    guarded(&card).map_err(|message| CardError {
        card: name.to_string(),
        message,
    })?;
    Ok(card)
}

/// The guard's checks of a card (none for a card without a guard).
pub fn guarded(card: &Card) -> Result<(), String> {
    let b = &card.bindings;
    let Some(g) = &b.guard else {
        return Ok(());
    };
    let advisory_placeholders = card
        .advisory
        .as_deref()
        .map(placeholders)
        .unwrap_or_default();
    let guard = guards::lookup(g).ok_or_else(|| format!("unknown guard `{g}`"))?;
    if card.advisory.is_none() {
        return Err("a guarded card needs an `## Advisory` section".into());
    }
    for p in &advisory_placeholders {
        if !guard.placeholders().contains(p) {
            return Err(format!(
                "unknown placeholder `{{{p}}}` (guard `{g}` fills: {})",
                guard.placeholders().join(", ")
            ));
        }
    }
    for name in &b.events {
        if !guard.events().contains(&name.as_str()) {
            return Err(format!(
                "guard `{g}` does not run on `{name}` (it runs on: {})",
                guard.events().join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_card_passes_its_guards_checks() {
        for (name, src) in crate::card::embedded::sources() {
            parse_checked(name, src, Origin::Embedded).unwrap();
        }
    }
}
