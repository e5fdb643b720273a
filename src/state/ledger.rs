//! The per-session ledger: what was injected (card, characters, tokens) and
//! which warnings were raised. Token figures are estimates (UTF-8 bytes / 4,
//! rounded up): counting them exactly would load the tokenizer on the hook
//! path. `cuecard cards list` gives exact counts per card.

use serde::{Deserialize, Serialize};

/// Entries kept per session (totals keep counting past it).
pub const MAX_ENTRIES: usize = 100;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Ledger {
    #[serde(default)]
    pub entries: Vec<LedgerEntry>,
    #[serde(default)]
    pub injections: u64,
    #[serde(default)]
    pub reminders: u64,
    #[serde(default)]
    pub warnings: u64,
    #[serde(default)]
    pub chars: u64,
    #[serde(default)]
    pub tokens: u64,
    /// Calls denied under a policy (docs/design.md §4a).
    #[serde(default)]
    pub denies: u64,
    /// Calls put to a person under an `ask` policy.
    #[serde(default)]
    pub asks: u64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct LedgerEntry {
    /// Unix seconds.
    pub time: u64,
    pub event: String,
    pub card: String,
    /// `card`, `reminder` or `warning`; `deny` or `ask` for a decision
    /// (its `card` is then the policy ids that decided).
    pub kind: String,
    /// UTF-16 code units, as the harness counts them.
    pub chars: u64,
    /// Estimated tokens (bytes / 4).
    pub tokens: u64,
}

/// What a ledger entry records: a card's text in full, a one-line
/// reminder (the repeat rule), a warning (compaction), or a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerKind {
    Card,
    Reminder,
    Warning,
    Deny,
    Ask,
}

impl LedgerKind {
    /// The stored form.
    pub fn as_str(self) -> &'static str {
        match self {
            LedgerKind::Card => "card",
            LedgerKind::Reminder => "reminder",
            LedgerKind::Warning => "warning",
            LedgerKind::Deny => "deny",
            LedgerKind::Ask => "ask",
        }
    }

    /// The stored form read back (anything else counts as a card).
    pub fn parse(s: &str) -> LedgerKind {
        match s {
            "reminder" => LedgerKind::Reminder,
            "warning" => LedgerKind::Warning,
            "deny" => LedgerKind::Deny,
            "ask" => LedgerKind::Ask,
            _ => LedgerKind::Card,
        }
    }
}

/// Estimated tokens of `text` without the tokenizer.
pub fn estimate_tokens(text: &str) -> u64 {
    (text.len() as u64).div_ceil(4)
}

impl Ledger {
    pub fn record(&mut self, time: u64, event: &str, card: &str, kind: LedgerKind, text: &str) {
        let chars = crate::text::len16(text) as u64;
        let tokens = estimate_tokens(text);
        self.add(LedgerEntry {
            time,
            event: event.to_string(),
            card: card.to_string(),
            kind: kind.as_str().to_string(),
            chars,
            tokens,
        });
    }

    /// Adds an entry and counts it in the totals.
    pub fn add(&mut self, e: LedgerEntry) {
        let kind = LedgerKind::parse(&e.kind);
        match kind {
            // A decision is not an injection: it is counted on its own.
            LedgerKind::Deny => self.denies += 1,
            LedgerKind::Ask => self.asks += 1,
            LedgerKind::Card | LedgerKind::Reminder | LedgerKind::Warning => {
                self.injections += 1;
                match kind {
                    LedgerKind::Reminder => self.reminders += 1,
                    LedgerKind::Warning => self.warnings += 1,
                    _ => {}
                }
                self.chars += e.chars;
                self.tokens += e.tokens;
            }
        }
        self.entries.push(e);
        self.trim();
    }

    /// Adds another ledger's totals and entries (which come after this one's).
    pub fn absorb(&mut self, other: Ledger) {
        self.injections += other.injections;
        self.reminders += other.reminders;
        self.warnings += other.warnings;
        self.chars += other.chars;
        self.tokens += other.tokens;
        self.denies += other.denies;
        self.asks += other.asks;
        self.entries.extend(other.entries);
        self.trim();
    }

    /// Keeps the last [`MAX_ENTRIES`] entries.
    pub fn trim(&mut self) {
        if self.entries.len() > MAX_ENTRIES {
            let extra = self.entries.len() - MAX_ENTRIES;
            self.entries.drain(..extra);
        }
    }
}
