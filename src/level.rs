//! A finding's policy level (`policy::Level`): a leaf, so that a card's
//! `- decision:` is parsed below the policy that resolves it.
//!
//! The three policies a finding can have, ordered from loosest to strictest.

/// What cuecard does with a finding (docs/design.md §4a).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub enum Level {
    /// Today's behaviour: the finding is advice for the model.
    #[default]
    Advise,
    /// A person is asked before the call runs (where the harness can ask;
    /// elsewhere it is denied with a reason saying a person must run it).
    Ask,
    /// The call is stopped, with the card's advisory as the reason.
    Deny,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Advise, Level::Ask, Level::Deny];

    /// The word a config, an env var or a card's Bindings use.
    pub fn parse(s: &str) -> Option<Level> {
        match s.trim().to_ascii_lowercase().as_str() {
            "advise" => Some(Level::Advise),
            "ask" => Some(Level::Ask),
            "deny" => Some(Level::Deny),
            _ => None,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Level::Advise => "advise",
            Level::Ask => "ask",
            Level::Deny => "deny",
        }
    }

    /// Whether this policy asks the harness for a decision at all.
    pub fn decides(self) -> bool {
        self != Level::Advise
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

#[cfg(test)]
mod tests {
    use super::Level;

    #[test]
    fn stricter_is_greater_and_words_round_trip() {
        assert!(Level::Advise < Level::Ask && Level::Ask < Level::Deny);
        for l in Level::ALL {
            assert_eq!(Level::parse(l.word()), Some(l));
        }
        assert_eq!(Level::parse(" DENY "), Some(Level::Deny));
        assert_eq!(Level::parse("block"), None);
        assert_eq!(Level::default(), Level::Advise);
    }
}
