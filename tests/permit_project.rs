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
    let mut v = sb.fixture("claude-code", "PreToolUse.Bash");
    v["tool_input"]["command"] = serde_json::json!(command);
    v
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

// ---- 5. the root stays put ----

/// The decision for `command` run from `cwd` in session `session`.
fn decision_in(
    sb: &Sandbox,
    cwd: &std::path::Path,
    session: &str,
    command: &str,
) -> Option<String> {
    let mut p = bash_call(sb, command);
    p["cwd"] = serde_json::json!(cwd);
    p["session_id"] = serde_json::json!(session);
    sb.test()
        .dispatch("PreToolUse", &[])
        .json(&p)
        .run()
        .json()
        .and_then(|v| {
            v["hookSpecificOutput"]["permissionDecision"]
                .as_str()
                .map(String::from)
        })
}

#[test]
fn creating_a_repository_in_home_or_above_the_project_is_an_outside_project_finding() {
    let sb = Sandbox::outside_tmp();
    user_config(&sb, "[policy]\noutside-project = \"deny\"\n");
    let project = sb.project();
    for cmd in [
        "git init ~",
        "git init ..",
        "git -C ~ init",
        "git init --initial-branch main \"$HOME\"",
        "cd .. && git init",
        "git -C .. init .",
        "git --git-dir=$HOME/.git init",
    ] {
        assert_eq!(
            decision_in(&sb, &project, "s-init", cmd).as_deref(),
            Some("deny"),
            "{cmd}"
        );
    }
    for cmd in ["git init", "git init sub", "git -C src init", "git status"] {
        assert_eq!(decision_in(&sb, &project, "s-init", cmd), None, "{cmd}");
    }
}

#[test]
fn home_and_its_parents_are_never_inside_the_project() {
    let sb = Sandbox::outside_tmp();
    user_config(
        &sb,
        "[policy]\n\"destructive.outside-project\" = \"deny\"\n",
    );
    std::fs::create_dir_all(sb.home().join(".ssh")).unwrap();
    // A session in HOME itself (no repository anywhere).
    assert_eq!(
        decision_in(&sb, &sb.home(), "s-home", "rm -rf ~/.ssh").as_deref(),
        Some("deny")
    );
    // A repository made in HOME (`git init ~`): a non-git directory under
    // HOME does not become part of it.
    std::fs::create_dir_all(sb.home().join(".git")).unwrap();
    let notes = sb.home().join("work/notes");
    std::fs::create_dir_all(&notes).unwrap();
    assert_eq!(
        decision_in(&sb, &notes, "s-notes", "rm -rf ~/.ssh").as_deref(),
        Some("deny")
    );
    assert_eq!(
        decision_in(&sb, &sb.home(), "s-home2", "rm -rf ~/.ssh").as_deref(),
        Some("deny")
    );
}

#[test]
fn a_session_keeps_the_project_root_of_its_first_call() {
    let sb = Sandbox::outside_tmp();
    user_config(
        &sb,
        "[policy]\n\"destructive.outside-project\" = \"deny\"\n",
    );
    let app = sb.home().join("work/app");
    std::fs::create_dir_all(&app).unwrap();
    std::fs::create_dir_all(sb.home().join("work/other")).unwrap();
    assert_eq!(
        decision_in(&sb, &app, "s-pinned", "rm -rf ~/work/other").as_deref(),
        Some("deny")
    );
    // `git init ~/work` mid-session: the root does not move up to it.
    std::fs::create_dir_all(sb.home().join("work/.git")).unwrap();
    assert_eq!(
        decision_in(&sb, &app, "s-pinned", "rm -rf ~/work/other").as_deref(),
        Some("deny"),
        "the session's root stays ~/work/app"
    );
    // A session that starts now finds ~/work as its root (a real
    // repository the user made before it started).
    assert_eq!(
        decision_in(&sb, &app, "s-later", "rm -rf ~/work/other"),
        None
    );
}

// ---- 6. one list of hook files ----

