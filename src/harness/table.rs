//! The shape of a harness definition: its event rows (each with the answer
//! shape the harness reads there), tool names, matcher syntax, payload
//! translation and configuration files.

use super::HarnessId;
use super::answer::Shape;
use super::config::Config;
use crate::event::{self, Event};
use serde_json::{Map, Value};
use std::path::Path;

/// What happens to context a hook returns on one native event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// It reaches the model, read in this shape: cards are registered here.
    Context(Shape),
    /// The harness drops it, but the same cards can ride on the named
    /// canonical event (Qwen PreToolUse, Gemini BeforeTool → the after-tool
    /// event): they are registered and evaluated there.
    Deferred(Event),
    /// Nothing printed here reaches the model: not registered; a call that
    /// arrives anyway gets no output.
    Dropped,
}

impl Delivery {
    /// Whether context returned here reaches the model.
    pub fn delivers(self) -> bool {
        matches!(self, Delivery::Context(_))
    }
}

/// Where a harness reads a decision (ask or deny) on one native event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decides {
    /// `hookSpecificOutput.{hookEventName, permissionDecision,
    /// permissionDecisionReason}` (Claude Code and the harnesses that read
    /// its envelope; Codex's strict PreToolUse schema). `ask`: whether
    /// `"ask"` is honoured (else an ask is rendered as a deny).
    Envelope { ask: bool },
    /// Top-level `decision: "deny"` with `reason` (Gemini CLI's BeforeTool;
    /// no ask).
    TopLevel,
    /// Top-level `permissionDecision` / `permissionDecisionReason`
    /// (Copilot CLI's camelCase preToolUse).
    Flat { ask: bool },
    /// Top-level `permission` with `user_message` and `agent_message`
    /// (Cursor's preToolUse / beforeShellExecution).
    Permission { ask: bool },
    /// Exit code 2 with the reason on stderr and nothing on stdout (Kiro
    /// preToolUse, Windsurf pre-hooks): the one exception to exit 0.
    ExitCode,
    /// Top-level `decision` with `reason`, on a harness that wants a
    /// decision on every call (Antigravity CLI's PreToolUse: silence or an
    /// object without one may stop the call). A deny is `deny`; an ask is
    /// `force_ask` (a person answers, whatever the harness remembered as
    /// always allowed); a call cuecard has nothing to say about answers
    /// `neutral`, the value that leaves the harness's own permission flow
    /// in charge (see [`Decides::neutral`]).
    Verdict { neutral: &'static str },
}

impl Decides {
    /// Whether `ask` is honoured here (else it is rendered as a deny).
    pub fn asks(self) -> bool {
        match self {
            Decides::Envelope { ask } | Decides::Flat { ask } | Decides::Permission { ask } => ask,
            Decides::TopLevel | Decides::ExitCode => false,
            Decides::Verdict { .. } => true,
        }
    }

    /// What a call with no decision answers here, when silence is not an
    /// answer (`{"decision": <neutral>}` for [`Decides::Verdict`]); `None`
    /// where printing nothing is.
    pub fn neutral(self) -> Option<serde_json::Value> {
        match self {
            Decides::Verdict { neutral } => Some(serde_json::json!({ "decision": neutral })),
            _ => None,
        }
    }

    /// A phrase for the capability table and `explain`.
    pub fn describe(self) -> &'static str {
        match self {
            Decides::Envelope { .. } => "`hookSpecificOutput.permissionDecision` + reason",
            Decides::TopLevel => "top-level `decision: \"deny\"` + `reason`",
            Decides::Flat { .. } => "top-level `permissionDecision` + reason",
            Decides::Permission { .. } => "`permission` + `user_message` / `agent_message`",
            Decides::ExitCode => "exit code 2, reason on stderr",
            Decides::Verdict { .. } => {
                "top-level `decision` (`deny`, `force_ask`) + `reason` on every call; \
                 `ask` when cuecard has no opinion"
            }
        }
    }
}

/// One native event of a harness.
#[derive(Debug, Clone, Copy)]
pub struct EventRow {
    /// The harness's own name (what its config and payload say).
    pub native: &'static str,
    /// The canonical (Claude Code) event the guards judge it as.
    pub canonical: Event,
    pub delivery: Delivery,
    /// Why, with the source (RIG = measured on the real harness; DOC =
    /// vendor documentation; 3P = third-party write-up).
    pub note: &'static str,
}

macro_rules! row {
    ($native:literal => $canonical:ident, $delivery:expr, $note:literal) => {
        $crate::harness::EventRow {
            native: $native,
            canonical: $crate::event::Event::$canonical,
            delivery: $delivery,
            note: $note,
        }
    };
}
pub(crate) use row;

/// How a harness's `matcher` field is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatcherStyle {
    /// Claude Code's: `*` for all, `A|B` an exact list.
    Literal,
    /// A regex the harness does not anchor: written `^(?:A|B)$`, `.*` for all.
    Anchored,
    /// A regex the harness anchors itself (Copilot): `A|B`, `.*` for all.
    HarnessAnchored,
    /// No matcher is written: the entry runs for every tool and the
    /// dispatcher filters (Cursor, Kiro, Windsurf: syntax unverified or absent).
    Unmatched,
}

impl MatcherStyle {
    fn all(self) -> &'static str {
        match self {
            MatcherStyle::Literal => "*",
            MatcherStyle::Anchored | MatcherStyle::HarnessAnchored => ".*",
            MatcherStyle::Unmatched => "",
        }
    }
    fn join(self, alts: &[&str]) -> String {
        match self {
            MatcherStyle::Literal | MatcherStyle::HarnessAnchored => alts.join("|"),
            MatcherStyle::Anchored => format!("^(?:{})$", alts.join("|")),
            MatcherStyle::Unmatched => String::new(),
        }
    }
}

