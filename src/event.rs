//! The event table: every Claude Code hook event, what it is for, and whether
//! anything cuecard prints on it can reach the model.
//!
//! This table is the single source of truth read by the dispatcher (which
//! events run cards at all), the envelope renderer (which field carries the
//! text) and `cuecard explain` (what a human is told). Harness contracts map
//! their own event names onto these canonical ones.

/// What the harness does with a hook on this event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// The hook can stop or change what happens next (a tool call, a prompt,
    /// the end of a turn).
    Gating,
    /// The hook can add context for the model.
    Context,
    /// The harness only tells the hook; nothing it prints reaches the model.
    Observe,
}

/// How text can travel from a hook to the model on this event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channel {
    /// `hookSpecificOutput.additionalContext`, with `hookEventName` set to
    /// the firing event.
    AdditionalContext,
    /// `hookSpecificOutput.additionalContext` reaches the model, but any
    /// context here also keeps the agent running (Stop): opt-in only.
    ContinuesTurn,
    /// Nothing reaches the model (the harness drops or ignores the output).
    None,
}

/// Which decision, if any, the harness honours on this event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    None,
    /// `hookSpecificOutput.permissionDecision`: allow / deny / ask.
    Permission,
    /// top-level `decision: "block"` with a `reason`.
    Block,
    /// `hookSpecificOutput.decision.behavior` (PermissionRequest).
    Behavior,
    /// `hookSpecificOutput.action` (Elicitation).
    Action,
}

/// What a hook registration's `matcher` is compared with on this event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Matcher {
    None,
    ToolName,
    /// SessionStart: `source` (startup, resume, clear, compact).
    Source,
    /// PreCompact / PostCompact: `trigger` (manual, auto).
    Trigger,
    /// Another field (notification type, agent type, reason, ...).
    Other,
}

#[derive(Debug, Clone, Copy)]
pub struct EventSpec {
    pub name: &'static str,
    pub class: Class,
    pub channel: Channel,
    pub decision: Decision,
    pub matcher: Matcher,
    /// One line for `explain` and the generated docs.
    pub note: &'static str,
}

impl EventSpec {
    /// Whether a card may put model-facing text on this event.
    pub fn carries_context(&self) -> bool {
        matches!(
            self.channel,
            Channel::AdditionalContext | Channel::ContinuesTurn
        )
    }
    /// Whether this event is about one tool call.
    pub fn is_tool_event(&self) -> bool {
        self.matcher == Matcher::ToolName
    }
}

macro_rules! ev {
    ($name:literal, $class:ident, $channel:ident, $decision:ident, $matcher:ident, $note:literal) => {
        EventSpec {
            name: $name,
            class: Class::$class,
            channel: Channel::$channel,
            decision: Decision::$decision,
            matcher: Matcher::$matcher,
            note: $note,
        }
    };
}

