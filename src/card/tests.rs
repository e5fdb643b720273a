use super::*;

const GOOD: &str = "<!-- SPDX-License-Identifier: MIT -->\n# Title here\n\n## Advisory\n`{x}` seen.\n\n## Procedure\nDo things.\n\n## Bindings\n- event: Stop\n- guard: stop\n";

fn parse(src: &str) -> Result<Card, CardError> {
    parse_card("t", src, Origin::Embedded)
}

#[test]
fn every_shipped_card_parses_and_validates() {
    let all = embedded::all();
    assert!(all.len() >= 3);
    for c in all {
        let c = c.unwrap_or_else(|e| panic!("{e}"));
        assert!(!c.body.contains("SPDX"), "{}: license line leaked", c.name);
        assert!(
            !c.body.contains("## Bindings"),
            "{}: Bindings leaked",
            c.name
        );
        if let Some(a) = &c.advisory {
            assert!(!a.contains("SPDX") && !a.contains("Bindings"));
        }
    }
}

#[test]
fn sections_are_sliced_from_the_source() {
    let src = GOOD.replace("{x}", "");
    let c = parse(&src).unwrap();
    assert_eq!(c.title, "Title here");
    assert_eq!(c.advisory.as_deref(), Some("`` seen."));
    assert!(c.body.starts_with("# Title here\n"));
    assert!(c.body.contains("## Procedure\n\nDo things."));
    assert_eq!(c.bindings.events, vec!["Stop"]);
    assert_eq!(c.bindings.guard.as_deref(), Some("stop"));
}

/// An Advisory reaches the model one line a paragraph: the source's
/// wrapping inside a paragraph is a space; paragraphs, list items, code
/// blocks, hard breaks and quotes keep their lines.
#[test]
fn an_advisorys_paragraphs_are_joined_and_its_lists_and_code_kept() {
    let advisory = "`{x}` seen. Consider whether\nthe user asked \n\tfor it:\n{list}\n\n\
                    - one item\n  wrapped\n- two\n\n```\nkeep\nthese\n```\n\n\
                    a hard  \nbreak\n\n> quoted\n> lines\n";
    let c = parse(&GOOD.replace("`{x}` seen.\n", advisory)).unwrap();
    assert_eq!(
        c.advisory.as_deref(),
        Some(
            "`{x}` seen. Consider whether the user asked for it:\n{list}\n\n\
             - one item wrapped\n- two\n\n```\nkeep\nthese\n```\n\n\
             a hard  \nbreak\n\n> quoted\n> lines"
        )
    );
    for c in embedded::all() {
        let c = c.unwrap();
        for p in c.advisory.iter().flat_map(|a| a.split("\n\n")) {
            // A placeholder alone on its line (skill-index's `{index}`)
            // keeps its line: its value is a list.
            let lone = |l: &str| l.starts_with('{') && l.ends_with('}') && !l.contains(' ');
            let lines = p.lines().filter(|l| !lone(l)).count();
            assert!(lines <= 1, "{}: {p:?}", c.name);
        }
    }
}

#[test]
fn malformed_cards_are_errors() {
    let cases = [
        (
            GOOD.replace("## Bindings\n- event: Stop\n- guard: stop\n", ""),
            "no `## Bindings`",
        ),
        (
            GOOD.replace("## Advisory\n`{x}` seen.\n\n", ""),
            "needs an `## Advisory`",
        ),
        (GOOD.to_string(), "unknown placeholder `{x}`"),
        (
            GOOD.replace("{x}", "")
                .replace("guard: stop", "guard: nope"),
            "unknown guard",
        ),
        (
            GOOD.replace("{x}", "")
                .replace("event: Stop", "event: Bogus"),
            "unknown event",
        ),
        (
            GOOD.replace("{x}", "")
                .replace("event: Stop", "event: PreCompact"),
            "no channel",
        ),
        (
            GOOD.replace("{x}", "")
                .replace("- guard: stop", "- colour: red"),
            "unknown key",
        ),
        (GOOD.replace("# Title here", ""), "no `# Title`"),
        (
            GOOD.replace("{x}", "")
                .replace("- guard: stop", "- event: PreToolUse\n- guard: stop"),
            "does not run on",
        ),
    ];
    // The card's checks and its guard's (`deck::validate`), as a card is
    // loaded.
    for (src, want) in cases {
        let e = crate::deck::validate::parse_checked("t", &src, Origin::Embedded).unwrap_err();
        assert!(
            e.message.contains(want),
            "wanted {want:?}, got {:?}",
            e.message
        );
    }
}

#[test]
fn unguarded_cards_cannot_bind_every_tool_call() {
    let src = "# T\n\nHello.\n\n## Bindings\n- event: PreToolUse\n";
    assert!(parse(src).unwrap_err().message.contains("every tool call"));
    let src = "# T\n\nHello.\n\n## Bindings\n- event: SessionStart\n";
    assert!(parse(src).is_ok());
    // Switching a shipped tool card off needs neither: it never emits.
    let src = "# Off\n\n## Bindings\n- event: PreToolUse\n- enabled: false\n";
    assert!(parse(src).is_ok());
}

#[test]
fn matcher_admits_alternatives_exactly() {
    assert!(matcher_admits("*", None));
    assert!(matcher_admits("Write|Edit", Some("Edit")));
    assert!(!matcher_admits("Write|Edit", Some("Ed")));
    assert!(matcher_admits(
        "Bash|mcp__*",
        Some("mcp__github__push_files")
    ));
    assert!(!matcher_admits("Bash|mcp__*", Some("mcp_x")));
    assert!(!matcher_admits("Bash|*", Some("Read")));
    assert!(!matcher_admits("compact", None));
}

#[test]
fn the_preparsed_table_is_current() {
    // generated/embedded_cards.rs must hold every shipped card exactly as the
    // parser reads it now; `cargo xtask gen` rewrites it.
    let table = embedded::generated_table();
    let committed = include_str!("../../generated/embedded_cards.rs");
    assert_eq!(
        committed, table,
        "generated/embedded_cards.rs is stale: run `cargo xtask gen`"
    );
    for (name, src) in embedded::sources() {
        let fresh = parse_card(name, src, Origin::Embedded).unwrap();
        let served = embedded::card(name).unwrap().unwrap();
        assert_eq!(
            serde_json::to_value(&fresh).unwrap(),
            serde_json::to_value(&served).unwrap(),
            "{name}"
        );
        assert!(embedded::is_shipped(name));
        assert!(
            embedded::preparsed(name, src.as_bytes()).is_some(),
            "{name} is served from the table"
        );
        // An entry parsed from another text (a source edited since `gen`)
        // is not served: the card is parsed from the source it has now.
        let edited = format!("{src}\n<!-- edited -->\n");
        assert!(embedded::preparsed(name, edited.as_bytes()).is_none());
    }
    assert!(embedded::card("no-such-card").is_none());
    assert!(!embedded::is_shipped("no-such-card"));
    assert!(
        !embedded::is_shipped("secrets.md") && embedded::card("secret").is_none(),
        "a name is matched whole"
    );
}
