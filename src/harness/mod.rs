//! Harnesses (docs/design.md §5): one file per harness, each one [`Spec`]: its
//! event names (each row with the answer shape the harness reads there),
//! tool names, matcher style, the function that translates its payload into
//! the canonical (Claude Code) shape, and its configuration files
//! ([`config::Config`]). One reshaper ([`answer::reshape`]) turns the
//! canonical envelope into each row's shape.
//!
//! The installer reads the same tables ([`native_event`],
//! [`native_tool_matcher`], [`delivers_context`]), so what is registered and
//! what the contract answers cannot disagree. The `harnesses!` table below
//! is the one list of harnesses ([`HarnessId::ALL`]): the CLI's values and
//! help, install, verify, doctor, the capability table and the e2e all read
//! it. Which harness has which canonical event is one table too, the
//! harness × event matrix (`matrix.rs`).
//!
//! Deferred events: where a harness drops context returned before a tool
//! runs (Qwen Code's PreToolUse, Gemini CLI's BeforeTool, measured), the
//! PreToolUse cards are registered on the harness's after-tool event instead
//! ([`Delivery::Deferred`]): when that event fires, the contract evaluates
//! its PostToolUse cards *and* the PreToolUse cards (each card under its own
//! canonical event, so the guards see the call they judge), and the one
//! answer rides on the after-tool event, which reaches the model.

mod answer;
mod capabilities;
pub mod config;
#[cfg(test)]
mod matrix;
pub mod once;
pub mod plugin;
mod table;
mod translate;

pub use answer::{Answer, Shape, neutral, reshape, reshape_deciding};
pub use capabilities::capability_table;
pub use table::{Decides, Delivery, EventRow, MatcherStyle, Spec};

use crate::event::Event;

/// Emits, from one list, a `mod` for each harness's file, the
/// [`HarnessId`] enum (in the list's order), [`HarnessId::ALL`],
/// [`HarnessId::COUNT`] and [`HarnessId::spec`] (the one `match` on
/// harnesses), so that adding a harness is its file and one line here.
/// Everything else about it (id, name, rows, tools, configuration) is in
/// its file's `SPEC`; the events it lacks are its column of the matrix in
/// `matrix.rs` (a test table); its hook files are its entries in
/// [`crate::hookfiles::TABLE`] (see [`HarnessId::hook_files`]).
macro_rules! harnesses {
    ($( $(#[$doc:meta])* $variant:ident => $module:ident, )*) => {
        $( mod $module; )*

        /// Every harness cuecard knows.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum HarnessId { $( $(#[$doc])* $variant ),* }

        impl HarnessId {
            /// Every harness, in the registry's order (the CLI's values and
            /// help, install, verify, doctor, the capability table and the
            /// e2e all read it).
            pub const ALL: &'static [HarnessId] = &[$(HarnessId::$variant),*];

            /// How many harnesses there are (the matrix's width).
            pub const COUNT: usize = Self::ALL.len();

            /// The harness's definition: its file's `SPEC`.
            pub fn spec(&self) -> &'static Spec {
                match self {
                    $( HarnessId::$variant => &$module::SPEC, )*
                }
            }
        }
    };
}

harnesses! {
    ClaudeCode => claude_code,
    Codex => codex,
    Qwen => qwen,
    CodeBuddy => codebuddy,
    Gemini => gemini,
    Copilot => copilot,
    Cursor => cursor,
    Devin => devin,
    Kiro => kiro,
    Factory => factory,
    Qoder => qoder,
    Opencode => opencode,
    Kilo => kilo,
    Pi => pi,
    Cline => cline,
    Crush => crush,
    /// Served from its documentation; every PreToolUse call answers a
    /// decision (silence may stop the call).
    Antigravity => antigravity,
    /// No channel that reaches the model: installed into only for
    /// decisions, with a policy set.
    Windsurf => windsurf,
}

impl HarnessId {
    /// The harness for an id (`claude-code`, `codex`, ...), case-insensitive;
    /// `claude` is accepted for `claude-code`.
    pub fn parse(s: &str) -> Option<Self> {
        let s = s.trim().to_ascii_lowercase();
        if s == "claude" {
            return Some(HarnessId::ClaudeCode);
        }
        HarnessId::ALL.iter().copied().find(|h| h.id() == s)
    }

    /// The id used on the command line and in generated files.
    pub fn id(&self) -> &'static str {
        self.spec().id
    }

    /// The harness's product name.
    pub fn name(&self) -> &'static str {
        self.spec().name
    }

    /// Its configuration files; `None` for a harness cuecard does not
    /// install into (every harness has one today; Windsurf's is used only
    /// with a policy set, see [`HarnessId::decisions_only`]).
    pub fn config(&self) -> Option<&'static config::Config> {
        self.spec().config
    }

    /// The files it reads hooks, plugins, extensions or skills from: its
    /// entries in the one list the outside-project guard also reads
    /// ([`crate::hookfiles::TABLE`]).
    pub fn hook_files(&self) -> impl Iterator<Item = &'static crate::hookfiles::HookPath> {
        let id = self.id();
        crate::hookfiles::TABLE
            .iter()
            .filter(move |e| e.harness == id)
    }

    /// The ids, comma-separated, for help and error text.
    pub fn list(installable_only: bool) -> String {
        HarnessId::ALL
            .iter()
            .filter(|h| !installable_only || h.config().is_some())
            .map(|h| h.id())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Whether any card can reach this harness's model at all.
    pub fn carries_context(&self) -> bool {
        self.spec().events.iter().any(|r| r.delivery.delivers())
    }

    /// Whether this harness is installed into only for decisions (Windsurf:
    /// it has a configuration but no context channel), so `install` needs a
    /// policy set.
    pub fn decisions_only(&self) -> bool {
        self.config().is_some() && !self.carries_context()
    }

    /// Why this harness cannot carry context, for `verify` and docs/harnesses.md
    /// (`None` when it can).
    pub fn limitation(&self) -> Option<&'static str> {
        (!self.carries_context()).then_some(self.spec().limitation)
    }
}

