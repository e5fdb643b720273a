//! Opt-in policy (docs/design.md §4a), through the real binary: where a policy is
//! set and in which order the sources count (`cuecard policy`), and what
//! `cards show` lists as finding ids.

mod support;

use support::Sandbox;

fn user_config(sb: &Sandbox, text: &str) {
    let dir = sb.home().join(".config/cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

fn effective_line<'a>(out: &'a str, id: &str) -> Option<&'a str> {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(id))
}

#[test]
fn the_policy_command_shows_each_line_with_its_source_env_only_tightening() {
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[policy]\ndestructive = \"ask\"\n\"destructive.outside-project\" = \"deny\"\n",
    );
    let out = sb.test().arg("policy").run().stdout;
    let l = effective_line(&out, "destructive.outside-project").unwrap();
    assert!(
        l.contains("deny") && l.contains("config.toml: destructive.outside-project = deny"),
        "{l}"
    );
    let l = effective_line(&out, "destructive.git-discard").unwrap();
    assert!(
        l.contains("ask") && l.contains("config.toml: destructive = ask"),
        "{l}"
    );
    assert!(
        effective_line(&out, "secrets.exfiltration").is_none(),
        "advise is not listed"
    );
    // CUECARD_POLICY adds to the user's file, never takes from it.
    let out = sb
        .test()
        .arg("policy")
        .env(
            "CUECARD_POLICY",
            "destructive=advise,secrets.exfiltration=ask",
        )
        .run()
        .stdout;
    let l = effective_line(&out, "destructive.outside-project").unwrap();
    assert!(
        l.contains("deny") && l.contains("config.toml: destructive.outside-project = deny"),
        "{out}"
    );
    let l = effective_line(&out, "secrets.exfiltration").unwrap();
    assert!(l.contains("ask") && l.contains("CUECARD_POLICY"), "{l}");
}

#[test]
fn nothing_set_is_advice_everywhere() {
    let sb = Sandbox::new();
    let out = sb.test().arg("policy").run().stdout;
    assert!(out.contains("everything is advice (nothing set)"), "{out}");
}

#[test]
fn a_line_not_understood_counts_for_nothing_and_is_named() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestrutive = \"deny\"\n");
    let t = sb.test().arg("policy").exit(1).run();
    assert!(t.stdout.contains("NOT UNDERSTOOD"), "{}", t.stdout);
    assert!(t.stdout.contains("everything is advice"), "{}", t.stdout);
    let t = sb
        .test()
        .arg("policy")
        .env("CUECARD_POLICY", "destructive:deny")
        .exit(1)
        .run();
    assert!(
        t.stdout
            .contains("CUECARD_POLICY: 0 lines; NOT UNDERSTOOD, 1 line counting for nothing"),
        "{}",
        t.stdout
    );
    // A byte that is not UTF-8 spoils its own line only.
    std::fs::write(
        sb.home().join(".config/cuecard/config.toml"),
        b"[policy]\ndestructive = \"deny\"\nsecrets = \"d\xffny\"\n",
    )
    .unwrap();
    let t = sb.test().arg("policy").exit(1).run();
    assert!(
        t.stdout.contains("not UTF-8: a line with a byte"),
        "{}",
        t.stdout
    );
    assert!(t.stdout.contains("line 3: `secrets`"), "{}", t.stdout);
    let l = effective_line(&t.stdout, "destructive.outside-project").unwrap();
    assert!(l.contains("deny"), "{l}");
    // A file that cannot be read whole counts for nothing.
    std::fs::write(
        sb.home().join(".config/cuecard/config.toml"),
        vec![b'#'; 70 * 1024],
    )
    .unwrap();
    let t = sb.test().arg("policy").exit(1).run();
    assert!(
        t.stdout
            .contains("MALFORMED, counts for nothing: larger than"),
        "{}",
        t.stdout
    );
}

