//! The errors a user can meet on the command line: each prints one line
//! (`cuecard: ...`) on stderr, nothing on stdout, and ends with the exit
//! code `commands/exit.rs` maps it to: 2 for a command line that is wrong,
//! 1 for a command asked right that could not do it.

mod support;

use support::Sandbox;

#[test]
fn a_wrong_command_line_exits_2_with_its_reason() {
    let sb = Sandbox::new();
    // A harness id and a scope are value enums: clap names the valid ones
    // (and the nearest, see tests/cli.rs).
    for args in [
        &["install", "--harness", "nosuch"][..],
        &["uninstall", "--harness", "nosuch"],
        &["verify", "--harness", "nosuch"],
        &["doctor", "--harness", "nosuch"],
        &["plugin", "build", "out", "--harness", "nosuch"],
        &["install", "--harness", "claude-code", "--scope", "bogus"],
        &["uninstall", "--harness", "claude-code", "--scope", "bogus"],
    ] {
        let out = sb
            .test()
            .args(args)
            .stderr_contains("error: invalid value '")
            .stderr_contains("[possible values: ")
            .status(2);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
    for (args, stderr) in [
        (
            &["install", "--harness", "codex", "--scope", "managed"][..],
            "cuecard: --scope managed renders Claude Code managed settings; use --harness claude-code\n",
        ),
        (
            &["cards", "new", "Bad_Name"],
            "cuecard: a card name is lower-case letters, digits and dashes (e.g. `migrations-guide`)\n",
        ),
    ] {
        let out = sb.test().args(args).stderr_contains(stderr).status(2);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
        assert_eq!(out.stderr.lines().count(), 1, "{args:?}: {}", out.stderr);
    }
}

#[test]
fn a_command_that_cannot_do_what_it_was_asked_exits_1_with_its_reason() {
    let sb = Sandbox::new();
    sb.write("plugin/taken", "mine");
    let plugin_dir = sb.project().join("plugin");
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["cards".into(), "show".into(), "nosuch".into()],
            "cuecard: no card named \"nosuch\" (see `cuecard cards list`)\n".into(),
        ),
        (
            vec![
                "plugin".into(),
                "build".into(),
                plugin_dir.display().to_string(),
                "--harness".into(),
                "claude-code".into(),
            ],
            format!(
                "cuecard: {} is not empty; a plugin is built into an empty directory (nothing was written)\n",
                plugin_dir.display()
            ),
        ),
        (
            vec![
                "plugin".into(),
                "build".into(),
                "out".into(),
                "--harness".into(),
                "cursor".into(),
            ],
            "cuecard: Cursor has no plugin format cuecard builds (it builds one for: claude-code, codex, gemini, copilot)\n".into(),
        ),
        (
            vec!["replay".into(), "no-such.jsonl".into()],
            "cuecard replay: no-such.jsonl: No such file or directory (os error 2)\n".into(),
        ),
    ];
    for (args, stderr) in cases {
        let out = sb.test().args(&args).stderr(stderr).status(1);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
}

/// Install, uninstall, verify and doctor share one context whose binary is
/// found only when the command needs it: a refusal that comes before it
/// (Windsurf with no policy set) is still the one told, and a binary that
/// cannot be named stops each of them with its own line.
#[test]
fn each_refusal_of_install_keeps_its_place() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["install", "--harness", "windsurf"])
        .env("CUECARD_BIN", "relative/cuecard")
        .stderr_contains("is installed into only with a policy set")
        .status(1);
    assert!(out.stdout.is_empty(), "{}", out.stdout);
    assert!(!out.stderr.contains("CUECARD_BIN"), "{}", out.stderr);
    for args in [
        &["install", "--harness", "claude-code"][..],
        &["uninstall", "--harness", "claude-code"],
        &["verify"],
        &["doctor"],
    ] {
        let out = sb
            .test()
            .args(args)
            .env("CUECARD_BIN", "relative/cuecard")
            .stderr("cuecard: CUECARD_BIN must be an absolute path, not relative/cuecard\n")
            .status(1);
        assert!(out.stdout.is_empty(), "{args:?}: {}", out.stdout);
    }
}