/// What a policy (ask or deny) on a finding of canonical event `canonical`
/// becomes on harness `h`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enforcement {
    /// Both ask and deny are honoured, on this native event and field.
    Asks(&'static str, Decides),
    /// Deny is honoured; an ask is rendered as a deny whose reason says a
    /// person must run it.
    DeniesOnly(&'static str, Decides),
    /// The harness cannot honour a decision there: the finding stays advice.
    AdviceOnly,
}

impl Enforcement {
    /// One phrase for `explain`, `verify --capabilities` and the table.
    pub fn describe(self) -> String {
        match self {
            Enforcement::Asks(n, d) => format!("ask and deny on `{n}` ({})", d.describe()),
            Enforcement::DeniesOnly(n, d) => format!(
                "deny on `{n}` ({}); ask becomes deny (\"a person must run it\")",
                d.describe()
            ),
            Enforcement::AdviceOnly => "advice only: no decision is honoured here".into(),
        }
    }
}

/// Whether and how `h` (`None`: Claude Code's envelope, no contract)
/// honours a decision on canonical event `canonical`: only where the event
/// table's decision mechanism is a permission decision and the harness
/// reads one on a native event of it.
pub fn enforcement(h: Option<HarnessId>, canonical: Event) -> Enforcement {
    if canonical.spec().decision != crate::event::Decision::Permission {
        return Enforcement::AdviceOnly;
    }
    let spec = h.unwrap_or(HarnessId::ClaudeCode).spec();
    spec.natives(canonical)
        .find_map(|r| spec.decides_on(r.native).map(|d| (r.native, d)))
        .map_or(Enforcement::AdviceOnly, |(n, d)| {
            if d.asks() {
                Enforcement::Asks(n, d)
            } else {
                Enforcement::DeniesOnly(n, d)
            }
        })
}

/// The native events where `h` honours a decision on canonical event
/// `canonical`, when that is not where its cards are registered for
/// context (Gemini's BeforeTool, Qwen's PreToolUse, Cursor's preToolUse,
/// Kiro's PreToolUse; every Windsurf pre-hook, since none carries context):
/// with a policy set, the cards are registered there too, and answer only
/// with a decision. Where the cards have no context event at all, every
/// native event of `canonical` that decides is one (the dispatcher filters
/// by tool); otherwise the first that decides.
pub fn decision_natives(h: HarnessId, canonical: &str) -> Vec<&'static str> {
    let Some(e) = Event::parse(canonical) else {
        return Vec::new();
    };
    if e.spec().decision != crate::event::Decision::Permission {
        return Vec::new();
    }
    let spec = h.spec();
    let deciding = spec
        .natives(e)
        .map(|r| r.native)
        .filter(|n| spec.decides_on(n).is_some());
    let mut out: Vec<&'static str> = match native_event(h, canonical) {
        None => deciding.collect(),
        Some(ctx) => deciding.take(1).filter(|n| *n != ctx).collect(),
    };
    // Events judged by these cards for their decision alone (Claude
    // Code's PreSkillShellCommand, judged as a Bash call).
    out.extend(
        spec.events
            .iter()
            .filter(|r| r.canonical != e && r.canonical.judged_as() == e)
            .map(|r| r.native)
            .filter(|n| spec.decides_on(n).is_some()),
    );
    out
}

