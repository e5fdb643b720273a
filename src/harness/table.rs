//! The shape of a harness contract: its event rows, tool names, matcher
//! syntax and how it reads an answer, and the capability table generated
//! from all of them.

use super::HarnessId;
use super::answer::Answer;
use crate::event;
use serde_json::{Map, Value};

/// What happens to context a hook returns on one native event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// It reaches the model: cards are registered here.
    Context,
    /// The harness drops it, but the same cards can ride on the named
    /// canonical event (Qwen PreToolUse, Gemini BeforeTool → the after-tool
    /// event): they are registered and evaluated there.
    Deferred(&'static str),
    /// Nothing printed here reaches the model: not registered; a call that
    /// arrives anyway gets no output.
    Dropped,
}

/// One native event of a harness.
#[derive(Debug, Clone, Copy)]
pub struct EventRow {
    /// The harness's own name (what its config and payload say).
    pub native: &'static str,
    /// The canonical (Claude Code) event the guards judge it as.
    pub canonical: &'static str,
    pub delivery: Delivery,
    /// Why, with the source (RIG = measured on the real harness; DOC =
    /// vendor documentation; 3P = third-party write-up).
    pub note: &'static str,
}

macro_rules! row {
    ($native:literal => $canonical:literal, $delivery:expr, $note:literal) => {
        $crate::harness::EventRow {
            native: $native,
            canonical: $canonical,
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

/// How the harness reads a hook's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reads {
    /// `hookSpecificOutput.{hookEventName, additionalContext}` (Claude Code's envelope).
    Envelope,
    /// The same, under strict per-event schemas with no extra properties.
    StrictEnvelope,
    /// A flat top-level field (`additionalContext`, `additional_context`).
    Flat(&'static str),
    /// Plain text on stdout.
    PlainText,
    /// Nothing reaches the model.
    Nothing,
}

/// One harness's contract.
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
    pub reads: Reads,
    /// Whether the harness also runs Claude Code's hook files, so the same
    /// SessionStart can arrive twice (see `once`).
    pub loads_claude_hooks: bool,
    /// Translates a payload of `row` in place into the canonical shape.
    pub translate: fn(&EventRow, &mut Map<String, Value>),
    /// Reshapes the canonical envelope for `row`; `None`: print nothing.
    pub shape: fn(&EventRow, Value) -> Option<Answer>,
    /// What cannot travel and why (README, `verify`).
    pub limitation: &'static str,
}

impl Spec {
    /// The row registered for a canonical event (the first that names it).
    pub fn primary(&self, canonical: &str) -> Option<&'static EventRow> {
        self.events.iter().find(|r| r.canonical == canonical)
    }

    /// The row for a native event name (exact).
    pub fn row(&self, native: &str) -> Option<&'static EventRow> {
        self.events.iter().find(|r| r.native == native)
    }

    pub fn tool_matcher(&self, canonical: &str) -> String {
        let m = canonical.trim();
        if m.is_empty() || m == "*" || m == ".*" {
            return self.matchers.all().to_string();
        }
        let wanted: Vec<&str> = m
            .split('|')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .collect();
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
        self.matchers.join(&alts)
    }

    pub fn matcher_for(&self, canonical_event: &str, canonical_matcher: &str) -> Option<String> {
        let spec = event::lookup(canonical_event)?;
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
    fn natives<'a>(&'a self, canonical: &'a str) -> impl Iterator<Item = &'static EventRow> + 'a {
        self.events.iter().filter(move |r| r.canonical == canonical)
    }
}

/// The canonical events the capability table shows (every event a shipped
/// or planned card can use).
const TABLE_EVENTS: &[&str] = &[
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolBatch",
    "SubagentStart",
    "Stop",
    "PreCompact",
];

/// The harness-by-event capability table (Markdown): for each harness and
/// canonical event, the native event and whether a card's text reaches the
/// model there. Generated into generated/capabilities.md and printed by
/// `cuecard verify --capabilities`.
pub fn capability_table() -> String {
    let mut md = String::from(
        "# Harness capabilities\n\n\
         For each harness and canonical (Claude Code) event: the harness's own event name and \
         whether text a card emits there reaches the model. \
         `✓` delivered; `→ X` the cards ride on event X instead (the harness drops context \
         before a tool runs, so the advisory arrives with the tool's result); \
         `✗` the harness drops it (nothing is registered); `—` no such event.\n\n",
    );
    md.push_str("| harness |");
    for e in TABLE_EVENTS {
        md.push_str(&format!(" {e} |"));
    }
    md.push_str("\n|---|");
    for _ in TABLE_EVENTS {
        md.push_str("---|");
    }
    md.push('\n');
    for h in HarnessId::ALL {
        let spec = h.spec();
        md.push_str(&format!("| `{}` |", spec.id));
        for e in TABLE_EVENTS {
            let cells: Vec<String> = spec
                .natives(e)
                .map(|r| match r.delivery {
                    Delivery::Context => format!("`{}` ✓", r.native),
                    Delivery::Deferred(to) => format!(
                        "`{}` → `{}`",
                        r.native,
                        spec.primary(to).map_or(to, |p| p.native)
                    ),
                    Delivery::Dropped => format!("`{}` ✗", r.native),
                })
                .collect();
            if cells.is_empty() {
                md.push_str(" — |");
            } else {
                md.push_str(&format!(" {} |", cells.join("<br>")));
            }
        }
        md.push('\n');
    }
    md.push_str("\n## How each harness reads an answer\n\n| harness | answer | tool matcher | loads Claude Code hooks |\n|---|---|---|---|\n");
    for h in HarnessId::ALL {
        let spec = h.spec();
        let answer = match spec.reads {
            Reads::Envelope => {
                "`hookSpecificOutput.additionalContext` + `hookEventName`".to_string()
            }
            Reads::StrictEnvelope => {
                "`hookSpecificOutput.additionalContext`, strict schema (no extra keys)".to_string()
            }
            Reads::Flat(f) => format!("top-level `{f}`"),
            Reads::PlainText => "plain text on stdout".to_string(),
            Reads::Nothing => "nothing reaches the model".to_string(),
        };
        let matcher = match spec.tool_matcher("Bash|Write|Edit") {
            m if m.is_empty() => "none (every tool; cuecard filters)".to_string(),
            m => format!("`{}`", m.replace('|', "\\|")),
        };
        md.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            spec.id,
            answer,
            matcher,
            if spec.loads_claude_hooks { "yes" } else { "no" }
        ));
    }
    md.push_str("\n## Limits\n\n");
    for h in HarnessId::ALL {
        md.push_str(&format!(
            "- **{}** (`{}`): {}\n",
            h.name(),
            h.id(),
            h.spec().limitation
        ));
    }
    md.push_str("\n## Every native event\n\n| harness | native | canonical | delivery | why |\n|---|---|---|---|---|\n");
    for h in HarnessId::ALL {
        let spec = h.spec();
        for r in spec.events {
            let d = match r.delivery {
                Delivery::Context => "✓".to_string(),
                Delivery::Deferred(to) => format!("→ `{to}`"),
                Delivery::Dropped => "✗".to_string(),
            };
            md.push_str(&format!(
                "| `{}` | `{}` | {} | {} | {} |\n",
                spec.id, r.native, r.canonical, d, r.note
            ));
        }
    }
    md
}
