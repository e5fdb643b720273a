//! The compaction warning from the usage CodeBuddy Code, Copilot CLI and
//! Factory Droid record, through the real binary and each one's contract.
//! The records are built from ones recorded in the real CLIs
//! (tests/fixtures/usage/, from `cargo xtask e2e --scenario usage-warnings
//! --keep` on 2026-12-03: CodeBuddy Code 2.117.0, Copilot CLI 1.0.102,
//! Factory Droid 0.225.2), with only the token counts and ids changed.

mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::Path;
use support::Sandbox;

/// The recorded lines of a fixture, parsed.
fn recorded(name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/usage")
        .join(name);
    std::fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn append(path: &Path, line: &Value) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    writeln!(f, "{line}").unwrap();
}

/// Dispatches `native` through `--contract harness`; the context delivered.
fn call(sb: &Sandbox, harness: &str, native: &str, p: &Value) -> String {
    let out = sb
        .test()
        .args([
            "dispatch",
            "--contract",
            harness,
            native,
            "compaction-warning",
        ])
        .json(p)
        .run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let v = out.json().unwrap_or(Value::Null);
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .or(v["additionalContext"].as_str())
        .unwrap_or_default()
        .replace('\n', " ")
}

fn status(sb: &Sandbox, session: &str) -> String {
    sb.test()
        .args(["status", "--session", session])
        .run()
        .stdout
}

#[test]
fn codebuddy_transcripts_are_measured_and_its_compaction_rearms() {
    // CodeBuddy's transcript: a `function_call` record per model response
    // with `providerData.usage.inputTokens` (cached tokens included), and a
    // summary message (`providerData.isSummary`) after a compaction.
    let rec = recorded("codebuddy-2.117.0.jsonl");
    let (call_rec, result, summary) = (&rec[0], &rec[1], &rec[2]);
    let sb = Sandbox::new();
    let transcript = sb.path().join("cb/5b142c99.jsonl");
    let response = |id: &str, tokens: u64| {
        let mut r = call_rec.clone();
        r["id"] = json!(id);
        r["providerData"]["usage"]["inputTokens"] = json!(tokens);
        r["providerData"]["rawUsage"]["prompt_tokens"] = json!(tokens);
        r["message"]["usage"]["input_tokens"] = json!(tokens);
        r
    };
    let mut p = sb.fixture("codebuddy", "PostToolUse.Bash");
    p["session_id"] = json!("cb-1");
    p["transcript_path"] = json!(transcript);
    append(&transcript, &response("chatcmpl-1", 100_000));
    append(&transcript, result);
    assert_eq!(call(&sb, "codebuddy", "PostToolUse", &p), "", "50%");
    append(&transcript, &response("chatcmpl-2", 140_000));
    append(&transcript, result);
    let ctx = call(&sb, "codebuddy", "PostToolUse", &p);
    assert!(
        ctx.contains("140,000 tokens of a 200,000-token window (70%; measured from the transcript; window: known model claude-sonnet-4-5)"),
        "{ctx}"
    );
    assert_eq!(
        call(&sb, "codebuddy", "PostToolUse", &p),
        "",
        "one response, judged once"
    );
    append(&transcript, &response("chatcmpl-3", 165_000));
    assert!(call(&sb, "codebuddy", "PostToolUse", &p).contains("165,000"));
    append(&transcript, &response("chatcmpl-4", 190_000));
    assert_eq!(
        call(&sb, "codebuddy", "PostToolUse", &p),
        "",
        "two per cycle"
    );
    // The compaction's summary message starts a new cycle.
    append(&transcript, summary);
    assert_eq!(call(&sb, "codebuddy", "PostToolUse", &p), "");
    append(&transcript, &response("chatcmpl-5", 135_000));
    assert!(
        call(&sb, "codebuddy", "PostToolUse", &p).contains("135,000"),
        "warned again after the compaction"
    );
    let s = status(&sb, "cb-1");
    assert!(s.contains("(size: measured (transcript))"), "{s}");
}

