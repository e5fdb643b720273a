use super::*;
use crate::card::parse_card;

#[test]
fn round_trips_cards_and_errors() {
    let src = "# T\twith tab\n\n## Advisory\n`{path}` seen;\nline two \\ back\\slash\n\n## Procedure\nSteps.\n\n## Bindings\n- event: PreToolUse\n- paths: a/**\n- command: ^x\\s+y\n- once: session\n";
    let card = parse_card(
        "t",
        src,
        Origin::Project(PathBuf::from("/p/.cuecard/cards/t\tx.md")),
    )
    .unwrap();
    let mut text = String::new();
    let h = Header {
        stamp: "stamp\t1".into(),
        dir_mtime_ns: 7,
        written_ns: 9,
    };
    header(&mut text, "/p/.cuecard/cards", &h);
    Summary::default().write(&mut text);
    let f = FileFields {
        size: 10,
        mtime_ns: 20,
    };
    line(
        &mut text,
        "bad\t.md",
        "cd",
        f,
        false,
        &Err("no\tgood\nat all".into()),
        true,
    );
    line(&mut text, "t.md", "ab", f, true, &Ok(card.clone()), false);

    let (back, summary, body) = split_header(&text, "/p/.cuecard/cards").unwrap();
    assert_eq!(back, h);
    assert_eq!(summary, "=\t0\t,,\t0");
    let lines: Vec<&str> = body.lines().collect();
    assert_eq!(
        lines.len(),
        2,
        "escaped tabs and newlines stay in their line"
    );

    let bad = parse_line(lines[0]).unwrap();
    assert_eq!(unescape(&lines[0][bad.file.clone()]), "bad\t.md");
    assert!(!Line::trusted(lines[0]) && !bad.is_ok());
    assert_eq!(unescape(bad.body(lines[0]).unwrap()), "no\tgood\nat all");

    let t = parse_line(lines[1]).unwrap();
    assert!(Line::trusted(lines[1]) && t.is_ok());
    assert_eq!(t.sha256(lines[1]), "ab");
    let ff = t.file_fields(lines[1]).unwrap();
    assert_eq!((ff.size, ff.mtime_ns), (10, 20));
    let bad_size = lines[1].replacen("\t10\t", "\tten\t", 1);
    let b = parse_line(&bad_size).unwrap();
    assert!(
        b.file_fields(&bad_size).is_none(),
        "a malformed size is a miss"
    );
    assert_eq!(&lines[1][t.events.clone()], "PreToolUse");
    assert_eq!(
        &lines[1][t.reach.clone()],
        "Bash,PowerShell,Write,Edit,MultiEdit,NotebookEdit,apply_patch;a/",
        "the paths' literal start and the tools they imply"
    );
    let body = t.body(lines[1]).unwrap();
    let trig = triggers(body).unwrap();
    assert_eq!(trig[1].1, "^x\\s+y", "a backslash survives");
    assert_eq!(order(body), Some(50));
    let back = super::card("t", &lines[1][t.events.clone()], body).unwrap();
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&card).unwrap()
    );

    let mut slim = String::new();
    line(&mut slim, "t.md", "ab", f, true, &Ok(card.clone()), true);
    let l = slim.trim_end();
    let s = parse_line(l).unwrap();
    let slimmed = super::card("t", &l[s.events.clone()], s.body(l).unwrap()).unwrap();
    assert_eq!(
        slimmed.body, "",
        "slim drops the body of a card with an Advisory"
    );
    assert_eq!(slimmed.advisory, card.advisory);

    assert!(
        split_header(&text, "/elsewhere").is_none(),
        "a cache of another directory"
    );
    assert!(split_header("garbage\n", "/p/.cuecard/cards").is_none());
    let old = text.replacen(MAGIC, "cuecard-cards 6", 1);
    assert!(
        split_header(&old, "/p/.cuecard/cards").is_none(),
        "another version"
    );
    assert!(
        parse_line("1\tok\tE").is_none(),
        "a line with missing fields"
    );
    assert!(parse_line("1\tok\tE\t;\tx.md\tab\t1\t2\t*\t-\t1\t50\t0").is_some());
    assert!(parse_line("1\terr\t\t\tx.md\tab\t1\t2\tbroken").is_some());
    assert!(
        parse_line("1\tok\tE\t;\tx.md").is_none(),
        "no SHA-256 and after"
    );
    assert!(
        parse_line("7\tok\tE\t;\tx.md\tab").is_none(),
        "a verdict is 0 or 1"
    );
    assert!(
        parse_line("1\tmaybe\tE\t;\tx.md\tab").is_none(),
        "ok or err"
    );
    assert!(
        super::card("t", "PreToolUse", "*\t-").is_none(),
        "a truncated card"
    );
}

#[test]
fn a_damaged_trigger_count_is_a_miss_not_a_panic() {
    // The count comes from the cache file: it must not size an
    // allocation (usize::MAX overflows the capacity; a mere 2^40 would
    // abort the process on the allocation).
    for n in [u64::MAX, 1 << 40] {
        let body = format!("*\t-\t1\t50\t{n}\tk\tv");
        assert!(triggers(&body).is_none(), "{n}");
        assert!(super::card("t", "PreToolUse", &body).is_none(), "{n}");
    }
}

