//! What a guard or a card's trigger found: the values for its card's
//! placeholders and what the dispatcher does with them. Its own module
//! because both `guards` and `trigger` produce it, and the dispatcher reads
//! it.

/// What a guard found: the values for its card's placeholders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finding {
    /// The kind of finding: its policy id is `<guard>.<kind>` (empty: the
    /// guard has one kind, and its id is the guard's name).
    pub kind: &'static str,
    /// What the finding is about (a path, a command, a threshold), used to
    /// tell a repeated finding from a new one. Never shown verbatim.
    pub target: String,
    /// Placeholder values, unsanitised; the renderer sanitises them.
    pub vars: Vec<(&'static str, String)>,
    /// Placeholder values that are text shipped inside the binary (never
    /// from a payload or the project), inserted verbatim: the one way a
    /// guard supplies trusted multi-line text, such as the skill index.
    pub trusted: Vec<(&'static str, &'static str)>,
    /// Placeholder values that are project text a guard quotes on purpose
    /// (the hand-off note): multi-line, bounded by the guard, and cleaned of
    /// control characters and bidirectional overrides by the renderer.
    pub quoted: Vec<(&'static str, String)>,
    /// Why it fired, for `cuecard explain` (a human reads it, not the model).
    pub why: String,
    /// A short line for the user (`systemMessage`), if any.
    pub user_note: Option<String>,
    /// The reason for a `permissionDecision: "deny"` (strict mode only).
    pub deny: Option<String>,
    /// A once-per-session key: the dispatcher marks it spent only after the
    /// card was actually emitted.
    pub once: Option<crate::state::key::OnceKey>,
    /// The finding is a warning (compaction): the ledger counts it as one.
    pub warning: bool,
}

impl Finding {
    pub fn new(target: impl Into<String>, why: impl Into<String>) -> Finding {
        Finding {
            target: target.into(),
            why: why.into(),
            ..Finding::default()
        }
    }
    pub fn kind(mut self, kind: &'static str) -> Finding {
        self.kind = kind;
        self
    }
    pub fn var(mut self, name: &'static str, value: impl Into<String>) -> Finding {
        self.vars.push((name, value.into()));
        self
    }
}