#[test]
fn a_project_file_counts_once_trusted_and_only_tightens() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    sb.write(
        ".cuecard/config.toml",
        "[policy]\ndestructive = \"advise\"\n\"protected-branch.force-push\" = \"deny\"\n",
    );
    let t = sb.test().arg("policy").exit(1).run();
    assert!(
        t.stdout.contains("new or changed since `cuecard trust`"),
        "{}",
        t.stdout
    );
    assert!(effective_line(&t.stdout, "protected-branch.force-push").is_none());
    sb.test().arg("trust").run();
    let out = sb.test().arg("policy").run().stdout;
    let l = effective_line(&out, "protected-branch.force-push").unwrap();
    assert!(
        l.contains("deny") && l.contains(".cuecard/config.toml"),
        "{l}"
    );
    // The project's `advise` does not loosen the user's deny.
    let l = effective_line(&out, "destructive.outside-project").unwrap();
    assert!(l.contains("deny") && l.contains("home"), "{l}");
    // Changed after trust: inactive again.
    sb.write(
        ".cuecard/config.toml",
        "[policy]\n\"protected-branch\" = \"deny\"\n",
    );
    let t = sb.test().arg("policy").exit(1).run();
    assert!(
        effective_line(&t.stdout, "protected-branch.force-push").is_none(),
        "{}",
        t.stdout
    );
}

#[test]
fn cards_show_lists_the_finding_ids_of_its_guard() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["cards", "show", "destructive"])
        .run()
        .stdout;
    for id in [
        "`destructive`",
        "`destructive.outside-project`",
        "`destructive.git-discard`",
    ] {
        assert!(out.contains(id), "{id} in {out}");
    }
}

// ---- the wire: every contract's decision envelope, a snapshot each ----

/// The decision events of every contract, with the fixture a call of
/// theirs is recorded in (`None`: written here from the vendor's docs).
const DECIDING: &[(&str, &str, Option<&str>)] = &[
    ("claude-code", "PreToolUse", Some("PreToolUse.Bash")),
    ("codebuddy", "PreToolUse", Some("PreToolUse.Bash")),
    ("codex", "PreToolUse", Some("PreToolUse.Bash")),
    ("copilot", "preToolUse", Some("preToolUse.bash")),
    ("crush", "PreToolUse", Some("PreToolUse.bash")),
    ("cursor", "preToolUse", Some("preToolUse.Shell")),
    (
        "cursor",
        "beforeShellExecution",
        Some("beforeShellExecution"),
    ),
    ("devin", "PreToolUse", Some("PreToolUse.exec")),
    ("factory", "PreToolUse", Some("PreToolUse.Execute")),
    ("gemini", "BeforeTool", Some("BeforeTool.run_shell_command")),
    ("kiro", "preToolUse", Some("preToolUse.execute_bash")),
    ("qwen", "PreToolUse", Some("PreToolUse.run_shell_command")),
    ("qoder", "PreToolUse", Some("PreToolUse.Bash")),
    (
        "opencode",
        "tool.execute.before",
        Some("tool.execute.before.echo"),
    ),
    ("pi", "tool_call", Some("tool_call.bash")),
    ("antigravity", "PreToolUse", Some("PreToolUse.run_command")),
    ("windsurf", "pre_run_command", None),
];

/// The payload of a destructive call outside the project, in `harness`'s
/// dialect.
fn destructive_call(sb: &Sandbox, harness: &str, fixture: Option<&str>) -> serde_json::Value {
    let v = match fixture {
        Some(f) => sb.fixture(harness, f),
        // docs.windsurf.com/windsurf/cascade/hooks: pre_run_command.
        None => serde_json::json!({
            "agent_action_name": "pre_run_command",
            "trajectory_id": "traj-1",
            "execution_id": "exec-1",
            "timestamp": "2026-12-01T00:00:00Z",
            "tool_info": {"command_line": "echo rig-hello", "cwd": sb.project()}
        }),
    };
    let text = v
        .to_string()
        .replace("echo rig-hello", "rm -rf /srv/canary");
    serde_json::from_str(&text).unwrap()
}

