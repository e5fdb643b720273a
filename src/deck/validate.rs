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

/// The Bindings keys a card may use.
const KEYS: &[&str] = &["event", "events", "matcher", "guard", "enabled", "order"];

/// Every problem `cards check` can name without stopping at the first,
/// each with a "did you mean" where a name is close (issue 33): unknown
/// keys, events, guards and placeholders, bad regular expressions,
/// durations and decisions. The parse that follows (`parse_checked`) adds
/// what only it can see; a message already named here is not repeated.
pub fn problems(src: &str) -> Vec<String> {
    use crate::suggest::hint;
    let (pairs, advisory) = crate::card::raw_parts(src);
    let mut out = Vec::new();
    let pairs = pairs.unwrap_or_default();
    let keys = KEYS.iter().chain(crate::card::TRIGGER_KEYS);
    let mut guard = None;
    for (k, v) in &pairs {
        match k.as_str() {
            "event" | "events" => {
                for e in v.split([',', '|']).map(str::trim).filter(|e| !e.is_empty()) {
                    if crate::event::lookup(e).is_none() {
                        let names = crate::event::EVENTS.iter().map(|s| s.name);
                        out.push(format!("unknown event `{e}`{}", hint(e, names)));
                    }
                }
            }
            "guard" => match guards::lookup(v) {
                Some(g) => guard = Some(g),
                None => out.push(format!(
                    "unknown guard `{v}`{}",
                    hint(v, guards::GUARDS.iter().map(|g| g.name()))
                )),
            },
            "command" | "not-command" | "content" => {
                if let Err(e) = crate::trigger::regex(k, v) {
                    out.push(e);
                }
            }
            "cooldown" => {
                if let Err(e) = crate::trigger::parse_duration(v) {
                    out.push(e);
                }
            }
            "decision" if crate::level::Level::parse(v).is_none() => out.push(format!(
                "Bindings: `decision: {v}` must be advise, ask or deny{}",
                hint(v, crate::level::Level::ALL.map(crate::level::Level::word))
            )),
            key if !keys.clone().any(|x| x == &key) => out.push(format!(
                "Bindings: unknown key `{key}`{}",
                hint(key, keys.clone())
            )),
            _ => {}
        }
    }
    let Some(advisory) = advisory else {
        return out;
    };
    let has_trigger = crate::card::has_trigger(&pairs);
    for p in placeholders(&advisory) {
        let (allowed, context) = match guard {
            Some(g) => (
                g.placeholders(),
                format!(
                    " (guard `{}` fills: {})",
                    g.name(),
                    g.placeholders().join(", ")
                ),
            ),
            None if has_trigger => (crate::card::TRIGGER_PLACEHOLDERS, String::new()),
            None => continue,
        };
        if !allowed.contains(&p) {
            let near = crate::suggest::nearest(p, allowed);
            let near = match near.first() {
                Some(n) => format!("; did you mean `{{{n}}}`?"),
                None => String::new(),
            };
            out.push(format!("unknown placeholder `{{{p}}}`{context}{near}"));
        }
    }
    out
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
    fn every_problem_is_named_at_once() {
        let p = problems(
            "# Bad\n\n## Advisory\nUse {pth}.\n\n## Bindings\n- event: PreTooluse\n- command: ^(git push\n- cooldwn: 5m\n",
        );
        assert_eq!(p.len(), 4, "{p:?}");
        assert!(p[0].starts_with("unknown event `PreTooluse`; did you mean `PreToolUse`?"));
        assert!(p[1].starts_with("`command` is not a valid regular expression"));
        assert_eq!(
            p[2],
            "Bindings: unknown key `cooldwn`; did you mean `cooldown`?"
        );
        assert_eq!(p[3], "unknown placeholder `{pth}`; did you mean `{path}`?");
        for (name, src) in crate::card::embedded::sources() {
            assert_eq!(problems(src), Vec::<String>::new(), "{name}");
        }
    }

    #[test]
    fn every_shipped_card_passes_its_guards_checks() {
        for (name, src) in crate::card::embedded::sources() {
            parse_checked(name, src, Origin::Embedded).unwrap();
        }
    }
}
