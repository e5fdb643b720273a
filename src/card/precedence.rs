//! Which card of a name wins: the one place precedence is decided. The
//! project's card (when trusted) wins over the user's, the user's over the
//! shipped one. The hook (`resolve`), `cards list`, `explain`, install's
//! registrations and replay all choose through [`winner`].

use super::sources::Scope;

/// The card that wins for one name, and the scope it overrides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Winner {
    pub scope: Scope,
    /// The next scope down that also holds a usable card of the name.
    pub overrides: Option<Scope>,
}

/// Of the scopes that hold a usable card of one name (in any order), the
/// one that wins and the one it overrides; `None` when there is none.
pub fn winner(present: impl IntoIterator<Item = Scope>) -> Option<Winner> {
    let mut scopes: Vec<Scope> = present.into_iter().collect();
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
fn rank(s: Scope) -> u8 {
    match s {
        Scope::Project => 0,
        Scope::User => 1,
        Scope::Embedded => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn project_over_user_over_shipped() {
        let w = |s: &[Scope]| winner(s.iter().copied());
        assert_eq!(w(&[]), None);
        assert_eq!(
            w(&[Scope::Embedded, Scope::User, Scope::Project]),
            Some(Winner {
                scope: Scope::Project,
                overrides: Some(Scope::User)
            })
        );
        assert_eq!(
            w(&[Scope::Embedded, Scope::Project]),
            Some(Winner {
                scope: Scope::Project,
                overrides: Some(Scope::Embedded)
            })
        );
        assert_eq!(
            w(&[Scope::User]),
            Some(Winner {
                scope: Scope::User,
                overrides: None
            })
        );
    }
}
