//! A redirection of a simple command.

/// A redirection: `op` as written with its file descriptor (`>`, `>>`, `2>`,
/// `&>`, `>|`, `<`, `<<<`, `2>&`, `<<` for a heredoc), `target` its word (for a
/// heredoc the delimiter; for a duplication such as `2>&1` the descriptor).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub target: String,
}

impl Redirect {
    /// Whether this redirection writes (creates, truncates or appends to)
    /// the file named by `target`.
    pub fn writes_file(&self) -> bool {
        let op = self.op.trim_start_matches(|c: char| c.is_ascii_digit());
        if !op.contains('>') {
            return false;
        }
        if op.ends_with('&') {
            // `>&file` is bash's `&>file`; `>&2` and `>&-` duplicate.
            return !(self.target == "-" || self.target.chars().all(|c| c.is_ascii_digit()));
        }
        true
    }
}
