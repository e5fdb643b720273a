//! One audit record as one line of OTLP/JSON: a `LogsData` object (the
//! OpenTelemetry file exporter's line, the same JSON as an OTLP/HTTP
//! `ExportLogsServiceRequest`) holding one resource, one scope and one log
//! record (docs/audit.md lists every attribute).
//!
//! Nothing of a payload's text goes into a record: no command, no file
//! content, no reason text (a card's advisory quotes the command it
//! judged). Only names cuecard owns (events, cards, finding ids, policy
//! lines, failure kinds), the tool's name, the session and tool-call ids,
//! and counts.

use serde_json::{Value, json};

/// The call a record is about.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Call {
    /// The harness id (`claude-code` without `--contract`).
    pub harness: String,
    /// The canonical hook event (`PreToolUse`), or `?`.
    pub event: String,
    /// The harness's session id, as it gave it (sanitised).
    pub session: Option<String>,
    /// The tool's name (sanitised), on a tool event.
    pub tool: Option<String>,
    /// The harness's id of the tool call, where it gives one.
    pub tool_call: Option<String>,
}

/// What a record says happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Entry {
    /// An ask or deny sent to the harness: the level (`ask`, `deny`), the
    /// finding ids that decided, and the policy line each came from.
    Decision {
        outcome: String,
        ids: Vec<String>,
        policy: Vec<String>,
    },
    /// A card's text added to the model's context: the card, how the
    /// ledger counts it (`card`, `reminder`, `warning`), its size.
    Injection {
        card: String,
        kind: String,
        chars: u64,
        tokens: u64,
    },
    /// A failure the hook recorded (it failed open): its kind and detail
    /// (never payload contents: see `diag`).
    Failure { kind: String, detail: String },
}

impl Entry {
    /// The log record's event name.
    pub fn name(&self) -> &'static str {
        match self {
            Entry::Decision { .. } => "cuecard.decision",
            Entry::Injection { .. } => "cuecard.injection",
            Entry::Failure { .. } => "cuecard.failure",
        }
    }
}

/// The chain fields of a record: its sequence number (from 1, never
/// reused) and the SHA-256 of the line before it (hex; 64 zeros for the
/// first record).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    pub seq: u64,
    pub prev: String,
}

/// The `prev` of the first record.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

fn s(key: &str, v: &str) -> Value {
    json!({"key": key, "value": {"stringValue": v}})
}

fn i(key: &str, v: u64) -> Value {
    // OTLP/JSON writes 64-bit integers as decimal strings.
    json!({"key": key, "value": {"intValue": v.to_string()}})
}

fn list(key: &str, v: &[String]) -> Value {
    let values: Vec<Value> = v.iter().map(|x| json!({"stringValue": x})).collect();
    json!({"key": key, "value": {"arrayValue": {"values": values}}})
}