#[test]
fn copilot_events_log_is_found_from_the_session_id_and_measured() {
    // Copilot names no transcript; its events log under
    // `$COPILOT_HOME/session-state/<sessionId>/` holds a
    // `session.usage_record` per call, with the prompt limit it compacts by.
    let rec = recorded("copilot-1.0.102.events.jsonl");
    let (usage, tool, compacted) = (&rec[0], &rec[1], &rec[2]);
    let record = |id: &str, tokens: u64| {
        let mut r = usage.clone();
        r["data"]["usage"]["inputTokens"] = json!(tokens);
        r["data"]["usage"]["apiCallId"] = json!(id);
        r
    };
    let sb = Sandbox::new();
    let log = sb.home().join(".copilot/session-state/cp-1/events.jsonl");
    let mut p = sb.fixture("copilot", "postToolUse.bash");
    p["sessionId"] = json!("cp-1");
    append(&log, &record("chatcmpl-1", 60_000));
    append(&log, tool);
    assert_eq!(call(&sb, "copilot", "postToolUse", &p), "", "47%");
    append(&log, &record("chatcmpl-2", 90_000));
    append(&log, tool);
    let ctx = call(&sb, "copilot", "postToolUse", &p);
    assert!(
        ctx.contains("90,000 tokens of a 128,000-token window (70%; measured from the transcript; window: stated by the harness)"),
        "{ctx}"
    );
    assert_eq!(call(&sb, "copilot", "postToolUse", &p), "", "judged once");
    append(&log, compacted);
    assert_eq!(call(&sb, "copilot", "postToolUse", &p), "");
    append(&log, &record("chatcmpl-3", 86_000));
    assert!(
        call(&sb, "copilot", "postToolUse", &p).contains("86,000"),
        "a new cycle after compaction_complete"
    );
    let s = status(&sb, "cp-1");
    assert!(s.contains("(size: measured (transcript))"), "{s}");
    // `explain` says what it measured and where the window came from.
    let out = sb
        .test()
        .args([
            "explain",
            "--contract",
            "copilot",
            "postToolUse",
            "compaction-warning",
        ])
        .json(&p)
        .run()
        .stdout;
    assert!(
        out.contains("compaction: size 86,000 tokens, measured from the transcript; window 128,000 tokens (stated by the harness)"),
        "{out}"
    );

    // COPILOT_HOME moves the log; a session id that is not a plain name
    // builds no path (the estimate, silent this early).
    let sb = Sandbox::new();
    let home = sb.path().join("copilot-home");
    append(
        &home.join("session-state/cp-2/events.jsonl"),
        &record("chatcmpl-9", 100_000),
    );
    p["sessionId"] = json!("cp-2");
    let out = sb
        .test()
        .args([
            "dispatch",
            "--contract",
            "copilot",
            "postToolUse",
            "compaction-warning",
        ])
        .env("COPILOT_HOME", &home)
        .json(&p)
        .run();
    assert!(out.stdout.contains("100,000 tokens"), "{}", out.stdout);
    append(
        &sb.home().join(".copilot/session-state/x/events.jsonl"),
        &record("chatcmpl-8", 120_000),
    );
    p["sessionId"] = json!("../session-state/x");
    assert_eq!(call(&sb, "copilot", "postToolUse", &p), "");
    let all = sb.test().args(["status"]).run().stdout;
    assert!(all.contains("(size: estimate)"), "{all}");
}

