//! Issue 26, through the real binary: the project can only tighten, the
//! project root stays put, one list of hook files, and the hook's
//! environment cannot undo the user's own policy.

mod support;

use support::Sandbox;

fn user_config(sb: &Sandbox, text: &str) {
    let dir = sb.home().join(".config/cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

fn bash_call(sb: &Sandbox, command: &str) -> serde_json::Value {
    let v = sb.fixture("claude-code", "PreToolUse.Bash");
    serde_json::from_str(&v.to_string().replace("echo rig-hello", command)).unwrap()
}

/// The permission decision Claude Code's envelope carries for `command`.
fn decision_for(sb: &Sandbox, command: &str, env: &[(&str, &str)]) -> Option<String> {
    let mut t = sb
        .test()
        .dispatch("PreToolUse", &[])
        .json(&bash_call(sb, command));
    for (k, v) in env {
        t = t.env(k, v);
    }
    t.run().json().and_then(|v| {
        v["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .map(String::from)
    })
}

const RM: &str = "rm -rf /srv/canary";

/// A project card named like the shipped guard, switching it off.
const OFF: &str =
    "# Destructive (off here)\n\n## Bindings\n- event: PreToolUse\n- enabled: false\n";

// ---- 4. the project can only tighten ----

#[test]
fn a_trusted_project_card_cannot_switch_off_a_guard_the_user_denies() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
    sb.write(".cuecard/cards/destructive.md", OFF);
    let trusted = sb.test().arg("trust").run();
    assert!(
        trusted
            .stdout
            .contains("destructive: would switch off the shipped card 'destructive'")
            && trusted.stdout.contains("NOT USED"),
        "trust says what the card would change: {}",
        trusted.stdout
    );
    assert_eq!(
        decision_for(&sb, RM, &[]).as_deref(),
        Some("deny"),
        "the user's deny still holds"
    );
    // The environment's policy holds the card too.
    user_config(&sb, "");
    let env = [("CUECARD_POLICY", "destructive.outside-project=ask")];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("ask"));
    // `cuecard policy` names the card and what it would have changed.
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    let out = sb.test().arg("policy").run();
    assert!(
        out.stdout.contains("project cards")
            && out.stdout.contains("destructive: would switch off")
            && out.stdout.contains("config.toml: destructive = deny"),
        "{}",
        out.stdout
    );
    // explain traces it.
    let out = sb
        .test()
        .args(["explain", "PreToolUse"])
        .json(&bash_call(&sb, RM))
        .run();
    assert!(
        out.stdout
            .contains("trusted project card of this name is not used"),
        "{}",
        out.stdout
    );
}

#[test]
fn with_no_policy_outside_the_project_a_project_card_still_overrides() {
    let sb = Sandbox::new();
    sb.write(".cuecard/cards/destructive.md", OFF);
    sb.test().arg("trust").run();
    let out = sb
        .test()
        .dispatch("PreToolUse", &[])
        .json(&bash_call(&sb, RM))
        .run();
    assert!(
        !out.stdout.contains("recursive"),
        "switched off, as the project asked: {}",
        out.stdout
    );
    let out = sb.test().arg("policy").run();
    assert!(
        out.stdout
            .contains("destructive: switches off the shipped card 'destructive'"),
        "{}",
        out.stdout
    );
    // A replacement that keeps the guard but loosens nothing it can: the
    // project's card may not replace a held card either.
    user_config(&sb, "[policy]\ndestructive = \"ask\"\n");
    sb.write(
        ".cuecard/cards/destructive.md",
        "# Mine\n\n## Bindings\n- event: PreToolUse\n- matcher: Write\n- guard: destructive\n\n## Advisory\nno\n",
    );
    sb.test().arg("trust").run();
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("ask"));
}
