//! Harness contracts, round trip through the real binary: a harness's own
//! payload (recorded, or written from its documentation) → `dispatch
//! --contract <id> <its event>` → the answer, checked against what that
//! harness documents it reads: field names, nesting, and which events may
//! carry which fields. Events a harness does not deliver get no output.

mod support;

use serde_json::{Map, Value, json};
use std::path::Path;
use support::Sandbox;

const SESSION_START_LINE: &str = "# cuecard is active in this session";

/// Every fixture of a harness: (file stem, native event, payload text).
fn fixtures(harness: &str) -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(harness);
    let mut out: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            assert_eq!(v["harness"], harness, "{}", p.display());
            let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
            (stem, v["event"].as_str().unwrap().to_string())
        })
        .collect();
    out.sort();
    out
}

/// Runs one fixture through `dispatch --contract`, in a fresh sandbox.
fn dispatch(harness: &str, stem: &str, event: &str, env: &[(&str, &str)]) -> String {
    let sb = Sandbox::new();
    let mut t = sb
        .test()
        .arg("dispatch")
        .arg("--contract")
        .arg(harness)
        .arg(event)
        .json(&sb.fixture(harness, stem));
    for (k, v) in env {
        t = t.env(k, v);
    }
    t.run().stdout
}

fn obj(stdout: &str) -> Map<String, Value> {
    match serde_json::from_str::<Value>(stdout.trim_end()).unwrap() {
        Value::Object(m) => m,
        v => panic!("not an object: {v}"),
    }
}

fn keys(m: &Map<String, Value>) -> Vec<&str> {
    m.keys().map(String::as_str).collect()
}

fn assert_only(m: &Map<String, Value>, allowed: &[&str], what: &str) {
    for k in m.keys() {
        assert!(
            allowed.contains(&k.as_str()),
            "{what}: `{k}` is not allowed (has {:?})",
            keys(m)
        );
    }
}

/// Claude Code's envelope, as Claude-compatible harnesses read it:
/// `hookSpecificOutput.{hookEventName = the native event, additionalContext}`.
fn check_envelope(stdout: &str, native: &str, what: &str) -> String {
    let m = obj(stdout);
    assert_only(&m, &["hookSpecificOutput", "systemMessage"], what);
    let s = m["hookSpecificOutput"]
        .as_object()
        .expect("hookSpecificOutput");
    assert_only(s, &["hookEventName", "additionalContext"], what);
    assert_eq!(s["hookEventName"], native, "{what}");
    s["additionalContext"]
        .as_str()
        .expect("additionalContext")
        .to_string()
}

/// Antigravity CLI reads its answers as protobuf messages: on PreToolUse
/// only `decision` (never `allow`) and `reason`; elsewhere only
/// `injectSteps`, each step one `ephemeralMessage`.
fn check_antigravity(stdout: &str, native: &str, what: &str) -> String {
    let m = obj(stdout);
    if native == "PreToolUse" {
        assert_only(&m, &["decision", "reason"], what);
        let d = m["decision"].as_str().expect("decision");
        assert!(matches!(d, "ask" | "force_ask" | "deny"), "{what}: {d}");
        return d.to_string();
    }
    assert_only(&m, &["injectSteps"], what);
    let steps = m["injectSteps"].as_array().expect("injectSteps");
    let step = steps[0].as_object().expect("a step");
    assert_only(step, &["ephemeralMessage"], what);
    step["ephemeralMessage"].as_str().expect("text").to_string()
}

