//! Session ids become file names through a strict sanitiser.
//!
//! A well-formed id (`[A-Za-z0-9._-]`, 1..=128 characters, no leading dot)
//! keeps its name, prefixed `s-`. Anything else a payload sends as an id (a
//! traversal, whitespace, a number, an object) is hashed and prefixed `h-`, so
//! it never escapes the root and never shares a key with a real session. With
//! no id at all, the key is derived from the transcript path when there is one
//! (stable across the calls of one session), else one shared `n-anon` key per
//! project: never the parent pid, since harnesses start a new shell per hook.

use serde_json::Value;
use std::path::Path;

/// The longest session id kept verbatim.
pub const MAX_ID_LEN: usize = 128;

/// Where one session's state lives, and how to show it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionKey {
    /// The file stem: `<session part>@<project hash>`.
    pub file: String,
    /// The session part alone (`s-…`, `h-…`, `n-…`).
    pub session: String,
    /// A printable form of the id for `cuecard status`.
    pub display: String,
}

/// Whether `id` is kept verbatim.
pub fn is_clean(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID_LEN
        && !id.starts_with('.')
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// The session part of a key: a session the payload names (kept, `s-…`, or
/// hashed, `h-…`), or, with no id, an anonymous one (`n-…`) that two
/// sessions may share.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionPart {
    Named(String),
    Anonymous(String),
}

impl SessionPart {
    /// The file-name form.
    pub fn as_str(&self) -> &str {
        match self {
            SessionPart::Named(s) | SessionPart::Anonymous(s) => s,
        }
    }

    /// Whether the payload named no session.
    pub fn is_anonymous(&self) -> bool {
        matches!(self, SessionPart::Anonymous(_))
    }
}

/// The session part of a key, from the payload's raw `session_id` value and
/// (for the fallback) its transcript path, with a printable form.
pub fn session_part(raw: Option<&Value>, transcript: Option<&str>) -> (SessionPart, String) {
    match raw {
        Some(Value::String(s)) if is_clean(s) => (SessionPart::Named(format!("s-{s}")), s.clone()),
        Some(Value::String(s)) if !s.trim().is_empty() => (
            SessionPart::Named(format!("h-{}", digest(&format!("str:{s}")))),
            format!("(unsafe id) {}", crate::text::sanitize(s, 40)),
        ),
        Some(v) if !v.is_null() && !matches!(v, Value::String(_)) => {
            let shown = crate::text::sanitize(&v.to_string(), 40);
            (
                SessionPart::Named(format!("h-{}", digest(&format!("json:{v}")))),
                format!("(non-string id) {shown}"),
            )
        }
        _ => match transcript.filter(|t| !t.is_empty()) {
            Some(t) => (
                SessionPart::Anonymous(format!("n-{}", digest(&format!("transcript:{t}")))),
                "(no id; keyed by transcript)".into(),
            ),
            None => (SessionPart::Anonymous("n-anon".into()), "(no id)".into()),
        },
    }
}

/// The full key: session part scoped to the project root.
pub fn session_key(raw: Option<&Value>, transcript: Option<&str>, project: &Path) -> SessionKey {
    let (part, display) = session_part(raw, transcript);
    let session = part.as_str().to_string();
    let proj = digest(&project.to_string_lossy());
    SessionKey {
        file: format!("{session}@{}", &proj[..12]),
        session,
        display,
    }
}

/// A file-name-safe form of an arbitrary marker key.
pub fn marker_name(key: &str) -> String {
    if is_clean(key) {
        format!("s-{key}")
    } else {
        format!("h-{}", digest(key))
    }
}

/// A once-per-session key: a note, a guard's, or a card's `once: session`.
/// Spent only once the answer that carried it was written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OnceKey(String);

impl OnceKey {
    /// The key of a card's `once: session` trigger.
    pub fn card(name: &str) -> OnceKey {
        OnceKey(format!("card:{name}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for OnceKey {
    fn from(k: &str) -> OnceKey {
        OnceKey(k.to_string())
    }
}

/// A card's cooldown key: stamped when the card is emitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CooldownKey(String);

impl CooldownKey {
    pub fn card(name: &str) -> CooldownKey {
        CooldownKey(format!("card:{name}"))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// The repeat-rule key of a finding: a digest of its judge (a guard's
/// name, or the card a trigger belongs to) and its target, so no target is
/// stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepeatKey(String);

impl RepeatKey {
    pub fn of(judge: &str, target: &str) -> RepeatKey {
        RepeatKey(digest(&format!("{judge}\u{1f}{target}")))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A stable 128-bit hex digest (two FNV-1a 64 lanes). Not cryptographic: it
/// names files and repeat-rule keys, it guards nothing.
pub fn digest(s: &str) -> String {
    let lane = |seed: u64| crate::hash::fnv1a(seed, s.as_bytes());
    format!("{:016x}{:016x}", lane(0), lane(0x9e37_79b9_7f4a_7c15))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn hostile_ids_never_escape_and_never_collide_with_real_ones() {
        let proj = Path::new("/p");
        let real = session_key(Some(&json!("abc-123")), None, proj);
        assert_eq!(real.session, "s-abc-123");
        for bad in [
            json!("../../etc/passwd"),
            json!(".hidden"),
            json!("a/b"),
            json!("a b"),
            json!("x".repeat(500)),
            json!(5),
            json!({"a": 1}),
            json!(["abc-123"]),
        ] {
            let k = session_key(Some(&bad), None, proj);
            assert!(k.session.starts_with("h-"), "{bad}: {}", k.session);
            assert!(is_clean(&k.file.replace('@', "-")), "{}", k.file);
            assert_ne!(k.file, real.file);
        }
        assert_ne!(
            session_key(Some(&json!(5)), None, proj).file,
            session_key(Some(&json!("5")), None, proj).file
        );
    }

    #[test]
    fn missing_ids_fall_back_to_a_stable_key() {
        let proj = Path::new("/p");
        for none in [None, Some(json!("")), Some(json!("  ")), Some(Value::Null)] {
            let a = session_key(none.as_ref(), Some("/t.jsonl"), proj);
            let b = session_key(none.as_ref(), Some("/t.jsonl"), proj);
            assert_eq!(a, b);
            assert!(a.session.starts_with("n-"));
        }
        assert_eq!(session_key(None, None, proj).session, "n-anon");
        assert_ne!(
            session_key(None, None, proj).file,
            session_key(None, None, Path::new("/q")).file,
            "scoped to the project"
        );
    }
}
