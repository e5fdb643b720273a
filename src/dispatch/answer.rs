//! What a run does with its outcome: renders it into the harness's answer,
//! and, once the answer was written, commits its effects to the session.

use super::{Effect, Run};
use crate::envelope;
use crate::harness::{self, HarnessId};
use crate::state::ledger::LedgerKind;
use crate::state::{self, Session};
use crate::text::{self, Fragment};

impl Run {
    /// Adds a user-facing line (`systemMessage`) and renders the answer
    /// again. Used for notes that come from outside the cards (the failure
    /// record's one-time note at SessionStart).
    pub fn add_user_note(&mut self, note: &str) {
        let Some(spec) = self.event else { return };
        // A stopped call (dropped by its contract, or a SessionStart already
        // answered from another surface) stays silent.
        if !spec.carries_context() || self.stopped.is_some() {
            return;
        }
        self.outcome.user_notes.push(text::sanitize(note, 500));
        self.render();
    }

    /// Renders the outcome: what it says on this event's channels
    /// ([`envelope::said`]), laid out once as the harness reads it
    /// ([`harness::render`]).
    pub(crate) fn render(&mut self) {
        let Some(spec) = self.event else { return };
        // The decision, as this harness can take it on this event: only
        // through the event's decision mechanism and the field the
        // contract names; an ask becomes a deny where there is no ask.
        let (h, native) = match self.contract {
            None => (HarnessId::ClaudeCode, spec.name),
            Some((h, row)) => (h, row.native),
        };
        let decides = h.spec().decides_on(native);
        let mut outcome = self.outcome.clone();
        outcome.ruling = None;
        self.decided = None;
        if let Some(r) = &self.outcome.ruling {
            match harness::enforcement(Some(h), spec.event) {
                harness::Enforcement::AdviceOnly => {}
                _ if decides.is_none() => {}
                e => {
                    let cannot_ask = matches!(e, harness::Enforcement::DeniesOnly(..));
                    let (level, reason) = r.rendered(h.name(), cannot_ask);
                    self.decided = Some((level, reason.clone()));
                    outcome.ruling = Some(envelope::Ruling {
                        level,
                        reason,
                        by: r.by.clone(),
                    });
                }
            }
        }
        if self.decision_only {
            // Context here is dropped by the harness: only the decision.
            outcome.fragments.clear();
            outcome.user_notes.clear();
        }
        // What the outcome says, typed, laid out once as this harness
        // reads it.
        let to = match self.contract {
            None => harness::Target::Canonical(spec.name),
            Some((_, row)) => harness::Target::Row(row, decides),
        };
        let said = envelope::said(spec, &outcome);
        self.block = None;
        self.answer = match said.and_then(|s| harness::render(to, &s)) {
            Some(harness::Answer::Block(reason)) => {
                self.block = Some(reason);
                None
            }
            a => a.map(|a| a.line()),
        };
    }

    /// How the ledger counts `card`'s text: a reminder over a warning over
    /// a card in full.
    pub fn ledger_kind(&self, card: &str) -> LedgerKind {
        let has = |kind: LedgerKind| {
            self.effects.iter().any(
                |e| matches!(e, Effect::Ledger { card: c, kind: k } if c == card && *k == kind),
            )
        };
        if has(LedgerKind::Reminder) {
            LedgerKind::Reminder
        } else if has(LedgerKind::Warning) {
            LedgerKind::Warning
        } else {
            LedgerKind::Card
        }
    }

    /// Whether `card`'s finding is a warning (compaction), as the ledger
    /// counts it.
    pub fn is_warning(&self, card: &str) -> bool {
        self.effects.iter().any(
            |e| matches!(e, Effect::Ledger { card: c, kind: LedgerKind::Warning } if c == card),
        )
    }

    /// Applies what this call did to the session's state: once-per-session
    /// keys, cooldowns, repeat-rule keys, and the ledger. Call it only once
    /// the answer was actually written, so that nothing is marked spent or
    /// seen for a card the model never received.
    pub fn commit(&self, session: &mut Session) {
        let event = self.event.map_or("?", |e| e.name);
        let now = state::now();
        // Every ask and deny rendered is in the ledger, whatever the
        // answer carried beside it.
        if let (Some((level, reason)), Some(r)) = (&self.decided, &self.outcome.ruling) {
            let ids: Vec<&str> = r.by.iter().map(|(id, _)| id.as_str()).collect();
            let kind = match level {
                crate::policy::Level::Ask => LedgerKind::Ask,
                _ => LedgerKind::Deny,
            };
            let from: Vec<String> =
                r.by.iter()
                    .map(|(id, from)| format!("{id}: {from}"))
                    .collect();
            let detail = state::ledger::EntryDetail {
                reason: Some(text::sanitize(reason, state::ledger::MAX_REASON_CHARS)),
                source: Some(text::sanitize(&from.join("; "), 300)),
                ..self.subject.clone()
            };
            session
                .ledger
                .record_with(now, event, &ids.join(","), kind, reason, detail);
        }
        // A decision-only event delivered no advice: nothing is spent or
        // seen, so the after-tool event still gives it in full.
        if self.decision_only {
            return;
        }
        let emitted = |card: &str| self.outcome.fragments.iter().any(|f| f.card == card);
        for e in &self.effects {
            if let Effect::SpendOnce { card, key } = e
                && emitted(card)
            {
                session.spend(key);
            }
        }
        for e in &self.effects {
            if let Effect::Note(key) = e {
                session.spend(key);
            }
        }
        for e in &self.effects {
            if let Effect::Stamp { card, key } = e
                && emitted(card)
            {
                session.stamp(key, state::now());
            }
        }
        for e in &self.effects {
            if let Effect::Seen(key) = e {
                session.mark_seen(key);
            }
        }
        for (card, kind, text) in self.carried() {
            session
                .ledger
                .record_with(now, event, card, kind, &text, self.subject.clone());
        }
    }

    /// The cards' texts the answer carries (what survived the cap), each
    /// with how the ledger counts it and its text with its pointer.
    pub fn carried(&self) -> Vec<(&str, LedgerKind, String)> {
        let context = self.outcome.context_text();
        self.outcome
            .fragments
            .iter()
            .filter(|f| context.contains(f.text.lines().next().unwrap_or_default()))
            .map(|f| (f.card.as_str(), self.ledger_kind(&f.card), fragment_text(f)))
            .collect()
    }
}

fn fragment_text(f: &Fragment) -> String {
    match &f.pointer {
        Some(p) => format!("{}\n\nFull procedure: {p}", f.text),
        None => f.text.clone(),
    }
}
