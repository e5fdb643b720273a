//! What a guard or a card's trigger found: the values for its card's
//! placeholders and what the dispatcher does with them. Its own module
//! because both `guards` and `trigger` produce it, and the dispatcher reads
//! it.

/// The kind every opaque finding carries, whichever guard reports it
/// (policy id `<guard>.opaque`): each guard's typed kind names it with
/// this id, and [`Finding::is_opaque`] tells it apart.
pub const OPAQUE: &str = "opaque";

/// A guard's typed kind of finding: each guard that reports several kinds
/// has an enum of them, and its `kinds` list is built from their ids, so a
/// kind a guard reports is one it lists.
pub trait FindingKind: Copy {
    /// The stable id a policy names (`<guard>.<id>`).
    fn id(self) -> &'static str;
}

/// What a guard found: the values for its card's placeholders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Finding {
    /// The kind of finding, the id of a guard's typed kind
    /// ([`FindingKind`]): its policy id is `<guard>.<kind>` (empty: the
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
    /// Sets the kind: a typed kind of the guard's own (its policy id is
    /// written once, in the kind's [`FindingKind::id`]).
    pub fn kind(mut self, kind: impl FindingKind) -> Finding {
        self.kind = kind.id();
        self
    }
    /// An opaque finding (a command nobody can read): the dispatcher keeps
    /// it quiet unless a policy decides it.
    pub fn is_opaque(&self) -> bool {
        self.kind == OPAQUE
    }
    pub fn var(mut self, name: &'static str, value: impl Into<String>) -> Finding {
        self.vars.push((name, value.into()));
        self
    }
}