/// Runs one decision event under `policy` and returns what a snapshot
/// holds: the exit code, stdout and stderr, with the sandbox's path
/// replaced.
fn decide(harness: &str, native: &str, fixture: Option<&str>, policy: &str) -> String {
    let sb = Sandbox::new();
    let blocks = matches!(harness, "kiro" | "windsurf") && policy.contains("deny")
        || matches!(harness, "kiro" | "windsurf") && policy.contains("ask");
    let t = sb
        .test()
        .arg("dispatch")
        .arg("--contract")
        .arg(harness)
        .arg(native)
        .env("CUECARD_POLICY", policy)
        .json(&destructive_call(&sb, harness, fixture))
        .exit(if blocks { 2 } else { 0 })
        .run();
    let path = sb.path().to_string_lossy().into_owned();
    format!(
        "exit: {}\nstdout: {}\nstderr: {}\n",
        t.code,
        t.stdout.trim_end().replace(&path, "${SANDBOX}"),
        t.stderr.trim_end().replace(&path, "${SANDBOX}")
    )
}

fn snapshot(name: &str, got: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots/policy")
        .join(format!("{name}.txt"));
    if std::env::var_os("CUECARD_UPDATE_SNAPSHOTS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (CUECARD_UPDATE_SNAPSHOTS=1 writes it)",
            path.display()
        )
    });
    assert_eq!(got, want, "snapshot {}", path.display());
}

#[test]
fn every_contract_renders_a_deny_in_the_one_field_it_reads() {
    for (h, native, fixture) in DECIDING {
        let got = decide(h, native, *fixture, "destructive=deny");
        assert!(
            got.contains(cuecard::envelope::POLICY_MARK),
            "{h} {native}: {got}"
        );
        snapshot(&format!("{h}.{native}.deny"), &got);
    }
}

#[test]
fn every_contract_renders_an_ask_as_an_ask_or_as_a_deny_a_person_must_run() {
    for (h, native, fixture) in DECIDING {
        let got = decide(h, native, *fixture, "destructive=ask");
        let asks = matches!(
            cuecard::harness::enforcement(
                cuecard::harness::HarnessId::parse(h),
                cuecard::event::Event::PreToolUse
            ),
            cuecard::harness::Enforcement::Asks(..)
        );
        assert_eq!(
            got.contains("a person must run it"),
            !asks,
            "{h} {native}: {got}"
        );
        snapshot(&format!("{h}.{native}.ask"), &got);
    }
}

#[test]
fn with_no_policy_no_contract_carries_a_decision() {
    for (h, native, fixture) in DECIDING {
        let got = decide(h, native, *fixture, "");
        // Where every call needs a decision (Antigravity CLI's PreToolUse),
        // the neutral one that leaves the harness's own flow in charge.
        let id = cuecard::harness::HarnessId::parse(h).unwrap();
        if let Some(n) = cuecard::harness::neutral(id, native) {
            assert_eq!(got, format!("exit: 0\nstdout: {n}\nstderr: \n"), "{h}");
            assert!(!n.contains("allow"), "{h}: {n}");
            continue;
        }
        for word in [
            "permissionDecision",
            "\"decision\"",
            "\"permission\"",
            "exit: 2",
        ] {
            assert!(!got.contains(word), "{h} {native}: {got}");
        }
    }
}

// ---- precedence through the hook ----

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