#[test]
fn a_write_to_any_harness_hook_file_is_an_outside_project_finding() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\noutside-project = \"deny\"\n");
    let p = sb.project();
    let h = sb.home();
    let write = |path: std::path::PathBuf| {
        let mut v = sb.fixture("claude-code", "PreToolUse.Bash");
        v["tool_name"] = serde_json::json!("Write");
        v["tool_input"] = serde_json::json!({"file_path": path, "content": "x"});
        sb.test()
            .dispatch("PreToolUse", &[])
            .json(&v)
            .run()
            .json()
            .and_then(|v| {
                v["hookSpecificOutput"]["permissionDecision"]
                    .as_str()
                    .map(String::from)
            })
    };
    for path in [
        p.join(".opencode/plugins/evil.js"),
        p.join(".kilo/plugins/evil.js"),
        p.join(".clinerules/hooks/PostToolUse"),
        h.join(".gemini/extensions/x/hooks.json"),
        p.join(".claude/settings.json"),
        h.join(".config/opencode/plugins/cuecard.js"),
    ] {
        assert_eq!(
            write(path.clone()).as_deref(),
            Some("deny"),
            "{}",
            path.display()
        );
    }
    assert_eq!(write(p.join("src/plugins/x.js")), None);
    // Through the shell too.
    assert_eq!(
        decision_for(&sb, "echo 'x' > .opencode/plugins/evil.js", &[]).as_deref(),
        Some("deny")
    );
}

// ---- 8. the hook's environment ----

#[test]
fn no_variable_a_repository_can_set_undoes_the_users_own_policy() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    let elsewhere = sb.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    for env in [
        vec![("CUECARD_DISABLE", "1")],
        vec![("CUECARD_POLICY", "destructive=advise")],
        vec![("CUECARD_CONFIG_DIR", elsewhere.to_str().unwrap())],
        vec![("XDG_CONFIG_HOME", elsewhere.to_str().unwrap())],
        vec![("CUECARD_STATE_DIR", elsewhere.to_str().unwrap())],
        vec![("CUECARD_DATA_DIR", elsewhere.to_str().unwrap())],
        vec![
            ("CUECARD_DISABLE", "true"),
            ("CUECARD_POLICY", "destructive=advise"),
            ("CUECARD_CONFIG_DIR", elsewhere.to_str().unwrap()),
            ("XDG_CONFIG_HOME", elsewhere.to_str().unwrap()),
        ],
    ] {
        assert_eq!(
            decision_for(&sb, RM, &env).as_deref(),
            Some("deny"),
            "{env:?}"
        );
    }
    // With nothing decided in the user's file, CUECARD_DISABLE is honoured.
    user_config(&sb, "[policy]\ndestructive = \"advise\"\n");
    let out = sb
        .test()
        .dispatch("PreToolUse", &[])
        .json(&bash_call(&sb, RM))
        .env("CUECARD_DISABLE", "1")
        .run();
    assert_eq!(out.stdout, "");
    // A config the variable points to adds to the user's own.
    std::fs::write(
        elsewhere.join("config.toml"),
        "[policy]\n\"destructive.outside-project\" = \"ask\"\n",
    )
    .unwrap();
    let env = [("CUECARD_CONFIG_DIR", elsewhere.to_str().unwrap())];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("ask"));
}

#[test]
fn a_project_card_never_takes_a_shipped_card_out_of_the_installed_entries() {
    // Installed with no policy while a trusted project card switches the
    // guard off: a deny the user sets later must still reach the card.
    let sb = Sandbox::new();
    sb.write(".cuecard/cards/destructive.md", OFF);
    sb.test().arg("trust").run();
    sb.test()
        .args(["install", "--harness", "claude-code", "--scope", "user"])
        .run();
    let settings = std::fs::read_to_string(sb.home().join(".claude/settings.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&settings).unwrap();
    // Exec form: the program, then its arguments.
    let args: Vec<String> = v["hooks"]["PreToolUse"][0]["hooks"][0]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap().to_string())
        .collect();
    assert!(args.iter().any(|a| a == "destructive"), "{args:?}");
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    let out = sb.test().args(&args).json(&bash_call(&sb, RM)).run();
    assert!(
        out.stdout.contains("\"permissionDecision\":\"deny\""),
        "{}",
        out.stdout
    );
}