/// Codex's strict schemas (codex-rs/hooks/schema/generated/<event>.command
/// .output.schema.json): `additionalProperties: false` at the top level and
/// inside `hookSpecificOutput` (which requires `hookEventName`); Stop,
/// PreCompact and PostCompact have no `hookSpecificOutput` at all.
fn check_codex(stdout: &str, native: &str, what: &str) -> String {
    let common = ["continue", "stopReason", "suppressOutput", "systemMessage"];
    let (top, inner): (Vec<&str>, &[&str]) = match native {
        "SessionStart" | "SubagentStart" => (
            [&common[..], &["hookSpecificOutput"]].concat(),
            &["hookEventName", "additionalContext"],
        ),
        "UserPromptSubmit" | "PostToolUse" => (
            [&common[..], &["hookSpecificOutput", "decision", "reason"]].concat(),
            &[
                "hookEventName",
                "additionalContext",
                "updatedToolOutput",
                "updatedMCPToolOutput",
            ],
        ),
        "PreToolUse" => (
            [&common[..], &["hookSpecificOutput"]].concat(),
            &[
                "hookEventName",
                "additionalContext",
                "permissionDecision",
                "permissionDecisionReason",
                "updatedInput",
            ],
        ),
        other => panic!("{what}: Codex must not answer on {other}"),
    };
    let m = obj(stdout);
    assert_only(&m, &top, what);
    let s = m["hookSpecificOutput"]
        .as_object()
        .expect("hookSpecificOutput");
    assert_only(s, inner, what);
    assert_eq!(
        s["hookEventName"], native,
        "{what}: hookEventName is required and names the event"
    );
    s["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A flat object with only `field` (Copilot camelCase: top-level
/// `additionalContext`; Cursor: top-level `additional_context`).
/// Cline: exactly one JSON object with a top-level `context` and nothing
/// else (never `cancel`, which ends the whole run; never `overrideInput`).
fn check_cline(stdout: &str, what: &str) -> String {
    assert_eq!(
        stdout.trim_end().lines().count(),
        1,
        "{what}: one line: {stdout:?}"
    );
    let m = obj(stdout);
    assert_eq!(keys(&m), ["context"], "{what}: {stdout}");
    m["context"].as_str().expect("context").to_string()
}

fn check_flat(stdout: &str, field: &str, what: &str) -> String {
    let m = obj(stdout);
    assert_only(
        &m,
        &[field, "permissionDecision", "permissionDecisionReason"],
        what,
    );
    assert!(!m.contains_key("hookSpecificOutput"), "{what}");
    m[field].as_str().expect(field).to_string()
}

/// Crush (internal/hooks/input.go `parseClaudeCodeOutput`): an object with
/// `hookSpecificOutput` is read from that object alone, and from it only
/// `permissionDecision`, `permissionDecisionReason`, `updatedInput` and
/// `additionalContext` (`hookEventName` is ignored); a top-level key beside
/// it (a `systemMessage`) would be lost.
fn check_crush(stdout: &str, native: &str, what: &str) -> String {
    let m = obj(stdout);
    assert_only(&m, &["hookSpecificOutput"], what);
    let s = m["hookSpecificOutput"]
        .as_object()
        .expect("hookSpecificOutput");
    assert_only(
        s,
        &[
            "hookEventName",
            "additionalContext",
            "permissionDecision",
            "permissionDecisionReason",
        ],
        what,
    );
    assert_eq!(s["hookEventName"], native, "{what}");
    s["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Which native events may carry context, per harness (its documentation
/// and the rig measurements), and how the answer is checked.
fn check(harness: &str, native: &str, stdout: &str) -> Option<String> {
    let what = format!("{harness} {native}");
    if stdout.is_empty() {
        return None;
    }
    let allowed: &[&str] = match harness {
        "codex" => &[
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
            "SubagentStart",
        ],
        "qwen" => &[
            "SessionStart",
            "UserPromptSubmit",
            "PostToolUse",
            "PostToolBatch",
        ],
        "codebuddy" => &["SessionStart", "UserPromptSubmit", "PostToolUse"],
        "factory" => &["SessionStart", "UserPromptSubmit", "PostToolUse"],
        "qoder" => &["SessionStart", "UserPromptSubmit"],
        "cline" => &["PostToolUse"],
        "crush" => &["PreToolUse"],
        "gemini" => &["SessionStart", "BeforeAgent", "AfterTool"],
        "copilot" => &[
            "sessionStart",
            "userPromptSubmitted",
            "preToolUse",
            "postToolUse",
            "postToolUseFailure",
            "subagentStart",
            "PreToolUse",
        ],
        "cursor" => &["sessionStart", "postToolUse"],
        "devin" => &[
            "SessionStart",
            "UserPromptSubmit",
            "PreToolUse",
            "PostToolUse",
        ],
        "kiro" => &[
            "SessionStart",
            "UserPromptSubmit",
            "agentSpawn",
            "userPromptSubmit",
        ],
        "opencode" => &["session.created", "chat.message", "tool.execute.after"],
        "pi" => &["session_start", "before_agent_start", "tool_result"],
        "antigravity" => &["SessionStart", "PreInvocation", "PreToolUse"],
        other => panic!("no schema for {other}"),
    };
    assert!(
        allowed.contains(&native),
        "{what}: this event's output does not reach the model, yet got {stdout:?}"
    );
    Some(match harness {
        "codex" => check_codex(stdout, native, &what),
        "copilot" if native == "PreToolUse" => check_envelope(stdout, native, &what),
        "copilot" => check_flat(stdout, "additionalContext", &what),
        "cursor" => check_flat(stdout, "additional_context", &what),
        "opencode" | "pi" => check_flat(stdout, "additionalContext", &what),
        "cline" => check_cline(stdout, &what),
        "crush" => check_crush(stdout, native, &what),
        "kiro" => stdout.trim_end_matches('\n').to_string(),
        "antigravity" => check_antigravity(stdout, native, &what),
        _ => check_envelope(stdout, native, &what),
    })
}

const HARNESSES: &[&str] = &[
    "codex",
    "qwen",
    "codebuddy",
    "factory",
    "qoder",
    "cline",
    "crush",
    "gemini",
    "copilot",
    "cursor",
    "devin",
    "kiro",
    "opencode",
    "pi",
    "antigravity",
];

#[test]
fn every_fixture_answers_in_its_harness_schema_or_not_at_all() {
    for h in HARNESSES {
        for (stem, event) in fixtures(h) {
            // The Stop card is on, so Stop-like events would answer if the
            // contract let them: it must not, except where Stop reaches the model.
            let out = dispatch(h, &stem, &event, &[("CUECARD_STOP_CARD", "1")]);
            check(h, &event, &out);
        }
    }
}

#[test]
fn session_start_reaches_each_harness_that_reads_it() {
    let cases = [
        ("codex", "SessionStart.startup", "SessionStart"),
        ("qwen", "SessionStart.startup", "SessionStart"),
        ("codebuddy", "SessionStart.startup", "SessionStart"),
        ("factory", "SessionStart.startup", "SessionStart"),
        ("qoder", "SessionStart.startup", "SessionStart"),
        ("gemini", "SessionStart.startup", "SessionStart"),
        ("cursor", "sessionStart", "sessionStart"),
        ("devin", "SessionStart.startup", "SessionStart"),
        ("kiro", "agentSpawn", "agentSpawn"),
    ];
    for (h, stem, event) in cases {
        let out = dispatch(h, stem, event, &[]);
        let context =
            check(h, event, &out).unwrap_or_else(|| panic!("{h}: no SessionStart answer"));
        assert!(context.starts_with(SESSION_START_LINE), "{h}: {context:?}");
    }
    // Kiro reads stdout itself: the card text, not JSON.
    let out = dispatch("kiro", "agentSpawn", "agentSpawn", &[]);
    assert!(out.starts_with(SESSION_START_LINE), "{out:?}");
}

#[test]
fn copilot_session_start_carries_context_in_camel_case_only() {
    // The hooks reference documents sessionStart's `additionalContext`; the
    // PascalCase SessionStart did not deliver (measured), so it gets nothing.
    for stem in ["sessionStart.new", "sessionStart.resume"] {
        let out = dispatch("copilot", stem, "sessionStart", &[]);
        let context = check("copilot", "sessionStart", &out)
            .unwrap_or_else(|| panic!("{stem}: no sessionStart answer"));
        assert!(
            context.starts_with(SESSION_START_LINE),
            "{stem}: {context:?}"
        );
    }
    assert_eq!(
        dispatch("copilot", "SessionStart.new", "SessionStart", &[]),
        ""
    );
}

#[test]
fn stop_context_goes_only_where_stop_reads_it() {
    let sb = Sandbox::new();
    let claude = sb
        .test()
        .dispatch("Stop", &[])
        .env("CUECARD_STOP_CARD", "1")
        .json(&sb.fixture("claude-code", "Stop"))
        .run();
    assert!(
        claude.context().contains("end-of-turn check"),
        "{}",
        claude.stdout
    );
    // Codex rejects context on Stop ("Stop Failed"); Gemini's AfterAgent
    // retries the turn; Copilot, Cursor, Kiro, Devin, Qwen: not delivered.
    for (h, stem, event) in [
        ("codex", "Stop", "Stop"),
        ("gemini", "AfterAgent", "AfterAgent"),
        ("copilot", "agentStop", "agentStop"),
        ("cursor", "stop", "stop"),
        ("kiro", "stop", "stop"),
        ("devin", "Stop", "Stop"),
        ("qwen", "Stop", "Stop"),
        ("codebuddy", "Stop", "Stop"),
    ] {
        assert_eq!(
            dispatch(h, stem, event, &[("CUECARD_STOP_CARD", "1")]),
            "",
            "{h}"
        );
    }
}

#[test]
fn without_contract_the_envelope_is_claude_codes_byte_for_byte() {
    for stem in ["SessionStart.startup", "SessionStart.compact"] {
        let sb = Sandbox::new();
        let plain = sb
            .test()
            .dispatch("SessionStart", &[])
            .json(&sb.fixture("claude-code", stem))
            .run()
            .stdout;
        let sb2 = Sandbox::new();
        let named = sb2
            .test()
            .args(["dispatch", "--contract", "claude-code", "SessionStart"])
            .json(&sb2.fixture("claude-code", stem))
            .run()
            .stdout;
        assert!(plain.starts_with(
            r#"{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"#
        ));
        assert_eq!(plain, named, "{stem}");
    }
}

#[test]
fn dropped_and_unknown_events_get_nothing() {
    // Gemini drops BeforeTool context; Cursor's prompt event cannot inject.
    assert_eq!(
        dispatch("gemini", "BeforeTool.write_file", "BeforeTool", &[]),
        ""
    );
    assert_eq!(
        dispatch("cursor", "beforeSubmitPrompt", "beforeSubmitPrompt", &[]),
        ""
    );
    let sb = Sandbox::new();
    // A native name the contract does not know, an unknown contract, and a
    // Claude name given to a harness that names it differently.
    for args in [
        ["dispatch", "--contract", "gemini", "BeforeModel"],
        ["dispatch", "--contract", "vim", "SessionStart"],
        ["dispatch", "--contract", "gemini", "UserPromptSubmit"],
    ] {
        sb.test()
            .args(args)
            .json(&sb.fixture("gemini", "SessionStart.startup"))
            .stdout("")
            .run();
    }
}

#[test]
fn windsurf_carries_nothing() {
    let sb = Sandbox::new();
    let p = serde_json::json!({
        "agent_action_name": "pre_user_prompt",
        "trajectory_id": "t-1",
        "execution_id": "e-1",
        "tool_info": {"user_prompt": "hello"}
    });
    for event in [
        "pre_user_prompt",
        "post_run_command",
        "post_cascade_response",
    ] {
        sb.test()
            .args(["dispatch", "--contract", "windsurf", event])
            .json(&p)
            .stdout("")
            .run();
    }
}

#[test]
fn deferred_tool_cards_are_judged_on_the_after_tool_event() {
    // Gemini drops BeforeTool context: the PreToolUse cards run on AfterTool,
    // each judged as the event it is bound to; the answer names AfterTool.
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["explain", "--contract", "gemini", "AfterTool"])
        .json(&sb.fixture("gemini", "AfterTool.write_file"))
        .run()
        .stdout;
    assert!(
        out.contains("native event: AfterTool → PostToolUse"),
        "{out}"
    );
    assert!(
        out.contains("cards evaluated as: PostToolUse, PreToolUse"),
        "{out}"
    );
    let out = sb
        .test()
        .args(["explain", "--contract", "gemini", "BeforeTool"])
        .json(&sb.fixture("gemini", "BeforeTool.write_file"))
        .run()
        .stdout;
    assert!(
        out.contains("Gemini CLI does not deliver what a hook prints on `BeforeTool`"),
        "{out}"
    );
    for (h, event) in [
        ("qwen", "PostToolUse"),
        ("codebuddy", "PostToolUse"),
        ("cursor", "postToolUse"),
    ] {
        let out = sb
            .test()
            .args(["explain", "--contract", h, event])
            .stdin("{}")
            .run()
            .stdout;
        assert!(
            out.contains("cards evaluated as: PostToolUse, PreToolUse"),
            "{h}: {out}"
        );
    }
}

#[test]
fn session_start_is_answered_once_across_surfaces() {
    // Cursor runs Claude Code's hooks as well as its own: the same session
    // start arrives through both. The second within ten seconds is silent.
    let sb = Sandbox::new();
    let cursor = sb.fixture("cursor", "sessionStart");
    let session = cursor["conversation_id"].as_str().unwrap().to_string();
    let first = sb
        .test()
        .args(["dispatch", "--contract", "cursor", "sessionStart"])
        .json(&cursor)
        .run()
        .stdout;
    assert!(first.contains("additional_context"), "{first}");
    let claude_surface = serde_json::json!({
        "session_id": session,
        "hook_event_name": "SessionStart",
        "source": "startup",
        "cwd": sb.project(),
    });
    sb.test()
        .dispatch("SessionStart", &[])
        .json(&claude_surface)
        .stdout("")
        .run();
    // Another source of the same session, or another session, is answered.
    let mut resumed = claude_surface.clone();
    resumed["source"] = "resume".into();
    assert!(
        !sb.test()
            .dispatch("SessionStart", &[])
            .json(&resumed)
            .run()
            .stdout
            .is_empty()
    );
    let mut other = claude_surface.clone();
    other["session_id"] = "another-session".into();
    assert!(
        !sb.test()
            .dispatch("SessionStart", &[])
            .json(&other)
            .run()
            .stdout
            .is_empty()
    );

    // Devin: the Claude surface first, then Devin's own.
    let sb = Sandbox::new();
    let devin = sb.fixture("devin", "SessionStart.startup");
    let mut claude_surface = devin.clone();
    claude_surface["cwd"] = sb.project().to_string_lossy().into_owned().into();
    assert!(
        !sb.test()
            .dispatch("SessionStart", &[])
            .json(&claude_surface)
            .run()
            .stdout
            .is_empty()
    );
    sb.test()
        .args(["dispatch", "--contract", "devin", "SessionStart"])
        .json(&devin)
        .stdout("")
        .run();
    // explain neither writes nor obeys the marker.
    let out = sb
        .test()
        .args(["explain", "--contract", "devin", "SessionStart"])
        .json(&devin)
        .run()
        .stdout;
    assert!(out.contains(SESSION_START_LINE), "{out}");
}

#[test]
fn without_a_session_id_nothing_is_silenced() {
    // Kiro sends no session id: two sessions must never silence each other.
    let sb = Sandbox::new();
    for _ in 0..2 {
        let out = sb
            .test()
            .args(["dispatch", "--contract", "kiro", "agentSpawn"])
            .json(&sb.fixture("kiro", "agentSpawn"))
            .run()
            .stdout;
        assert!(out.starts_with(SESSION_START_LINE), "{out:?}");
    }
}

#[test]
fn a_session_start_that_said_nothing_does_not_silence_the_next() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.startup");
    sb.test()
        .dispatch("SessionStart", &["no-such-card"])
        .json(&p)
        .stdout("")
        .run();
    let out = sb
        .test()
        .dispatch("SessionStart", &["session-start"])
        .json(&p)
        .run();
    assert!(
        out.context().starts_with(SESSION_START_LINE),
        "{}",
        out.stdout
    );
    sb.test()
        .dispatch("SessionStart", &["session-start"])
        .json(&p)
        .stdout("")
        .run();
}

/// The tool advisories reach each harness's own tool names end to end:
/// payload in the harness's dialect → guards → the harness's envelope.
#[test]
fn dependency_advisory_round_trips_through_each_dialect() {
    let sb = Sandbox::new();
    let project = sb.project();
    let patch = format!(
        "*** Begin Patch\n*** Add File: {}/package.json\n+{{\"dependencies\":{{\"left-pad\":\"1\"}}}}\n*** End Patch\n",
        project.display()
    );
    let cases: Vec<(&str, &str, Value)> = vec![
        (
            "copilot",
            "preToolUse",
            // Copilot's freeform patch tool, toolArgs given as the patch text.
            json!({"sessionId": "c1", "timestamp": 1, "cwd": project, "toolName": "apply_patch", "toolArgs": patch}),
        ),
        (
            "copilot",
            "preToolUse",
            json!({"sessionId": "c2", "timestamp": 1, "cwd": project, "toolName": "create",
                   "toolArgs": {"path": format!("{}/package.json", project.display()), "file_text": "{}"}}),
        ),
        (
            "codex",
            "PreToolUse",
            json!({"session_id": "x1", "cwd": project, "hook_event_name": "PreToolUse", "tool_name": "apply_patch",
                   "tool_input": {"command": patch}, "turn_id": "t"}),
        ),
        (
            "codex",
            "PreToolUse",
            json!({"session_id": "x2", "cwd": project, "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "cat > package.json <<'EOF'\n{}\nEOF"}, "turn_id": "t"}),
        ),
        (
            "gemini",
            "AfterTool",
            json!({"session_id": "g1", "cwd": project, "hook_event_name": "AfterTool", "tool_name": "write_file",
                   "tool_input": {"file_path": format!("{}/package.json", project.display()), "content": "{}"},
                   "tool_response": {"llmContent": "ok"}}),
        ),
        (
            "crush",
            "PreToolUse",
            // Crush's `write` tool, its payload keyed `event`, no transcript.
            json!({"event": "PreToolUse", "session_id": "k1", "cwd": project, "tool_name": "write",
                   "tool_input": {"file_path": format!("{}/package.json", project.display()), "content": "{}"}}),
        ),
        (
            "qwen",
            "PostToolUse",
            json!({"session_id": "q1", "cwd": project, "hook_event_name": "PostToolUse", "tool_name": "run_shell_command",
                   "tool_input": {"command": "npm install left-pad"}, "tool_response": {"llmContent": "ok"}}),
        ),
    ];
    // Copilot (camelCase) reads a flat `additionalContext`; the others
    // `hookSpecificOutput.additionalContext`.
    let context = |harness: &str, out: &str| -> String {
        let m = obj(out);
        let v = if harness == "copilot" {
            &m["additionalContext"]
        } else {
            &m["hookSpecificOutput"]["additionalContext"]
        };
        v.as_str().unwrap_or_default().to_string()
    };
    for (harness, event, payload) in cases {
        let out = sb
            .test()
            .args(["dispatch", "--contract", harness, event])
            .json(&payload)
            .run();
        let ctx = context(harness, &out.stdout);
        assert!(
            ctx.contains("package.json") || ctx.contains("left-pad"),
            "{harness} {event}: the dependency advisory must arrive: {}",
            out.stdout
        );
        assert!(ctx.contains("Full procedure"), "{harness}: {ctx}");
    }
}

/// The secrets card fires on each harness's own search tool reading a
/// `.env`, and the AskUserQuestion card on each harness's own question
/// tool, in the harness's answer shape (`grep_search` / `ask_user_question`
/// on Qwen Code, `grep_search` / `ask_user` on Gemini CLI, `grep` /
/// `ask_user` on Copilot CLI).
#[test]
fn search_and_question_cards_fire_on_each_harness_tool_names() {
    for (h, stem, event, card) in [
        ("qwen", "PostToolUse.grep_search", "PostToolUse", "secrets"),
        ("copilot", "preToolUse.grep", "preToolUse", "secrets"),
        ("crush", "PreToolUse.grep", "PreToolUse", "secrets"),
        (
            "qwen",
            "PostToolUse.ask_user_question",
            "PostToolUse",
            "askuser-recommended",
        ),
        (
            "gemini",
            "AfterTool.ask_user",
            "AfterTool",
            "askuser-recommended",
        ),
        (
            "copilot",
            "preToolUse.ask_user",
            "preToolUse",
            "askuser-recommended",
        ),
    ] {
        let sb = Sandbox::new();
        std::fs::write(sb.project().join(".env"), "API_KEY=x\n").unwrap();
        let out = sb
            .test()
            .args(["dispatch", "--contract", h, event])
            .json(&sb.fixture(h, stem))
            .run()
            .stdout;
        let context = check(h, event, &out).unwrap_or_else(|| panic!("{h} {stem}: no answer"));
        assert!(
            context.contains(&format!("cuecard cards show {card}")),
            "{h} {stem}: the {card} card did not fire: {context}"
        );
    }
}

/// Where the dependency card is judged after the tool ran (Qwen Code and
/// Gemini CLI defer it to the after-tool event), the manifest on disk
/// already holds the new content: it cannot stand for "before", and the
/// advisory is given.
#[test]
fn a_manifest_written_before_a_deferred_card_is_judged_still_gets_the_advisory() {
    let sb = Sandbox::new();
    let project = sb.project();
    let manifest = r#"{"name": "demo", "dependencies": {"left-pad": "1.3.0"}}"#;
    let path = sb.write("package.json", manifest);
    let cases = [
        (
            "qwen",
            "PostToolUse",
            json!({"session_id": "q-def", "cwd": project, "hook_event_name": "PostToolUse",
                   "tool_name": "write_file", "tool_input": {"file_path": path, "content": manifest},
                   "tool_response": {"llmContent": "ok"}}),
        ),
        (
            "gemini",
            "AfterTool",
            json!({"session_id": "g-def", "cwd": project, "hook_event_name": "AfterTool",
                   "tool_name": "write_file", "tool_input": {"file_path": path, "content": manifest},
                   "tool_response": {"llmContent": "ok"}}),
        ),
    ];
    for (harness, event, payload) in cases {
        let out = sb
            .test()
            .args(["dispatch", "--contract", harness, event])
            .json(&payload)
            .run();
        let m = obj(&out.stdout);
        let ctx = m["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .unwrap_or_default();
        assert!(
            ctx.contains("cuecard cards show dependency"),
            "{harness} {event}: {}",
            out.stdout
        );
    }
}

#[test]
fn factory_tool_names_reach_the_guards_and_the_advisory_rides_on_post_tool_use() {
    // Droid's shell tool is `Execute`: mapped to Bash, the dependency card
    // (a PreToolUse card, deferred) answers on PostToolUse, in Claude Code's
    // envelope, with `tool_response` a string as Droid sends it; PreToolUse
    // itself carries no context (measured: it never reaches the model).
    let out = dispatch("factory", "PostToolUse.Execute.npm", "PostToolUse", &[]);
    let context = check("factory", "PostToolUse", &out).expect("an answer on PostToolUse");
    assert!(context.contains("left-pad"), "{context}");
    let before = dispatch("factory", "PreToolUse.Execute", "PreToolUse", &[]);
    assert!(before.is_empty(), "{before}");
}

/// Factory Droid 0.225.2 (measured): matchers are regular expressions and
/// the tools are `Execute`, `Create` and `Edit` (no `MultiEdit`). What
/// install writes must match Droid's tool names as a regex, and never the
/// canonical names (a `Bash` matcher does not match `Execute`) nor `*`
/// (not a valid regex).
#[test]
fn factory_install_writes_regex_matchers_on_droids_tool_names() {
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "factory", "--scope", "project"])
        .run();
    let path = sb.project().join(".factory/settings.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut tool_matchers = 0;
    for (event, groups) in v["hooks"].as_object().expect("hooks") {
        for g in groups.as_array().unwrap() {
            let Some(m) = g.get("matcher").and_then(Value::as_str) else {
                continue;
            };
            let re = regex::Regex::new(m)
                .unwrap_or_else(|e| panic!("{event}: matcher `{m}` is not a regex: {e}"));
            if !matches!(event.as_str(), "PreToolUse" | "PostToolUse") {
                continue;
            }
            tool_matchers += 1;
            for canonical in ["Bash", "Write", "MultiEdit", "apply_patch"] {
                assert!(!re.is_match(canonical) || m == ".*", "{event}: `{m}`");
            }
            assert!(
                ["Execute", "Create", "Edit", "Read", "Grep"]
                    .iter()
                    .any(|t| re.is_match(t)),
                "{event}: `{m}` matches none of Droid's tools"
            );
            if m != ".*" {
                assert!(m.starts_with("^(?:") && m.ends_with(")$"), "{m}");
            }
        }
    }
    assert!(tool_matchers > 0, "{v}");
}

/// Droid keeps only the first PostToolUse hook's context (its hooks
/// reference): install says so when another PostToolUse hook comes before
/// cuecard's in the file it wrote, and is silent when cuecard's is first.
#[test]
fn a_factory_install_says_when_another_post_tool_use_hook_comes_first() {
    let sb = Sandbox::new();
    let path = sb.project().join(".factory/settings.json");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        r#"{"hooks":{"PostToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"./lint-output.sh"}]}]}}"#,
    )
    .unwrap();
    let out = sb
        .test()
        .args(["install", "--harness", "factory", "--scope", "project"])
        .run();
    assert!(
        out.stdout
            .contains("another PostToolUse hook comes before cuecard's")
            && out.stdout.contains("./lint-output.sh"),
        "{}",
        out.stdout
    );
    // doctor says it too, for as long as the order stands.
    let doctor = sb.test().arg("doctor").run();
    assert!(
        doctor.stdout.contains("note ")
            && doctor
                .stdout
                .contains("another PostToolUse hook comes before cuecard's"),
        "{}",
        doctor.stdout
    );
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["install", "--harness", "factory", "--scope", "project"])
        .run();
    assert!(
        !out.stdout.contains("another PostToolUse hook"),
        "{}",
        out.stdout
    );
    let doctor = sb.test().arg("doctor").run();
    assert!(
        !doctor.stdout.contains("another PostToolUse hook"),
        "{}",
        doctor.stdout
    );
}

/// CodeBuddy Code 2.117.0 (measured): UserPromptSubmit fires before
/// SessionStart, and SessionStart carries no `cwd`. Both still answer in
/// one session, the session start after the prompt, with the hook's working
/// directory (the project) standing in for the missing `cwd`.
#[test]
fn codebuddy_session_start_after_the_prompt_and_without_cwd_still_answers() {
    let sb = Sandbox::new();
    let prompt = sb.fixture("codebuddy", "UserPromptSubmit");
    let start = sb.fixture("codebuddy", "SessionStart.startup");
    assert_eq!(prompt["session_id"], start["session_id"], "one session");
    assert!(start.get("cwd").is_none(), "recorded without cwd");
    let first = sb
        .test()
        .args(["dispatch", "--contract", "codebuddy", "UserPromptSubmit"])
        .json(&prompt)
        .run()
        .stdout;
    if !first.is_empty() {
        check("codebuddy", "UserPromptSubmit", &first);
    }
    let out = sb
        .test()
        .args(["dispatch", "--contract", "codebuddy", "SessionStart"])
        .json(&start)
        .run()
        .stdout;
    let context = check("codebuddy", "SessionStart", &out).expect("a SessionStart answer");
    assert!(context.starts_with(SESSION_START_LINE), "{context:?}");
}

/// CodeBuddy's PostToolUse carries no output text (recorded): the
/// deferred PreToolUse cards still judge the call from its input.
#[test]
fn codebuddy_post_tool_use_without_output_text_still_judges_the_call() {
    let sb = Sandbox::new();
    let v = sb.fixture("codebuddy", "PostToolUse.Bash");
    assert!(v["tool_response"].get("stdout").is_none(), "no output text");
    let v: Value = serde_json::from_str(
        &v.to_string()
            .replace("echo rig-hello", "npm install left-pad@1.3.0"),
    )
    .unwrap();
    let out = sb
        .test()
        .args(["dispatch", "--contract", "codebuddy", "PostToolUse"])
        .json(&v)
        .run()
        .stdout;
    let context = check("codebuddy", "PostToolUse", &out).expect("an answer on PostToolUse");
    assert!(context.contains("left-pad"), "{context}");
}

#[test]
fn qoder_carries_session_start_and_prompt_context_only() {
    let out = dispatch("qoder", "UserPromptSubmit", "UserPromptSubmit", &[]);
    check("qoder", "UserPromptSubmit", &out);
    for (stem, event) in [
        ("PreToolUse.Bash", "PreToolUse"),
        ("PostToolUse.Write", "PostToolUse"),
    ] {
        let out = dispatch("qoder", stem, event, &[]);
        assert!(out.is_empty(), "{event}: {out}");
    }
}

/// What Cline reads from each recorded payload, as a snapshot: only
/// PostToolUse answers (a top-level `context`); every other event,
/// PreToolUse included, prints nothing.
#[test]
fn cline_recorded_payloads_answer_as_cline_reads_them() {
    for (stem, event) in fixtures("cline") {
        let out = dispatch("cline", &stem, &event, &[("CUECARD_STOP_CARD", "1")]);
        if event != "PostToolUse" {
            assert!(out.is_empty(), "{stem}: {out}");
        }
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/snapshots/cline")
            .join(format!("{stem}.txt"));
        let got = format!("stdout: {}\n", out.trim_end());
        if std::env::var_os("CUECARD_UPDATE_SNAPSHOTS").is_some() {
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(&path, &got).unwrap();
            continue;
        }
        let want = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (CUECARD_UPDATE_SNAPSHOTS=1 writes it)",
                path.display()
            )
        });
        assert_eq!(got, want, "snapshot {}", path.display());
    }
}

