//! Which card of a name wins: the one place precedence is decided. The
//! project's card (when trusted) wins over the user's, the user's over the
//! shipped one. The hook (`resolve`), `cards list`, `explain`, install's
//! registrations and replay all choose through [`winner`].

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
        assert_eq!(
            w(&[CardScope::User]),
            Some(Winner {
                scope: CardScope::User,
                overrides: None
            })
        );
    }
}