#[test]
fn factory_session_settings_give_the_last_calls_usage() {
    // Droid's transcript holds no usage; `<id>.settings.json` beside it
    // keeps `lastCallTokenUsage` (input without the cached tokens, and the
    // cached ones) and the session's `model` (`custom:<model>-<n>`).
    let settings: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/usage/factory-0.225.2.settings.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let sb = Sandbox::new();
    let dir = sb.path().join("sessions/-home-user-project");
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("9d9912c4.jsonl");
    std::fs::write(&transcript, "{\"type\":\"session_start\"}\n").unwrap();
    let file = dir.join("9d9912c4.settings.json");
    let write = |input: u64, read: u64| {
        let mut s = settings.clone();
        s["lastCallTokenUsage"] =
            json!({"inputTokens": input, "outputTokens": 120, "cacheReadTokens": read});
        std::fs::write(&file, serde_json::to_string_pretty(&s).unwrap()).unwrap();
    };
    let mut p = sb.fixture("factory", "PostToolUse.Execute");
    p["session_id"] = json!("fd-1");
    p["transcript_path"] = json!(transcript);
    write(5_000, 95_000);
    assert_eq!(call(&sb, "factory", "PostToolUse", &p), "", "50%");
    write(7_000, 133_000);
    let ctx = call(&sb, "factory", "PostToolUse", &p);
    assert!(
        ctx.contains("140,000 tokens of a 200,000-token window (70%; measured from the transcript; window: known model custom:claude-sonnet-4-5-0)"),
        "{ctx}"
    );
    assert_eq!(call(&sb, "factory", "PostToolUse", &p), "", "judged once");
    // A file caught while being rewritten reads as nothing.
    std::fs::write(&file, "{\"lastCallTokenUsage\": {\"inputTok").unwrap();
    assert_eq!(call(&sb, "factory", "PostToolUse", &p), "");
    write(8_000, 160_000);
    assert!(call(&sb, "factory", "PostToolUse", &p).contains("168,000"));
    // After the compaction the last call is small: a sharp drop, re-armed.
    write(3_000, 9_000);
    assert_eq!(call(&sb, "factory", "PostToolUse", &p), "");
    write(8_000, 130_000);
    assert!(call(&sb, "factory", "PostToolUse", &p).contains("138,000"));
    let s = status(&sb, "fd-1");
    assert!(s.contains("(size: measured (transcript))"), "{s}");
}

#[cfg(unix)]
#[test]
fn usage_files_are_never_read_through_a_link() {
    // A transcript or settings file that is a symlink is not followed: the
    // session falls back to the estimate (silent this early).
    let sb = Sandbox::new();
    let real = sb.path().join("real.jsonl");
    let line = json!({"type": "assistant", "message": {"id": "m1", "model": "claude-sonnet-4-5",
        "usage": {"input_tokens": 10, "cache_read_input_tokens": 180_000}}});
    append(&real, &line);
    let link = sb.path().join("link.jsonl");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let mut p = sb.fixture("claude-code", "PostToolUse.Bash");
    p["session_id"] = json!("ln-1");
    p["transcript_path"] = json!(link);
    let out = sb
        .test()
        .dispatch("PostToolUse", &["compaction-warning"])
        .json(&p)
        .run();
    assert_eq!(out.stdout, "", "the link is not followed");
    p["transcript_path"] = json!(real);
    p["session_id"] = json!("ln-2");
    let out = sb
        .test()
        .dispatch("PostToolUse", &["compaction-warning"])
        .json(&p)
        .run();
    assert!(out.stdout.contains("180,010 tokens"), "{}", out.stdout);

    let settings = sb.path().join("real.settings.json");
    std::fs::write(
        &settings,
        json!({"lastCallTokenUsage": {"inputTokens": 10, "cacheReadTokens": 180_000}}).to_string(),
    )
    .unwrap();
    std::os::unix::fs::symlink(&settings, sb.path().join("f.settings.json")).unwrap();
    let mut p = sb.fixture("factory", "PostToolUse.Execute");
    p["session_id"] = json!("ln-3");
    p["transcript_path"] = json!(sb.path().join("f.jsonl"));
    assert_eq!(call(&sb, "factory", "PostToolUse", &p), "");
}

/// `explain` through `--contract harness`: its compaction line.
fn explain(sb: &Sandbox, harness: &str, native: &str, p: &Value) -> String {
    sb.test()
        .args([
            "explain",
            "--contract",
            harness,
            native,
            "compaction-warning",
        ])
        .json(p)
        .run()
        .stdout
}

