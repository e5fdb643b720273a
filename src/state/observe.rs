//! Per-call accounting, before the guards run: the call counters, the model
//! (a model switch's `to_model` replaces it),
//! the bytes the estimate needs, and the new cycle a post-compaction
//! SessionStart (`source: "compact"`) starts.

use super::Session;
use super::estimate::text_bytes;
use crate::payload::Payload;

/// Records one call of `event` in `session`.
pub fn observe(session: &mut Session, event: &str, payload: &Payload) {
    session.calls += 1;
    *session.events.entry(event.to_string()).or_insert(0) += 1;
    if let Some(m) = payload.model().filter(|m| !m.is_empty()) {
        session.model = Some(crate::text::sanitize(m, 100));
    }
    match event {
        // Claude Code's model switch names the model now serving the
        // session: the window the compaction warning takes is its.
        "PostModelSwitch" => {
            if let Some(m) = payload.str_field("to_model").filter(|m| !m.is_empty()) {
                session.model = Some(crate::text::sanitize(m, 100));
            }
        }
        "SessionStart" if payload.source() == Some("compact") => {
            session.new_compaction_cycle("SessionStart source=compact");
            session.estimate.reset();
        }
        "PostToolUse" | "PostToolUseFailure" => {
            let mut bytes = 0;
            if let Some(v) = payload.raw.get("tool_input") {
                bytes += text_bytes(v);
            }
            if let Some(v) = payload.raw.get("tool_response") {
                bytes += text_bytes(v);
            }
            if let Some(v) = payload.raw.get("error") {
                bytes += text_bytes(v);
            }
            session.estimate.add(bytes);
        }
        "UserPromptSubmit" => {
            session
                .estimate
                .add(payload.prompt().map_or(0, |p| p.len() as u64));
        }
        _ => {}
    }
}
