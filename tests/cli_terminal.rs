//! Issue 33, points 5 and 6, through the real binary, on an emulated
//! terminal where it matters (`support::pty`): colour keyed to state on a
//! terminal and never in a pipe or with NO_COLOR; help and the capability
//! table laid out to the terminal's width; `--json` on verify and doctor
//! with the schema docs/json.md gives (every top-level key of every
//! command's JSON named there); `install --detect` finding the harnesses
//! from their registry signs, listing them in a dry run and asking on a
//! terminal; `uninstall --all` removing every install and naming what it
//! left.
#![cfg(target_os = "linux")]

mod support;

use serde_json::Value;
use support::{Sandbox, pty};

const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RED: &str = "\x1b[31m";

/// A sandbox with Codex installed: verify says UNTRUSTED (a warning),
/// doctor runs four entries (ok) and waits on trust.
fn with_codex() -> Sandbox {
    let sb = Sandbox::new();
    sb.test().args(["install", "--harness", "codex"]).run();
    sb
}

#[test]
fn colour_is_keyed_to_state_on_a_terminal_and_never_in_a_pipe_or_with_no_color() {
    let sb = with_codex();
    let verify = pty::run(&sb, &["verify"], &[], "", 100);
    assert_eq!(verify.code, 3, "{}", verify.text);
    assert!(
        verify.text.contains(&format!("{YELLOW}UNTRUSTED\x1b[0m")),
        "{}",
        verify.text
    );
    let doctor = pty::run(&sb, &["doctor"], &[], "", 100);
    assert!(
        doctor.text.contains(&format!("{GREEN}ok\x1b[0m")),
        "{}",
        doctor.text
    );
    assert!(
        doctor.text.contains(&format!("{YELLOW}WAIT\x1b[0m")),
        "{}",
        doctor.text
    );
    let bad = sb.write(
        "bad.md",
        "# Bad\n\n## Advisory\nHi.\n\n## Bindings\n- event: PreTooluse\n",
    );
    let check = pty::run(
        &sb,
        &["cards", "check", bad.to_str().unwrap()],
        &[],
        "",
        100,
    );
    assert!(
        check.text.contains(&format!("{RED}INVALID\x1b[0m")),
        "{}",
        check.text
    );

    // A report's state words (install's warning about a build in target/).
    let install = pty::run(&sb, &["install", "--harness", "cursor"], &[], "", 100);
    assert!(
        install.text.contains(&format!("{YELLOW}warning:\x1b[0m")),
        "{}",
        install.text
    );

    // No colour on a terminal with NO_COLOR, or with --color never.
    for (args, env) in [
        (&["verify"][..], &[("NO_COLOR", "1")][..]),
        (&["--color", "never", "doctor"], &[]),
    ] {
        let s = pty::run(&sb, args, env, "", 100);
        assert!(!s.text.contains('\x1b'), "{args:?}: {}", s.text);
        assert!(
            s.text.contains("UNTRUSTED") || s.text.contains("WAIT"),
            "{}",
            s.text
        );
    }
    // None in a pipe; CLICOLOR_FORCE or --color always put it back.
    let piped = sb.test().arg("verify").exit(3).run();
    assert!(!piped.stdout.contains('\x1b') && piped.stdout.contains("UNTRUSTED"));
    let forced = sb
        .test()
        .arg("verify")
        .env("CLICOLOR_FORCE", "1")
        .exit(3)
        .run();
    assert!(forced.stdout.contains(YELLOW), "{}", forced.stdout);
    let always = sb
        .test()
        .args(["--color", "always", "doctor"])
        .exit(3)
        .run();
    assert!(always.stdout.contains(GREEN), "{}", always.stdout);
    // NO_COLOR wins over CLICOLOR_FORCE.
    let both = sb
        .test()
        .arg("verify")
        .env("CLICOLOR_FORCE", "1")
        .env("NO_COLOR", "1")
        .exit(3)
        .run();
    assert!(!both.stdout.contains('\x1b'), "{}", both.stdout);
}

/// The widest line, in characters.
fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn help_is_wrapped_to_the_terminal() {
    let sb = Sandbox::new();
    let narrow = pty::run(&sb, &["install", "--help"], &[], "", 60);
    assert_eq!(narrow.code, 0);
    assert!(narrow.text.contains("--detect"), "{}", narrow.text);
    assert!(widest(&narrow.text) <= 60, "{}", narrow.text);
    let wide = pty::run(&sb, &["install", "--help"], &[], "", 140);
    assert!(widest(&wide.text) > 60, "{}", wide.text);
    assert!(widest(&wide.text) <= 140, "{}", wide.text);
    // The global options come after the command's own.
    let t = &wide.text;
    let own = t.find("--sandbox").unwrap();
    assert!(
        t.find("--verbose").unwrap() > own && t.find("--color").unwrap() > own,
        "{t}"
    );
    // Each default said once; uninstall's help is its own.
    let plugin = sb.test().args(["plugin", "build", "--help"]).run().stdout;
    assert_eq!(
        plugin.matches("default: claude-code").count(),
        1,
        "{plugin}"
    );
    let uninstall = sb.test().args(["uninstall", "--help"]).run().stdout;
    assert!(!uninstall.contains("With a policy set only"), "{uninstall}");
}