#[test]
fn lines_split_at_newlines_only() {
    let t = "a\tb\nc\n\nd";
    let got: Vec<(usize, &str)> = lines(t).collect();
    assert_eq!(got, vec![(0, "a\tb"), (4, "c"), (6, ""), (7, "d")]);
    assert_eq!(lines("x\n").collect::<Vec<_>>(), vec![(0, "x")]);
    assert_eq!(lines("").count(), 0);
}

/// A cache line for a card named `name` with these Bindings lines.
fn card_line(name: &str, bindings: &str, trusted: bool) -> String {
    let src = format!("# T\n\n## Advisory\nSeen.\n\n## Bindings\n{bindings}");
    let card = parse_card(name, &src, Origin::Embedded);
    let card = card.map_err(|e| e.message);
    let mut out = String::new();
    let f = FileFields::default();
    line(
        &mut out,
        &format!("{name}.md"),
        "ab",
        f,
        trusted,
        &card,
        true,
    );
    out
}

fn summary_of(lines: &[String]) -> String {
    let mut s = Summary::default();
    for l in lines {
        let l = l.trim_end();
        s.add(l, &parse_line(l).unwrap());
    }
    let mut out = String::new();
    s.write(&mut out);
    out.trim_end().to_string()
}

#[test]
fn the_summary_gathers_names_and_reaches_per_event() {
    let cards = [
        card_line("mig", "- event: PreToolUse\n- paths: migrations/**\n", true),
        card_line(
            "ven",
            "- event: PreToolUse\n- paths: vendor/**, third/**\n",
            true,
        ),
        card_line("mk", "- event: PreToolUse\n- command: ^make\n", true),
    ];
    let s = summary_of(&cards);
    assert!(
        s.starts_with("=\t0\t,mig,ven,mk,\t1\tPreToolUse\t3\t2\t"),
        "{s}"
    );
    // The two path cards share their tool list: one reach, with the
    // union of their prefixes.
    assert!(
        s.contains(";migrations/,third/,vendor/"),
        "one reach for one tool list: {s}"
    );
    fn calls<'a>(tool: &'a str, path: &'a str) -> impl Fn(&str) -> bool + 'a {
        move |reach: &str| {
            let paths = vec![path.to_string()];
            crate::trigger::reach_admits(reach, Some(tool), || &paths)
        }
    }
    let none: Vec<String> = Vec::new();
    let q = |names: &[String], event: &str, tool: &str, path: &str| {
        quiet(&s, names, event, &calls(tool, path))
    };
    assert_eq!(summary_lines(&s), Some(3));
    assert_eq!(summary_lines("=\t0\t,,\t0"), Some(0));
    assert_eq!(summary_lines("=\tx\t,,\t0"), None);
    assert_eq!(q(&none, "PreToolUse", "Write", "src/lib.rs"), Some(3));
    assert_eq!(q(&none, "PreToolUse", "Write", "vendor/x.go"), None);
    assert_eq!(q(&none, "PreToolUse", "Write", "third/x.go"), None);
    assert_eq!(q(&none, "PreToolUse", "Bash", ""), None, "mk could fire");
    assert_eq!(q(&none, "PreToolUse", "Read", "vendor/x.go"), Some(3));
    assert_eq!(q(&none, "Stop", "Write", "vendor/x.go"), Some(0));
    let listed = |n: &str| vec![n.to_string()];
    assert_eq!(
        q(&listed("ven"), "PreToolUse", "Read", "x"),
        None,
        "a listed name"
    );
    assert_eq!(q(&listed("ve"), "PreToolUse", "Read", "x"), Some(3));
    assert_eq!(q(&listed("mig,ven"), "PreToolUse", "Read", "x"), Some(3));

    // A card with no path prefix makes its tool list's reach any path.
    let any = card_line("all", "- event: PreToolUse\n- paths: **/*.lock\n", true);
    let s2 = summary_of(&[cards[0].clone(), any]);
    assert!(quiet(&s2, &none, "PreToolUse", &calls("Write", "src/x")).is_none());

    // Untrusted cards and files in error are loose: always look.
    for loose in [
        card_line("new", "- event: PreToolUse\n- paths: new/**\n", false),
        card_line("bad", "- event: Nope\n", true),
    ] {
        let s3 = summary_of(&[cards[0].clone(), loose]);
        assert!(s3.starts_with("=\t1\t"), "{s3}");
        assert_eq!(summary_lines(&s3), Some(2), "one loose, one named");
        assert!(quiet(&s3, &none, "PreToolUse", &calls("Read", "x")).is_none());
    }
    assert!(
        quiet("=\t0\t,,\t2\tE", &none, "E", &|_| false).is_none(),
        "malformed"
    );
    assert!(quiet("=\t0\t,,\t0\textra", &none, "E", &|_| false).is_none());
}