#[test]
fn cline_package_add_advisory_rides_on_post_tool_use_in_context() {
    // run_commands is mapped to Bash; the dependency card (a PreToolUse
    // card) is judged when PostToolUse fires and answers in `context`.
    let out = dispatch("cline", "PostToolUse.run_commands.npm", "PostToolUse", &[]);
    let context = check("cline", "PostToolUse", &out).expect("an answer on PostToolUse");
    assert!(context.contains("left-pad"), "{context}");
    assert!(
        context.contains("cuecard cards show dependency"),
        "{context}"
    );
}

/// Every command of one `run_commands` call is judged: a later command
/// cannot hide behind an earlier one, not even behind an unclosed quote or
/// heredoc (each is read as its own script).
#[test]
fn cline_every_command_of_a_run_commands_call_is_judged() {
    let sb = Sandbox::new();
    let project = sb.project();
    for first in ["echo hi", "echo 'unclosed", "cat <<EOF", "echo \\"] {
        let payload = json!({
            "clineVersion": "", "taskId": "conv_1", "sessionContext": {"rootSessionId": format!("s-{first}")},
            "workspaceRoots": [project], "hookName": "tool_result",
            "tool_result": {"id": "call_1", "name": "run_commands",
                            "input": {"commands": [first, "npm install left-pad@1.3.0"]},
                            "output": [{"query": first, "result": "", "success": true}]}
        });
        let out = sb
            .test()
            .args(["dispatch", "--contract", "cline", "PostToolUse"])
            .json(&payload)
            .run()
            .stdout;
        let context = check("cline", "PostToolUse", &out)
            .unwrap_or_else(|| panic!("after {first:?}: the second command was not judged"));
        assert!(context.contains("left-pad"), "after {first:?}: {context}");
    }
}

