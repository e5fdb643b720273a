//! A tool's input is written by the model, and the harness runs the tool on
//! its own (native) keys. A canonical-named key beside them (`file_path`
//! beside OpenCode's `filePath`, `command` beside Cline's `commands`) is a
//! decoy: the guards must judge what the tool runs, not the decoy. And a
//! read of several files is judged on every file, not the first.

mod support;

use serde_json::{Value, json};
use std::sync::atomic::{AtomicUsize, Ordering};
use support::Sandbox;

/// A new session per call, so no advisory is a repeat of an earlier one.
fn session() -> String {
    static N: AtomicUsize = AtomicUsize::new(0);
    format!("decoy-{}", N.fetch_add(1, Ordering::Relaxed))
}

fn dispatch(sb: &Sandbox, contract: &str, event: &str, payload: &Value) -> String {
    let out = sb
        .test()
        .args(["dispatch", "--contract", contract, event])
        .env(
            "CUECARD_POLICY",
            "secrets=deny,destructive=deny,outside-project=deny",
        )
        .json(payload)
        .run();
    assert_eq!(out.code, 0, "{}", out.stderr);
    support::assert_hook_stdout(&out.stdout);
    out.stdout
}

fn opencode_before(sb: &Sandbox, tool: &str, input: Value) -> String {
    let payload = json!({
        "session_id": session(), "cwd": sb.project(), "tool_name": tool,
        "tool_input": input, "tool_use_id": "call_1", "hook_event_name": "tool.execute.before",
    });
    dispatch(sb, "opencode", "tool.execute.before", &payload)
}

#[test]
fn opencode_judges_file_path_as_written_not_a_decoy_beside_it() {
    let sb = Sandbox::new();
    let key = sb.home().join(".ssh/id_rsa");
    let alone = opencode_before(&sb, "read", json!({"filePath": key}));
    assert!(alone.contains("deny"), "the key alone is denied: {alone}");
    let decoy = opencode_before(
        &sb,
        "read",
        json!({"filePath": key, "file_path": sb.project().join("README.md")}),
    );
    assert_eq!(decoy, alone, "a decoy beside filePath changes nothing");
}

fn cline_after(sb: &Sandbox, tool: &str, input: Value) -> String {
    let payload = json!({
        "hookName": "tool_result", "taskId": "t1", "workspaceRoots": [sb.project()],
        "sessionContext": {"rootSessionId": session()},
        "tool_result": {"id": "c1", "name": tool, "input": input, "output": [], "durationMs": 1},
    });
    dispatch(sb, "cline", "PostToolUse", &payload)
}

#[test]
fn cline_judges_the_commands_it_runs_not_a_command_beside_them() {
    let sb = Sandbox::new();
    let alone = cline_after(
        &sb,
        "run_commands",
        json!({"commands": ["rm -rf /srv/canary"]}),
    );
    assert!(alone.contains("/srv/canary"), "{alone}");
    let decoy = cline_after(
        &sb,
        "run_commands",
        json!({"command": "ls", "commands": ["rm -rf /srv/canary"]}),
    );
    assert_eq!(decoy, alone);
}

#[test]
fn cline_judges_the_path_its_editor_writes_not_a_file_path_beside_it() {
    let sb = Sandbox::new();
    let outside = "/etc/cron.d/cuecard-decoy";
    let alone = cline_after(&sb, "editor", json!({"path": outside, "new_text": "x"}));
    assert!(alone.contains("cron.d"), "{alone}");
    let decoy = cline_after(
        &sb,
        "editor",
        json!({"path": outside, "file_path": sb.project().join("a.txt"), "new_text": "x"}),
    );
    assert_eq!(decoy, alone);
}

#[test]
fn cline_judges_every_file_a_read_names_not_only_the_first() {
    let sb = Sandbox::new();
    let key = sb.home().join(".ssh/id_rsa");
    let alone = cline_after(&sb, "read_files", json!({"files": [{"path": key}]}));
    assert!(alone.contains("id_rsa"), "{alone}");
    let second = cline_after(
        &sb,
        "read_files",
        json!({"files": [{"path": sb.project().join("a.rs")}, {"path": key}]}),
    );
    assert!(
        second.contains("id_rsa"),
        "the secret in second place: {second}"
    );
}
