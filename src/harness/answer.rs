//! The one layout of an answer: the typed outcome of a call
//! ([`crate::envelope::Said`]: the context, the decision and the user's
//! line, capped) laid out, once, as Claude Code's envelope or as a
//! harness reads it on one native event. Each row of a harness's table
//! names its [`Shape`] and its decision field ([`Decides`]) as data;
//! [`render`] reads them. It never adds text.

use super::{Decides, Delivery, EventRow};
use crate::envelope::Said;
use serde_json::{Map, Value, json};

/// How a harness reads the answer on one native event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// Claude Code's envelope (`hookSpecificOutput.{hookEventName,
    /// additionalContext}`), with `hookEventName` set to the native name.
    Envelope,
    /// The envelope under a strict schema with no extra properties: `top`
    /// at the top level, `inner` inside `hookSpecificOutput` (none: the
    /// object goes).
    Strict {
        top: &'static [&'static str],
        inner: &'static [&'static str],
    },
    /// A flat object: the context under `field`; `decision` says the row
    /// also takes the permission decision (as top-level
    /// `permissionDecision` / `permissionDecisionReason`, placed by the
    /// row's [`Decides::Flat`]).
    Flat { field: &'static str, decision: bool },
    /// The context alone, as plain text on stdout.
    PlainText,
    /// Antigravity CLI's `injectSteps`: the context as one step,
    /// `{"injectSteps": [{"ephemeralMessage": <context>}]}`, and nothing
    /// else (its output is read as a protobuf message: a key it does not
    /// know may cost the whole answer).
    Steps,
}

impl Shape {
    /// A word or two for the capability table's row of one native event.
    pub fn label(self) -> String {
        match self {
            Shape::Envelope => "envelope".into(),
            Shape::Strict { .. } => "strict envelope".into(),
            Shape::Flat { field, decision } => {
                format!("`{field}`{}", if decision { " + decision" } else { "" })
            }
            Shape::PlainText => "plain text".into(),
            Shape::Steps => "`injectSteps`".into(),
        }
    }

    /// One phrase for the capability table.
    pub fn describe(self) -> String {
        match self {
            Shape::Envelope => "`hookSpecificOutput.additionalContext` + `hookEventName`".into(),
            Shape::Strict { top, inner } => format!(
                "strict schema: top level {}; `hookSpecificOutput` {}",
                keys(top),
                keys(inner)
            ),
            Shape::Flat { field, decision } => format!(
                "top-level `{field}`{}",
                if decision {
                    " + `permissionDecision`"
                } else {
                    ""
                }
            ),
            Shape::PlainText => "plain text on stdout".into(),
            Shape::Steps => "`injectSteps[].ephemeralMessage`".into(),
        }
    }
}

