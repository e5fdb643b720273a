//! Antigravity CLI (`agy`), from its documented format (not run here: see
//! docs/harnesses.md). Install writes `~/.gemini/config/hooks.json` (user)
//! or `.agents/hooks.json` (project): cuecard's hook is the one named
//! `hooks`, its tool events hold groups and its other events plain handler
//! lists, and the file is read back against agy's loader rules before it
//! is written (agy drops a file it cannot parse whole, the user's hooks
//! with it). A user's own named hooks survive install and uninstall. On the
//! wire: context only as `injectSteps` (SessionStart, PreInvocation), and
//! on PreToolUse a decision on every call: `ask` when cuecard has none,
//! whatever stopped it, `force_ask` for an ask, `deny` for a deny.

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::{Sandbox, put};

fn user_file(sb: &Sandbox) -> PathBuf {
    sb.home().join(".gemini/config/hooks.json")
}

fn read(p: &Path) -> Value {
    let t = std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    serde_json::from_str(&t).unwrap_or_else(|e| panic!("{}: {e}\n{t}", p.display()))
}

/// agy's loader rules, as cuecard's install checks them.
fn parses(doc: &Value) {
    let spec = cuecard::harness::HarnessId::Antigravity.config().unwrap();
    (spec.check)(doc).unwrap_or_else(|e| panic!("{e}: {doc:#}"));
}

/// A user's own named hooks: a grouped PreToolUse and a flat Stop.
fn users_hooks() -> Value {
    json!({
        "shell-audit": {
            "PreToolUse": [
                {"matcher": "run_command", "hooks": [{"type": "command", "command": "./audit.sh", "timeout": 5}]}
            ],
            "Stop": [{"command": "make lint"}]
        },
        "timetable": {"enabled": false, "PreInvocation": [{"type": "prompt", "prompt": "Times are UTC."}]}
    })
}