#[test]
fn codebuddy_states_the_window_in_its_models_json() {
    // CodeBuddy's `models.json` (the shape the e2e driver writes, measured
    // on 2.117.0): `maxInputTokens` of the model's entry is the window its
    // compaction is triggered by. The transcript names claude-sonnet-4-5
    // (200,000 in the table), the payload `mock-model`.
    let rec = recorded("codebuddy-2.117.0.jsonl");
    let sb = Sandbox::new();
    let models = |w: u64| {
        json!({"models": [{"id": "mock-model", "name": "mock-model", "vendor": "OpenAI",
            "url": "http://127.0.0.1:9/v1/chat/completions", "apiKey": "dummy",
            "maxInputTokens": w, "maxOutputTokens": 8192, "supportsToolCall": true}],
            "availableModels": ["mock-model"]})
        .to_string()
    };
    let user = sb.home().join(".codebuddy/models.json");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, models(128_000)).unwrap();
    let transcript = sb.path().join("cb/s.jsonl");
    let response = |id: &str, tokens: u64| {
        let mut r = rec[0].clone();
        r["id"] = json!(id);
        r["providerData"]["usage"]["inputTokens"] = json!(tokens);
        r
    };
    let mut p = sb.fixture("codebuddy", "PostToolUse.Bash");
    p["session_id"] = json!("cbw-1");
    p["transcript_path"] = json!(transcript);
    append(&transcript, &response("chatcmpl-1", 60_000));
    assert_eq!(call(&sb, "codebuddy", "PostToolUse", &p), "", "47%");
    // Read once per session and model: a later edit is not read per call.
    std::fs::write(&user, models(1_000_000)).unwrap();
    append(&transcript, &response("chatcmpl-2", 90_000));
    let ctx = call(&sb, "codebuddy", "PostToolUse", &p);
    assert!(
        ctx.contains("90,000 tokens of a 128,000-token window (70%; measured from the transcript; window: stated by the harness: maxInputTokens in"),
        "{ctx}"
    );
    assert!(ctx.contains(".codebuddy/models.json"), "{ctx}");
    // `explain` reads it afresh and says where it came from.
    let out = explain(&sb, "codebuddy", "PostToolUse", &p);
    assert!(
        out.contains("window 1,000,000 tokens (stated by the harness: maxInputTokens in"),
        "{out}"
    );

    // A switch to another model reads the file again, for that model.
    let mut both: Value = serde_json::from_str(&models(1_000_000)).unwrap();
    both["models"]
        .as_array_mut()
        .unwrap()
        .push(json!({"id": "mock-2", "maxInputTokens": 150_000}));
    std::fs::write(&user, both.to_string()).unwrap();
    p["model"] = json!("mock-2");
    append(&transcript, &response("chatcmpl-3", 120_000));
    let ctx = call(&sb, "codebuddy", "PostToolUse", &p);
    assert!(
        ctx.contains("120,000 tokens of a 150,000-token window (80%"),
        "{ctx}"
    );
    p["model"] = json!("mock-model");
    std::fs::write(&user, models(128_000)).unwrap();

    // The project's file (a bare array) wins over the user's; another
    // model, not in either, keeps the table.
    let project = Path::new(p["cwd"].as_str().unwrap()).join(".codebuddy/models.json");
    std::fs::create_dir_all(project.parent().unwrap()).unwrap();
    std::fs::write(
        &project,
        json!([{"id": "mock-model", "maxInputTokens": 100_000}]).to_string(),
    )
    .unwrap();
    p["session_id"] = json!("cbw-2");
    let ctx = call(&sb, "codebuddy", "PostToolUse", &p);
    assert!(
        ctx.contains("120,000 tokens of a 100,000-token window (120%"),
        "{ctx}"
    );
    p["session_id"] = json!("cbw-3");
    p["model"] = json!("other-model");
    let out = explain(&sb, "codebuddy", "PostToolUse", &p);
    assert!(
        out.contains("window 200,000 tokens (known model claude-sonnet-4-5)"),
        "{out}"
    );

    // A models.json that is a link is not followed.
    #[cfg(unix)]
    {
        let sb = Sandbox::new();
        let real = sb.path().join("models.json");
        std::fs::write(&real, models(100_000)).unwrap();
        std::fs::create_dir_all(sb.home().join(".codebuddy")).unwrap();
        std::os::unix::fs::symlink(&real, sb.home().join(".codebuddy/models.json")).unwrap();
        let mut p = sb.fixture("codebuddy", "PostToolUse.Bash");
        p["transcript_path"] = json!(transcript);
        let out = explain(&sb, "codebuddy", "PostToolUse", &p);
        assert!(out.contains("(known model claude-sonnet-4-5)"), "{out}");
    }
}

