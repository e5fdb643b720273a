//! Reading the hook payload: stdin once, with a size bound, into a lenient
//! view of the fields cuecard reads.
//!
//! Anything unusable (a TTY, nothing, garbage, a JSON value that is not an
//! object, a payload over the bound) becomes "no usable payload" with a reason
//! that the failure record keeps; it never stops the call from being answered.

use serde_json::{Map, Value};
use std::io::{IsTerminal, Read};

/// Payloads above this many bytes are not parsed. Claude Code's largest
/// realistic payloads (a PostToolUse for a big Read or Edit) stay well under
/// it; keeping it small keeps peak memory flat whatever is piped in.
pub const MAX_PAYLOAD_BYTES: usize = 4 * 1024 * 1024;

/// Why there is no usable payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unusable {
    Tty,
    Empty,
    TooLarge,
    ReadError,
    InvalidJson,
    NotAnObject,
}

impl Unusable {
    pub fn describe(&self) -> &'static str {
        match self {
            Unusable::Tty => "stdin is a terminal (no payload)",
            Unusable::Empty => "stdin was empty",
            Unusable::TooLarge => "payload over the size bound (not parsed)",
            Unusable::ReadError => "stdin could not be read",
            Unusable::InvalidJson => "payload is not valid JSON (or not UTF-8)",
            Unusable::NotAnObject => "payload is JSON but not an object",
        }
    }
}

/// Reads stdin once, never more than `limit + 1` bytes.
pub fn read_stdin(limit: usize) -> Result<Vec<u8>, Unusable> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Err(Unusable::Tty);
    }
    read_bounded(stdin.lock(), limit)
}

/// Reads at most `limit + 1` bytes from `r`; more than `limit` is TooLarge.
pub fn read_bounded(r: impl Read, limit: usize) -> Result<Vec<u8>, Unusable> {
    match crate::fsutil::read_capped(r, limit as u64) {
        Ok((_, false)) => Err(Unusable::TooLarge),
        Ok((buf, _)) if buf.iter().all(u8::is_ascii_whitespace) => Err(Unusable::Empty),
        Ok((buf, _)) => Ok(buf),
        Err(_) => Err(Unusable::ReadError),
    }
}

/// Parses bytes into the payload object. serde_json refuses nesting deeper
/// than 128 levels, so hostile depth cannot overflow the stack.
///
/// A lone surrogate escape (`"\ud800"`, which `JSON.stringify` writes for
/// a lone surrogate in a JavaScript string) is valid JSON text that
/// serde_json refuses; such a payload is read with each lone surrogate as
/// U+FFFD, so that it is judged like any other.
pub fn parse(bytes: &[u8]) -> Result<Payload, Unusable> {
    let value = match serde_json::from_slice::<Value>(bytes) {
        Err(_) => match lone_surrogates_replaced(bytes) {
            Some(fixed) => serde_json::from_slice::<Value>(&fixed),
            None => return Err(Unusable::InvalidJson),
        },
        v => v,
    };
    match value {
        Ok(Value::Object(map)) => Ok(Payload { raw: map }),
        Ok(_) => Err(Unusable::NotAnObject),
        Err(_) => Err(Unusable::InvalidJson),
    }
}

/// `bytes` with every `\uXXXX` escape of a surrogate that is not half of
/// a pair (inside a JSON string) replaced by `\uFFFD` (same length); `None`
/// when there is none. One pass.
fn lone_surrogates_replaced(bytes: &[u8]) -> Option<Vec<u8>> {
    let hex = |at: usize| -> Option<u16> {
        let s = std::str::from_utf8(bytes.get(at..at + 4)?).ok()?;
        u16::from_str_radix(s, 16).ok()
    };
    let escape_at = |at: usize| -> Option<u16> {
        (bytes.get(at) == Some(&b'\\') && bytes.get(at + 1) == Some(&b'u'))
            .then(|| hex(at + 2))
            .flatten()
    };
    let mut out: Option<Vec<u8>> = None;
    let (mut i, mut in_string) = (0, false);
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                in_string = !in_string;
                i += 1;
            }
            b'\\' if in_string => match escape_at(i) {
                Some(hi @ 0xD800..=0xDBFF) if matches!(escape_at(i + 6), Some(0xDC00..=0xDFFF)) => {
                    let _ = hi;
                    i += 12;
                }
                Some(0xD800..=0xDFFF) => {
                    let o = out.get_or_insert_with(|| bytes.to_vec());
                    o[i..i + 6].copy_from_slice(b"\\uFFFD");
                    i += 6;
                }
                // Any other escape: its backslash and the next byte.
                _ => i += 2,
            },
            _ => i += 1,
        }
    }
    out
}

/// A lenient view of a hook payload in the canonical (Claude Code) shape.
/// Every accessor returns `None` for a missing field or one of the wrong type.
#[derive(Debug, Clone, Default)]
pub struct Payload {
    pub raw: Map<String, Value>,
}

