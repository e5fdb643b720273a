//! One precedence (project over user over shipped), seen alike by the hook,
//! `cuecard explain`, `cuecard cards list` and `cuecard install`, on a
//! project that overrides, disables and adds cards at every level — through
//! the real binary.

mod support;

use serde_json::{Value, json};
use support::Sandbox;

/// Who should win for each name, and what it overrides.
/// (name, winner, overridden, disabled)
const TABLE: &[(&str, &str, Option<&str>, bool)] = &[
    // shipped, overridden by the user
    ("session-start", "user", Some("shipped"), false),
    // shipped, overridden by the user and by the project
    ("skill-index", "project", Some("user"), false),
    // shipped, switched off by the project
    ("kb-drift", "project", Some("shipped"), true),
    // the user's own
    ("team-a", "user", None, false),
    // the user's own, overridden by the project
    ("team-b", "project", Some("user"), false),
    // the project's own
    ("team-c", "project", None, false),
];

fn text(name: &str, scope: &str) -> String {
    format!("{}-{}-TEXT", name.to_uppercase(), scope.to_uppercase())
}

fn card(name: &str, scope: &str, disabled: bool) -> String {
    let off = if disabled { "- enabled: false\n" } else { "" };
    format!(
        "# {name} ({scope})\n\n{}\n\n## Bindings\n- event: SessionStart\n{off}",
        text(name, scope)
    )
}

fn sandbox() -> Sandbox {
    let sb = Sandbox::new();
    let user = sb.home().join(".config/cuecard/cards");
    std::fs::create_dir_all(&user).unwrap();
    let put_user = |n: &str| std::fs::write(user.join(format!("{n}.md")), card(n, "user", false));
    let put_project =
        |n: &str, off: bool| sb.write(&format!(".cuecard/cards/{n}.md"), &card(n, "project", off));
    put_user("session-start").unwrap();
    put_user("skill-index").unwrap();
    put_project("skill-index", false);
    put_project("kb-drift", true);
    put_user("team-a").unwrap();
    put_user("team-b").unwrap();
    put_project("team-b", false);
    put_project("team-c", false);
    sb.test().arg("trust").success();
    sb
}

fn start(sb: &Sandbox) -> Value {
    let mut p = sb.fixture("claude-code", "SessionStart.startup");
    p["session_id"] = json!("precedence");
    p
}

#[test]
fn hook_explain_cards_list_and_install_choose_the_same_card() {
    let sb = sandbox();

    // install: the SessionStart entry lists every shipped name: the one the
    // project switched off too (issue 26: a project card never takes a
    // shipped card out of the entries; the hook skips it per call, unless a
    // policy outside the project holds the shipped card).
    sb.test()
        .args(["install", "--harness", "claude-code", "--scope", "project"])
        .success();
    let settings = std::fs::read_to_string(sb.project().join(".claude/settings.json")).unwrap();
    // The same install again changes nothing.
    sb.test()
        .args(["install", "--harness", "claude-code", "--scope", "project"])
        .expect_file(".claude/settings.json", settings.clone())
        .success();
    let doc: Value = serde_json::from_str(&settings).unwrap();
    let entry = &doc["hooks"]["SessionStart"][0]["hooks"][0]["args"];
    let registered: Vec<&str> = entry
        .as_array()
        .unwrap_or_else(|| panic!("install: {settings}"))
        .iter()
        .skip(2) // dispatch SessionStart
        .map(|a| a.as_str().unwrap())
        .collect();
    for (name, _, _, _) in TABLE {
        if ["session-start", "skill-index", "kb-drift"].contains(name) {
            assert!(registered.contains(name), "install, {name}: {registered:?}");
        }
    }

    // The hook, run as installed: the winner's text, never a loser's; a
    // disabled winner says nothing.
    let ctx = sb
        .test()
        .dispatch("SessionStart", &registered)
        .json(&start(&sb))
        .run()
        .context();
    for (name, winner, lost, off) in TABLE {
        assert_eq!(
            ctx.contains(&text(name, winner)),
            !off,
            "hook, {name}: {ctx}"
        );
        if let Some(lost) = lost {
            assert!(!ctx.contains(&text(name, lost)), "hook, {name}: {ctx}");
        }
    }
    assert!(!ctx.contains("knowledge base"), "kb-drift is off: {ctx}");

    // explain: the same winner and the same overridden scope per card.
    let explain = sb
        .test()
        .args(["explain", "SessionStart"])
        .json(&start(&sb))
        .run()
        .stdout;
    for (name, winner, lost, _) in TABLE {
        let origin = match lost {
            Some(lost) => format!("{winner} card, overriding the {lost} one"),
            None => format!("{winner} card;"),
        };
        assert!(
            explain
                .lines()
                .any(|l| l.contains(name) && l.contains(&origin)),
            "explain, {name}: want {origin:?} in\n{explain}"
        );
    }

    // cards list: the same.
    let list = sb.test().args(["cards", "list"]).run().stdout;
    for (name, winner, lost, off) in TABLE {
        let mut scope = winner.to_string();
        if let Some(lost) = lost {
            scope.push_str(&format!(" (overrides {lost})"));
        }
        if *off {
            scope.push_str(" (disabled)");
        }
        assert!(
            list.lines()
                .any(|l| l.starts_with(&format!("{name} ")) && l.contains(&scope)),
            "cards list, {name}: want {scope:?} in\n{list}"
        );
    }
}