#[test]
fn the_hook_takes_user_over_default_and_env_only_tightens() {
    let sb = Sandbox::new();
    assert_eq!(decision_for(&sb, RM, &[]), None, "advice by default");
    let env = [("CUECARD_POLICY", "destructive.outside-project=ask")];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("ask"));
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
    // Issue 26: a repository can set the hook's environment, so a looser
    // variable never undoes the user's own file.
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("deny"));
    let env = [("CUECARD_POLICY", "destructive=advise")];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("deny"));
    // A kind the line does not name is not decided by it.
    let env = [("CUECARD_POLICY", "destructive.git-discard=deny")];
    user_config(&sb, "");
    assert_eq!(decision_for(&sb, RM, &env), None);
    assert_eq!(
        decision_for(&sb, "git reset --hard HEAD~3", &env).as_deref(),
        Some("deny")
    );
}

#[test]
fn the_hook_lets_a_trusted_project_only_tighten() {
    let sb = Sandbox::new();
    sb.write(".cuecard/config.toml", "[policy]\ndestructive = \"deny\"\n");
    assert_eq!(
        decision_for(&sb, RM, &[]),
        None,
        "untrusted: counts for nothing"
    );
    sb.test().arg("trust").run();
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
    // Neither the environment nor the user's file loosens it.
    user_config(&sb, "[policy]\ndestructive = \"advise\"\n");
    let env = [("CUECARD_POLICY", "destructive=advise")];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("deny"));
    // A project advise does not loosen the user's ask.
    sb.write(
        ".cuecard/config.toml",
        "[policy]\ndestructive = \"advise\"\n",
    );
    sb.test().arg("trust").run();
    user_config(&sb, "[policy]\ndestructive = \"ask\"\n");
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("ask"));
}

#[test]
fn a_broken_config_or_payload_never_denies() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestructive = deny\n");
    assert_eq!(decision_for(&sb, RM, &[]), None);
    let env = [("CUECARD_POLICY", "destructive=nope")];
    assert_eq!(decision_for(&sb, RM, &env), None);
    // The broken file is a recorded failure.
    let status = sb.test().arg("status").run().stdout;
    assert!(
        status.contains("bad-config") && status.contains("this line counts for nothing"),
        "{status}"
    );
    // A garbled payload under a broken policy: no output, exit 0. (Under
    // a working deny policy it gets the policy's decision: see
    // tests/no_silent_permit.rs.)
    for contract in ["claude-code", "kiro", "windsurf", "gemini"] {
        let t = sb
            .test()
            .args(["dispatch", "--contract", contract, "PreToolUse"])
            .env("CUECARD_POLICY", "destructive=nope")
            .stdin("{\"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"rm -rf /srv")
            .run();
        assert_eq!(t.stdout, "", "{contract}");
    }
}

#[test]
fn a_card_can_be_a_rule() {
    let sb = Sandbox::new();
    let dir = sb.home().join(".config/cuecard/cards");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("no-prod-db.md"),
        "# Production database\n\n## Advisory\n`{command}` talks to the production database.\n\n## Bindings\n- event: PreToolUse\n- tools: Bash\n- command: psql.*prod\n- decision: deny\n",
    )
    .unwrap();
    assert_eq!(
        decision_for(&sb, "psql -h prod.db.internal", &[]).as_deref(),
        Some("deny")
    );
    assert_eq!(decision_for(&sb, "psql -h localhost", &[]), None);
}

/// A guard card may carry its own decision (`- decision: deny` beside
/// `- guard:`): the guard still judges, so only what it finds is denied.
/// (It once compiled into an empty trigger that matched every call.)
#[test]
fn a_guard_card_with_its_own_decision_still_asks_its_guard() {
    let sb = Sandbox::new();
    let dir = sb.home().join(".config/cuecard/cards");
    std::fs::create_dir_all(&dir).unwrap();
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("messages/destructive.md"),
    )
    .unwrap();
    let card = shipped.replace(
        "- guard: destructive",
        "- guard: destructive\n- decision: deny",
    );
    assert_ne!(card, shipped);
    std::fs::write(dir.join("destructive.md"), card).unwrap();
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
    assert_eq!(decision_for(&sb, "ls -la", &[]), None);
    assert_eq!(decision_for(&sb, "rm -rf build", &[]), None);
}