/// One harness: its contract (dialect and answer shapes) and its
/// configuration, in one definition.
pub struct Spec {
    pub harness: HarnessId,
    /// The id on the command line.
    pub id: &'static str,
    pub name: &'static str,
    /// Native events, the registered one first for each canonical event.
    pub events: &'static [EventRow],
    /// (native tool, canonical tool), in the order matchers list them.
    pub tools: &'static [(&'static str, &'static str)],
    pub matchers: MatcherStyle,
    /// Whether SessionStart entries are matched on `source` (as Claude Code's).
    pub source_matcher: bool,
    /// Whether the harness also runs Claude Code's hook files, so the same
    /// SessionStart can arrive twice (see `once`).
    pub loads_claude_hooks: bool,
    /// Translates a payload of `row` in place into the canonical shape.
    pub translate: fn(&EventRow, &mut Map<String, Value>),
    /// What cannot travel and why (docs/harnesses.md, `verify`).
    pub limitation: &'static str,
    /// Its configuration files; `None`: nothing is installed.
    pub config: Option<&'static Config>,
    /// The native events where the harness honours a decision (ask or
    /// deny) and the field it reads it in; an event not listed cannot
    /// enforce a policy, so a finding there stays advice.
    pub decides: &'static [(&'static str, Decides)],
    /// Adds the keys this harness's payloads carry beyond the canonical ones
    /// to the realistic payload `doctor` sends (`project` is the cwd).
    pub probe: fn(&mut Map<String, Value>, project: &Path),
}

/// A [`Spec::probe`] that adds nothing.
pub fn no_probe(_: &mut Map<String, Value>, _: &Path) {}

impl Spec {
    /// The row registered for a canonical event (the first that names it).
    pub fn primary(&self, canonical: Event) -> Option<&'static EventRow> {
        self.events.iter().find(|r| r.canonical == canonical)
    }

    /// The row for a native event name (exact).
    pub fn row(&self, native: &str) -> Option<&'static EventRow> {
        self.events.iter().find(|r| r.native == native)
    }

    /// The canonical name of a native tool name, as its contract maps it
    /// (`translate::map_tool`); a name the harness does not list is
    /// returned as it is.
    pub fn canonical_tool<'n>(&self, native: &'n str) -> &'n str {
        super::translate::canonical_tool(self.tools, native)
    }

    pub fn tool_matcher(&self, canonical: &str) -> String {
        let m = canonical.trim();
        if m.is_empty() || m == "*" || m == ".*" {
            return self.matchers.all().to_string();
        }
        let (globs, wanted): (Vec<&str>, Vec<&str>) = m
            .split('|')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .partition(|a| a.ends_with('*'));
        let mut alts: Vec<&str> = Vec::new();
        if self.tools.is_empty() {
            alts = wanted;
        } else {
            for (native, canon) in self.tools {
                if wanted.contains(canon) && !alts.contains(native) {
                    alts.push(native);
                }
            }
            if alts.is_empty() {
                alts = wanted;
            }
        }
        // A name's start and `*` (`mcp__*`, the MCP tools) is written only
        // where the tool names it stands for are known: Claude Code names
        // an MCP tool `mcp__<server>__<tool>` and reads a matcher with any
        // other character than a name's as an unanchored regex, so the
        // whole list is anchored there (else `Write` would admit
        // `TodoWrite`). Elsewhere the pattern is left out.
        if !globs.is_empty() && self.harness == HarnessId::ClaudeCode {
            let pats: Vec<String> = globs
                .iter()
                .map(|g| format!("{}.*", g.trim_end_matches('*')))
                .collect();
            let all: Vec<&str> = alts
                .iter()
                .copied()
                .chain(pats.iter().map(String::as_str))
                .collect();
            return format!("^(?:{})$", all.join("|"));
        }
        if alts.is_empty() {
            return self.matchers.all().to_string();
        }
        self.matchers.join(&alts)
    }

    pub fn matcher_for(&self, canonical_event: Event, canonical_matcher: &str) -> Option<String> {
        let spec = canonical_event.spec();
        let m = if spec.is_tool_event() {
            self.tool_matcher(canonical_matcher)
        } else if spec.matcher == event::Matcher::Source && self.source_matcher {
            let m = canonical_matcher.trim();
            if m.is_empty() || m == "*" {
                self.matchers.all().to_string()
            } else {
                m.to_string()
            }
        } else {
            String::new()
        };
        (!m.is_empty()).then_some(m)
    }

    /// Every native name of a canonical event, for the capability table.
    pub fn natives(&self, canonical: Event) -> impl Iterator<Item = &'static EventRow> + '_ {
        self.events.iter().filter(move |r| r.canonical == canonical)
    }

    /// Where this harness reads a decision on the native event `native`.
    pub fn decides_on(&self, native: &str) -> Option<Decides> {
        self.decides
            .iter()
            .find(|(n, _)| *n == native)
            .map(|(_, d)| *d)
    }

    /// The distinct answer shapes of the rows that deliver, in row order.
    pub fn shapes(&self) -> Vec<Shape> {
        let mut out: Vec<Shape> = Vec::new();
        for r in self.events {
            if let Delivery::Context(s) = r.delivery
                && !out.contains(&s)
            {
                out.push(s);
            }
        }
        out
    }
}