/// Whether a call of `event` (on `contract`'s native event; `None`:
/// Claude Code's own) is judged by another event's cards for their
/// decision alone: Claude Code's `PreSkillShellCommand`, judged as a Bash
/// call, has no channel to the model but honours a permission decision.
pub fn judged_for_decision(event: Event, contract: Option<(HarnessId, &str)>) -> bool {
    let (h, native) = contract.unwrap_or((HarnessId::ClaudeCode, event.name()));
    event.judged_as() != event && h.spec().decides_on(native).is_some()
}

/// The native event name to register the cards of `canonical` under, or
/// `None` when they are not registered on this harness (it has no such
/// event, or drops what a hook prints there). For a deferred event this is
/// the after-tool event the cards ride on.
pub fn native_event(h: HarnessId, canonical: &str) -> Option<&'static str> {
    let spec = h.spec();
    let row = spec.primary(Event::parse(canonical)?)?;
    match row.delivery {
        Delivery::Context(_) => Some(row.native),
        Delivery::Deferred(to) => spec.primary(to).map(|r| r.native),
        Delivery::Dropped => None,
    }
}

/// The canonical (Claude Code) event for a native event name.
pub fn canonical_event(h: HarnessId, native: &str) -> Option<&'static str> {
    h.spec().row(native).map(|r| r.canonical.name())
}

/// Whether context returned on `canonical_event` (on its registered native
/// event) reaches this harness's model, as measured or documented.
pub fn delivers_context(h: HarnessId, canonical_event: &str) -> bool {
    Event::parse(canonical_event)
        .and_then(|e| h.spec().primary(e))
        .is_some_and(|r| r.delivery.delivers())
}

/// The canonical events whose cards run when the native event `native`
/// fires: its own, then every event deferred onto it.
pub fn evaluated_events(h: HarnessId, native: &str) -> Vec<Event> {
    let spec = h.spec();
    let Some(row) = spec.row(native) else {
        return Vec::new();
    };
    let mut out = vec![row.canonical];
    if row.delivery.delivers()
        && spec
            .primary(row.canonical)
            .is_some_and(|p| p.native == row.native)
    {
        for r in spec.events {
            if r.delivery == Delivery::Deferred(row.canonical) && !out.contains(&r.canonical) {
                out.push(r.canonical);
            }
        }
    }
    out
}

/// A canonical tool matcher (`*`, `Bash`, `Write|Edit|MultiEdit`) in the
/// harness's own tool names and matcher syntax: Qwen and Gemini get an
/// anchored regex of runtime tool ids (`^(?:run_shell_command|write_file|replace)$`),
/// Codex `Bash|apply_patch`, Copilot `bash|create|edit` (Copilot anchors it
/// itself), and so on. A canonical tool with no native counterpart is left
/// out; when none has one, the canonical names are kept (they never match,
/// which is the honest answer). An empty string means "register without a
/// matcher" (every tool).
pub fn native_tool_matcher(h: HarnessId, canonical_matcher: &str) -> String {
    h.spec().tool_matcher(canonical_matcher)
}

/// The matcher to register for `canonical_event` with the canonical matcher
/// `canonical_matcher`: the tool matcher on tool events, the source matcher
/// on SessionStart where the harness matches sources, `None` for "register
/// without a matcher".
pub fn native_matcher(
    h: HarnessId,
    canonical_event: &str,
    canonical_matcher: &str,
) -> Option<String> {
    h.spec()
        .matcher_for(Event::parse(canonical_event)?, canonical_matcher)
}

#[cfg(test)]
mod tests;