#[test]
fn capabilities_are_a_table_on_a_terminal_and_markdown_in_a_pipe_or_with_markdown() {
    let sb = Sandbox::new();
    let t = pty::run(&sb, &["verify", "--capabilities"], &[], "", 120);
    assert_eq!(t.code, 0);
    assert!(widest(&t.text) <= 120, "a line is wider than the terminal");
    for raw in ["<br>", "|---|", "\\|", "`"] {
        assert!(
            !t.text.contains(raw),
            "raw Markdown {raw:?} on the terminal"
        );
    }
    for h in [
        "claude-code",
        "windsurf",
        "How each harness reads an answer",
    ] {
        assert!(t.text.contains(h), "{h}");
    }
    // A table the width holds is columns under a rule.
    assert!(t.text.contains("harness      PostToolUse"), "{}", t.text);
    // One the width does not hold is a block per harness.
    let narrow = pty::run(&sb, &["verify", "--capabilities"], &[], "", 80);
    assert!(
        widest(&narrow.text) <= 80,
        "a line is wider than the terminal"
    );
    assert!(
        narrow.text.contains("claude-code\n  SessionStart:"),
        "{}",
        narrow.text
    );
    let md = pty::run(
        &sb,
        &["verify", "--capabilities", "--markdown"],
        &[],
        "",
        90,
    );
    assert!(md.text.contains("|---|") && md.text.starts_with("# Harness capabilities"));
    let piped = sb.test().args(["verify", "--capabilities"]).run();
    assert!(piped.stdout.starts_with("# Harness capabilities") && piped.stdout.contains("|---|"));
}

