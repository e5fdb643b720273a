//! The compaction cycle and its checked counter (docs/design.md §6, §7). Within one
//! cycle the warning level goes 0 → 1 → 2 (or 0 → 2 when both thresholds are
//! crossed at once) and returns to 0 only when a new cycle starts (a
//! `compact_boundary`, a sharp drop, SessionStart with `source: "compact"`).
//! Any other move is refused; the caller records it.

use serde::{Deserialize, Serialize};

/// The highest level a cycle can reach (two thresholds).
pub const MAX_LEVEL: u8 = 2;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Cycle {
    /// The number of the current cycle (0 for the first).
    #[serde(default)]
    pub number: u32,
    /// The highest threshold warned about in this cycle: 0, 1 or 2.
    #[serde(default)]
    pub warned: u8,
    /// Whether a measurement in this cycle was at or above the first
    /// threshold (a later one below it is a sharp drop: a new cycle).
    #[serde(default)]
    pub above_first: bool,
    /// The last measured context size, in tokens.
    #[serde(default)]
    pub last_tokens: Option<u64>,
    /// What the last measurement was taken from (a `message.id`, a line
    /// offset): the same record is evaluated once.
    #[serde(default)]
    pub last_record: Option<String>,
    /// The last compaction boundary seen in the transcript.
    #[serde(default)]
    pub last_boundary: Option<String>,
    /// What the last size came from: `measured (transcript)`, `measured
    /// (harness usage)` or `estimate` (`cuecard status`).
    #[serde(default)]
    pub source: Option<String>,
    /// Why the current cycle started.
    #[serde(default)]
    pub started_by: Option<String>,
    /// Warnings raised over the whole session.
    #[serde(default)]
    pub warnings_total: u32,
    /// The window the harness's model configuration states, read once per
    /// session and model (CodeBuddy Code, Factory Droid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stated: Option<crate::transcript::stated::StatedWindow>,
}

/// A refused transition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RefusedTransition {
    pub from: u8,
    pub to: u8,
}

impl std::fmt::Display for RefusedTransition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "refused compaction-warning transition {} -> {} within one cycle",
            self.from, self.to
        )
    }
}

impl Cycle {
    /// Moves the warning level up to `to`. Only rises within 1..=2 are valid.
    pub fn advance(&mut self, to: u8) -> Result<(), RefusedTransition> {
        if to > MAX_LEVEL || to <= self.warned {
            return Err(RefusedTransition {
                from: self.warned,
                to,
            });
        }
        self.warned = to;
        self.warnings_total = self.warnings_total.saturating_add(1);
        Ok(())
    }

    /// Starts a new cycle: the only way the level returns to 0.
    pub fn new_cycle(&mut self, why: &str) {
        self.number = self.number.saturating_add(1);
        self.warned = 0;
        self.above_first = false;
        self.last_tokens = None;
        self.started_by = Some(why.to_string());
    }

    /// Checks a loaded cycle; an impossible level is reset and reported.
    pub fn validate(&mut self) -> Result<(), RefusedTransition> {
        if self.warned > MAX_LEVEL {
            let bad = self.warned;
            self.warned = MAX_LEVEL;
            return Err(RefusedTransition {
                from: bad,
                to: MAX_LEVEL,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_valid_transitions() {
        let mut c = Cycle::default();
        c.advance(1).unwrap();
        assert!(c.advance(1).is_err(), "no second warning at one level");
        c.advance(2).unwrap();
        assert!(c.advance(3).is_err());
        assert!(c.advance(1).is_err(), "never back down within a cycle");
        assert_eq!(c.warnings_total, 2);
        c.new_cycle("compact_boundary");
        assert_eq!((c.number, c.warned), (1, 0));
        c.advance(2).unwrap(); // both thresholds at once: one warning
        assert_eq!(c.warnings_total, 3);
        let mut bad = Cycle {
            warned: 7,
            ..Cycle::default()
        };
        assert!(bad.validate().is_err());
        assert_eq!(bad.warned, 2);
    }
}
