//! A finding repeated within one session is injected in full once, then as a
//! one-line reminder that keeps the Full procedure pointer (issue 3 with the
//! state of issue 4), through the real binary and a real guard.

mod support;

use serde_json::{Value, json};
use support::{Sandbox, payload};

/// What the dependency card injects for a PreToolUse payload.
fn dependency(sb: &Sandbox, p: &Value) -> String {
    sb.test()
        .dispatch("PreToolUse", &["dependency"])
        .json(p)
        .run()
        .context()
}

#[test]
fn a_repeated_finding_is_injected_in_full_once_then_as_a_reminder() {
    let sb = Sandbox::new();
    let mut p = payload(&sb, "PreToolUse");
    p["tool_name"] = json!("Write");
    p["tool_input"] = json!({"file_path": sb.project().join("Cargo.toml"), "content": "[package]\nname = \"x\"\n"});
    let first = dependency(&sb, &p);
    assert!(
        first.contains("`Cargo.toml`"),
        "full advisory first: {first}"
    );
    assert!(!first.starts_with("Reminder"), "{first}");
    let second = dependency(&sb, &p);
    assert!(second.starts_with("Reminder:"), "then a reminder: {second}");
    assert!(second.len() < first.len(), "the reminder is shorter");
    assert!(
        second.contains("Full procedure: "),
        "the pointer is kept: {second}"
    );

    // Another target is a new finding: in full again.
    p["tool_input"]["file_path"] = json!(sb.project().join("package.json"));
    let other = dependency(&sb, &p);
    assert!(
        !other.starts_with("Reminder") && other.contains("package.json"),
        "{other}"
    );

    // Another session: in full again.
    p["tool_input"]["file_path"] = json!(sb.project().join("Cargo.toml"));
    p["session_id"] = json!("another-session");
    let fresh = dependency(&sb, &p);
    assert!(!fresh.starts_with("Reminder"), "{fresh}");
}

/// After a compaction the model no longer has the earlier advisories, so
/// the repeat rule starts over: the next finding is injected in full again.
#[test]
fn a_compaction_makes_the_next_repeat_a_full_advisory_again() {
    let sb = Sandbox::new();
    let mut p = payload(&sb, "PreToolUse");
    p["tool_name"] = json!("Write");
    p["tool_input"] = json!({"file_path": sb.project().join("package.json"), "content": "{}"});
    let first = dependency(&sb, &p);
    assert!(!first.starts_with("Reminder"));
    let second = dependency(&sb, &p);
    assert!(second.starts_with("Reminder:"), "{second}");

    let mut start = payload(&sb, "SessionStart");
    start["source"] = json!("compact");
    let recovered = sb
        .test()
        .dispatch("SessionStart", &[])
        .json(&start)
        .run()
        .context();
    assert!(
        recovered.contains("Earlier turns were replaced by a summary"),
        "{recovered}"
    );

    let after = dependency(&sb, &p);
    assert!(
        !after.starts_with("Reminder") && after.contains("package.json"),
        "in full after the compaction: {after}"
    );
}

/// A deploy that writes outside the project again and again: the first
/// write gets the advisory, later writes into the same directory (one target
/// family) the one-line reminder, and a write into another directory the
/// advisory again (issue 13).
#[test]
fn writes_into_one_directory_outside_are_one_finding() {
    let sb = Sandbox::new();
    let outside = |cmd: &str| {
        let mut p = payload(&sb, "PreToolUse");
        p["tool_name"] = json!("Bash");
        p["tool_input"] = json!({ "command": cmd });
        sb.test()
            .dispatch("PreToolUse", &["outside-project"])
            .json(&p)
            .run()
            .context()
    };
    let first = outside("cp dist/app.js /srv/www/app.js");
    assert!(
        first.contains("/srv/www/app.js") && !first.starts_with("Reminder"),
        "the advisory first: {first}"
    );
    for cmd in [
        "cp dist/app.js /srv/www/app.js",
        "cp dist/app.css /srv/www/app.css",
        "cd dist && cp index.html /srv/www/",
    ] {
        let again = outside(cmd);
        assert!(again.starts_with("Reminder:"), "{cmd}: {again}");
    }
    let other = outside("cp dist/app.js /opt/cache/app.js");
    assert!(
        !other.starts_with("Reminder") && other.contains("/opt/cache/app.js"),
        "another directory is another finding: {other}"
    );
}