#[test]
fn install_writes_a_file_agy_parses_and_uninstall_leaves_the_users_hooks_as_they_were() {
    let sb = Sandbox::new();
    let path = put(
        user_file(&sb),
        &serde_json::to_string_pretty(&users_hooks()).unwrap(),
    );
    let out = sb.cmd(&["install", "--harness", "antigravity"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let doc = read(&path);
    parses(&doc);
    // The user's hooks are untouched, beside cuecard's one named hook.
    for (k, v) in users_hooks().as_object().unwrap() {
        assert_eq!(&doc[k], v, "{k}");
    }
    let ours = doc["hooks"].as_object().expect("cuecard's hook `hooks`");
    // Lifecycle events: a plain list of handlers, no group, no matcher.
    for event in ["SessionStart", "PreInvocation"] {
        let h = &ours[event][0];
        assert_eq!(h["type"], "command", "{event}");
        assert!(
            h.get("hooks").is_none() && h.get("matcher").is_none(),
            "{h}"
        );
        let cmd = h["command"].as_str().unwrap();
        assert!(
            cmd.contains(&format!("dispatch --contract antigravity {event}")),
            "{cmd}"
        );
        assert_eq!(h["timeout"], 10, "{event}: whole seconds");
    }
    // No policy: nothing on PreToolUse (no context travels there) nor on
    // the events whose output is dropped.
    for event in ["PreToolUse", "PostToolUse", "Stop"] {
        assert!(ours.get(event).is_none(), "{event}: {doc:#}");
    }
    // A reinstall changes nothing.
    let before = std::fs::read(&path).unwrap();
    assert_eq!(sb.cmd(&["install", "--harness", "antigravity"]).code, 0);
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let out = sb.cmd(&["uninstall", "--harness", "antigravity"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert_eq!(read(&path), users_hooks());
}

#[test]
fn with_a_policy_pre_tool_use_is_a_group_on_agys_tool_names() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["install", "--harness", "antigravity"])
        .env("CUECARD_POLICY", "destructive=deny")
        .run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let doc = read(&user_file(&sb));
    parses(&doc);
    let groups = doc["hooks"]["PreToolUse"].as_array().expect("PreToolUse");
    let g = &groups[0];
    let m = g["matcher"].as_str().unwrap();
    assert!(m.starts_with("^(?:") && m.contains("run_command"), "{m}");
    assert!(!m.contains("Bash"), "{m}");
    assert!(
        g["hooks"][0]["command"]
            .as_str()
            .unwrap()
            .contains("dispatch --contract antigravity PreToolUse"),
        "{g}"
    );
}

#[test]
fn project_install_writes_agents_hooks_json_naming_cuecard_on_path() {
    let sb = Sandbox::new();
    let out = sb.cmd(&["install", "--harness", "antigravity", "--scope", "project"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let path = sb.project().join(".agents/hooks.json");
    let doc = read(&path);
    parses(&doc);
    let cmd = doc["hooks"]["SessionStart"][0]["command"].as_str().unwrap();
    assert!(
        cmd.starts_with("cuecard dispatch --contract antigravity SessionStart"),
        "{cmd}"
    );
    assert!(!user_file(&sb).exists());
    assert_eq!(
        sb.cmd(&[
            "uninstall",
            "--harness",
            "antigravity",
            "--scope",
            "project"
        ])
        .code,
        0
    );
    assert!(!path.exists(), "the file install created goes with it");
}

#[test]
fn a_file_agy_would_drop_whole_is_never_written() {
    let sb = Sandbox::new();
    // A fractional timeout: agy refuses the file, every hook in it lost.
    let text = r#"{"mine": {"Stop": [{"command": "make lint", "timeout": 1.5}]}}"#;
    let path = put(user_file(&sb), text);
    let out = sb
        .test()
        .args(["install", "--harness", "antigravity"])
        .status(1);
    let all = format!("{}{}", out.stdout, out.stderr);
    assert!(all.contains("Antigravity CLI"), "{all}");
    assert!(all.contains("timeout"), "{all}");
    assert!(all.contains("Nothing was written"), "{all}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn the_loader_rules_refuse_what_agy_refuses_and_keep_what_it_ignores() {
    let spec = cuecard::harness::HarnessId::Antigravity.config().unwrap();
    let bad = [
        json!([]),
        json!({"enabled": true}),
        json!({"h": {"enabled": "yes"}}),
        json!({"h": {"PreToolUse": {"matcher": "x"}}}),
        json!({"h": {"PreToolUse": [{"matcher": 1, "hooks": []}]}}),
        json!({"h": {"PreToolUse": [{"hooks": {}}]}}),
        json!({"h": {"Stop": [{"type": "COMMAND", "command": "x"}]}}),
        json!({"h": {"Stop": [{"command": "x", "prompt": "y"}]}}),
        json!({"h": {"Stop": [{"type": "prompt", "prompt": "y", "command": "x"}]}}),
        json!({"h": {"pretooluse": [{"hooks": [{"command": "x", "timeout": 2147483648_i64}]}]}}),
    ];
    for doc in bad {
        assert!((spec.check)(&doc).is_err(), "{doc}");
    }
    let fine = [
        json!({}),
        json!({"h": {"enabled": false, "SessionEnd": 5, "Stop": [{"command": "x", "env": {}}]}}),
        json!({"h": {"PreToolUse": [{"matcher": "*", "hooks": [{"command": "x", "timeout": -1}]}]}}),
        json!({"h": {"PreInvocation": [{"type": "prompt", "prompt": "p", "model": "m"}]}}),
    ];
    for doc in fine {
        assert!((spec.check)(&doc).is_ok(), "{doc}");
    }
}

fn dispatch(sb: &Sandbox, native: &str, payload: &Value, policy: &str) -> String {
    sb.test()
        .args(["dispatch", "--contract", "antigravity", native])
        .env("CUECARD_POLICY", policy)
        .json(payload)
        .run()
        .stdout
}

fn call(sb: &Sandbox, command: &str) -> Value {
    let v = sb.fixture("antigravity", "PreToolUse.run_command");
    serde_json::from_str(&v.to_string().replace("echo rig-hello", command)).unwrap()
}

fn one(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim_end()).unwrap_or_else(|e| panic!("{e}: {stdout:?}"))
}

#[test]
fn every_pre_tool_use_call_answers_a_decision_never_allow() {
    let sb = Sandbox::new();
    // Nothing to say: `ask`, agy's own permission flow.
    let quiet = dispatch(&sb, "PreToolUse", &call(&sb, "echo rig-hello"), "");
    assert_eq!(one(&quiet), json!({"decision": "ask"}));
    // A finding with no policy: advice cannot travel here; still `ask`.
    let advice = dispatch(&sb, "PreToolUse", &call(&sb, "rm -rf /srv/canary"), "");
    assert_eq!(one(&advice), json!({"decision": "ask"}));
    // A deny: `deny` with the reason agy shows the model.
    let deny = one(&dispatch(
        &sb,
        "PreToolUse",
        &call(&sb, "rm -rf /srv/canary"),
        "destructive=deny",
    ));
    assert_eq!(deny["decision"], "deny", "{deny}");
    assert!(
        deny["reason"].as_str().unwrap().contains("/srv/canary"),
        "{deny}"
    );
    assert_eq!(deny.as_object().unwrap().len(), 2, "{deny}");
    // An ask: `force_ask`, so that a person answers even where agy
    // remembered an "always allow".
    let ask = one(&dispatch(
        &sb,
        "PreToolUse",
        &call(&sb, "rm -rf /srv/canary"),
        "destructive=ask",
    ));
    assert_eq!(ask["decision"], "force_ask", "{ask}");
    // The write tool's doubly encoded path is read as the path it names.
    let w = sb.fixture("antigravity", "PreToolUse.write_to_file");
    assert_eq!(
        one(&dispatch(&sb, "PreToolUse", &w, "")),
        json!({"decision": "ask"})
    );
}

#[test]
fn a_call_cuecard_cannot_judge_still_answers_ask() {
    let sb = Sandbox::new();
    // A garbled payload.
    let out = sb
        .test()
        .args(["dispatch", "--contract", "antigravity", "PreToolUse"])
        .stdin("{\"toolCall\": {\"name\": \"run_command\"")
        .run();
    assert_eq!(one(&out.stdout), json!({"decision": "ask"}));
    // Judging that breaks off (debug builds panic on request).
    let out = sb
        .test()
        .args(["dispatch", "--contract", "antigravity", "PreToolUse"])
        .env("CUECARD_TEST_PANIC", "pipeline")
        .json(&call(&sb, "echo rig-hello"))
        .run();
    assert_eq!(one(&out.stdout), json!({"decision": "ask"}));
    // The deadline, with no policy standing.
    let out = sb
        .test()
        .args(["dispatch", "--contract", "antigravity", "PreToolUse"])
        .env("CUECARD_DEADLINE_MS", "300")
        .never_closing_stdin()
        .run();
    assert_eq!(one(&out.stdout), json!({"decision": "ask"}));
}

#[test]
fn context_travels_only_as_inject_steps_and_only_where_agy_reads_it() {
    let sb = Sandbox::new();
    let start = one(&dispatch(
        &sb,
        "SessionStart",
        &sb.fixture("antigravity", "SessionStart"),
        "",
    ));
    let steps = start["injectSteps"].as_array().expect("injectSteps");
    assert_eq!(start.as_object().unwrap().len(), 1, "{start}");
    assert_eq!(steps[0].as_object().unwrap().len(), 1, "{start}");
    assert!(
        steps[0]["ephemeralMessage"]
            .as_str()
            .unwrap()
            .contains("cuecard"),
        "{start}"
    );
    // After the tool, and at the stop, nothing is read: nothing is printed.
    for (native, fixture) in [("PostToolUse", "PostToolUse.run_command"), ("Stop", "Stop")] {
        let out = sb
            .test()
            .args(["dispatch", "--contract", "antigravity", native])
            .env("CUECARD_STOP_CARD", "1")
            .json(&sb.fixture("antigravity", fixture))
            .run();
        assert_eq!(out.stdout, "", "{native}");
    }
}