impl Payload {
    pub fn from_map(raw: Map<String, Value>) -> Self {
        Payload { raw }
    }

    pub fn str_field(&self, key: &str) -> Option<&str> {
        self.raw.get(key).and_then(Value::as_str)
    }

    pub fn session_id(&self) -> Option<&str> {
        self.str_field("session_id")
    }
    pub fn cwd(&self) -> Option<&str> {
        self.str_field("cwd").filter(|s| !s.is_empty())
    }
    pub fn transcript_path(&self) -> Option<&str> {
        self.str_field("transcript_path").filter(|s| !s.is_empty())
    }
    /// Where the harness keeps the last call's usage when its transcript
    /// does not (Factory Droid's session settings; set by its contract).
    pub fn usage_file(&self) -> Option<&str> {
        self.str_field("usage_file").filter(|s| !s.is_empty())
    }
    /// Where the harness states its model's window when its usage does
    /// not (`model_config`: `{"format": "codebuddy"|"factory", "files":
    /// [...]}`, in precedence order; set by CodeBuddy Code's and Factory
    /// Droid's contracts).
    pub fn model_config(&self) -> Option<(&str, Vec<&str>)> {
        let c = self.raw.get("model_config")?;
        let files = c
            .get("files")?
            .as_array()?
            .iter()
            .filter_map(Value::as_str)
            .filter(|s| !s.is_empty())
            .take(4)
            .collect();
        Some((c.get("format")?.as_str()?, files))
    }
    pub fn hook_event_name(&self) -> Option<&str> {
        self.str_field("hook_event_name")
    }
    pub fn tool_name(&self) -> Option<&str> {
        self.str_field("tool_name")
    }
    /// `tool_input` when it is an object.
    pub fn tool_input(&self) -> Option<&Map<String, Value>> {
        self.raw.get("tool_input").and_then(Value::as_object)
    }
    /// A string field of `tool_input`.
    pub fn input_str(&self, key: &str) -> Option<&str> {
        self.tool_input()?.get(key)?.as_str()
    }
    pub fn tool_response(&self) -> Option<&Value> {
        self.raw.get("tool_response")
    }
    /// SessionStart's `source`: startup, resume, clear, compact, fork.
    pub fn source(&self) -> Option<&str> {
        self.str_field("source")
    }
    pub fn prompt(&self) -> Option<&str> {
        self.str_field("prompt")
    }
    pub fn model(&self) -> Option<&str> {
        self.str_field("model")
    }
    /// `stop_hook_active`: true only when it is the JSON value `true`.
    pub fn stop_hook_active(&self) -> bool {
        self.raw.get("stop_hook_active").and_then(Value::as_bool) == Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bound_is_enforced_without_reading_everything() {
        let big = std::io::repeat(b'a').take(10_000);
        assert_eq!(read_bounded(big, 100), Err(Unusable::TooLarge));
        assert_eq!(read_bounded(&b"  \n"[..], 100), Err(Unusable::Empty));
        assert_eq!(read_bounded(&b"{}"[..], 2), Ok(b"{}".to_vec()));
    }

    #[test]
    fn parse_rejects_non_objects_and_garbage() {
        assert_eq!(parse(b"[]").unwrap_err(), Unusable::NotAnObject);
        assert_eq!(parse(b"\"x\"").unwrap_err(), Unusable::NotAnObject);
        assert_eq!(parse(b"{").unwrap_err(), Unusable::InvalidJson);
        assert_eq!(
            parse(b"{\"a\":\"\xff\"}").unwrap_err(),
            Unusable::InvalidJson
        );
        let deep = "[".repeat(100_000);
        assert_eq!(parse(deep.as_bytes()).unwrap_err(), Unusable::InvalidJson);
    }

    #[test]
    fn lone_surrogates_read_as_replacement_characters() {
        let p =
            parse(br#"{"tool_input":{"command":"rm -rf ~ # \ud800 \udc00x \\ud800"}}"#).unwrap();
        assert_eq!(
            p.input_str("command"),
            Some("rm -rf ~ # \u{fffd} \u{fffd}x \\ud800")
        );
        // A pair stays a pair.
        let p = parse(br#"{"a":"\ud83d\ude00"}"#).unwrap();
        assert_eq!(p.str_field("a"), Some("\u{1f600}"));
        assert_eq!(
            parse(br#"{"a":"\ud800"#).unwrap_err(),
            Unusable::InvalidJson
        );
    }

    #[test]
    fn wrong_types_read_as_absent() {
        let p = parse(br#"{"session_id":5,"cwd":[],"tool_input":"x","stop_hook_active":"true"}"#)
            .unwrap();
        assert_eq!(p.session_id(), None);
        assert_eq!(p.cwd(), None);
        assert!(p.tool_input().is_none());
        assert!(!p.stop_hook_active());
    }
}
