//! The hook's promises under attack, through the real binary: patches that
//! touch many files, hostile state roots, FIFOs and full pipes against the
//! deadline, a repository's own `cuecard` against doctor, and guards fed
//! text that breaks naive byte slicing.

mod support;

use serde_json::{Value, json};
use support::Sandbox;

/// A patch that adds README.md, then edits package.json, puts `eval` in
/// app.py and adds a file under /etc: every file but the first is one a
/// guard must see.
fn many_file_patch() -> String {
    [
        "*** Begin Patch",
        "*** Add File: README.md",
        "+# hello",
        "*** Update File: package.json",
        "@@",
        "-  \"dependencies\": {}",
        "+  \"dependencies\": {\"left-pad\": \"1\"}",
        "*** Add File: app.py",
        "+x = eval(input())",
        "*** Add File: /etc/cron.d/job",
        "+* * * * * root true",
        "*** End Patch",
        "",
    ]
    .join("\n")
}

/// The context text of an answer in any dialect (nested or flat).
fn context_of(stdout: &str) -> String {
    if stdout.is_empty() {
        return String::new();
    }
    let v: Value = serde_json::from_str(stdout).unwrap();
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .or_else(|| v["additionalContext"].as_str())
        .unwrap_or_default()
        .to_string()
}

#[test]
fn every_file_of_a_patch_is_judged_under_every_contract_that_maps_it() {
    let sb = Sandbox::outside_tmp();
    let project = sb.project();
    let patch = many_file_patch();
    let cases: Vec<(Option<&str>, &str, Value)> = vec![
        (
            None,
            "PreToolUse",
            json!({"session_id": "n1", "cwd": project, "hook_event_name": "PreToolUse",
                   "tool_name": "apply_patch", "tool_input": {"command": patch}}),
        ),
        (
            Some("codex"),
            "PreToolUse",
            json!({"session_id": "x1", "cwd": project, "hook_event_name": "PreToolUse",
                   "tool_name": "apply_patch", "tool_input": {"command": patch}, "turn_id": "t"}),
        ),
        (
            Some("copilot"),
            "preToolUse",
            json!({"sessionId": "c1", "timestamp": 1, "cwd": project,
                   "toolName": "apply_patch", "toolArgs": patch}),
        ),
    ];
    for (contract, event, payload) in cases {
        let mut t = sb.test().arg("dispatch");
        if let Some(c) = contract {
            t = t.args(["--contract", c]);
        }
        let out = t.arg(event).json(&payload).run();
        let ctx = context_of(&out.stdout);
        let what = format!("{contract:?} {event}");
        for (card, needle) in [
            ("dependency", "package.json"),
            ("eval", "app.py"),
            ("outside-project", "/etc/cron.d/job"),
        ] {
            assert!(
                ctx.contains(needle) && ctx.contains(&format!("cuecard cards show {card}")),
                "{what}: the {card} card must see {needle}: {}",
                out.stdout
            );
        }
        // The line number of added text is the file's only for a Write.
        assert!(!ctx.contains("app.py:1"), "{what}: {ctx}");
    }
}

#[test]
fn a_patch_of_thousands_of_files_is_answered_whole() {
    let sb = Sandbox::outside_tmp();
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..4_000 {
        patch.push_str(&format!(
            "*** Add File: src/gen/f{i}.rs\n+pub fn f{i}() {{}}\n"
        ));
    }
    // The one file a guard must find is the last one.
    patch.push_str("*** Add File: /etc/cron.d/last\n+* * * * * root true\n*** End Patch\n");
    for (session, contract) in [("big-1", None), ("big-2", Some("codex"))] {
        let mut t = sb.test().arg("dispatch");
        if let Some(c) = contract {
            t = t.args(["--contract", c]);
        }
        let payload = json!({"session_id": session, "cwd": sb.project(), "hook_event_name": "PreToolUse",
               "tool_name": "apply_patch", "tool_input": {"command": patch}, "turn_id": "t"});
        let out = t.arg("PreToolUse").json(&payload).run();
        assert!(
            context_of(&out.stdout).contains("/etc/cron.d/last"),
            "{contract:?}: the last of 4,001 files must be judged: {:?} {}",
            out.stdout,
            out.stderr
        );
    }
}