/// Cline's editor: a new file (no `old_text`) is a Write, so the manifest
/// card sees the content it writes.
#[test]
fn cline_editor_writing_a_manifest_gets_the_dependency_advisory() {
    let sb = Sandbox::new();
    let project = sb.project();
    let payload = json!({
        "taskId": "conv_2", "sessionContext": {"rootSessionId": "s-editor"},
        "workspaceRoots": [project], "hookName": "tool_result",
        "tool_result": {"id": "call_1", "name": "editor",
                        "input": {"path": format!("{}/package.json", project.display()),
                                  "new_text": "{\"dependencies\": {\"left-pad\": \"1.3.0\"}}\n"},
                        "output": {"query": "edit:package.json", "result": "File created", "success": true}}
    });
    let out = sb
        .test()
        .args(["dispatch", "--contract", "cline", "PostToolUse"])
        .json(&payload)
        .run()
        .stdout;
    let context = check("cline", "PostToolUse", &out).expect("an answer");
    assert!(
        context.contains("cuecard cards show dependency"),
        "{context}"
    );
}
#[test]
fn crush_tool_names_reach_the_guards_and_the_advisory_rides_on_pre_tool_use() {
    // Crush's shell tool is `bash`: mapped to Bash, the dependency card
    // answers on PreToolUse (the one event Crush fires through 0.96.1), in
    // the Claude Code envelope Crush reads and appends to the tool's result.
    let out = dispatch("crush", "PreToolUse.bash.npm", "PreToolUse", &[]);
    let context = check("crush", "PreToolUse", &out).expect("an answer on PreToolUse");
    assert!(context.contains("left-pad"), "{context}");
    // A plain call gets nothing: no noise in the tool's result.
    let quiet = dispatch("crush", "PreToolUse.bash", "PreToolUse", &[]);
    assert!(quiet.is_empty(), "{quiet}");
}