#[test]
fn every_deny_and_ask_is_in_the_ledger() {
    let sb = Sandbox::new();
    let env = [("CUECARD_POLICY", "destructive=deny,protected-branch=ask")];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("deny"));
    assert_eq!(
        decision_for(&sb, "git push --force origin main", &env).as_deref(),
        Some("ask")
    );
    let status = sb.test().arg("status").run().stdout;
    assert!(
        status.contains("policy decisions: 1 denied, 1 asked"),
        "{status}"
    );
}

#[test]
fn doctor_names_a_malformed_policy_and_settings_that_switch_hooks_off() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestructive = \"denied\"\n");
    let t = sb.test().arg("doctor").exit(1).run();
    assert!(
        t.stdout
            .contains("`denied` is not advise, ask or deny; this line counts for nothing"),
        "{}",
        t.stdout
    );
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    std::fs::create_dir_all(sb.home().join(".claude")).unwrap();
    std::fs::write(
        sb.home().join(".claude/settings.json"),
        r#"{"disableAllHooks": true}"#,
    )
    .unwrap();
    let t = sb.test().arg("doctor").exit(1).run();
    assert!(t.stdout.contains("disableAllHooks"), "{}", t.stdout);
}

#[test]
fn a_decision_only_event_leaves_the_advice_whole_for_the_after_tool_event() {
    // Gemini drops BeforeTool context: there only a decision is sent, and
    // an advisory that was not decided still comes in full on AfterTool.
    let sb = Sandbox::new();
    let env = ("CUECARD_POLICY", "secrets=deny");
    let before = sb
        .test()
        .args(["dispatch", "--contract", "gemini", "BeforeTool"])
        .env(env.0, env.1)
        .json(&destructive_call(
            &sb,
            "gemini",
            Some("BeforeTool.run_shell_command"),
        ))
        .run();
    assert_eq!(
        before.stdout, "",
        "no decision, and context is dropped there"
    );
    let after = sb.fixture("gemini", "AfterTool.run_shell_command");
    let after: serde_json::Value = serde_json::from_str(
        &after
            .to_string()
            .replace("echo rig-hello", "rm -rf /srv/canary"),
    )
    .unwrap();
    let out = sb
        .test()
        .args(["dispatch", "--contract", "gemini", "AfterTool"])
        .env(env.0, env.1)
        .json(&after)
        .run();
    let ctx = out.context();
    assert!(ctx.contains("recursively deletes /srv/canary"), "{ctx}");
    assert!(!ctx.starts_with("Reminder"), "{ctx}");
}

/// The words of an installed entry's command line after the program (the
/// sandbox's paths have no spaces).
fn installed_args(command: &str) -> Vec<String> {
    command
        .split_whitespace()
        .skip(1)
        .map(String::from)
        .collect()
}

