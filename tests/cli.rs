//! Issue 33, through the real binary: forgiving input (value enums with
//! "did you mean", shell completions, every problem of a card named in one
//! run, `explain` naming the nearest event, contract or card and the
//! project cards that did not run, `cards new` over a shipped name), while
//! the hook path (`dispatch`) stays lenient; and output that scans
//! (plurals, `--version` with the commit, `--json` with a schema each).

mod support;

use serde_json::Value;
use support::Sandbox;

#[test]
fn a_mistyped_harness_or_scope_gets_the_nearest_id() {
    let sb = Sandbox::new();
    for args in [
        &["install", "--harness", "claudecode"][..],
        &["uninstall", "--harness", "claudecode"],
        &["verify", "--harness", "claudecode"],
        &["doctor", "--harness", "claudecode"],
        &["plugin", "build", "out", "--harness", "claudecode"],
        &["explain", "--contract", "claudecode", "PreToolUse"],
    ] {
        let t = sb
            .test()
            .args(args)
            .stderr_contains("invalid value 'claudecode' for '--")
            .stderr_contains("a similar value exists: 'claude-code'")
            .status(2);
        assert!(t.stdout.is_empty(), "{args:?}: {}", t.stdout);
    }
    sb.test()
        .args(["install", "--harness", "codex", "--scope", "projct"])
        .stderr_contains("a similar value exists: 'project'")
        .status(2);
    // Any case, and `claude`, still name Claude Code.
    let t = sb
        .test()
        .args(["verify", "--harness", "CLAUDE", "--json"])
        .run();
    let v: Value = serde_json::from_str(&t.stdout).unwrap();
    assert!(v.to_string().contains("claude-code"), "{}", t.stdout);
}

#[test]
fn completions_name_the_commands_harnesses_scopes_and_events() {
    let sb = Sandbox::new();
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let t = sb.test().args(["completions", shell]).run();
        for word in [
            "install",
            "claude-code",
            "windsurf",
            "managed",
            "completions",
        ] {
            assert!(t.stdout.contains(word), "{shell}: no {word}");
        }
    }
    for shell in ["bash", "zsh"] {
        let t = sb.test().args(["completions", shell]).run();
        assert!(t.stdout.contains("PreToolUse"), "{shell}: explain's events");
    }
    sb.test()
        .args(["completions", "bsh"])
        .stderr_contains("a similar value exists: 'bash'")
        .status(2);
}

#[test]
fn cards_check_names_every_problem_in_one_run() {
    let sb = Sandbox::new();
    let bad = sb.write(
        "bad.md",
        "# Bad\n\n## Advisory\nYou MUST use {pth}.\n\n## Bindings\n- event: PreTooluse\n- command: ^(git push\n- cooldwn: 5m\n- decision: dney\n",
    );
    let t = sb.test().args(["cards", "check"]).arg(&bad).status(1);
    for want in [
        "error: unknown event `PreTooluse`; did you mean `PreToolUse`?",
        "error: `command` is not a valid regular expression",
        "error: Bindings: unknown key `cooldwn`; did you mean `cooldown`?",
        "error: Bindings: `decision: dney` must be advise, ask or deny; did you mean `deny`?",
        "error: unknown placeholder `{pth}`; did you mean `{path}`?",
    ] {
        assert!(t.stdout.contains(want), "{want}\n{}", t.stdout);
    }
    let errors = t
        .stdout
        .lines()
        .filter(|l| l.starts_with("  error:"))
        .count();
    assert_eq!(errors, 5, "{}", t.stdout);
    // A guarded card: its guard's placeholders.
    let bad = sb.write(
        "guarded.md",
        "# G\n\n## Advisory\n`{comand}` is destructive.\n\n## Bindings\n- event: PreToolUse\n- guard: destructiv\n",
    );
    let t = sb.test().args(["cards", "check"]).arg(&bad).status(1);
    assert!(
        t.stdout
            .contains("unknown guard `destructiv`; did you mean `destructive`?"),
        "{}",
        t.stdout
    );
}

