//! SessionStart once (docs/design.md §5). Cursor and Devin run Claude Code's hook
//! files as well as their own, so one session start can reach cuecard twice
//! (once through `.claude/settings.json`, once through the harness's own
//! config, with or without `--contract`). The first SessionStart of a
//! session and source that answers marks it in the state directory; another
//! within [`WINDOW`], from either surface, stays silent. Only an answer
//! marks (a start that said nothing never silences the next), and the mark
//! is atomic (`state::first_within`), so of two surfaces answering the same
//! start at once exactly one prints. The same marker runs for
//! every harness, so any double registration (user and project scope, a
//! plugin beside settings) is answered once too.
//!
//! Without a session id (Kiro sends none) nothing is marked: two different
//! sessions must never silence each other. Without a usable state root the
//! call answers (fail open).

use crate::payload::Payload;
use crate::state::{self, Store, key};
use std::time::Duration;

/// How long a SessionStart marker silences a second one.
pub const WINDOW: Duration = Duration::from_secs(10);

/// The marker key for a SessionStart payload (canonical shape), if it has a
/// session id.
pub fn marker_key(payload: &Payload) -> Option<String> {
    let (session, _) = key::session_part(payload.raw.get("session_id"), None);
    if session.is_anonymous() {
        return None;
    }
    let session = session.as_str();
    let source = payload.source().unwrap_or("startup");
    Some(format!("SessionStart:{session}:{}", key::digest(source)))
}

/// Marks this SessionStart; returns why it stays silent when the same
/// session and source was already marked within [`WINDOW`].
pub fn repeated(payload: &Payload) -> Option<String> {
    let k = marker_key(payload)?;
    let store = Store::open().ok()?;
    if state::first_within(&store, &k, WINDOW) {
        None
    } else {
        Some(format!(
            "SessionStart for this session and source (`{}`) was already answered within {} s \
             (the harness runs Claude Code's hooks as well as its own): silent",
            crate::text::sanitize(payload.source().unwrap_or("startup"), 40),
            WINDOW.as_secs()
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(v: serde_json::Value) -> Payload {
        Payload::from_map(v.as_object().unwrap().clone())
    }

    #[test]
    fn key_needs_a_session_id_and_separates_sources() {
        assert_eq!(marker_key(&p(json!({"source": "startup"}))), None);
        let a = marker_key(&p(json!({"session_id": "abc", "source": "startup"}))).unwrap();
        let b = marker_key(&p(json!({"session_id": "abc", "source": "resume"}))).unwrap();
        let c = marker_key(&p(json!({"session_id": "abc"}))).unwrap();
        assert_ne!(a, b);
        assert_eq!(a, c, "a missing source is a startup");
    }
}