#[test]
fn windsurf_is_installed_only_with_a_policy_and_only_for_its_pre_hooks() {
    let sb = Sandbox::new();
    let file = sb.home().join(".codeium/windsurf/hooks.json");
    // No policy: refused, with why, nothing written.
    let t = sb
        .test()
        .args(["install", "--harness", "windsurf"])
        .exit(1)
        .run();
    assert!(
        t.stderr.contains("only with a policy set") && t.stderr.contains("nothing was written"),
        "{}",
        t.stderr
    );
    assert!(!file.exists());
    // A policy in the user's config: the four pre-hooks, nothing else.
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    sb.test().args(["install", "--harness", "windsurf"]).run();
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let mut events: Vec<&str> = doc["hooks"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    events.sort();
    assert_eq!(
        events,
        [
            "pre_mcp_tool_use",
            "pre_read_code",
            "pre_run_command",
            "pre_write_code"
        ]
    );
    let t = sb.test().args(["verify", "--harness", "windsurf"]).run();
    assert!(
        t.stdout.starts_with("ok         windsurf (user)"),
        "{}",
        t.stdout
    );
    // The installed entry, run as Cascade runs it: a deletion outside the
    // project is stopped (exit 2, the reason on stderr, nothing on stdout).
    let command = doc["hooks"]["pre_run_command"][0]["command"]
        .as_str()
        .unwrap();
    let payload = serde_json::json!({
        "agent_action_name": "pre_run_command",
        "trajectory_id": "t-1",
        "execution_id": "e-1",
        "timestamp": "2026-01-01T00:00:00Z",
        "tool_info": {"command_line": "rm -rf /srv/canary", "cwd": sb.project()},
    });
    let t = sb
        .test()
        .args(installed_args(command))
        .json(&payload)
        .exit(2)
        .run();
    assert_eq!(t.stdout, "");
    assert!(
        t.stderr
            .contains("cuecard policy: deny for `destructive.outside-project`"),
        "{}",
        t.stderr
    );
    // The policy removed later: verify says the entries do nothing.
    std::fs::remove_file(sb.home().join(".config/cuecard/config.toml")).unwrap();
    let t = sb
        .test()
        .args(["verify", "--harness", "windsurf"])
        .exit(1)
        .run();
    assert!(t.stdout.contains("no policy is set"), "{}", t.stdout);
    // Uninstall: the file cuecard created is gone.
    sb.test().args(["uninstall", "--harness", "windsurf"]).run();
    assert!(!file.exists());
    let t = sb.test().args(["verify", "--harness", "windsurf"]).run();
    assert!(t.stdout.contains("not installed: windsurf"), "{}", t.stdout);
}

#[test]
fn a_policy_set_after_install_is_reported_until_install_runs_again() {
    // Qwen drops PreToolUse context: its PreToolUse entry is registered for
    // decisions only, and only when a policy is set at install time.
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "qwen", "--scope", "user"])
        .run();
    let policy = ("CUECARD_POLICY", "destructive=deny");
    let t = sb.test().arg("doctor").exit(0).run();
    assert!(!t.stdout.contains("not registered here"), "{}", t.stdout);
    for cmd in ["doctor", "verify"] {
        let t = sb.test().arg(cmd).env(policy.0, policy.1).exit(1).run();
        assert!(
            t.stdout.contains("but PreToolUse is not registered here")
                && t.stdout
                    .contains("run `cuecard install --harness qwen --scope user` again"),
            "{cmd}: {}",
            t.stdout
        );
    }
    sb.test()
        .args(["install", "--harness", "qwen", "--scope", "user"])
        .env(policy.0, policy.1)
        .run();
    let t = sb.test().arg("doctor").env(policy.0, policy.1).run();
    assert!(!t.stdout.contains("not registered here"), "{}", t.stdout);
    assert!(t.stdout.contains(", 0 failed"), "{}", t.stdout);
}

/// Cline honours no decision a hook could give without ending the whole run
/// (`cancel: true` aborts it and shows the reason to no one, measured on
/// 3.0.65), so under a deny policy the finding is still advice: one object
/// with `context` only, never `cancel`, exit 0 (docs/decisions.md).
#[test]
fn cline_never_cancels_the_run_a_denied_finding_stays_advice() {
    for policy in ["destructive=deny", "destructive=ask"] {
        let sb = Sandbox::new();
        let text = sb
            .fixture("cline", "PostToolUse.run_commands")
            .to_string()
            .replace("echo hi", "rm -rf /srv/canary");
        let payload: serde_json::Value = serde_json::from_str(&text).unwrap();
        let t = sb
            .test()
            .args(["dispatch", "--contract", "cline", "PostToolUse"])
            .env("CUECARD_POLICY", policy)
            .json(&payload)
            .run();
        let v: serde_json::Value = serde_json::from_str(t.stdout.trim_end()).unwrap();
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["context"], "{policy}: {}", t.stdout);
        let context = v["context"].as_str().unwrap();
        assert!(context.contains("/srv/canary"), "{policy}: {context}");
        assert!(
            !context.contains(cuecard::envelope::POLICY_MARK),
            "{policy}: no decision is claimed: {context}"
        );
        let path = sb.path().to_string_lossy().into_owned();
        snapshot(
            &format!(
                "cline.PostToolUse.{}",
                policy.trim_start_matches("destructive=")
            ),
            &format!(
                "exit: {}\nstdout: {}\nstderr: {}\n",
                t.code,
                t.stdout.trim_end().replace(&path, "${SANDBOX}"),
                t.stderr.trim_end().replace(&path, "${SANDBOX}")
            ),
        );
    }
}

