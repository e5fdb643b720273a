//! The hand-off note: its file name and the sections the recovery carries,
//! in one place. The compaction-handoff skill's template
//! (messages/skills/compaction-handoff/SKILL.md) asks for exactly these; a
//! test fails when the two drift apart.

use super::excerpt::{self, Excerpt};

/// The note, at the project root (the git root).
pub const FILE: &str = "HANDOFF.md";

/// The sections carried back, as the template names them. A heading matches
/// when it starts with one of these, in any case (`## Next steps:`).
pub const CARRIED: [&str; 3] = ["Goal", "In progress", "Next step"];

/// The skill whose template the note follows.
pub const SKILL: &str = "compaction-handoff";

/// The round trip in one sentence, as the skill's description (and so the
/// skill index) and the compaction cards say it.
pub const ROUND_TRIP: &str = "When a compaction warning arrives, write HANDOFF.md at the project root (its Goal, In progress and Next step); after the compaction, cuecard carries those sections back into the context.";

/// The cards that say [`ROUND_TRIP`].
pub const ROUND_TRIP_CARDS: [&str; 3] =
    ["compaction-warning", "compact-recovery", "handoff-recovery"];

/// A Markdown heading: its level and text (`## Goal` → 2, `Goal`).
pub fn heading(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    let level = t.bytes().take_while(|b| *b == b'#').count();
    let rest = t.get(level..)?;
    if level == 0 || level > 6 || !(rest.is_empty() || rest.starts_with([' ', '\t'])) {
        return None;
    }
    Some((level, rest.trim().trim_end_matches(':').trim_end()))
}

/// Whether a heading's text names a carried section.
pub fn carried(title: &str) -> bool {
    let t = title.to_lowercase();
    CARRIED.iter().any(|c| t.starts_with(&c.to_lowercase()))
}

/// What the recovery carries of a note: its title line, then its carried
/// sections in the note's order, or, when it has none of them, its first
/// lines, within `max` bytes. `shown` names the whole note in the cut
/// marker.
pub fn excerpt(text: &str, shown: &str, max: usize) -> Excerpt {
    let lines: Vec<&str> = text.lines().collect();
    let mut keep: Vec<&str> = Vec::new();
    if let Some(first) = lines.iter().find(|l| !l.trim().is_empty())
        && heading(first).is_some_and(|(level, _)| level == 1)
    {
        keep.push(first);
    }
    let mut inside: Option<usize> = None;
    let mut any = false;
    for l in &lines {
        if let Some((level, title)) = heading(l) {
            if inside.is_some_and(|at| level <= at) {
                inside = None;
            }
            if inside.is_none() && level > 1 && carried(title) {
                inside = Some(level);
                any = true;
            }
        }
        if inside.is_some() {
            keep.push(l);
        }
    }
    if any {
        excerpt::quote(keep, shown, max)
    } else {
        excerpt::quote(lines, shown, max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::recovery::MAX_EXCERPT_BYTES as MAX;

    /// The skill's note template: the fenced block after "write `HANDOFF.md`".
    fn skill_template() -> (String, String) {
        let skill = crate::card::embedded::MESSAGES
            .get_file(format!("skills/{SKILL}/SKILL.md"))
            .and_then(|f| f.contents_utf8())
            .expect("the compaction-handoff skill is shipped");
        let mut blocks = skill.split("```").skip(1).step_by(2);
        let template = blocks.next().expect("a fenced template").to_string();
        (skill.to_string(), template)
    }

    #[test]
    fn the_skill_and_the_reader_agree() {
        let (skill, template) = skill_template();
        assert!(
            skill.contains(&format!("write `{FILE}` at the project root")),
            "the skill names the file the reader reads"
        );
        let titles: Vec<&str> = template.lines().filter_map(heading).map(|h| h.1).collect();
        for c in CARRIED {
            assert!(
                titles.contains(&c),
                "the template has no `## {c}` heading: {titles:?}"
            );
        }
        for t in titles.iter().filter(|t| carried(t)) {
            assert!(CARRIED.contains(t), "`{t}` reads as carried but is not one");
        }
        // The template, read back, carries exactly those sections.
        let e = excerpt(&template, FILE, MAX);
        let carried_titles: Vec<&str> = e
            .text
            .lines()
            .filter_map(|l| heading(l.strip_prefix("> ")?))
            .filter(|(level, _)| *level > 1)
            .map(|h| h.1)
            .collect();
        assert_eq!(carried_titles, CARRIED);
    }

    #[test]
    fn the_skill_index_and_the_cards_say_the_round_trip_in_one_sentence() {
        let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        let sentence = words(ROUND_TRIP);
        let (skill, _) = skill_template();
        assert!(
            skill.contains(&format!("description: {ROUND_TRIP}\n")),
            "the skill's description is the sentence"
        );
        assert!(
            crate::guards::skill_index::text().contains(&sentence),
            "the skill index says it"
        );
        assert!(ROUND_TRIP.contains(FILE) && CARRIED.iter().all(|c| ROUND_TRIP.contains(c)));
        for name in ROUND_TRIP_CARDS {
            let src = crate::card::embedded::source(name).expect("a shipped card");
            assert!(words(src).contains(&sentence), "card {name} says it");
        }
    }

    #[test]
    fn sections_are_picked_and_the_rest_left_out() {
        let note = "# Hand-off (2026-12-01 10:00)\n## Goal\nShip it.\n## Done\n- secret-ish detail\n## In progress\n- src/a.rs half done\n### sub\n- deeper\n## Next steps:\n- run `cargo test`\n## Decisions\n- none\n";
        let e = excerpt(note, FILE, MAX);
        assert_eq!(
            e.text,
            "> # Hand-off (2026-12-01 10:00)\n> ## Goal\n> Ship it.\n> ## In progress\n> - src/a.rs half done\n> ### sub\n> - deeper\n> ## Next steps:\n> - run `cargo test`"
        );
        // Without those headings: the first lines.
        let e = excerpt("remember: tests pass\nnext: commit\n", FILE, MAX);
        assert_eq!(e.text, "> remember: tests pass\n> next: commit");
        // A long section is cut at a line, with the path.
        let long = format!("## Next step\n{}", "- a step to take\n".repeat(200));
        let e = excerpt(&long, "HANDOFF.md", MAX);
        assert!(e.cut && e.text.len() <= MAX);
        assert!(e.text.ends_with("the whole file is `HANDOFF.md`]"));
    }
}
