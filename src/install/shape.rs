//! Why a hook document has no place for cuecard's entries.

use std::fmt;

/// The shape of a hook document that leaves no place for an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BadShape {
    TopNotObject,
    HooksNotObject,
    HooksNotList,
    /// `hooks.<event>` is not a list.
    EventNotList(String),
    /// A dotted key's parent (`a.b` of `a.b.c`) is not an object.
    NotObject(String),
}

impl fmt::Display for BadShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadShape::TopNotObject => f.write_str("the file's top level is not a JSON object"),
            BadShape::HooksNotObject => f.write_str("its `hooks` is not an object"),
            BadShape::HooksNotList => f.write_str("its `hooks` is not a list"),
            BadShape::EventNotList(event) => write!(f, "its `hooks.{event}` is not a list"),
            BadShape::NotObject(key) => write!(f, "`{key}` is not an object"),
        }
    }
}

impl std::error::Error for BadShape {}
