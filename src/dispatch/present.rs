//! A finding presented: the card's text filled with it, or a one-line
//! reminder when the session was already told.

use super::judge::Judge;
use super::{Effect, Run};
use crate::card::Card;
use crate::guards;
use crate::paths;
use crate::state::key::RepeatKey;
use crate::state::ledger::LedgerKind;
use crate::text::{self, Fragment};

/// Puts a finding into the outcome. The repeat rule: a finding (judge,
/// target) already injected in full in this session comes back as a
/// one-line reminder that names the card and keeps the pointer. Returns the
/// trace line.
pub(super) fn present(
    card: &Card,
    judge: &Judge,
    finding: guards::Finding,
    has_session: bool,
    seen: impl Fn(&RepeatKey) -> bool,
    run: &mut Run,
) -> String {
    let repeat_key = judge.repeat_key(&finding.target);
    let repeated = seen(&repeat_key);
    if repeated {
        run.outcome.push(Fragment {
            card: card.name.clone(),
            text: reminder_line(card),
            pointer: Some(paths::card_pointer(card)),
        });
        run.effects.push(Effect::Ledger {
            card: card.name.clone(),
            kind: LedgerKind::Reminder,
        });
    } else {
        run.outcome.push(Fragment {
            card: card.name.clone(),
            text: fill(card, &finding),
            pointer: Some(paths::card_pointer(card)),
        });
        if has_session {
            run.effects.push(Effect::Seen(repeat_key));
        }
        if let Some(n) = finding.user_note {
            run.outcome.user_notes.push(text::sanitize(&n, 500));
        }
    }
    if finding.warning {
        run.effects.push(Effect::Ledger {
            card: card.name.clone(),
            kind: LedgerKind::Warning,
        });
    }
    if let Some(reason) = finding.deny {
        crate::envelope::Ruling::merge(
            &mut run.outcome.ruling,
            crate::policy::Level::Deny,
            reason,
            (judge.owner(), "CUECARD_STRICT".into()),
        );
    }
    if let Some(key) = finding.once {
        run.effects.push(Effect::SpendOnce {
            card: card.name.clone(),
            key,
        });
    }
    let how = if repeated {
        " (repeated in this session: one-line reminder)"
    } else {
        ""
    };
    format!("{}: {}{how}", judge.label(), finding.why)
}

/// A card's text with a finding's values: payload values sanitised to one
/// line, text shipped in the binary verbatim, quoted project text cleaned
/// (newlines kept).
pub(super) fn fill(card: &Card, finding: &guards::Finding) -> String {
    let quoted: Vec<(&str, String)> = finding
        .quoted
        .iter()
        .map(|(k, v)| (*k, text::clean_block(v)))
        .collect();
    let mut verbatim: Vec<(&str, &str)> = finding.trusted.clone();
    verbatim.extend(quoted.iter().map(|(k, v)| (*k, v.as_str())));
    text::fill_with(card.emitted_text(), &finding.vars, &verbatim)
}

/// The one-line reminder for a repeated finding.
fn reminder_line(card: &Card) -> String {
    format!(
        "Reminder: \"{}\" applies here again (its advisory was given earlier in this session).",
        text::sanitize(&card.title, 120)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::{Origin, parse_card};
    use crate::guards::Finding;
    use crate::state::Session;

    const CARD: &str = "# Dependency manifest changed\n\n## Advisory\nLong advisory about `{percent}`.\n\n## Procedure\nSteps.\n\n## Bindings\n- event: PostToolUse\n- guard: compaction\n";

    #[test]
    fn a_repeated_finding_is_a_one_line_reminder_with_the_pointer() {
        let card = parse_card("dep", CARD, Origin::Embedded).unwrap();
        let finding = || Finding::new("Cargo.toml", "manifest").var("percent", "Cargo.toml");
        let mut session = Session::default();
        let mut first = Run::default();
        present(
            &card,
            &Judge::Guard("compaction"),
            finding(),
            true,
            |k| session.was_seen(k),
            &mut first,
        );
        assert!(
            first.outcome.fragments[0]
                .text
                .contains("Long advisory about `Cargo.toml`")
        );
        first.commit(&mut session);
        let mut second = Run::default();
        let why = present(
            &card,
            &Judge::Guard("compaction"),
            finding(),
            true,
            |k| session.was_seen(k),
            &mut second,
        );
        let f = &second.outcome.fragments[0];
        assert_eq!(
            f.text,
            "Reminder: \"Dependency manifest changed\" applies here again (its advisory was given earlier in this session)."
        );
        assert!(!f.text.contains('\n'), "one line");
        assert_eq!(f.pointer.as_deref(), Some("run `cuecard cards show dep`"));
        assert!(why.contains("reminder"));
        assert_eq!(second.ledger_kind("dep"), LedgerKind::Reminder);
        // Another target is a new finding, in full.
        let mut third = Run::default();
        present(
            &card,
            &Judge::Guard("compaction"),
            Finding::new("package.json", "m").var("percent", "package.json"),
            true,
            |k| session.was_seen(k),
            &mut third,
        );
        assert!(third.outcome.fragments[0].text.contains("Long advisory"));
        // The ledger counted the first in full and the reminder as one.
        second.commit(&mut session);
        let kinds: Vec<&str> = session
            .ledger
            .entries
            .iter()
            .map(|e| e.kind.as_str())
            .collect();
        assert_eq!(kinds, vec!["card", "reminder"]);
    }
}
