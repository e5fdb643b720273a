//! Why a policy source, or one of its lines, counts for nothing: one
//! variant per case, carrying what the message names. A file that cannot
//! be read counts for nothing; a line not understood counts for nothing
//! while the file's other lines apply (see `rules`).

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyError {
    /// The file cannot be opened (the system's reason).
    Unreadable(String),
    /// Reading the opened file failed.
    ReadFailed,
    /// Larger than [`super::effective::MAX_BYTES`].
    TooLarge,
    NotUtf8,
    /// A value that is not advise, ask or deny.
    NotALevel {
        key: String,
        value: String,
        /// `; did you mean ...?`, or empty.
        hint: String,
    },
    /// A key that names no guard or finding id.
    UnknownId {
        key: String,
        hint: String,
    },
    /// A table whose name is close to `policy` (its lines are not read).
    UnknownTable {
        name: String,
        hint: String,
    },
    /// A key given twice.
    Twice(String),
    /// A `CUECARD_POLICY` item without `=`.
    NotAnItem(String),
    /// A `[...` line that is not a table header.
    NotAHeader(String),
    /// A `[policy]` line that is not `key = "value"`.
    NotAnAssignment(String),
    /// A key that is neither quoted nor bare.
    NotAKey(String),
    /// A value that is not a quoted string.
    NotQuoted(String),
    /// What is wrong, and the config file's line it is on.
    AtLine {
        line: usize,
        why: Box<PolicyError>,
    },
}

impl fmt::Display for PolicyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use PolicyError as E;
        match self {
            E::Unreadable(e) => write!(f, "cannot be read: {e}"),
            E::ReadFailed => f.write_str("cannot be read"),
            E::TooLarge => write!(f, "larger than {} bytes", super::effective::MAX_BYTES),
            E::NotUtf8 => f.write_str(
                "not UTF-8: a line with a byte that is not counts for nothing, the others apply",
            ),
            E::NotALevel { key, value, hint } => {
                write!(f, "`{key}`: `{value}` is not advise, ask or deny{hint}")
            }
            E::UnknownId { key, hint } => write!(
                f,
                "`{key}` is not a guard or a finding id{hint} (see `cuecard policy --ids`)"
            ),
            E::UnknownTable { name, hint } => write!(
                f,
                "`[{name}]` is not a table cuecard reads, so its lines are skipped{hint}"
            ),
            E::Twice(key) => write!(f, "`{key}` is given twice"),
            E::NotAnItem(item) => write!(f, "`{item}` is not `guard[.kind]=policy`"),
            E::NotAHeader(line) => write!(f, "`{line}` is not a table header"),
            E::NotAnAssignment(line) => write!(f, "`{line}` is not `key = \"value\"`"),
            E::NotAKey(k) => write!(f, "`{k}` is not a key"),
            E::NotQuoted(key) => write!(f, "the value of `{key}` must be a quoted string"),
            E::AtLine { line, why } => write!(f, "line {line}: {why}"),
        }
    }
}

impl std::error::Error for PolicyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PolicyError::AtLine { why, .. } => Some(why.as_ref()),
            _ => None,
        }
    }
}