/// The record's line (no newline). `time_ns`: when it happened;
/// `observed_ns`: when it was written.
pub fn line(
    call: &Call,
    entry: &Entry,
    time_ns: u128,
    observed_ns: u128,
    host: &str,
    link: &Link,
) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let resource = vec![
        s("service.name", "cuecard"),
        s("service.version", version),
        s("host.name", host),
        s("cuecard.harness", &call.harness),
    ];
    let mut attrs = Vec::new();
    if let Some(id) = &call.session {
        attrs.push(s("gen_ai.conversation.id", id));
    }
    if let Some(t) = &call.tool {
        attrs.push(s("gen_ai.operation.name", "execute_tool"));
        attrs.push(s("gen_ai.tool.name", t));
    }
    if let Some(id) = &call.tool_call {
        attrs.push(s("gen_ai.tool.call.id", id));
    }
    attrs.push(s("cuecard.event", &call.event));
    let (severity, text, body) = match entry {
        Entry::Decision {
            outcome,
            ids,
            policy,
        } => {
            attrs.push(s("cuecard.outcome", outcome));
            attrs.push(list("cuecard.finding.ids", ids));
            attrs.push(list("cuecard.policy", policy));
            let (n, t) = if outcome == "deny" {
                (13, "WARN")
            } else {
                (10, "INFO2")
            };
            (n, t, format!("{outcome}: {}", ids.join(", ")))
        }
        Entry::Injection {
            card,
            kind,
            chars,
            tokens,
        } => {
            attrs.push(s("cuecard.outcome", "injected"));
            attrs.push(s("cuecard.card", card));
            attrs.push(s("cuecard.injection.kind", kind));
            attrs.push(i("cuecard.injection.chars", *chars));
            attrs.push(i("cuecard.injection.tokens", *tokens));
            (
                9,
                "INFO",
                format!("{kind} {card} added to the context ({chars} characters)"),
            )
        }
        Entry::Failure { kind, detail } => {
            attrs.push(s("cuecard.outcome", "failed-open"));
            attrs.push(s("error.type", kind));
            attrs.push(s("cuecard.failure.detail", detail));
            (13, "WARN", format!("failure {kind}: {detail}"))
        }
    };
    attrs.push(i("cuecard.audit.seq", link.seq));
    attrs.push(s("cuecard.audit.prev", &link.prev));
    let record = json!({
        "timeUnixNano": time_ns.to_string(),
        "observedTimeUnixNano": observed_ns.to_string(),
        "severityNumber": severity,
        "severityText": text,
        "eventName": entry.name(),
        "body": {"stringValue": body},
        "attributes": attrs,
    });
    json!({"resourceLogs": [{
        "resource": {"attributes": resource},
        "scopeLogs": [{
            "scope": {"name": "cuecard", "version": version},
            "logRecords": [record],
        }],
    }]})
    .to_string()
}

/// The chain fields of a line written by [`line()`]: `None` for a line that
/// is not such a record.
pub fn link_of(line: &str) -> Option<Link> {
    let v: Value = serde_json::from_str(line).ok()?;
    let attrs = v
        .pointer("/resourceLogs/0/scopeLogs/0/logRecords/0/attributes")?
        .as_array()?;
    let get = |k: &str| {
        attrs
            .iter()
            .find(|a| a.get("key").and_then(Value::as_str) == Some(k))
            .and_then(|a| a.get("value"))
    };
    let seq = get("cuecard.audit.seq")?
        .get("intValue")?
        .as_str()?
        .parse()
        .ok()?;
    let prev = get("cuecard.audit.prev")?
        .get("stringValue")?
        .as_str()?
        .to_string();
    Some(Link { seq, prev })
}

/// The SHA-256 of a line (without its newline), hex.
pub fn digest(line: &[u8]) -> String {
    use sha2::Digest;
    let d = sha2::Sha256::digest(line);
    let mut out = String::with_capacity(64);
    for b in d {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// This machine's host name (`uname`'s node name), or `unknown`.
pub fn host_name() -> String {
    #[cfg(unix)]
    {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is valid for its length; gethostname writes at
        // most that many bytes.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        if r == 0 {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            let name = String::from_utf8_lossy(&buf[..end]);
            if !name.is_empty() {
                return crate::text::sanitize(&name, 128);
            }
        }
    }
    "unknown".into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_carries_its_link() {
        let call = Call {
            harness: "codex".into(),
            event: "PreToolUse".into(),
            session: Some("s1".into()),
            tool: Some("Bash".into()),
            tool_call: None,
        };
        let link = Link {
            seq: 7,
            prev: GENESIS.into(),
        };
        let e = Entry::Failure {
            kind: "deadline".into(),
            detail: "late".into(),
        };
        let l = line(&call, &e, 1, 2, "h", &link);
        assert!(!l.contains('\n'));
        assert_eq!(link_of(&l), Some(link));
        assert_eq!(digest(b"").len(), 64);
    }
}