#[test]
fn explain_names_the_nearest_event_contract_or_card() {
    let sb = Sandbox::new();
    let t = sb
        .test()
        .args(["explain", "PreTooluse"])
        .stdin("{}")
        .stderr_contains("cuecard: unknown event `PreTooluse`; did you mean `PreToolUse`?")
        .status(2);
    assert!(t.stdout.is_empty());
    sb.test()
        .args(["explain", "--contract", "gemini", "PreToolUse"])
        .stdin("{}")
        .stderr_contains(
            "unknown Gemini CLI event `PreToolUse`; `PreToolUse` is Claude Code's name, Gemini CLI calls it `BeforeTool`",
        )
        .status(2);
    sb.test()
        .args(["explain", "PreToolUse", "destructiv"])
        .stdin("{}")
        .stderr_contains("unknown card `destructiv`; did you mean `destructive`?")
        .status(2);
    sb.test()
        .args(["cards", "show", "secret"])
        .stderr_contains("no card named \"secret\"; did you mean `secrets`?")
        .status(1);
}

#[test]
fn explain_shows_the_project_cards_that_did_not_run_and_why() {
    let sb = Sandbox::new();
    let card = "# Mine\n\n## Advisory\nCheck `{path}`.\n\n## Bindings\n- event: PreToolUse\n- tools: Write\n- paths: **\n";
    sb.write(".cuecard/cards/kept.md", card);
    sb.write(".cuecard/cards/edited.md", card);
    sb.test().arg("trust").run();
    sb.write(
        ".cuecard/cards/edited.md",
        &format!("{card}- once: session\n"),
    );
    sb.write(".cuecard/cards/fresh.md", card);
    let payload = serde_json::json!({
        "cwd": sb.project(),
        "tool_name": "Write",
        "tool_input": {"file_path": sb.project().join("a.txt"), "content": "x"},
    });
    let out = sb
        .test()
        .args(["explain", "PreToolUse"])
        .json(&payload)
        .run()
        .stdout;
    let line = |name: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for {name}:\n{out}"))
            .to_string()
    };
    assert!(line("kept").contains("fired"), "{out}");
    assert!(
        line("edited").contains("not run: changed since `cuecard trust` pinned it"),
        "{out}"
    );
    assert!(
        line("fresh").contains("not run: new: never trusted"),
        "{out}"
    );
}

#[test]
fn cards_new_warns_when_the_name_is_a_shipped_card() {
    let sb = Sandbox::new();
    let t = sb
        .test()
        .args(["cards", "new", "dependency"])
        .stderr_contains("warning: `dependency` is the name of a shipped card")
        .run();
    assert!(t.stdout.contains("wrote "), "{}", t.stdout);
    let t = sb.test().args(["cards", "new", "my-own"]).run();
    assert!(t.stderr.is_empty(), "{}", t.stderr);
}

#[test]
fn the_hook_path_still_takes_any_name_and_exits_0() {
    let sb = Sandbox::new();
    for args in [
        &["dispatch", "PreTooluse"][..],
        &["dispatch", "--contract", "claudecode", "PreToolUse"],
        &["-v", "dispatch", "--contract", "claudecode", "PreToolUse"],
        &["-v", "dispatch", "PreTooluse", "no-such-card"],
    ] {
        let t = sb.test().args(args).stdin("{}").run();
        assert_eq!(t.code, 0, "{args:?}");
        assert!(t.stdout.is_empty(), "{args:?}: {}", t.stdout);
    }
}

// ---- point 5: output that scans ----

#[test]
fn counts_read_in_the_right_number() {
    let sb = Sandbox::new();
    let card = "# Mine\n\n## Advisory\nHi.\n\n## Bindings\n- event: SessionStart\n";
    sb.write(".cuecard/cards/one.md", card);
    let t = sb.test().arg("trust").run();
    assert!(
        t.stdout.contains("trusted 1 project card of "),
        "{}",
        t.stdout
    );
    let t = sb.test().args(["trust", "--list"]).run();
    assert!(t.stdout.contains(": 1 card trusted"), "{}", t.stdout);
    sb.write(".cuecard/cards/two.md", card);
    let t = sb.test().arg("trust").run();
    assert!(
        t.stdout.contains("trusted 2 project cards of "),
        "{}",
        t.stdout
    );
    let t = sb
        .test()
        .args(["explain", "SessionStart"])
        .stdin("{\"cwd\": \"/\"}")
        .run();
    assert!(t.stdout.contains("payload: ok (1 field)"), "{}", t.stdout);
    let t = sb.test().arg("replay").run();
    assert!(!t.stdout.contains("(s)"), "{}", t.stdout);
    assert!(t.stdout.contains(" tool calls, "), "{}", t.stdout);
}