fn keys(k: &[&str]) -> String {
    k.iter()
        .map(|k| format!("`{k}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where an answer goes: Claude Code's own envelope (no contract), or one
/// native event of a harness with where it reads a decision there.
#[derive(Debug, Clone, Copy)]
pub enum Target<'a> {
    /// Claude Code's envelope for the canonical event named.
    Canonical(&'static str),
    /// A harness's row, and its decision field (`None`: it takes none).
    Row(&'a EventRow, Option<Decides>),
}

/// The one layout: what `said` says, as `to` reads it; `None`: print
/// nothing (the row delivers nothing, or nothing is left once cut to its
/// schema). It never adds text: it places, renames or drops what the
/// typed outcome holds. Claude Code's own envelope puts the decision
/// before the context; under a contract the decision follows what the
/// row reads (the bytes each harness has always been sent).
pub fn render(to: Target, said: &Said) -> Option<Answer> {
    match to {
        Target::Canonical(event) => canonical(event, said),
        Target::Row(row, decides) => deciding(row, decides, said),
    }
}

/// Claude Code's envelope: `hookSpecificOutput` (its event's name, the
/// decision, the context) and `systemMessage`.
fn canonical(event: &str, said: &Said) -> Option<Answer> {
    let mut top = Map::new();
    if said.context.is_some() || said.decision.is_some() {
        let mut s = Map::new();
        s.insert("hookEventName".into(), json!(event));
        if let Some((level, reason)) = &said.decision {
            s.insert("permissionDecision".into(), json!(level.word()));
            s.insert("permissionDecisionReason".into(), json!(reason));
        }
        if let Some(c) = text_of(said) {
            s.insert("additionalContext".into(), json!(c));
        }
        top.insert("hookSpecificOutput".into(), Value::Object(s));
    }
    if let Some(u) = &said.user {
        top.insert("systemMessage".into(), json!(u));
    }
    (!top.is_empty()).then_some(Answer::Json(Value::Object(top)))
}

/// The model-facing text, when there is any.
fn text_of(said: &Said) -> Option<&str> {
    said.context.as_deref().filter(|c| !c.is_empty())
}

/// What `row` reads of `said`: the context and the user's line in the
/// row's shape, then the decision in the field `decides` names. Without a
/// `decides` the decision is dropped, never guessed: the finding stays
/// advice (the dispatcher does not type a decision there at all).
fn deciding(row: &EventRow, decides: Option<Decides>, said: &Said) -> Option<Answer> {
    let context = match row.delivery {
        Delivery::Context(shape) => shaped(row.native, shape, said),
        _ => None,
    };
    let (Some((level, reason)), Some(d)) = (&said.decision, decides) else {
        // A harness that wants a decision on every call gets its neutral
        // one (nothing else: context cannot travel where it decides).
        return match decides.and_then(Decides::neutral) {
            Some(v) => Some(Answer::Json(v)),
            None => context,
        };
    };
    if d == Decides::ExitCode {
        return Some(Answer::Block(reason.clone()));
    }
    let word = level.word();
    let mut out = match context {
        Some(Answer::Json(Value::Object(m))) => m,
        _ => Map::new(),
    };
    match d {
        Decides::Envelope { .. } => {
            let s = out.entry("hookSpecificOutput").or_insert_with(|| json!({}));
            if let Some(s) = s.as_object_mut() {
                s.insert("hookEventName".into(), json!(row.native));
                s.insert("permissionDecision".into(), json!(word));
                s.insert("permissionDecisionReason".into(), json!(reason));
            }
        }
        Decides::TopLevel => {
            out.insert("decision".into(), json!("deny"));
            out.insert("reason".into(), json!(reason));
        }
        Decides::Flat { .. } => {
            out.insert("permissionDecision".into(), json!(word));
            out.insert("permissionDecisionReason".into(), json!(reason));
        }
        Decides::Permission { .. } => {
            out.insert("permission".into(), json!(word));
            out.insert("user_message".into(), json!(reason));
            out.insert("agent_message".into(), json!(reason));
        }
        Decides::Verdict { neutral } => {
            // Only the decision: nothing else is read there. Never `allow`
            // (it would approve what the user did not).
            out = Map::new();
            let word = match word {
                "ask" => "force_ask",
                "deny" => "deny",
                _ => neutral,
            };
            out.insert("decision".into(), json!(word));
            out.insert("reason".into(), json!(reason));
        }
        Decides::ExitCode => unreachable!("answered above"),
    }
    Some(Answer::Json(Value::Object(out)))
}

/// The context and the user's line in `shape`, on the native event
/// `native`.
fn shaped(native: &str, shape: Shape, said: &Said) -> Option<Answer> {
    let text = text_of(said);
    match shape {
        Shape::Envelope => {
            let mut top = Map::new();
            // An envelope whose context came out empty still names its
            // event, unless a decision follows (which names it).
            if text.is_some() || said.context.is_some() && said.decision.is_none() {
                let mut s = Map::new();
                s.insert("hookEventName".into(), json!(native));
                if let Some(c) = text {
                    s.insert("additionalContext".into(), json!(c));
                }
                top.insert("hookSpecificOutput".into(), Value::Object(s));
            }
            if let Some(u) = &said.user {
                top.insert("systemMessage".into(), json!(u));
            }
            (!top.is_empty()).then_some(Answer::Json(Value::Object(top)))
        }
        Shape::Strict { top, inner } => {
            let mut out = Map::new();
            if let Some(c) = text.filter(|_| inner.contains(&"additionalContext")) {
                let mut s = Map::new();
                if inner.contains(&"hookEventName") {
                    s.insert("hookEventName".into(), json!(native));
                    s.insert("additionalContext".into(), json!(c));
                } else {
                    s.insert("additionalContext".into(), json!(c));
                    s.insert("hookEventName".into(), json!(native));
                }
                out.insert("hookSpecificOutput".into(), Value::Object(s));
            }
            if let Some(u) = said
                .user
                .as_ref()
                .filter(|_| top.contains(&"systemMessage"))
            {
                out.insert("systemMessage".into(), json!(u));
            }
            (!out.is_empty()).then_some(Answer::Json(Value::Object(out)))
        }
        Shape::Flat { field, .. } => text.map(|c| {
            let mut out = Map::new();
            out.insert(field.into(), json!(c));
            Answer::Json(Value::Object(out))
        }),
        Shape::PlainText => text.map(|c| Answer::Text(c.to_string())),
        Shape::Steps => {
            text.map(|c| Answer::Json(json!({ "injectSteps": [{ "ephemeralMessage": c }] })))
        }
    }
}

/// The neutral answer of the native event `native` of `h`, where the
/// harness wants a decision on every call ([`Decides::neutral`]): what a
/// call answers when cuecard stops before judging or has nothing to say.
pub fn neutral(h: super::HarnessId, native: &str) -> Option<String> {
    h.spec()
        .decides_on(native)
        .and_then(Decides::neutral)
        .map(|v| v.to_string())
}

/// What `dispatch` prints for one call.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// One JSON object.
    Json(Value),
    /// Plain text (Kiro reads stdout as context).
    Text(String),
    /// Nothing on stdout, the reason on stderr and exit code 2: an explicit
    /// deny on a harness whose only decision channel is the exit code.
    Block(String),
}

impl Answer {
    /// The line handed to `printer::hook_answer` (a block's is its reason,
    /// for stderr).
    pub fn line(&self) -> String {
        match self {
            Answer::Json(v) => v.to_string(),
            Answer::Text(t) | Answer::Block(t) => t.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::HarnessId;

    /// Every row that delivers has the answer shape its harness reads, and the
    /// one layout produces it from the typed answer: context under the right
    /// key, never more text; a flat row that takes a decision gets it at the
    /// top level.
    #[test]
    fn the_one_layout_follows_each_rows_shape() {
        let said = crate::envelope::Said {
            context: Some("CTX".into()),
            decision: None,
            user: Some("note".into()),
        };
        let deciding = crate::envelope::Said {
            decision: Some((crate::level::Level::Deny, "why".into())),
            ..said.clone()
        };
        for h in HarnessId::ALL {
            for r in h.spec().events {
                let decides = h.spec().decides_on(r.native);
                let out = render(Target::Row(r, decides), &said);
                let Delivery::Context(shape) = r.delivery else {
                    // Nothing, or the neutral decision where silence is
                    // no answer (Antigravity CLI's PreToolUse).
                    assert_eq!(
                        out,
                        decides.and_then(Decides::neutral).map(Answer::Json),
                        "{} {}: prints on a dropped row",
                        h.id(),
                        r.native
                    );
                    continue;
                };
                let what = format!("{} {}", h.id(), r.native);
                let out = out.unwrap_or_else(|| panic!("{what}: nothing printed"));
                match (shape, out) {
                    (Shape::PlainText, Answer::Text(t)) => assert_eq!(t, "CTX", "{what}"),
                    (Shape::Flat { field, decision }, Answer::Json(v)) => {
                        assert_eq!(v[field], "CTX", "{what}");
                        assert!(v.get("hookSpecificOutput").is_none(), "{what}");
                        let Some(Answer::Json(d)) = render(Target::Row(r, decides), &deciding)
                        else {
                            panic!("{what}: nothing printed");
                        };
                        let flat = matches!(decides, Some(Decides::Flat { .. }));
                        assert_eq!(d.get("permissionDecision").is_some(), flat, "{what}");
                        assert!(!flat || decision, "{what}: decides but its shape says not");
                    }
                    (Shape::Envelope, Answer::Json(v)) => {
                        let s = &v["hookSpecificOutput"];
                        assert_eq!(s["additionalContext"], "CTX", "{what}");
                        assert_eq!(s["hookEventName"], r.native, "{what}");
                    }
                    (Shape::Strict { top, inner }, Answer::Json(v)) => {
                        for k in v.as_object().unwrap().keys() {
                            assert!(
                                k == "hookSpecificOutput" || top.contains(&k.as_str()),
                                "{what}: {k}"
                            );
                        }
                        for k in v["hookSpecificOutput"].as_object().unwrap().keys() {
                            assert!(inner.contains(&k.as_str()), "{what}: {k}");
                        }
                        assert_eq!(
                            v["hookSpecificOutput"]["additionalContext"], "CTX",
                            "{what}"
                        );
                    }
                    (Shape::Steps, Answer::Json(v)) => assert_eq!(
                        v,
                        serde_json::json!({"injectSteps": [{"ephemeralMessage": "CTX"}]}),
                        "{what}"
                    ),
                    (s, a) => panic!("{what}: {s:?} printed {a:?}"),
                }
            }
        }
    }

    /// Claude Code's own envelope, byte for byte: the decision before the
    /// context; under a contract the decision follows what the row reads.
    #[test]
    fn claude_codes_envelope_and_a_contracts_keep_their_bytes() {
        let said = crate::envelope::Said {
            context: Some("hi".into()),
            decision: Some((crate::level::Level::Ask, "why".into())),
            user: None,
        };
        assert_eq!(
            render(Target::Canonical("PreToolUse"), &said)
                .unwrap()
                .line(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"why","additionalContext":"hi"}}"#
        );
        let spec = HarnessId::ClaudeCode.spec();
        let row = spec.row("PreToolUse").unwrap();
        assert_eq!(
            render(Target::Row(row, spec.decides_on("PreToolUse")), &said)
                .unwrap()
                .line(),
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"hi","permissionDecision":"ask","permissionDecisionReason":"why"}}"#
        );
    }
}
