//! What the recovery after a compaction may carry back (issue 20): when the
//! session's first compaction warning came, and which hand-off note and plan
//! file cuecard saw this session write. Only paths and times are kept, never
//! what the files say.

use serde::{Deserialize, Serialize};

/// The longest plan path kept (a longer one is not recorded).
pub const MAX_PATH_BYTES: usize = 1024;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct HandoffState {
    /// Unix milliseconds of the session's first compaction warning.
    #[serde(default)]
    pub first_warning_ms: Option<u64>,
    /// Unix milliseconds of the last write of the hand-off note seen after
    /// that warning.
    #[serde(default)]
    pub note_written_ms: Option<u64>,
    /// The plan file (absolute) this session was last seen writing.
    #[serde(default)]
    pub plan: Option<String>,
}

impl HandoffState {
    /// Records the session's first compaction warning (later ones change
    /// nothing).
    pub fn warned(&mut self, now_ms: u64) {
        self.first_warning_ms.get_or_insert(now_ms);
    }

    /// Records a write of the hand-off note; one before the first warning
    /// does not count (the note is what the warning asks for).
    pub fn note_written(&mut self, now_ms: u64) {
        if self.first_warning_ms.is_some() {
            self.note_written_ms = Some(now_ms);
        }
    }

    /// Records a write of a plan file.
    pub fn plan_written(&mut self, path: &str) {
        if path.len() <= MAX_PATH_BYTES {
            self.plan = Some(path.to_string());
        }
    }

    /// Whether the note at hand was written in this session: a write seen
    /// after the first warning, or a modification time after it.
    pub fn note_counts(&self, modified_ms: Option<u64>) -> bool {
        let Some(warned) = self.first_warning_ms else {
            return false;
        };
        self.note_written_ms.is_some() || modified_ms.is_some_and(|m| m > warned)
    }
}

/// Unix milliseconds now.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_note_after_the_first_warning_counts() {
        let mut h = HandoffState::default();
        h.note_written(5);
        assert!(!h.note_counts(Some(10)), "no warning: nothing counts");
        assert_eq!(h.note_written_ms, None, "a write before the warning");
        h.warned(100);
        h.warned(200);
        assert_eq!(h.first_warning_ms, Some(100), "the first warning stays");
        assert!(
            !h.note_counts(Some(100)),
            "modified at the warning: not after"
        );
        assert!(!h.note_counts(None));
        assert!(h.note_counts(Some(101)), "modified after the warning");
        h.note_written(150);
        assert!(h.note_counts(None), "a write seen after the warning");
        h.plan_written(&"x".repeat(MAX_PATH_BYTES + 1));
        assert_eq!(h.plan, None);
        h.plan_written("/home/u/.claude/plans/a.md");
        assert_eq!(h.plan.as_deref(), Some("/home/u/.claude/plans/a.md"));
    }
}