#[test]
fn factory_states_the_window_in_its_settings() {
    // Droid's `settings.json`: a custom model's `maxContextLimit` (its id
    // `custom:<displayName>-<n>`, as the session settings name it), and
    // the compaction limits it compacts at (measured in 0.225.2's bundle).
    let sb = Sandbox::new();
    let dir = sb.path().join("sessions/-home-user-project");
    std::fs::create_dir_all(&dir).unwrap();
    let transcript = dir.join("w1.jsonl");
    std::fs::write(&transcript, "{\"type\":\"session_start\"}\n").unwrap();
    let usage = |read: u64| {
        std::fs::write(
            dir.join("w1.settings.json"),
            json!({"model": "custom:claude-sonnet-4-5-0",
                "lastCallTokenUsage": {"inputTokens": 1_000, "cacheReadTokens": read}})
            .to_string(),
        )
        .unwrap();
    };
    let settings = sb.home().join(".factory/settings.json");
    std::fs::create_dir_all(settings.parent().unwrap()).unwrap();
    let custom = |extra: Value| {
        let mut s = json!({"customModels": [{"model": "claude-sonnet-4-5",
            "displayName": "claude-sonnet-4-5", "baseUrl": "http://127.0.0.1:9/v1",
            "apiKey": "dummy", "provider": "generic-chat-completion-api",
            "maxOutputTokens": 8192, "maxContextLimit": 120_000}]});
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        std::fs::write(&settings, s.to_string()).unwrap();
    };
    custom(json!({}));
    let mut p = sb.fixture("factory", "PostToolUse.Execute");
    p["session_id"] = json!("fw-1");
    p["transcript_path"] = json!(transcript);
    usage(83_000);
    let ctx = call(&sb, "factory", "PostToolUse", &p);
    assert!(
        ctx.contains("84,000 tokens of a 120,000-token window (70%; measured from the transcript; window: stated by the harness: maxContextLimit in"),
        "{ctx}"
    );
    // A smaller compaction limit is where Droid compacts: it wins.
    custom(json!({"compactionTokenLimitPerModel": {"custom:claude-sonnet-4-5-0": 100_000}}));
    p["session_id"] = json!("fw-2");
    let out = explain(&sb, "factory", "PostToolUse", &p);
    assert!(
        out.contains(
            "window 100,000 tokens (stated by the harness: compactionTokenLimitPerModel in"
        ),
        "{out}"
    );
    // A compaction limit alone is an upper bound: the model's own window,
    // when smaller, wins.
    std::fs::write(
        &settings,
        json!({"compactionTokenLimit": 500_000}).to_string(),
    )
    .unwrap();
    let out = explain(&sb, "factory", "PostToolUse", &p);
    assert!(
        out.contains("window 200,000 tokens (known model custom:claude-sonnet-4-5-0, below the compactionTokenLimit in"),
        "{out}"
    );
    std::fs::write(
        &settings,
        json!({"compactionTokenLimit": 150_000}).to_string(),
    )
    .unwrap();
    let out = explain(&sb, "factory", "PostToolUse", &p);
    assert!(
        out.contains("window 150,000 tokens (stated by the harness: compactionTokenLimit in"),
        "{out}"
    );
}