// ---- issue 33: a typo does not switch safety off ----

/// A SessionStart of a fresh session, as Claude Code sends it.
fn session_start(sb: &Sandbox, session: &str) -> support::Output {
    let mut p = sb.fixture("claude-code", "SessionStart.startup");
    p["session_id"] = session.into();
    sb.test().dispatch("SessionStart", &[]).json(&p).run()
}

fn system_message(out: &support::Output) -> String {
    out.json()
        .and_then(|v| v["systemMessage"].as_str().map(String::from))
        .unwrap_or_default()
}

#[test]
fn a_bad_line_does_not_take_the_other_lines_down() {
    let sb = Sandbox::new();
    // A typo above the deny, a bad value below it, an unknown table.
    user_config(
        &sb,
        "[policy]\ndestrutive = \"ask\"\ndestructive = \"deny\"\nsecrets = \"block\"\n[polcy]\n",
    );
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
    // The same in CUECARD_POLICY and a trusted project file.
    user_config(&sb, "");
    let env = [("CUECARD_POLICY", "destructive=deny,secrets")];
    assert_eq!(decision_for(&sb, RM, &env).as_deref(), Some("deny"));
    sb.write(
        ".cuecard/config.toml",
        "[policy]\ndestructive = \"deny\"\nnot a line\n",
    );
    sb.test().arg("trust").run();
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
    // A key given twice keeps its stricter line.
    std::fs::remove_file(sb.project().join(".cuecard/config.toml")).unwrap();
    user_config(
        &sb,
        "[policy]\ndestructive = \"deny\"\ndestructive = \"advise\"\n",
    );
    assert_eq!(decision_for(&sb, RM, &[]).as_deref(), Some("deny"));
}

#[test]
fn every_bad_line_is_named_at_once_with_a_suggestion() {
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[policy]\ndestructiv = \"ask\"\nsecrets = \"dney\"\n\"protected-branch\" = \"deny\"\n",
    );
    let t = sb.test().arg("policy").exit(1).run();
    for want in [
        "line 2: `destructiv` is not a guard or a finding id; did you mean `destructive`?",
        "line 3: `secrets`: `dney` is not advise, ask or deny; did you mean `deny`?",
        "NOT UNDERSTOOD, 2 lines counting for nothing (the other lines apply)",
    ] {
        assert!(t.stdout.contains(want), "{want}\n{}", t.stdout);
    }
    let l = effective_line(&t.stdout, "protected-branch.force-push").unwrap();
    assert!(l.contains("deny"), "{l}");
}

#[test]
fn a_bad_line_is_told_at_every_session_start_until_fixed() {
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[policy]\ndestructive = \"deny\"\nsecrets = \"block\"\n",
    );
    for session in ["s-one", "s-two", "s-three"] {
        let msg = system_message(&session_start(&sb, session));
        assert!(
            msg.contains("your policy has 1 line it did not understand")
                && msg.contains("line 3: 'secrets': 'block' is not advise, ask or deny")
                && msg.contains("cuecard doctor"),
            "{session}: {msg}"
        );
    }
    let t = sb.test().arg("doctor").exit(1).run();
    assert!(
        t.stdout
            .lines()
            .any(|l| l.starts_with("  FAIL") && l.contains("`block` is not advise, ask or deny")),
        "{}",
        t.stdout
    );
    // Fixed: no more note.
    user_config(&sb, "[policy]\ndestructive = \"deny\"\nsecrets = \"ask\"\n");
    let msg = system_message(&session_start(&sb, "s-four"));
    assert!(!msg.contains("did not understand"), "{msg}");
}

