//! The event table: every Claude Code hook event (and the few another
//! harness has that Claude Code lacks), what it is for, and whether anything
//! cuecard prints on it can reach the model. The [`Event`] type is generated
//! from the same list.
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
    /// SessionStart: `source` (startup, resume, clear, compact, fork).
    Source,
    /// PreCompact / PostCompact: `trigger` (manual, auto).
    Trigger,
    /// Another field (notification type, agent type, reason, ...).
    Other,
}

#[derive(Debug, Clone, Copy)]
pub struct EventSpec {
    pub event: Event,
    pub name: &'static str,
    pub class: Class,
    pub channel: Channel,
    pub decision: Decision,
    pub matcher: Matcher,
    /// Whether the capability table (generated/capabilities.md) has a
    /// column for it (every event a shipped or planned card can use).
    pub shown: bool,
    /// One line for `explain` and the generated docs.
    pub note: &'static str,
    /// Claude Code's row: why, with the evidence (RIG = measured on the real
    /// harness; DOC = vendor documentation); `None`: Claude Code has no such
    /// event. Claude Code's contract is built from this column.
    pub claude: Option<&'static str>,
}

impl EventSpec {
    /// Whether a card may put model-facing text on this event.
    pub const fn carries_context(&self) -> bool {
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

/// Emits, from one list, the [`Event`] enum (in declaration order),
/// `Event::ALL` and the [`EVENTS`] table, so that the type and the table
/// cannot disagree and a new event is a new variant every `match` on
/// [`Event`] must handle.
macro_rules! events {
    ($( $name:ident: $class:ident, $channel:ident, $decision:ident, $matcher:ident,
        shown: $shown:literal, $note:literal, claude: $claude:expr; )*) => {
        /// A canonical event: Claude Code's hook events, plus the few another
        /// harness has and Claude Code lacks (their `claude` is `None`).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum Event { $($name),* }

        impl Event {
            /// Every canonical event, in the table's order.
            pub const ALL: &'static [Event] = &[$(Event::$name),*];
        }

        /// Every canonical event. Order follows a session's life.
        pub const EVENTS: &[EventSpec] = &[$(
            EventSpec {
                event: Event::$name,
                name: stringify!($name),
                class: Class::$class,
                channel: Channel::$channel,
                decision: Decision::$decision,
                matcher: Matcher::$matcher,
                shown: $shown,
                note: $note,
                claude: $claude,
            }
        ),*];
    };
}

events! {
    SessionStart: Context, AdditionalContext, None, Source, shown: true,
        "a session starts, resumes, is forked, is cleared or was compacted; context is read at start",
        claude: Some("context read at start; sources startup, resume, clear, compact, fork (2.1.332) [RIG]");
    Setup: Context, AdditionalContext, None, Other, shown: false,
        "repository set-up or maintenance run (--init, --maintenance)",
        claude: Some("repository set-up [DOC]");
    UserPromptSubmit: Gating, AdditionalContext, Block, None, shown: true,
        "the user submitted a prompt; context is added beside it",
        claude: Some("context beside the prompt [RIG]");
    UserPromptExpansion: Gating, AdditionalContext, Block, Other, shown: false,
        "a slash command or prompt expansion is about to be used",
        claude: Some("[DOC]");
    PreToolUse: Gating, AdditionalContext, Permission, ToolName, shown: true,
        "a tool call is about to run; context reaches the model with the call",
        claude: Some("context with the call [RIG]; permissionDecision allow/deny/ask/defer, cuecard never defers (2.1.332 bundle's hook schema) [DOC]");
    PreSkillShellCommand: Gating, None, Permission, ToolName, shown: false,
        "a skill's inline shell command is about to run (it never passes PreToolUse): judged as a Bash call, decision only",
        claude: Some("payload tool_name (Bash, PowerShell), tool_input.command, command_name, invoked_by; no context field; deny and ask keep the command from running, ask cannot wait for a person (2.1.332, `claude -p /<skill>`) [RIG]");
    PermissionRequest: Gating, None, Behavior, ToolName, shown: false,
        "the user is about to be asked for permission; only a decision is read",
        claude: Some("decision only [DOC]");
    PermissionDenied: Observe, None, None, ToolName, shown: false,
        "the auto-mode classifier denied a tool call",
        claude: Some("no context; `retry: true` tells the model it may make the call again, which cuecard never sends (2.1.332 bundle's hook schema) [DOC]");
    PostToolUse: Context, AdditionalContext, Block, ToolName, shown: true,
        "a tool call succeeded; context reaches the model with its result",
        claude: Some("context with the result [RIG]");
    PostToolUseFailure: Context, AdditionalContext, None, ToolName, shown: false,
        "a tool call failed; context reaches the model with the error",
        claude: Some("context with the error; exit 2 shows stderr to the model; no block (2.1.332 bundle's hook schema) [DOC]");
    PostToolBatch: Context, AdditionalContext, Block, None, shown: true,
        "a batch of parallel tool calls finished",
        claude: Some("[RIG]");
    Notification: Observe, None, None, Other, shown: false,
        "the harness shows the user a notification",
        claude: Some("observe only [DOC]");
    MessageDisplay: Observe, None, None, None, shown: false,
        "a message is displayed to the user",
        claude: Some("observe only [DOC]");
    SubagentStart: Context, AdditionalContext, None, Other, shown: true,
        "a subagent starts; context goes to the subagent",
        claude: Some("context to the subagent [DOC]");
    SubagentStop: Gating, ContinuesTurn, Block, Other, shown: false,
        "a subagent is about to stop; a block, or any context, keeps it running",
        claude: Some("additionalContext goes to the subagent and keeps it running, as on Stop; a block or exit 2 too (2.1.332 bundle's hook schema) [DOC]");
    TaskCreated: Gating, None, Block, None, shown: false,
        "a task is being created",
        claude: Some("[DOC]");
    TaskCompleted: Gating, None, Block, None, shown: false,
        "a task is being marked completed",
        claude: Some("[DOC]");
    Stop: Gating, ContinuesTurn, Block, None, shown: true,
        "the agent is about to stop; any context keeps it running (opt-in card only)",
        claude: Some("context keeps the agent running: opt-in card only [RIG]");
    StopFailure: Observe, None, None, Other, shown: false,
        "the turn ended on an API error",
        claude: Some("[DOC]");
    TeammateIdle: Gating, None, Block, None, shown: false,
        "an agent-team teammate is about to go idle",
        claude: Some("[DOC]");
    InstructionsLoaded: Observe, None, None, Other, shown: false,
        "a CLAUDE.md or rules file was loaded",
        claude: Some("[DOC]");
    ConfigChange: Gating, None, Block, Other, shown: false,
        "a configuration file changed during the session",
        claude: Some("[DOC]");
    CwdChanged: Observe, None, None, None, shown: false,
        "the working directory changed",
        claude: Some("[DOC]");
    DirectoryAdded: Observe, None, None, None, shown: false,
        "a working directory was added to the session",
        claude: Some("[DOC]");
    FileChanged: Observe, None, None, Other, shown: false,
        "a watched file changed on disk",
        claude: Some("[DOC]");
    WorktreeCreate: Gating, None, None, None, shown: false,
        "replaces git worktree creation (its stdout is a path): never registered",
        claude: Some("stdout is a path: never registered [DOC]");
    WorktreeRemove: Observe, None, None, None, shown: false,
        "a worktree is being removed",
        claude: Some("[DOC]");
    PreCompact: Observe, None, None, Trigger, shown: true,
        "a compaction is about to run; output is dropped (recovery rides on SessionStart compact)",
        claude: Some("output dropped; strict validation [RIG]; stdout becomes the summariser's compact instructions and exit 2 blocks the compaction, which cuecard never does (2.1.332 bundle) [DOC]");
    PostCompact: Observe, None, None, Trigger, shown: false,
        "a compaction finished; output is dropped (recovery rides on SessionStart compact)",
        claude: Some("output dropped; strict validation [RIG]");
    Elicitation: Gating, None, Action, Other, shown: false,
        "an MCP server asks the user for input",
        claude: Some("[DOC]");
    ElicitationResult: Gating, None, Action, Other, shown: false,
        "the user answered an MCP elicitation",
        claude: Some("[DOC]");
    PreModelSwitch: Gating, None, Permission, Other, shown: false,
        "the session's model is about to change on request (/model, picker, set_model); only a decision is read",
        claude: Some("payload from_model, to_model, requested_model, source, context_tokens; permissionDecision allow/deny/ask, no context (2.1.332, stream-json set_model) [RIG]");
    PostModelSwitch: Context, AdditionalContext, None, Other, shown: true,
        "the session's model changed (any cause): the context window may have changed; context reaches the next request",
        claude: Some("payload from_model, to_model, requested_model, source, context_tokens; additionalContext reaches the next request (2.1.332, stream-json set_model) [RIG]");
    SessionEnd: Observe, None, None, Other, shown: false,
        "the session ends; nothing after it reads output",
        claude: Some("nothing reads it [RIG]");
    Interrupt: Observe, None, None, None, shown: false,
        "the user interrupted a running turn (Codex); nothing after it reads output",
        claude: None;
}

/// Looks an event up by its exact Claude Code name.
pub fn lookup(name: &str) -> Option<&'static EventSpec> {
    EVENTS.iter().find(|e| e.name == name)
}

impl Event {
    /// The event's row of the table.
    pub const fn spec(self) -> &'static EventSpec {
        &EVENTS[self as usize]
    }
    /// The canonical (Claude Code) name.
    pub const fn name(self) -> &'static str {
        self.spec().name
    }
    /// The event whose cards judge this one: a skill's inline shell
    /// command (`PreSkillShellCommand`) is judged as a Bash call, by the
    /// PreToolUse cards, for their decision alone (the event carries no
    /// context). Every other event is judged as itself.
    pub const fn judged_as(self) -> Event {
        match self {
            Event::PreSkillShellCommand => Event::PreToolUse,
            e => e,
        }
    }
    /// The event for an exact canonical name.
    pub fn parse(name: &str) -> Option<Event> {
        lookup(name).map(|e| e.event)
    }
}

impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_enum_and_the_table_agree() {
        assert_eq!(Event::ALL.len(), EVENTS.len());
        for (i, e) in Event::ALL.iter().enumerate() {
            assert_eq!(EVENTS[i].event, *e);
            assert_eq!(e.spec().name, format!("{e:?}"));
            assert_eq!(Event::parse(e.name()), Some(*e));
        }
    }

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