#[test]
fn crush_events_it_does_not_fire_get_no_answer() {
    // Crush 0.96.1 has no SessionStart or PostToolUse: a call naming one
    // (a newer Crush, or a hand-written entry) is answered with nothing.
    for event in ["SessionStart", "PostToolUse", "UserPromptSubmit"] {
        let out = dispatch("crush", "PreToolUse.bash.npm", event, &[]);
        assert!(out.is_empty(), "{event}: {out}");
    }
}

/// Qoder CLI 1.1.52's bundle (read, not run: it signs in first) delivers
/// PreToolUse and PostToolUse context as hook context messages: the tool
/// cards answer there in Claude Code's envelope. Qwen Code 0.24.4 appends
/// PostToolUseFailure context to the error the model reads, and
/// UserPromptExpansion context to the expanded prompt: both rows deliver.
#[test]
fn qoder_tool_events_and_qwen_failure_context_are_delivered() {
    let sb = Sandbox::new();
    let mut p = sb.fixture("qoder", "PreToolUse.Bash");
    p["tool_input"]["command"] = json!("git clean -fdx");
    let out = sb
        .test()
        .args(["dispatch", "--contract", "qoder", "PreToolUse"])
        .json(&p)
        .run();
    let v = obj(&out.stdout);
    let h = &v["hookSpecificOutput"];
    assert_eq!(h["hookEventName"], "PreToolUse", "{v:?}");
    assert!(
        h["additionalContext"]
            .as_str()
            .is_some_and(|c| c.contains("git clean -fdx")),
        "{v:?}"
    );
    use cuecard::event::Event;
    use cuecard::harness::{HarnessId, delivers_context};
    for (h, e) in [
        (HarnessId::Qoder, Event::PreToolUse),
        (HarnessId::Qoder, Event::PostToolUse),
        (HarnessId::Qoder, Event::PostToolUseFailure),
        (HarnessId::Qwen, Event::PostToolUseFailure),
        (HarnessId::Qwen, Event::UserPromptExpansion),
    ] {
        assert!(delivers_context(h, e.name()), "{h:?} {e}");
    }
    for e in [
        Event::SubagentStop,
        Event::PermissionDenied,
        Event::StopFailure,
        Event::MessageDisplay,
    ] {
        assert!(
            HarnessId::Qwen.spec().natives(e).next().is_some(),
            "Qwen Code 0.24.4 has {e}"
        );
        assert!(!delivers_context(HarnessId::Qwen, e.name()), "{e}");
    }
}