fn json(stdout: &str) -> Value {
    serde_json::from_str(stdout).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

/// The section of docs/json.md for `cmd`.
fn documented(docs: &str, cmd: &str) -> String {
    let head = format!("## `{cmd}`");
    let at = docs
        .find(&head)
        .unwrap_or_else(|| panic!("docs/json.md has no {head}"));
    let rest = &docs[at + head.len()..];
    rest[..rest.find("\n## ").unwrap_or(rest.len())].to_string()
}

#[test]
fn verify_and_doctor_print_json_and_every_key_is_documented() {
    let sb = with_codex();
    let docs =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/json.md")).unwrap();
    let verify = json(&sb.test().args(["verify", "--json"]).exit(3).run().stdout);
    assert_eq!(verify["waiting"], true);
    assert_eq!(verify["ok"], false);
    let codex = verify["targets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["harness"] == "codex" && t["scope"] == "user")
        .unwrap()
        .clone();
    assert_eq!(codex["state"], "UNTRUSTED");
    assert_eq!(codex["entries"], 4);
    let doctor = json(&sb.test().args(["doctor", "--json"]).exit(3).run().stdout);
    assert_eq!(
        (doctor["ran"].as_u64(), doctor["failed"].as_u64()),
        (Some(4), Some(0))
    );
    assert_eq!(doctor["waiting"], 1);
    let checks = doctor["files"][0]["checks"].as_array().unwrap();
    assert!(checks.iter().any(|c| c["verdict"] == "WAIT"), "{checks:?}");
    assert!(
        checks
            .iter()
            .any(|c| c["verdict"] == "ok" && c["event"] == "SessionStart" && c["exit"] == 0)
    );

    // Every top-level key each command prints is named in its section.
    let runs: [(&str, &[&str], i32); 7] = [
        ("cuecard verify --json", &["verify", "--json"], 3),
        ("cuecard doctor --json", &["doctor", "--json"], 3),
        ("cuecard status --json", &["status", "--json"], 0),
        ("cuecard replay --json", &["replay", "--json"], 0),
        ("cuecard policy --json", &["policy", "--json"], 0),
        ("cuecard cards list --json", &["cards", "list", "--json"], 0),
        (
            "cuecard trust --list --json",
            &["trust", "--list", "--json"],
            0,
        ),
    ];
    for (cmd, args, code) in runs {
        let v = json(&sb.test().args(args).exit(code).run().stdout);
        let section = documented(&docs, cmd);
        for key in v.as_object().unwrap().keys() {
            assert!(
                section.contains(&format!("\"{key}\"")),
                "{cmd}: key {key:?} is not in docs/json.md"
            );
        }
    }
}

/// A sandbox where Claude Code's folder exists and a `codex` program is on
/// PATH; Gemini and the rest leave no sign.
fn with_two_harnesses() -> (Sandbox, String) {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.home().join(".claude")).unwrap();
    let bin = sb.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(bin.join("codex"), "#!/bin/sh\n").unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("codex"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let path = format!(
        "{}:{}:/usr/bin:/bin",
        bin.display(),
        support::bin().parent().unwrap().display()
    );
    (sb, path)
}

#[test]
fn install_detect_lists_in_a_dry_run_asks_on_a_terminal_and_installs_into_what_it_found() {
    let (sb, path) = with_two_harnesses();
    let claude = sb.home().join(".claude/settings.json");
    let codex = sb.home().join(".codex/hooks.json");
    let dry = sb
        .test()
        .args(["install", "--detect", "--dry-run"])
        .env("PATH", &path)
        .run();
    assert!(dry.stdout.contains("found 2 harnesses"), "{}", dry.stdout);
    assert!(
        dry.stdout.contains("claude-code  ~/.claude exists"),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout.contains("codex        `codex` on PATH"),
        "{}",
        dry.stdout
    );
    assert!(
        dry.stdout
            .contains("would install into: claude-code, codex"),
        "{}",
        dry.stdout
    );
    assert!(!dry.stdout.contains("gemini"), "{}", dry.stdout);
    assert!(!claude.exists() && !codex.exists(), "a dry run wrote");

    // On a terminal it asks; anything but yes installs nothing.
    let env = [("PATH", path.as_str())];
    let no = pty::run(&sb, &["install", "--detect"], &env, "n\n", 100);
    assert!(
        no.text
            .contains("install cuecard into claude-code, codex? [y/N]"),
        "{}",
        no.text
    );
    assert!(no.text.contains("nothing installed"), "{}", no.text);
    assert!(!claude.exists() && !codex.exists());
    let yes = pty::run(&sb, &["install", "--detect"], &env, "y\n", 100);
    assert_eq!(yes.code, 0, "{}", yes.text);
    assert!(claude.is_file() && codex.is_file(), "{}", yes.text);

    // In a pipe nobody can answer: it goes ahead (as `--yes` does).
    let (sb2, path2) = with_two_harnesses();
    sb2.test()
        .args(["install", "--detect"])
        .env("PATH", &path2)
        .run();
    assert!(sb2.home().join(".claude/settings.json").is_file());
    assert!(sb2.home().join(".codex/hooks.json").is_file());
    // Nothing found: said, exit 1.
    let empty = Sandbox::new();
    let none = empty
        .test()
        .args(["install", "--detect"])
        .env("PATH", "/nonexistent")
        .exit(1)
        .run();
    assert!(none.stdout.contains("no harness found"), "{}", none.stdout);
}

#[test]
fn uninstall_all_removes_every_install_and_names_what_it_left() {
    let sb = Sandbox::new();
    let settings = sb.home().join(".claude/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    std::fs::write(&settings, "{\n  \"model\": \"opus\"\n}\n").unwrap();
    sb.test()
        .args(["install", "--harness", "claude-code"])
        .run();
    sb.test().args(["install", "--harness", "codex"]).run();
    sb.test()
        .args(["install", "--harness", "opencode", "--scope", "project"])
        .run();
    // A Gemini CLI extension, as `plugin build` makes one: not install's.
    let ext = sb.home().join(".gemini/extensions/cuecard");
    sb.test()
        .args([
            "plugin",
            "build",
            ext.to_str().unwrap(),
            "--harness",
            "gemini",
        ])
        .run();
    let out = sb.test().args(["uninstall", "--all"]).run();
    assert!(
        out.stdout.contains("Claude Code (user scope)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("Codex CLI (user scope)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("OpenCode (project scope)"),
        "{}",
        out.stdout
    );
    // Harnesses and scopes that held nothing say nothing.
    assert!(!out.stdout.contains("Qwen Code"), "{}", out.stdout);
    assert_eq!(
        std::fs::read_to_string(&settings).unwrap(),
        "{\n  \"model\": \"opus\"\n}\n"
    );
    assert!(!sb.home().join(".codex/hooks.json").exists());
    assert!(!sb.project().join(".opencode/plugins/cuecard.js").exists());
    // What it left, and how to remove it.
    let left = &out.stdout[out.stdout.find("left:").expect("a `left:` part")..];
    assert!(
        left.contains(&ext.join("hooks/hooks.json").display().to_string()),
        "{left}"
    );
    assert!(left.contains("extension manager"), "{left}");
    let verify = sb.test().args(["verify", "--harness", "claude-code"]).run();
    assert!(
        verify.stdout.contains("not installed: claude-code"),
        "{}",
        verify.stdout
    );

    // Nothing installed anywhere: it says so.
    let clean = Sandbox::new();
    let out = clean.test().args(["uninstall", "--all"]).run();
    assert!(out.stdout.contains("left: nothing"), "{}", out.stdout);
}
