//! Per-session state (DESIGN §6). The dispatcher loads a [`Session`] for the
//! call's session when a state root is usable, and runs stateless otherwise.

use serde::{Deserialize, Serialize};

/// What cuecard remembers about one session.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Session {
    /// Once-per-session keys already spent (the Stop card, ...).
    #[serde(default)]
    pub once: Vec<String>,
    /// When a card with a cooldown last fired (key → seconds since epoch).
    #[serde(default)]
    pub fired: std::collections::BTreeMap<String, u64>,
}

impl Session {
    pub fn once_spent(&self, key: &str) -> bool {
        self.once.iter().any(|k| k == key)
    }

    /// Whether `key` fired less than `window` ago.
    pub fn fired_within(&self, key: &str, window: std::time::Duration) -> bool {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        self.fired.get(key).is_some_and(|&t| now.saturating_sub(t) < window.as_secs())
    }
}
