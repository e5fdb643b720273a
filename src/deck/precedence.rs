//! Which card of a name wins: the one place precedence is decided. The
//! project's card (when trusted) wins over the user's, the user's over the
//! shipped one, except that the project can only tighten: a project card
//! never displaces a lower card that a policy from outside the project
//! holds (see [`winner_held`]). The hook (`resolve`), `cards list`,
//! `explain`, install's registrations and replay all choose through
//! [`winner_held`].

use super::sources::CardScope;

/// The card that wins for one name, and the scope it overrides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Winner {
    pub scope: CardScope,
    /// The next scope down that also holds a usable card of the name.
    pub overrides: Option<CardScope>,
}

/// Of the scopes that hold a usable card of one name (in any order), the
/// one that wins and the one it overrides; `None` when there is none.
pub fn winner(present: impl IntoIterator<Item = CardScope>) -> Option<Winner> {
    let mut scopes: Vec<CardScope> = present.into_iter().collect();
    scopes.sort_by_key(|s| rank(*s));
    scopes.dedup();
    let mut it = scopes.into_iter();
    let scope = it.next()?;
    Some(Winner {
        scope,
        overrides: it.next(),
    })
}

/// Like [`winner`], but a project card does not win over a lower card
/// (the user's or the shipped one) that `held` says holds its place: one
/// whose guard the user's or the environment's policy sets to ask or deny
/// (issue 26: a trusted project card named `destructive` with `enabled:
/// false` must not switch off the guard a user's deny depends on). The
/// second value says whether the project's card was passed over so.
pub fn winner_held(
    present: impl IntoIterator<Item = CardScope>,
    held: impl Fn(CardScope) -> bool,
) -> (Option<Winner>, bool) {
    let scopes: Vec<CardScope> = present.into_iter().collect();
    let won = winner(scopes.iter().copied());
    if won.is_some_and(|w| w.scope == CardScope::Project)
        && scopes.iter().any(|s| *s != CardScope::Project && held(*s))
    {
        let rest = scopes.into_iter().filter(|s| *s != CardScope::Project);
        return (winner(rest), true);
    }
    (won, false)
}

/// Lower wins.
fn rank(s: CardScope) -> u8 {
    match s {
        CardScope::Project => 0,
        CardScope::User => 1,
        CardScope::Embedded => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_over_user_over_shipped() {
        let w = |s: &[CardScope]| winner(s.iter().copied());
        assert_eq!(w(&[]), None);
        assert_eq!(
            w(&[CardScope::Embedded, CardScope::User, CardScope::Project]),
            Some(Winner {
                scope: CardScope::Project,
                overrides: Some(CardScope::User)
            })
        );
        assert_eq!(
            w(&[CardScope::Embedded, CardScope::Project]),
            Some(Winner {
                scope: CardScope::Project,
                overrides: Some(CardScope::Embedded)
            })
        );
        // A held lower card keeps its place against the project's only.
        let all = [CardScope::Embedded, CardScope::User, CardScope::Project];
        let held = |s: CardScope| s == CardScope::Embedded;
        assert_eq!(
            winner_held(all, held),
            (
                Some(Winner {
                    scope: CardScope::User,
                    overrides: Some(CardScope::Embedded)
                }),
                true
            )
        );
        assert!(
            !winner_held([CardScope::Embedded, CardScope::User], held).1,
            "the user's own card is the user's choice"
        );
        assert_eq!(winner_held(all, |_| false).0, w(&all));
        assert_eq!(
            w(&[CardScope::User]),
            Some(Winner {
                scope: CardScope::User,
                overrides: None
            })
        );
    }
}