#[test]
fn version_names_the_commit() {
    let sb = Sandbox::new();
    let t = sb.test().arg("--version").run();
    let line = t.stdout.trim();
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
    };
    let prefix = format!("cuecard {} (", env!("CARGO_PKG_VERSION"));
    let inner = line
        .strip_prefix(&prefix)
        .and_then(|l| l.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{line}"));
    if git(&["rev-parse", "HEAD"]).is_none() {
        assert_eq!(inner, "unknown commit");
        return;
    }
    // The commit the binary was built from (HEAD, unless a commit landed
    // since the build): a commit of this repository.
    let hash = inner
        .strip_prefix("commit ")
        .unwrap_or_else(|| panic!("{line}"));
    assert!(
        hash.len() == 12 && hash.bytes().all(|b| b.is_ascii_hexdigit()),
        "{line}"
    );
    assert!(
        git(&[
            "rev-parse",
            "--verify",
            "--quiet",
            &format!("{hash}^{{commit}}")
        ])
        .is_some(),
        "{line}: not a commit here"
    );
}

fn json_of(t: &support::Output) -> Value {
    serde_json::from_str(&t.stdout).unwrap_or_else(|e| panic!("{e}: {}", t.stdout))
}

/// The card `name` in `cards list --json`'s output `v`.
fn listed(v: &Value, name: &str) -> Value {
    let cards = v["cards"].as_array().expect("a list of cards");
    let card = cards.iter().find(|c| c["name"] == name);
    card.unwrap_or_else(|| panic!("no card {name} in {v}"))
        .clone()
}

#[test]
fn every_reporting_command_prints_its_documented_json() {
    let sb = Sandbox::new();
    let dir = sb.home().join(".config/cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "[policy]\ndestructive = \"deny\"\nsecrets = \"block\"\n",
    )
    .unwrap();
    sb.write(
        ".cuecard/cards/mine.md",
        "# Mine\n\n## Advisory\nHi.\n\n## Bindings\n- event: SessionStart\n",
    );
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json.md")).unwrap();

    let v = json_of(&sb.test().args(["policy", "--json"]).exit(1).run());
    assert_eq!(v["ok"], false);
    let user = &v["sources"][1];
    assert_eq!(user["origin"], "user");
    assert_eq!(user["state"], "read-with-problems");
    assert_eq!(user["lines"][0]["id"], "destructive");
    assert_eq!(user["lines"][0]["level"], "deny");
    assert!(user["problems"][0].as_str().unwrap().contains("`block`"));
    assert!(
        v["effective"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["id"] == "destructive.outside-project" && e["level"] == "deny")
    );
    let ids = json_of(&sb.test().args(["policy", "--ids", "--json"]).run());
    assert!(
        ids.as_array()
            .unwrap()
            .iter()
            .any(|i| i["id"] == "secrets.exfiltration")
    );

    let v = json_of(&sb.test().args(["cards", "list", "--json"]).run());
    let d = listed(&v, "destructive");
    assert_eq!(d["scope"], "shipped");
    assert_eq!(d["guard"], "destructive");
    assert!(d["tokens"].as_u64().unwrap() > 0);
    assert_eq!(v["untrusted"][0], "mine");

    let v = json_of(&sb.test().args(["trust", "--list", "--json"]).run());
    assert_eq!(v["project"]["cards"][0]["file"], "mine.md");
    assert_eq!(v["project"]["cards"][0]["state"], "new");
    sb.test().arg("trust").run();
    let v = json_of(&sb.test().args(["trust", "--list", "--json"]).run());
    assert_eq!(v["project"]["cards"][0]["state"], "trusted");
    assert_eq!(v["projects"][0]["cards"], 1);

    let v = json_of(&sb.test().args(["status", "--json"]).run());
    assert!(v["sessions"].is_array() && v["failures"]["entries"].is_array());
    let v = json_of(&sb.test().args(["replay", "--json"]).run());
    assert!(v["turns"].is_array() && v["hook_calls"].as_u64().unwrap() > 0);

    for cmd in [
        "cuecard status --json",
        "cuecard replay --json",
        "cuecard policy --json",
        "cuecard cards list --json",
        "cuecard trust --list --json",
    ] {
        assert!(docs.contains(&format!("## `{cmd}`")), "docs/json.md: {cmd}");
    }
}

