//! What a call says: the cards' [`Outcome`] and its [`Ruling`], and the
//! one place where an outcome becomes what an answer says on each channel
//! ([`said`]: the context, the decision, the user's line, capped). It reads
//! the event table, so it cannot put context on an event whose channel
//! does not carry it. The typed [`Said`] is laid out once, as Claude
//! Code's envelope or as a harness reads it, by `harness::render` (from
//! the harness's table); nothing is rendered into JSON and read back.

use crate::event::{Decision, EventSpec};
use crate::level::Level;
use crate::text::{self, Fragment};

/// What the cards of one call produced, before rendering.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Model-facing fragments, in emission order, without duplicates.
    pub fragments: Vec<Fragment>,
    /// Short user-facing lines (`systemMessage`); never read by a model.
    pub user_notes: Vec<String>,
    /// A decision for the call: a finding under an `ask` or `deny` policy
    /// (or the AskUserQuestion guard's strict mode). Rendered only where
    /// the event's decision mechanism is a permission decision.
    pub ruling: Option<Ruling>,
}

/// A decision and why: the filled advisories of the findings under a
/// policy, so the model learns why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ruling {
    /// `Ask` or `Deny` (never `Advise`).
    pub level: Level,
    pub reason: String,
    /// The policy ids that decided, with where each line came from.
    pub by: Vec<(String, String)>,
}

/// What every reason of a policy decision starts with, so that a person
/// (and the e2e) can tell a deny cuecard meant from a failed hook.
pub const POLICY_MARK: &str = "cuecard policy";

impl Ruling {
    /// The level and reason as sent to a harness (`harness`, its product
    /// name): with `cannot_ask`, an ask goes as a deny whose reason says a
    /// person must run the call. The reason names each policy line that
    /// decided, then the filled advisories.
    pub fn rendered(&self, harness: &str, cannot_ask: bool) -> (Level, String) {
        let lines: Vec<String> = self
            .by
            .iter()
            .filter(|(_, from)| from != "CUECARD_STRICT")
            .map(|(id, from)| format!("`{id}` ({from})"))
            .collect();
        if lines.is_empty() {
            return (self.level, self.reason.clone());
        }
        let (level, head) = match self.level {
            Level::Ask if cannot_ask => (
                Level::Deny,
                format!(
                    "{POLICY_MARK}: ask for {}; {harness} cannot ask here, so the call is not run: a person must run it.",
                    lines.join(", ")
                ),
            ),
            Level::Ask => (
                Level::Ask,
                format!(
                    "{POLICY_MARK}: ask for {}: a person confirms this call.",
                    lines.join(", ")
                ),
            ),
            _ => (
                Level::Deny,
                format!(
                    "{POLICY_MARK}: deny for {}: the call is not run.",
                    lines.join(", ")
                ),
            ),
        };
        (level, format!("{head}\n\n{}", self.reason))
    }

    /// Adds a finding's decision: the stricter level wins; the reasons of
    /// both are kept, the stricter first.
    pub fn merge(this: &mut Option<Ruling>, level: Level, reason: String, by: (String, String)) {
        match this {
            None => {
                *this = Some(Ruling {
                    level,
                    reason,
                    by: vec![by],
                })
            }
            Some(r) => {
                if !r.reason.contains(&reason) {
                    r.reason = if level > r.level {
                        format!("{reason}\n\n{}", r.reason)
                    } else {
                        format!("{}\n\n{reason}", r.reason)
                    };
                }
                r.level = r.level.max(level);
                r.by.push(by);
            }
        }
    }
}

impl Outcome {
    pub fn is_empty(&self) -> bool {
        self.fragments.is_empty() && self.user_notes.is_empty() && self.ruling.is_none()
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

/// What one answer says, channel by channel, on one event: the typed
/// outcome each harness's answer is laid out from.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Said {
    /// The model-facing text, capped. `Some("")` when the fragments' text
    /// came out empty: Claude Code's envelope still names its event then.
    pub context: Option<String>,
    /// The permission decision (`Ask` or `Deny`) and its reason, capped.
    pub decision: Option<(Level, String)>,
    /// The user-facing line (`systemMessage`), capped; never read by a
    /// model.
    pub user: Option<String>,
}

/// What `outcome` says on `event`'s channels, or `None` for no output.
pub fn said(event: &EventSpec, outcome: &Outcome) -> Option<Said> {
    if outcome.is_empty() {
        return None;
    }
    let context =
        (event.carries_context() && !outcome.fragments.is_empty()).then(|| outcome.context_text());
    // A decision travels only through the event's decision mechanism.
    let decision = outcome
        .ruling
        .as_ref()
        .filter(|r| r.level.decides() && event.decision == Decision::Permission)
        .map(|r| {
            (
                r.level,
                text::prefix16(&r.reason, text::MAX_CHARS).to_string(),
            )
        });
    // The user's line is safe on any event that reads output at all, but
    // not on events with no channel, where Claude Code validates strictly
    // (PreCompact, PostCompact, SessionEnd).
    let user =
        (!outcome.user_notes.is_empty() && event.carries_context()).then(|| outcome.user_text());
    let said = Said {
        context,
        decision,
        user,
    };
    (said != Said::default()).then_some(said)
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
    fn context_is_said_on_an_event_that_carries_it() {
        assert_eq!(
            said(lookup("PostToolUse").unwrap(), &outcome("hi")),
            Some(Said {
                context: Some("hi".into()),
                ..Said::default()
            })
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
            assert_eq!(said(lookup(name).unwrap(), &outcome("hi")), None, "{name}");
        }
    }

    #[test]
    fn deny_only_where_a_permission_decision_is_honoured() {
        let mut o = outcome("x");
        o.ruling = Some(Ruling {
            level: Level::Deny,
            reason: "two (Recommended) options".into(),
            by: Vec::new(),
        });
        let level = |event: &str, o: &Outcome| {
            said(lookup(event).unwrap(), o).and_then(|s| s.decision.map(|(l, _)| l))
        };
        assert_eq!(level("PreToolUse", &o), Some(Level::Deny));
        assert_eq!(level("PostToolUse", &o), None);
        o.ruling.as_mut().unwrap().level = Level::Ask;
        assert_eq!(level("PreToolUse", &o), Some(Level::Ask));
    }

    #[test]
    fn the_stricter_ruling_wins_and_both_reasons_stay() {
        let mut r = None;
        Ruling::merge(&mut r, Level::Ask, "a".into(), ("x".into(), "u".into()));
        Ruling::merge(&mut r, Level::Deny, "d".into(), ("y".into(), "e".into()));
        let r = r.unwrap();
        assert_eq!(r.level, Level::Deny);
        assert_eq!(r.reason, "d\n\na");
        assert_eq!(r.by.len(), 2);
    }
}
