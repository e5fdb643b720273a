//! What a newcomer met and a user of these harnesses expects (the points of
//! the newcomer report that still held on main), through the real binary:
//! a dry run shows the change as a diff, Devin's machine-local file is said
//! not to be committed, one form for "every tool", counts in the right
//! number and with separators, a refusal's hint that can be copied, and a
//! doctor probe that proves a card reaches the model's context.

mod support;

use serde_json::Value;
use support::{Sandbox, put};

/// A user's settings file of some length: `model`, then 40 keys, then a
/// status line, as a user's grows.
fn long_settings() -> String {
    let mut text = String::from("{\n  \"model\": \"opus\",\n");
    for i in 0..40 {
        text.push_str(&format!("  \"key{i:02}\": {i},\n"));
    }
    text.push_str("  \"statusLine\": {\"type\": \"command\", \"command\": \"mine.sh\"}\n}\n");
    text
}

/// `install --dry-run` on a file the user has shows what install would
/// change in it, as a unified diff (the lines added with a little context),
/// not the whole file; a file install would create is shown whole.
#[test]
fn a_dry_run_shows_the_change_to_the_users_file_as_a_diff() {
    let sb = Sandbox::new();
    let path = sb.home().join(".claude/settings.json");
    let text = long_settings();
    put(path.clone(), &text);
    let out = sb
        .cmd(&["install", "--harness", "claude-code", "--dry-run"])
        .stdout;
    let p = path.display();
    assert!(
        out.contains(&format!(
            "--- {p} (as it is)\n+++ {p} (as install would write it)\n@@ -"
        )),
        "{out}"
    );
    let diff = &out[out.find("\n@@ -").unwrap() + 1..];
    // The context: the last lines before the change, not the user's keys
    // far above it.
    assert!(diff.contains("\n   \"key39\": 39,\n"), "{diff}");
    assert!(!diff.contains("key05"), "the whole file again: {diff}");
    assert!(!diff.contains("\"model\""), "{diff}");
    assert!(diff.contains("\n+  \"hooks\": {\n"), "{diff}");
    assert!(diff.contains("+            \"timeout\": 10\n"), "{diff}");
    // Every line of the diff is a hunk header, context, a removal or an
    // addition.
    for line in diff.lines() {
        assert!(
            line.starts_with("@@ ") || line.starts_with([' ', '+', '-']),
            "{line:?} in {diff}"
        );
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "unwritten");

    // A file install would create: shown whole, as written.
    let out = sb
        .cmd(&["install", "--harness", "gemini", "--dry-run"])
        .stdout;
    let whole = out
        .split(" would hold:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("{out}"));
    let doc: Value = serde_json::from_str(whole).unwrap_or_else(|e| panic!("{e}: {whole}"));
    assert!(doc["hooks"]["AfterTool"].is_array(), "{doc:#}");
    assert!(!sb.home().join(".gemini/settings.json").exists());
}

/// Devin's `.devin/config.local.json` names this machine's binary: install
/// says it is not to be committed and, when no ignore file of the project
/// keeps it out of git, which line to add, leaving `.gitignore` alone.
#[test]
fn devins_local_file_is_said_not_to_be_committed_and_gitignore_is_left_alone() {
    let sb = Sandbox::new();
    let out = sb.cmd(&["install", "--harness", "devin"]).stdout;
    assert!(
        out.contains(
            "warning: .devin/config.local.json names this machine's binary (an absolute path): \
             it is this machine's file, not one to share or commit, and no ignore file of this \
             project keeps it out of git: add the line `/.devin/config.local.json` to .gitignore \
             (cuecard leaves your .gitignore as it is)"
        ),
        "{out}"
    );
    assert!(!sb.project().join(".gitignore").exists(), "not made");
    sb.cmd(&["uninstall", "--harness", "devin"]);

    let ignore = put(sb.project().join(".gitignore"), "target/\n*.local.json\n");
    let out = sb.cmd(&["install", "--harness", "devin"]).stdout;
    assert!(
        out.contains("not one to share or commit; .gitignore keeps it out of git"),
        "{out}"
    );
    assert!(!out.contains("add the line"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&ignore).unwrap(),
        "target/\n*.local.json\n"
    );
    // A later line that re-includes it counts.
    put(ignore, "*.local.json\n!.devin/config.local.json\n");
    let out = sb
        .cmd(&["install", "--harness", "devin", "--dry-run"])
        .stdout;
    assert!(out.contains("add the line"), "{out}");
}

/// The install report shows one form for "every tool" (Claude Code writes
/// `*`, Gemini CLI `.*`), none on an event that is not about a tool, and a
/// narrower matcher exactly as written.
#[test]
fn every_tool_reads_the_same_for_every_harness() {
    let sb = Sandbox::new();
    let claude = sb
        .cmd(&["install", "--harness", "claude-code", "--dry-run"])
        .stdout;
    let gemini = sb
        .cmd(&["install", "--harness", "gemini", "--dry-run"])
        .stdout;
    let codex = sb
        .cmd(&["install", "--harness", "codex", "--dry-run"])
        .stdout;
    for (text, line) in [
        (&claude, "  PostToolUse [every tool]: compaction-warning\n"),
        (&claude, "  SessionStart: session-start,"),
        (&claude, "  UserPromptSubmit: compaction-warning\n"),
        (&gemini, "  AfterTool [every tool]: askuser-recommended,"),
        (&gemini, "  SessionStart: session-start,"),
        (&codex, "  PreToolUse [Bash|apply_patch]: "),
    ] {
        assert!(text.contains(line), "{line:?} in {text}");
    }
    for text in [&claude, &gemini, &codex] {
        let report = text.split("\n---").next().unwrap();
        for shown in ["[*]", "[.*]", "[every call]"] {
            assert!(!report.contains(shown), "{shown} in {report}");
        }
    }
}

/// A one-record transcript is "1 record", and the compaction warning's
/// window has thousands separators like every other figure.
#[test]
fn replay_counts_in_the_right_number_and_with_separators() {
    let sb = Sandbox::new();
    let first = cuecard::replay::SAMPLE.lines().next().unwrap();
    let one = sb.write("one.jsonl", &format!("{first}\n"));
    let out = sb.test().arg("replay").arg(&one).run().stdout;
    assert!(out.contains("claude-code transcript, 1 record)"), "{out}");
    let out = sb.cmd(&["replay"]).stdout;
    assert!(out.contains("of a 200,000-token window reaches"), "{out}");
    assert!(!out.contains("200000"), "{out}");
}

/// A file install refuses to rewrite names the dry run that prints the
/// entries to merge by hand, with `--harness` (and a scope that is not
/// the default), so that copying it works.
#[test]
fn a_refusals_hint_is_a_command_that_runs() {
    let sb = Sandbox::new();
    let text = "{\n  // mine\n  \"model\": \"opus\"\n}\n";
    let path = put(sb.project().join(".claude/settings.json"), text);
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code", "--scope", "project"])
        .exit(1)
        .run();
    let hint = "`cuecard install --harness claude-code --scope project --dry-run` shows them";
    assert!(out.stderr.contains(hint), "{}", out.stderr);
    let out = sb
        .test()
        .args([
            "install",
            "--harness",
            "claude-code",
            "--scope",
            "project",
            "--dry-run",
        ])
        .exit(1)
        .run();
    assert!(out.stderr.contains("to merge by hand"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    // The default scope is not named.
    put(sb.home().join(".gemini/settings.json"), "{\"a\": 1,}\n");
    let out = sb
        .test()
        .args(["install", "--harness", "gemini"])
        .exit(1)
        .run();
    assert!(
        out.stderr
            .contains("`cuecard install --harness gemini --dry-run` shows them"),
        "{}",
        out.stderr
    );
}

/// doctor's tool probe fires a shipped card (as advice, under no policy)
/// and checks that the answer carries it, where the harness delivers it to
/// the model (PreToolUse for Claude Code, AfterTool for Gemini CLI, which
/// drops context before a tool); an answer without it fails.
#[test]
fn doctors_tool_probe_proves_a_card_reaches_the_models_context() {
    let sb = Sandbox::new();
    for h in ["claude-code", "gemini"] {
        sb.cmd(&["install", "--harness", h]);
    }
    let out = sb.cmd(&["doctor"]).stdout;
    for event in ["PreToolUse", "AfterTool"] {
        let line = out
            .lines()
            .find(|l| l.contains(&format!(" {event} ")))
            .unwrap_or_else(|| panic!("{event} in {out}"));
        assert!(line.starts_with("  ok "), "{line}");
        assert!(
            line.ends_with("one JSON object, `dependency` in the model's context"),
            "{line}"
        );
    }
    let json: Value = serde_json::from_str(&sb.cmd(&["doctor", "--json"]).stdout).unwrap();
    assert_eq!(json["failed"], 0, "{json:#}");
    // A hook switched off in the environment answers nothing: the card
    // does not reach the model, and doctor says so.
    let out = sb
        .test()
        .args(["doctor", "--harness", "claude-code"])
        .env("CUECARD_DISABLE", "1")
        .exit(1)
        .run()
        .stdout;
    let line = out.lines().find(|l| l.contains(" PreToolUse ")).unwrap();
    assert!(
        line.starts_with("  FAIL")
            && line.ends_with(
                "empty, without the card `dependency` that `npm install left-pad` fires"
            ),
        "{out}"
    );
}
