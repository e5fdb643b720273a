//! Per-session state (DESIGN §6). The dispatcher loads a [`Session`] for the
//! call's session when a state root is usable, and runs stateless otherwise.

use serde::{Deserialize, Serialize};

/// What cuecard remembers about one session.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Session {
    /// Once-per-session keys already spent (the Stop card, ...).
    #[serde(default)]
    pub once: Vec<String>,
}

impl Session {
    pub fn once_spent(&self, key: &str) -> bool {
        self.once.iter().any(|k| k == key)
    }
}
