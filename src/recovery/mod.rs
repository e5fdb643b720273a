//! What the recovery after a compaction (SessionStart `compact`) and on
//! `resume` carries back (issue 20): the hand-off note the session wrote
//! before the compaction ([`note`]) and the plan the harness recorded for it
//! ([`plan`]), each as a bounded excerpt ([`excerpt`]) of a bounded,
//! non-following, regular-file-only read ([`read`]).
//!
//! Only what this session was seen writing counts (see
//! [`crate::state::HandoffState`] and docs/decisions.md): a note committed by
//! someone else is never carried into a fresh session.

pub mod excerpt;
pub mod note;
pub mod plan;
pub mod read;

pub use excerpt::{Excerpt, MAX_CARRIED_BYTES, MAX_EXCERPT_BYTES};
pub use read::FileHead;
