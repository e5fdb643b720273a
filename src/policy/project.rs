//! The project can only tighten (issue 26): which lower cards a project
//! card may not displace, and what each project card would change, for
//! `cuecard trust` and `cuecard policy`.

use super::{Policy, Source};
use crate::card::{Card, Origin};
use crate::deck::sources::{self, CardScope};
use std::path::Path;

impl Policy {
    /// Why `card` (the user's or a shipped one) holds its place against a
    /// project card of its name, or `None`: its guard, or one of the
    /// guard's finding ids, is set to ask or deny by `CUECARD_POLICY` or
    /// the user's config (the project's own file does not count: it is
    /// what may only tighten), or, for a user card, its own `decision`.
    pub fn holds(&self, card: &Card) -> Option<String> {
        if let Some(g) = card.bindings.guard.as_deref() {
            for (id, _) in super::ids_of(g) {
                for s in [&self.env, &self.user].into_iter().chain(&self.floors) {
                    if let Some(why) = deciding_line(s, &id) {
                        return Some(why);
                    }
                }
            }
        }
        match (&card.origin, card.bindings.decision()) {
            (Origin::User(_), Some(l)) if l.decides() => Some(format!(
                "the user card `{}` decides `{l}` itself",
                card.name
            )),
            _ => None,
        }
    }
}

/// The line of `s` that sets `id` itself to ask or deny (not the guard's
/// line for it: each id of the guard is asked in turn).
fn deciding_line(s: &Source, id: &str) -> Option<String> {
    let super::Read::Rules(rules) = &s.read else {
        return None;
    };
    let (_, level) = rules.lines.iter().find(|(k, _)| k == id)?;
    level
        .decides()
        .then(|| format!("{}: {id} = {level}", s.origin.label()))
}

/// What each of the project's cards (trusted or not yet) would change, one
/// line each: the card of the same name it overrides or switches off, the
/// cards a policy from outside the project keeps in place against it, and
/// the cards it adds.
pub fn project_changes(project_root: &Path, policy: &Policy) -> Vec<String> {
    let dir = sources::project_dir(project_root);
    let cards = sources::read_dir(&dir, CardScope::Project, None, &sources::Always);
    let user = sources::user_dir()
        .map(|d| sources::read_dir(&d, CardScope::User, None, &sources::Always))
        .unwrap_or_default();
    let mut out = Vec::new();
    for fc in cards.files() {
        let name = fc.name();
        let card = match fc.card() {
            Ok(c) => c,
            Err(e) => {
                out.push(format!("{name}: not usable ({e})"));
                continue;
            }
        };
        let user_card = user
            .files()
            .find(|u| u.is_named(&name))
            .and_then(|u| u.card().ok());
        let shipped = crate::card::embedded::card(&name).and_then(Result::ok);
        let lower = user_card
            .as_ref()
            .map(|c| (CardScope::User, c))
            .or(shipped.as_ref().map(|c| (CardScope::Embedded, c)));
        let Some((scope, below)) = lower else {
            out.push(format!("{name}: adds a card of its own"));
            continue;
        };
        let held = [user_card.as_ref(), shipped.as_ref()]
            .into_iter()
            .flatten()
            .find_map(|c| policy.holds(c));
        let change = if card.bindings.enabled {
            format!("replaces the {} card `{}`", scope.label(), below.name)
        } else {
            format!("switches off the {} card `{}`", scope.label(), below.name)
        };
        out.push(match held {
            Some(why) => format!(
                "{name}: would {}, but {why} (a policy from outside the project): NOT USED, the {} card stays",
                change.replacen("replaces", "replace", 1).replacen("switches", "switch", 1),
                scope.label()
            ),
            None => format!("{name}: {change}"),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{PolicyOrigin, Read, Rules};

    fn with_user(lines: &str) -> Policy {
        Policy::from_sources(
            Source {
                origin: PolicyOrigin::Env,
                read: Read::Absent,
            },
            Source {
                origin: PolicyOrigin::User("u.toml".into()),
                read: Read::Rules(Rules::from_env(lines, &|_| true)),
            },
            Source {
                origin: PolicyOrigin::Project("p.toml".into()),
                read: Read::Absent,
            },
        )
    }

    #[test]
    fn a_guard_under_ask_or_deny_holds_its_card() {
        let card = crate::card::embedded::card("destructive").unwrap().unwrap();
        assert_eq!(Policy::none().holds(&card), None);
        assert_eq!(
            with_user("destructive=deny").holds(&card).as_deref(),
            Some("u.toml: destructive = deny")
        );
        assert!(
            with_user("destructive.outside-project=ask")
                .holds(&card)
                .is_some(),
            "one finding id is enough"
        );
        assert_eq!(with_user("destructive=advise").holds(&card), None);
        assert_eq!(with_user("secrets=deny").holds(&card), None);
    }
}