/// Every Claude Code hook event. Order follows a session's life.
pub const EVENTS: &[EventSpec] = &[
    ev!(
        "SessionStart",
        Context,
        AdditionalContext,
        None,
        Source,
        "a session starts, resumes, is cleared or was compacted; context is read at start"
    ),
    ev!(
        "Setup",
        Context,
        AdditionalContext,
        None,
        Other,
        "repository set-up or maintenance run (--init, --maintenance)"
    ),
    ev!(
        "UserPromptSubmit",
        Gating,
        AdditionalContext,
        Block,
        None,
        "the user submitted a prompt; context is added beside it"
    ),
    ev!(
        "UserPromptExpansion",
        Gating,
        AdditionalContext,
        Block,
        Other,
        "a slash command or prompt expansion is about to be used"
    ),
    ev!(
        "PreToolUse",
        Gating,
        AdditionalContext,
        Permission,
        ToolName,
        "a tool call is about to run; context reaches the model with the call"
    ),
    ev!(
        "PermissionRequest",
        Gating,
        None,
        Behavior,
        ToolName,
        "the user is about to be asked for permission; only a decision is read"
    ),
    ev!(
        "PermissionDenied",
        Observe,
        None,
        None,
        ToolName,
        "the auto-mode classifier denied a tool call"
    ),
    ev!(
        "PostToolUse",
        Context,
        AdditionalContext,
        Block,
        ToolName,
        "a tool call succeeded; context reaches the model with its result"
    ),
    ev!(
        "PostToolUseFailure",
        Context,
        AdditionalContext,
        None,
        ToolName,
        "a tool call failed; context reaches the model with the error"
    ),
    ev!(
        "PostToolBatch",
        Context,
        AdditionalContext,
        Block,
        None,
        "a batch of parallel tool calls finished"
    ),
    ev!(
        "Notification",
        Observe,
        None,
        None,
        Other,
        "the harness shows the user a notification"
    ),
    ev!(
        "MessageDisplay",
        Observe,
        None,
        None,
        None,
        "a message is displayed to the user"
    ),
    ev!(
        "SubagentStart",
        Context,
        AdditionalContext,
        None,
        Other,
        "a subagent starts; context goes to the subagent"
    ),
    ev!(
        "SubagentStop",
        Gating,
        None,
        Block,
        Other,
        "a subagent is about to stop; a block keeps it running"
    ),
    ev!(
        "TaskCreated",
        Gating,
        None,
        Block,
        None,
        "a task is being created"
    ),
    ev!(
        "TaskCompleted",
        Gating,
        None,
        Block,
        None,
        "a task is being marked completed"
    ),
    ev!(
        "Stop",
        Gating,
        ContinuesTurn,
        Block,
        None,
        "the agent is about to stop; any context keeps it running (opt-in card only)"
    ),
    ev!(
        "StopFailure",
        Observe,
        None,
        None,
        Other,
        "the turn ended on an API error"
    ),
    ev!(
        "TeammateIdle",
        Gating,
        None,
        Block,
        None,
        "an agent-team teammate is about to go idle"
    ),
    ev!(
        "InstructionsLoaded",
        Observe,
        None,
        None,
        Other,
        "a CLAUDE.md or rules file was loaded"
    ),
    ev!(
        "ConfigChange",
        Gating,
        None,
        Block,
        Other,
        "a configuration file changed during the session"
    ),
    ev!(
        "CwdChanged",
        Observe,
        None,
        None,
        None,
        "the working directory changed"
    ),
    ev!(
        "DirectoryAdded",
        Observe,
        None,
        None,
        None,
        "a working directory was added to the session"
    ),
    ev!(
        "FileChanged",
        Observe,
        None,
        None,
        Other,
        "a watched file changed on disk"
    ),
    ev!(
        "WorktreeCreate",
        Gating,
        None,
        None,
        None,
        "replaces git worktree creation (its stdout is a path): never registered"
    ),
    ev!(
        "WorktreeRemove",
        Observe,
        None,
        None,
        None,
        "a worktree is being removed"
    ),
    ev!(
        "PreCompact",
        Observe,
        None,
        None,
        Trigger,
        "a compaction is about to run; output is dropped (recovery rides on SessionStart compact)"
    ),
    ev!(
        "PostCompact",
        Observe,
        None,
        None,
        Trigger,
        "a compaction finished; output is dropped (recovery rides on SessionStart compact)"
    ),
    ev!(
        "Elicitation",
        Gating,
        None,
        Action,
        Other,
        "an MCP server asks the user for input"
    ),
    ev!(
        "ElicitationResult",
        Gating,
        None,
        Action,
        Other,
        "the user answered an MCP elicitation"
    ),
    ev!(
        "SessionEnd",
        Observe,
        None,
        None,
        Other,
        "the session ends; nothing after it reads output"
    ),
];

/// Looks an event up by its exact Claude Code name.
pub fn lookup(name: &str) -> Option<&'static EventSpec> {
    EVENTS.iter().find(|e| e.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in EVENTS.iter().enumerate() {
            for b in &EVENTS[i + 1..] {
                assert_ne!(a.name, b.name);
            }
        }
    }

    #[test]
    fn compaction_events_carry_nothing() {
        // Claude Code drops PreCompact / PostCompact output (measured).
        assert!(!lookup("PreCompact").unwrap().carries_context());
        assert!(!lookup("PostCompact").unwrap().carries_context());
        assert!(lookup("SessionStart").unwrap().carries_context());
    }

    #[test]
    fn lookup_is_exact() {
        assert!(lookup("pretooluse").is_none());
        assert!(lookup("PreToolUse").is_some());
    }
}