// ---- a skill's inline shell command (Claude Code's PreSkillShellCommand) ----

/// The recorded PreSkillShellCommand payload (2.1.332, `claude -p /<skill>`)
/// with `command` as the skill's shell command.
fn skill_shell_call(sb: &Sandbox, command: &str) -> serde_json::Value {
    let mut v = sb.fixture("claude-code", "PreSkillShellCommand.Bash");
    v["tool_input"]["command"] = serde_json::json!(command);
    v
}

/// A skill's shell command never passes PreToolUse: the PreToolUse cards
/// judge it as a Bash call, for their decision alone (the event has no
/// context field). Deny is honoured; an ask cannot wait for a person there
/// (measured: it keeps the command from running), so it is sent as a deny
/// that says a person must run it. With no policy nothing is printed.
#[test]
fn a_skills_shell_command_is_judged_as_a_bash_call_for_its_decision_alone() {
    for (policy, level) in [
        ("destructive=deny", "deny"),
        ("destructive=ask", "deny"),
        ("", ""),
    ] {
        for contract in [None, Some("claude-code")] {
            let sb = Sandbox::new();
            let mut t = sb.test().arg("dispatch");
            if let Some(c) = contract {
                t = t.args(["--contract", c]);
            }
            let out = t
                .arg("PreSkillShellCommand")
                .env("CUECARD_POLICY", policy)
                .json(&skill_shell_call(&sb, "git clean -fdx"))
                .run();
            if level.is_empty() {
                assert_eq!(out.stdout, "", "{policy}: no policy, no advice here");
                continue;
            }
            let v: serde_json::Value = serde_json::from_str(out.stdout.trim()).unwrap();
            let h = &v["hookSpecificOutput"];
            assert_eq!(h["hookEventName"], "PreSkillShellCommand", "{v}");
            assert_eq!(h["permissionDecision"], level, "{policy}: {v}");
            assert!(h.get("additionalContext").is_none(), "{v}");
            let reason = h["permissionDecisionReason"].as_str().unwrap();
            assert!(reason.contains("git clean -fdx"), "{reason}");
            assert_eq!(
                reason.contains("a person must run it"),
                policy.ends_with("ask"),
                "{reason}"
            );
        }
    }
    // A harmless command passes in silence.
    let sb = Sandbox::new();
    let out = sb
        .test()
        .dispatch("PreSkillShellCommand", &[])
        .env("CUECARD_POLICY", "destructive=deny")
        .json(&skill_shell_call(&sb, "git status"))
        .run();
    assert_eq!(out.stdout, "");
}

/// With a policy set, install registers the shell cards on
/// PreSkillShellCommand too, matched on the shell tools only; without one
/// nothing is registered there (no advice can reach the model on it).
#[test]
fn install_registers_a_skills_shell_command_only_with_a_policy() {
    let entry = |policy: bool| {
        let sb = Sandbox::new();
        if policy {
            user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
        }
        sb.test()
            .args(["install", "--harness", "claude-code", "--scope", "project"])
            .run();
        let text = std::fs::read_to_string(sb.project().join(".claude/settings.json")).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["hooks"]["PreSkillShellCommand"].clone()
    };
    assert!(entry(false).is_null());
    let groups = entry(true);
    let g = &groups[0];
    assert_eq!(g["matcher"], "Bash|PowerShell", "{groups}");
    let args: Vec<&str> = g["hooks"][0]["args"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|a| a.as_str())
        .collect();
    assert_eq!(&args[..2], ["dispatch", "PreSkillShellCommand"], "{args:?}");
    assert!(args.contains(&"destructive"), "{args:?}");
}
