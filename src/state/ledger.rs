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
    /// The tool of the call (`Write`, `Bash`), for `cuecard report`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    /// What the call touched (a path, a command's first words), shortened.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    /// A decision's reason as sent (shortened).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A decision's policy lines: where each came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The call's number in the session (1 for the first), given when the
    /// call log is folded (a log line does not know it); 0: unknown.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub call: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// What a ledger entry may say beside its figures: the call's tool and
/// target, and a decision's reason and policy source lines.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EntryDetail {
    pub tool: Option<String>,
    pub target: Option<String>,
    pub reason: Option<String>,
    pub source: Option<String>,
}

impl EntryDetail {
    /// The tool and target of a tool call (nothing for other events): the
    /// path it names, or a command's first two words (never its arguments,
    /// which may carry a secret), shortened.
    pub fn of_call(payload: &crate::payload::Payload) -> EntryDetail {
        let Some(tool) = payload.tool_name() else {
            return EntryDetail::default();
        };
        let input = payload.tool_input();
        let get = |k: &str| input.and_then(|m| m.get(k)).and_then(|v| v.as_str());
        let target = ["file_path", "path", "notebook_path", "pattern", "url"]
            .iter()
            .find_map(|k| get(k))
            .map(|s| crate::text::sanitize(s, 120))
            .or_else(|| {
                get("command").or_else(|| get("cmd")).map(|c| {
                    let words: Vec<&str> = c.split_whitespace().take(2).collect();
                    let keep = match words[..] {
                        [a, b] if b.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') => {
                            format!("{a} {b}")
                        }
                        [a, ..] => a.to_string(),
                        [] => String::new(),
                    };
                    crate::text::sanitize(&keep, 60)
                })
            });
        EntryDetail {
            tool: Some(crate::text::sanitize(tool, 60)),
            target,
            ..EntryDetail::default()
        }
    }
}

/// The longest reason kept in an entry.
pub const MAX_REASON_CHARS: usize = 300;

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
        self.record_with(time, event, card, kind, text, EntryDetail::default());
    }

    /// [`Ledger::record`], with the call's tool and target and a
    /// decision's reason and source.
    pub fn record_with(
        &mut self,
        time: u64,
        event: &str,
        card: &str,
        kind: LedgerKind,
        text: &str,
        detail: EntryDetail,
    ) {
        let chars = crate::text::len16(text) as u64;
        let tokens = estimate_tokens(text);
        self.add(LedgerEntry {
            time,
            event: event.to_string(),
            card: card.to_string(),
            kind: kind.as_str().to_string(),
            chars,
            tokens,
            tool: detail.tool,
            target: detail.target,
            reason: detail.reason,
            source: detail.source,
            call: 0,
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
