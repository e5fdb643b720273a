//! Cards: short Markdown guidance, one file each in messages/.
//!
//! A card has a title, an `## Advisory` (what reaches the model when its
//! guard fires), other sections such as `## Procedure` (read on demand), and
//! `## Bindings` (for maintainers and the registration generator; never
//! emitted). See docs/design.md §3.

mod bindings;
pub mod embedded;
mod parse;

pub use bindings::{Bindings, TRIGGER_KEYS, TRIGGER_PLACEHOLDERS, has_trigger};
pub use parse::{is_valid_name, parse_card, placeholders, raw_parts};

use crate::event;
use std::path::PathBuf;

/// Where a card came from.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Origin {
    /// Shipped inside the binary.
    Embedded,
    /// The user's own directory.
    User(PathBuf),
    /// The project's `.cuecard/cards/`.
    Project(PathBuf),
}

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Card {
    pub name: String,
    pub title: String,
    /// The `## Advisory` section, trimmed, comments removed.
    pub advisory: Option<String>,
    /// Title and every section but Bindings, comments removed.
    pub body: String,
    pub bindings: Bindings,
    pub origin: Origin,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardError {
    pub card: String,
    pub message: String,
}

impl std::fmt::Display for CardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "card {}: {}", self.card, self.message)
    }
}

impl Card {
    /// The checks that make a card safe to emit at run time that need no
    /// guard; [`crate::deck::validate::guarded`] adds the guard's. Shipped
    /// cards are checked by a unit test, so a malformed one fails the test
    /// suite, never a hook.
    pub fn validate(&self) -> Result<(), String> {
        let b = &self.bindings;
        // A card that only switches a shipped one off (`- enabled: false`)
        // never emits: it needs no event.
        if b.events.is_empty() && b.enabled {
            return Err("Bindings has no `event`".into());
        }
        for name in &b.events {
            let spec = event::lookup(name).ok_or_else(|| format!("unknown event `{name}`"))?;
            if !spec.carries_context() {
                return Err(format!(
                    "event `{name}` has no channel to the model, so a card there could never be read"
                ));
            }
        }
        let advisory_placeholders = self
            .advisory
            .as_deref()
            .map(placeholders)
            .unwrap_or_default();
        match &b.guard {
            // The guard's half (its name, events and placeholders) is
            // checked above the guards: `deck::validate::guarded`.
            Some(_) => {}
            None if b.has_trigger() => {
                for p in &advisory_placeholders {
                    if !bindings::TRIGGER_PLACEHOLDERS.contains(p) {
                        return Err(format!("unknown placeholder `{{{p}}}`"));
                    }
                }
            }
            None => {
                if let Some(p) = advisory_placeholders.first() {
                    return Err(format!("placeholder `{{{p}}}` in a card with no guard"));
                }
                // A disabled card never emits: it may switch a shipped tool
                // card off without a guard or trigger of its own.
                if let Some(e) = b
                    .events
                    .iter()
                    .filter(|_| b.enabled)
                    .find(|e| event::lookup(e).is_some_and(|s| s.is_tool_event()))
                {
                    return Err(format!(
                        "a card on `{e}` needs a guard or a trigger: it would otherwise emit on every tool call"
                    ));
                }
            }
        }
        Ok(())
    }

    /// What reaches the model when the card fires: its Advisory when it has
    /// one (followed by the `Full procedure` pointer), else its stripped body.
    pub fn emitted_text(&self) -> &str {
        self.advisory.as_deref().unwrap_or(&self.body)
    }

    /// Whether the emitted text is followed by a `Full procedure` pointer.
    pub fn has_procedure(&self) -> bool {
        self.advisory.is_some()
    }

    /// Whether this card is bound to `event`.
    pub fn binds(&self, event: &str) -> bool {
        self.bindings.binds(event)
    }
}

/// The union of registration matchers: `*` if any admits everything, else
/// the sorted alternatives (`A|B|C`).
pub fn matcher_union<'a>(matchers: impl Iterator<Item = &'a str>) -> String {
    let mut alts: Vec<&str> = Vec::new();
    for m in matchers {
        let m = m.trim();
        if m.is_empty() || m == "*" {
            return "*".to_string();
        }
        for a in m.split('|').map(str::trim) {
            if !alts.contains(&a) {
                alts.push(a);
            }
        }
    }
    alts.sort_unstable();
    alts.join("|")
}

/// Whether a registration matcher (`*`, empty, or `A|B|C`, where an
/// alternative `mcp__*` admits every name that starts `mcp__`) admits `value`.
pub fn matcher_admits(matcher: &str, value: Option<&str>) -> bool {
    let m = matcher.trim();
    if m.is_empty() || m == "*" {
        return true;
    }
    match value {
        Some(v) => m
            .split('|')
            .map(str::trim)
            .any(|alt| match alt.strip_suffix('*') {
                Some(start) if !start.is_empty() => v.starts_with(start),
                _ => alt == v,
            }),
        None => false,
    }
}

impl std::error::Error for CardError {}

#[cfg(test)]
mod tests;
