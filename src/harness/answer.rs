//! Reshaping the canonical envelope (built by [`crate::envelope::render`],
//! the one renderer) into what a harness reads. Each row of a harness's
//! table names its [`Shape`] as data; [`reshape`] is the one reshaper. It
//! never adds text: it moves, renames or drops what the renderer produced.

use super::{Decides, Delivery, EventRow};
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
    /// A flat object: the context under `field`, and, with `decision`, the
    /// permission decision as top-level `permissionDecision` /
    /// `permissionDecisionReason`.
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

/// The canonical envelope `v` as `row` reads it; `None`: print nothing (the
/// row delivers nothing, or nothing is left once cut to its schema).
pub fn reshape(row: &EventRow, v: Value) -> Option<Answer> {
    let Delivery::Context(shape) = row.delivery else {
        return None;
    };
    match shape {
        Shape::Envelope => envelope(row, v),
        Shape::Strict { top, inner } => strict(row, v, top, inner),
        Shape::Flat { field, decision } => flat(&v, field, decision),
        Shape::PlainText => plain(&v),
        Shape::Steps => steps(&v),
    }
}

/// The canonical envelope `v` as `row` reads it, with the decision it
/// carries (if any) moved into the field `decides` names. Without a
/// `decides` the decision is dropped, never guessed: the finding stays
/// advice (the dispatcher does not render a decision there at all).
pub fn reshape_deciding(row: &EventRow, decides: Option<Decides>, mut v: Value) -> Option<Answer> {
    let ruling = take_decision(&mut v);
    let empty = v.as_object().is_some_and(Map::is_empty);
    let context = if empty { None } else { reshape(row, v) };
    let (Some((word, reason)), Some(d)) = (ruling, decides) else {
        // A harness that wants a decision on every call gets its neutral
        // one (nothing else: context cannot travel where it decides).
        return match decides.and_then(Decides::neutral) {
            Some(v) => Some(Answer::Json(v)),
            None => context,
        };
    };
    if d == Decides::ExitCode {
        return Some(Answer::Block(reason));
    }
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
            let word = match word.as_str() {
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

/// Takes the permission decision (its word and reason) out of a canonical
/// envelope; a `hookSpecificOutput` left with only its event name goes.
fn take_decision(v: &mut Value) -> Option<(String, String)> {
    let top = v.as_object_mut()?;
    let s = top.get_mut("hookSpecificOutput")?.as_object_mut()?;
    let word = s.remove("permissionDecision")?;
    let reason = s.remove("permissionDecisionReason");
    if s.keys().all(|k| k == "hookEventName") {
        top.remove("hookSpecificOutput");
    }
    Some((
        word.as_str()?.to_string(),
        reason
            .as_ref()
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
    ))
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

/// The model-facing text of a canonical envelope.
pub fn context(v: &Value) -> Option<&str> {
    v.get("hookSpecificOutput")?
        .get("additionalContext")?
        .as_str()
        .filter(|s| !s.is_empty())
}

fn specific(v: &Value, key: &str) -> Option<Value> {
    v.get("hookSpecificOutput")?.get(key).cloned()
}

/// Claude Code's envelope, with `hookEventName` set to the native event name
/// (the same name for Claude-compatible harnesses; Gemini's own names).
fn envelope(row: &EventRow, mut v: Value) -> Option<Answer> {
    if let Some(s) = v
        .get_mut("hookSpecificOutput")
        .and_then(Value::as_object_mut)
        && s.contains_key("hookEventName")
    {
        s.insert("hookEventName".into(), json!(row.native));
    }
    Some(Answer::Json(v))
}

/// The envelope cut down to the keys a strict schema allows: `top` at the
/// top level, `inner` inside `hookSpecificOutput` (none: the object goes).
fn strict(row: &EventRow, v: Value, top: &[&str], inner: &[&str]) -> Option<Answer> {
    let Value::Object(obj) = v else { return None };
    let mut out = Map::new();
    for (k, val) in obj {
        if k == "hookSpecificOutput" {
            let Value::Object(s) = val else { continue };
            let kept: Map<String, Value> = s
                .into_iter()
                .filter(|(k, _)| inner.contains(&k.as_str()))
                .collect();
            if kept.keys().any(|k| k != "hookEventName") {
                let mut kept = kept;
                kept.insert("hookEventName".into(), json!(row.native));
                out.insert(k, Value::Object(kept));
            }
        } else if top.contains(&k.as_str()) {
            out.insert(k, val);
        }
    }
    (!out.is_empty()).then_some(Answer::Json(Value::Object(out)))
}

/// A flat object: the context under `field` at the top level, and, when
/// `decision` is set and the canonical envelope denies, the permission
/// decision as top-level `permissionDecision` / `permissionDecisionReason`.
fn flat(v: &Value, field: &str, decision: bool) -> Option<Answer> {
    let mut out = Map::new();
    if decision && let Some(d) = specific(v, "permissionDecision") {
        out.insert("permissionDecision".into(), d);
        if let Some(r) = specific(v, "permissionDecisionReason") {
            out.insert("permissionDecisionReason".into(), r);
        }
    }
    if let Some(c) = context(v) {
        out.insert(field.into(), json!(c));
    }
    (!out.is_empty()).then_some(Answer::Json(Value::Object(out)))
}

/// The context as one injected step (Antigravity CLI).
fn steps(v: &Value) -> Option<Answer> {
    context(v).map(|c| Answer::Json(json!({ "injectSteps": [{ "ephemeralMessage": c }] })))
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

/// The context alone, as plain text.
fn plain(v: &Value) -> Option<Answer> {
    context(v).map(|c| Answer::Text(c.to_string()))
}
