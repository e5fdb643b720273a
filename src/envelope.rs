//! The envelope renderer: the one place where an [`Outcome`] becomes the JSON
//! a harness reads. It reads the event table, so it cannot put context on an
//! event whose channel does not carry it.
//!
//! Harness contracts (`--contract`) reshape the canonical envelope built here;
//! without one, this is Claude Code's envelope byte for byte.

use crate::event::{Decision, EventSpec};
use crate::text::{self, Fragment};
use serde_json::{Map, Value, json};

/// What the cards of one call produced, before rendering.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Model-facing fragments, in emission order, without duplicates.
    pub fragments: Vec<Fragment>,
    /// Short user-facing lines (`systemMessage`); never read by a model.
    pub user_notes: Vec<String>,
    /// A deny reason (strict mode of the AskUserQuestion guard only).
    pub deny: Option<String>,
}

impl Outcome {
    pub fn is_empty(&self) -> bool {
        self.fragments.is_empty() && self.user_notes.is_empty() && self.deny.is_none()
    }

    /// Adds a fragment unless an identical text is already there.
    pub fn push(&mut self, f: Fragment) {
        if !self
            .fragments
            .iter()
            .any(|g| g.card == f.card || g.text == f.text)
        {
            self.fragments.push(f);
        }
    }

    /// The model-facing text, capped.
    pub fn context_text(&self) -> String {
        text::join_capped(&self.fragments, text::MAX_CHARS)
    }

    /// The user-facing text, capped.
    pub fn user_text(&self) -> String {
        let joined = self.user_notes.join("\n");
        text::prefix16(&joined, text::MAX_CHARS).to_string()
    }
}

/// Renders the canonical (Claude Code) envelope, or `None` for no output.
pub fn render(event: &EventSpec, outcome: &Outcome) -> Option<Value> {
    if outcome.is_empty() {
        return None;
    }
    let mut specific = Map::new();
    let mut top = Map::new();
    let context = if event.carries_context() && !outcome.fragments.is_empty() {
        Some(outcome.context_text())
    } else {
        None
    };
    let deny = outcome
        .deny
        .as_ref()
        .filter(|_| event.decision == Decision::Permission);
    if context.is_some() || deny.is_some() {
        specific.insert("hookEventName".into(), json!(event.name));
    }
    if let Some(reason) = deny {
        specific.insert("permissionDecision".into(), json!("deny"));
        specific.insert(
            "permissionDecisionReason".into(),
            json!(text::prefix16(reason, text::MAX_CHARS)),
        );
    }
    if let Some(c) = context.filter(|c| !c.is_empty()) {
        specific.insert("additionalContext".into(), json!(c));
    }
    if !specific.is_empty() {
        top.insert("hookSpecificOutput".into(), Value::Object(specific));
    }
    // systemMessage is for the user only; it is safe on any event that reads
    // JSON output at all, but not on events with no channel, where Claude Code
    // validates strictly (PreCompact, PostCompact, SessionEnd).
    if !outcome.user_notes.is_empty() && event.carries_context() {
        top.insert("systemMessage".into(), json!(outcome.user_text()));
    }
    if top.is_empty() {
        None
    } else {
        Some(Value::Object(top))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::lookup;

    fn outcome(text: &str) -> Outcome {
        Outcome {
            fragments: vec![Fragment {
                card: "c".into(),
                text: text.into(),
                pointer: None,
            }],
            ..Outcome::default()
        }
    }

    #[test]
    fn context_rides_in_hook_specific_output_named_after_the_event() {
        let v = render(lookup("PostToolUse").unwrap(), &outcome("hi")).unwrap();
        assert_eq!(
            serde_json::to_string(&v).unwrap(),
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"hi"}}"#
        );
    }

    #[test]
    fn events_without_a_channel_get_nothing() {
        for name in [
            "PreCompact",
            "PostCompact",
            "SessionEnd",
            "Notification",
            "PermissionRequest",
        ] {
            assert_eq!(
                render(lookup(name).unwrap(), &outcome("hi")),
                None,
                "{name}"
            );
        }
    }

    #[test]
    fn deny_only_where_a_permission_decision_is_honoured() {
        let mut o = outcome("x");
        o.deny = Some("two (Recommended) options".into());
        let v = render(lookup("PreToolUse").unwrap(), &o).unwrap();
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "deny");
        let v = render(lookup("PostToolUse").unwrap(), &o).unwrap();
        assert!(v["hookSpecificOutput"].get("permissionDecision").is_none());
    }
}
