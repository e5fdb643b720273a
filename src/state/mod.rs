//! Per-session state (docs/design.md §6). The dispatcher loads a [`Session`] for the
//! call's session when a state root is usable, and runs stateless otherwise.
//!
//! One concern per file: [`root`] (where, and the security checks), [`key`]
//! (session ids to file names), [`lock`] and [`atomic`] (serialised, atomic
//! writes), [`store`] (load, save, corrupt state), [`cycle`] (the checked
//! compaction counter), [`ledger`], [`failures`] (the failure record),
//! [`marker`] (`first_within`), [`sweep`] (idle state), [`estimate`] (the
//! context-size estimate without a transcript), [`handoff`] (what the
//! recovery after a compaction may carry back).

pub mod atomic;
pub mod calls;
pub mod cycle;
pub mod estimate;
pub mod failures;
pub mod handoff;
pub mod key;
pub mod ledger;
pub mod liveness;
pub mod lock;
pub mod marker;
pub mod observe;
pub mod pin;
pub mod root;
pub mod store;
pub mod sweep;

pub use cycle::Cycle;
pub use estimate::Estimate;
pub use handoff::HandoffState;
pub use ledger::Ledger;
pub use marker::first_within;
pub use observe::observe;
pub use store::{Locked, Store};

use key::{CooldownKey, OnceKey, RepeatKey};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The state format version written by this build.
pub const VERSION: u32 = 1;

/// Repeat-rule keys kept per session (oldest dropped first).
pub const MAX_SEEN: usize = 256;

/// What cuecard remembers about one session.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Session {
    #[serde(default)]
    pub version: u32,
    /// The session id as shown to humans (sanitised).
    #[serde(default)]
    pub id: String,
    /// The project root this state is scoped to.
    #[serde(default)]
    pub project: String,
    /// Unix seconds.
    #[serde(default)]
    pub created: u64,
    #[serde(default)]
    pub updated: u64,
    /// Dispatches seen for this session, and per event.
    #[serde(default)]
    pub calls: u64,
    #[serde(default)]
    pub events: BTreeMap<String, u64>,
    /// The model last named by a payload.
    #[serde(default)]
    pub model: Option<String>,
    /// Once-per-session keys already spent (the Stop card, ...).
    #[serde(default)]
    pub once: Vec<String>,
    /// Repeat-rule keys (digests of guard + target) injected in full.
    #[serde(default)]
    pub seen: Vec<String>,
    #[serde(default)]
    pub compaction: Cycle,
    #[serde(default)]
    pub estimate: Estimate,
    #[serde(default)]
    pub ledger: Ledger,
    /// When cards with a cooldown last fired (key → unix seconds).
    #[serde(default)]
    pub stamps: BTreeMap<String, u64>,
    /// The hand-off note and plan this session wrote (issue 20).
    #[serde(default)]
    pub handoff: HandoffState,
    /// The harness whose hook calls this session's (its `--contract`, else
    /// `claude-code`): set by its first call, so the record is not written
    /// again for it (what `doctor` reads to tell when a harness last
    /// called).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<String>,
    /// The context curve folded from the call log (never in the record).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub curve: Vec<calls::CurvePoint>,
}

impl Session {
    pub fn once_spent(&self, key: &OnceKey) -> bool {
        self.once.iter().any(|k| k == key.as_str())
    }

    pub fn spend(&mut self, key: &OnceKey) {
        if !self.once_spent(key) {
            self.once.push(key.as_str().to_string());
        }
    }

    /// Records that `key` fired at `now` (cooldowns).
    pub fn stamp(&mut self, key: &CooldownKey, now: u64) {
        self.stamps.insert(key.as_str().to_string(), now);
        if self.stamps.len() > MAX_SEEN
            && let Some(oldest) = self
                .stamps
                .iter()
                .min_by_key(|(_, t)| **t)
                .map(|(k, _)| k.clone())
        {
            self.stamps.remove(&oldest);
        }
    }

    /// Whether `key` fired less than `secs` seconds before `now`.
    pub fn stamped_within(&self, key: &CooldownKey, secs: u64, now: u64) -> bool {
        self.stamps
            .get(key.as_str())
            .is_some_and(|&t| now.saturating_sub(t) < secs)
    }

    /// A compaction happened (or was detected): the warnings re-arm, and
    /// the repeat rule forgets what was injected, since the model no longer
    /// has those advisories in its context; the next finding of each is
    /// injected in full again.
    pub fn new_compaction_cycle(&mut self, why: &str) {
        self.compaction.new_cycle(why);
        self.seen.clear();
    }

    pub fn was_seen(&self, key: &RepeatKey) -> bool {
        self.seen.iter().any(|k| k == key.as_str())
    }

    pub fn mark_seen(&mut self, key: &RepeatKey) {
        if !self.was_seen(key) {
            self.seen.push(key.as_str().to_string());
            if self.seen.len() > MAX_SEEN {
                let extra = self.seen.len() - MAX_SEEN;
                self.seen.drain(..extra);
            }
        }
    }
}

/// Unix seconds now.
pub fn now() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