/// `status` names the `CUECARD_*` variables set in the shell (from the one
/// table in src/env.rs), so a stray `CUECARD_DISABLE` or policy is seen;
/// a variable outside the table is not listed.
#[test]
fn status_names_the_cuecard_variables_that_are_set() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .env("CUECARD_STOP_CARD", "1")
        .env("CUECARD_E2E_VERSION_QWEN", "0.1.0")
        .env(concat!("CUECARD", "_NOT_A_VARIABLE"), "x")
        .args(["status"])
        .run();
    let line = out
        .stdout
        .lines()
        .find(|l| l.starts_with("environment: "))
        .unwrap_or_else(|| panic!("no environment line:\n{}", out.stdout));
    assert!(line.contains("CUECARD_STOP_CARD=1"), "{line}");
    assert!(line.contains("CUECARD_E2E_VERSION_QWEN=0.1.0"), "{line}");
    assert!(!line.contains("_NOT_A_VARIABLE"), "{line}");
    let v = json_of(
        &sb.test()
            .env("CUECARD_STOP_CARD", "1")
            .args(["status", "--json"])
            .run(),
    );
    assert_eq!(v["environment"]["CUECARD_STOP_CARD"], "1");
}

/// `status` before any hook has run says so and makes no state folder (a
/// command that only reads creates nothing); once a hook ran, it names the
/// folder as it is.
#[test]
fn status_before_any_hook_makes_no_folder() {
    let sb = Sandbox::new();
    let out = sb.cmd(&["status"]).stdout;
    assert!(
        out.starts_with(&format!(
            "state: {} (not made yet: no hook has run)\n",
            sb.state().display()
        )) && out.contains("sessions: none\n"),
        "{out}"
    );
    let v = json_of(&sb.test().args(["status", "--json"]).run());
    assert_eq!(v["root"], sb.state().display().to_string());
    assert_eq!(v["sessions"], serde_json::json!([]));
    assert!(!sb.state().exists(), "status made the state folder");
    sb.test()
        .dispatch("SessionStart", &["session-start"])
        .json(&support::payload(&sb, "SessionStart"))
        .run();
    let out = sb.cmd(&["status"]).stdout;
    assert!(
        out.starts_with(&format!("state: {}\n", sb.state().display())),
        "{out}"
    );
}

/// Outside a git repository, `--scope project` is the working directory
/// itself, and `install --help` says so (it used to promise a git root).
#[test]
fn project_scope_outside_a_repository_is_the_working_directory() {
    let sb = Sandbox::new();
    let help = sb.cmd(&["install", "--help"]).stdout;
    let flat = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("outside a repository, the directory itself"),
        "{help}"
    );
    let here = sb.path().join("nogit/sub");
    std::fs::create_dir_all(&here).unwrap();
    let mut cmd = sb.command(&["install", "--harness", "claude-code", "--scope", "project"]);
    let out = support::output_of(cmd.current_dir(&here));
    assert!(out.status.success(), "{out:?}");
    assert!(here.join(".claude/settings.json").is_file());
}

/// `cards list` measures `skill-index` with the index it injects, as the
/// hook sends it (less the `Full procedure` pointer), not its Advisory's
/// placeholder alone.
#[test]
fn cards_list_measures_the_skill_index_as_injected() {
    let sb = Sandbox::new();
    let mut p = support::payload(&sb, "SessionStart");
    p["source"] = serde_json::json!("startup");
    let ctx = sb
        .test()
        .dispatch("SessionStart", &["skill-index"])
        .json(&p)
        .run()
        .context();
    let sent = ctx.split("\n\nFull procedure: ").next().unwrap();
    let v = json_of(&sb.test().args(["cards", "list", "--json"]).run());
    let card = listed(&v, "skill-index");
    assert_eq!(card["chars"], sent.encode_utf16().count(), "{card}\n{sent}");
}

/// `explain` with no payload says how to give one, with the event and
/// contract it was given; with a payload it says nothing of it.
#[test]
fn explain_without_a_payload_says_how_to_give_one() {
    let sb = Sandbox::new();
    let out = sb
        .cmd(&["explain", "--contract", "gemini", "BeforeTool"])
        .stdout;
    assert!(
        out.contains(
            "payload: none (stdin was empty)\n  to judge a call, pipe in its hook payload"
        ) && out.contains("`cuecard explain --contract gemini BeforeTool < payload.json`"),
        "{out}"
    );
    let out = sb
        .test()
        .args(["explain", "SessionStart"])
        .json(&support::payload(&sb, "SessionStart"))
        .run()
        .stdout;
    assert!(
        out.contains("payload: ok") && !out.contains("pipe in"),
        "{out}"
    );
}
