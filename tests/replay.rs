//! `cuecard replay`, through the real binary: the embedded sample, a Codex
//! rollout, JSON output, bad input, and the promise that a replay never
//! touches the user's state.

mod support;

use serde_json::Value;
use support::Sandbox;

fn replay_json(sb: &Sandbox, args: &[&str]) -> Value {
    let out = sb
        .test()
        .arg("replay")
        .args(args.iter().copied())
        .arg("--json")
        .run();
    serde_json::from_str(&out.stdout).expect("replay --json prints JSON")
}

fn fired(turn: &Value) -> Vec<String> {
    turn["firings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["card"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn sample_session_reports_turns_compaction_and_recovery() {
    let sb = Sandbox::new();
    let out = sb.test().arg("replay").run();
    assert!(
        out.stdout
            .contains("the embedded sample session (claude-code transcript")
    );
    assert!(out.stdout.contains("turn 1  \"Add request logging"));
    assert!(out.stdout.contains("compactions: turn 3"), "{}", out.stdout);

    let r = replay_json(&sb, &[]);
    assert_eq!(r["format"], "claude-code");
    assert_eq!(r["tool_calls"], 19, "every tool_use record is one call");
    // SessionStart x2 (startup, compact), 4 prompts, 18 Pre + 18 Post.
    assert_eq!(r["hook_calls"], 44);
    let turns = r["turns"].as_array().unwrap();
    assert_eq!(
        turns[0]["turn"], 0,
        "the session start comes before any prompt"
    );
    assert_eq!(fired(&turns[0]), ["session-start", "skill-index"]);
    // Usage climbs past both thresholds in turn 2: two warnings, with the
    // measured figures, and none again before the compaction.
    assert_eq!(r["warnings_at"], serde_json::json!([2, 2]));
    let warnings: Vec<&Value> = turns[2]["firings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["warning"] == true)
        .collect();
    assert_eq!(warnings.len(), 2);
    assert!(warnings[0]["why"].as_str().unwrap().contains("65%"));
    assert!(warnings[1]["why"].as_str().unwrap().contains("80%"));
    // The manifest edit and the package-add commands get the dependency card.
    let deps: Vec<String> = turns
        .iter()
        .flat_map(|t| t["firings"].as_array().unwrap())
        .filter(|f| f["card"] == "dependency")
        .map(|f| f["call"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        deps,
        [
            "Edit package.json",
            "Bash npm install pino-http@10.3.0",
            "Bash npm install --save-dev supertest@7.0.0"
        ]
    );
    let t3 = &turns[3];
    assert_eq!(t3["compactions"], serde_json::json!(["auto"]));
    assert!(fired(t3).contains(&"compact-recovery".to_string()));
    assert_eq!(t3["context_tokens"], 192_250, "peak before the compaction");
    assert_eq!(t3["context_last"], 40_100, "measured after it");
    let f = t3["firings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["card"] == "compact-recovery")
        .unwrap();
    assert_eq!(f["event"], "SessionStart");
    assert!(f["chars"].as_u64().unwrap() > 300 && f["tokens"].as_u64().unwrap() > 50);
    let total: u64 = turns
        .iter()
        .flat_map(|t| t["firings"].as_array().unwrap())
        .map(|f| f["chars"].as_u64().unwrap())
        .sum();
    assert_eq!(r["total_chars"].as_u64().unwrap(), total);
}

#[test]
fn codex_rollout_is_read_in_its_own_shape() {
    let sb = Sandbox::new();
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/replay/codex-rollout-compaction.jsonl");
    let r = replay_json(&sb, &[path.to_str().unwrap()]);
    assert_eq!(r["format"], "codex");
    assert_eq!(r["tool_calls"], 2);
    assert_eq!(r["compactions_at"], serde_json::json!([1]));
    let t1 = &r["turns"][1];
    assert_eq!(
        t1["prompt"],
        "Run two steps with your shell tool, then say done."
    );
    assert_eq!(
        t1["context_tokens"], 195_000,
        "input tokens include cached ones"
    );
    assert!(fired(t1).contains(&"compact-recovery".to_string()));
}

#[test]
fn replay_never_touches_the_users_state_and_cleans_up() {
    let sb = Sandbox::new();
    let tmp = sb.path().join("tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    let out = sb.test().arg("replay").env("TMPDIR", &tmp).run();
    assert!(
        out.stdout.contains("compaction warnings: turn 2"),
        "the replay used session state (warnings need it): {}",
        out.stdout
    );
    assert!(
        !sb.state().exists(),
        "the user's state directory (CUECARD_STATE_DIR) was written"
    );
    let home_files: Vec<_> = walk(&sb.home());
    assert!(
        home_files.is_empty(),
        "files written under HOME: {home_files:?}"
    );
    assert_eq!(
        std::fs::read_dir(&tmp).unwrap().count(),
        0,
        "the private work directory is removed"
    );
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}

#[test]
fn unreadable_lines_are_skipped_and_counted() {
    let sb = Sandbox::new();
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/replay/sample.jsonl"),
    )
    .unwrap();
    let mut lines: Vec<&str> = sample.lines().collect();
    lines.insert(3, "not json at all");
    lines.insert(5, "[1, 2, 3]");
    let file = sb.write("t.jsonl", &(lines.join("\n") + "\n"));
    let r = replay_json(&sb, &[file.to_str().unwrap()]);
    assert_eq!(r["skipped_lines"], 2);
    let whole = replay_json(&sb, &[]);
    assert_eq!(
        r["tool_calls"], whole["tool_calls"],
        "every call still read"
    );
    assert_eq!(r["hook_calls"], whole["hook_calls"]);
}

#[test]
fn missing_or_empty_transcripts_are_reported() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["replay", "no-such-file.jsonl"])
        .exit(1)
        .run();
    assert!(out.stdout.is_empty());
    assert!(out.stderr.contains("no-such-file.jsonl"), "{}", out.stderr);
    let empty = sb.write("empty.jsonl", "\n\n");
    let out = sb.test().arg("replay").arg(&empty).exit(1).run();
    assert!(
        out.stderr.contains("no transcript records"),
        "{}",
        out.stderr
    );
}

/// The embedded sample, in `sb`'s project, with a Write of HANDOFF.md after
/// its compaction warnings and before its compaction.
fn sample_with_handoff(sb: &Sandbox) -> std::path::PathBuf {
    let project = sb.project().to_string_lossy().to_string();
    let mut lines: Vec<String> = cuecard::replay::SAMPLE
        .lines()
        .map(|l| l.replace("/home/dev/shop-api", &project))
        .collect();
    let at = lines
        .iter()
        .position(|l| l.contains("compact_boundary"))
        .expect("the sample compacts");
    let note = format!("{project}/HANDOFF.md");
    let write = serde_json::json!({"parentUuid": "p", "isSidechain": false, "cwd": project,
        "sessionId": "7f3c9a2e-4b1d-4e8a-9c6f-2d5e8b1a0c47", "type": "assistant", "uuid": "h-1",
        "message": {"id": "msg_handoff", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "tool_use", "id": "toolu_handoff", "name": "Write",
                "input": {"file_path": note, "content": support::handoff::NOTE}}]}});
    let result = serde_json::json!({"parentUuid": "h-1", "isSidechain": false, "cwd": project,
        "sessionId": "7f3c9a2e-4b1d-4e8a-9c6f-2d5e8b1a0c47", "type": "user", "uuid": "h-2",
        "message": {"role": "user", "content": [{"tool_use_id": "toolu_handoff", "type": "tool_result",
            "content": "File created", "is_error": false}]}});
    lines.insert(at, result.to_string());
    lines.insert(at, write.to_string());
    let path = sb.path().join("with-handoff.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

#[test]
fn replay_shows_what_the_recovery_carried_at_each_compaction() {
    // The note still in the project: read as the hook reads it.
    let sb = Sandbox::new();
    let t = sample_with_handoff(&sb);
    sb.write("HANDOFF.md", support::handoff::NOTE);
    let r = replay_json(&sb, &[t.to_str().unwrap()]);
    let turn = r["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| !t["compactions"].as_array().unwrap().is_empty())
        .expect("a turn with the compaction");
    let rec = &turn["recoveries"][0];
    assert_eq!(rec["from"], "project", "{rec}");
    let carried = rec["carried"].as_str().unwrap();
    assert!(
        carried.contains("> - NEXT-STEP-TEXT: run `cargo test"),
        "{carried}"
    );
    assert!(!carried.contains("DONE-SECTION-TEXT"));
    let human = sb.test().arg("replay").arg(&t).run().stdout;
    let at = human
        .find("  compaction (auto)\n")
        .expect("the compaction line");
    assert!(
        human[at..].starts_with("  compaction (auto)\n    the recovery carries:\n      This session wrote down what to keep"),
        "{}",
        &human[at..at + 300]
    );
    assert!(human.contains("      > - NEXT-STEP-TEXT"), "{human}");

    // Deleted since (the task is done): as the transcript wrote it.
    std::fs::remove_file(sb.project().join("HANDOFF.md")).unwrap();
    let r = replay_json(&sb, &[t.to_str().unwrap()]);
    let rec = r["turns"]
        .as_array()
        .unwrap()
        .iter()
        .find_map(|t| t["recoveries"].as_array().unwrap().first().cloned())
        .unwrap();
    assert_eq!(rec["from"], "transcript", "{rec}");
    assert!(
        rec["carried"]
            .as_str()
            .unwrap()
            .contains("> - NEXT-STEP-TEXT")
    );

    // The plain sample wrote its note before the compaction, in a project
    // that is not on this machine: the recovery shows it as written.
    let sb = Sandbox::new();
    let human = sb.test().arg("replay").run().stdout;
    assert!(
        human.contains("  compaction (auto)\n    the recovery carries:\n      The hand-off note `HANDOFF.md` (as the session last wrote it; it cannot be read now):\n      > # Hand-off"),
        "{human}"
    );
    assert!(human.contains("      > ## Next step\n"), "{human}");

    // Without that Write nothing is carried.
    let lines: Vec<&str> = cuecard::replay::SAMPLE
        .lines()
        .filter(|l| !l.contains("HANDOFF.md"))
        .collect();
    let path = sb.path().join("no-note.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let human = sb.test().arg("replay").arg(&path).run().stdout;
    assert!(
        human.contains("  compaction (auto)\n    the recovery carries no hand-off"),
        "{human}"
    );
}

/// A Qwen Code chat (`~/.qwen/projects/<project>/chats/<id>.jsonl`), in the
/// record shape of Qwen Code's ChatRecordingService: a prompt, three tool
/// calls with usage rising to 83% of the window the records state, the
/// hand-off note written with `write_file`, a `chat_compression` record and
/// a prompt after it.
fn qwen_chat(sb: &Sandbox) -> std::path::PathBuf {
    use serde_json::json;
    let project = sb.project().to_string_lossy().to_string();
    let base = |uuid: &str, ty: &str| {
        json!({"uuid": uuid, "parentUuid": null, "sessionId": "qwen-replay-1",
            "timestamp": "2026-12-02T10:00:00.000Z", "type": ty, "cwd": project,
            "version": "0.24.4"})
    };
    let mut lines = Vec::new();
    let mut user = base("u1", "user");
    user["message"] =
        json!({"role": "user", "parts": [{"text": "Refactor the parser, then run the tests."}]});
    lines.push(user);
    let calls = [
        (
            150_000,
            "c1",
            "run_shell_command",
            json!({"command": "cargo test", "is_background": false}),
        ),
        (
            200_000,
            "c2",
            "run_shell_command",
            json!({"command": "cargo clippy", "is_background": false}),
        ),
        (
            250_000,
            "c3",
            "write_file",
            json!({"file_path": format!("{project}/HANDOFF.md"),
            "content": support::handoff::NOTE}),
        ),
    ];
    for (i, (tokens, id, name, args)) in calls.into_iter().enumerate() {
        let mut a = base(&format!("a{i}"), "assistant");
        a["model"] = json!("qwen3-coder-plus");
        a["contextWindowSize"] = json!(300_000);
        a["usageMetadata"] = json!({"promptTokenCount": tokens, "candidatesTokenCount": 30,
            "totalTokenCount": tokens + 30});
        a["message"] = json!({"role": "model", "parts": [{"functionCall": {"id": id, "name": name, "args": args}}]});
        lines.push(a);
        let mut r = base(&format!("r{i}"), "tool_result");
        r["message"] = json!({"role": "user", "parts": [{"functionResponse": {"id": id, "name": name,
            "response": {"output": "ok"}}}]});
        r["toolCallResult"] = json!({"callId": id, "status": "success", "error": null});
        lines.push(r);
    }
    let mut c = base("s1", "system");
    c["subtype"] = json!("chat_compression");
    c["systemPayload"] = json!({"info": {"originalTokenCount": 250_000, "newTokenCount": 20_000},
        "compressedHistory": []});
    lines.push(c);
    let mut u2 = base("u2", "user");
    u2["message"] = json!({"role": "user", "parts": [{"text": "Carry on."}]});
    lines.push(u2);
    let mut a = base("a9", "assistant");
    a["usageMetadata"] = json!({"promptTokenCount": 21_000});
    a["message"] = json!({"role": "model", "parts": [{"text": "Done."}]});
    lines.push(a);
    let path = sb.path().join("qwen-chat.jsonl");
    let text: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    path
}

#[test]
fn qwen_chats_are_replayed_with_warnings_compaction_and_recovery() {
    let sb = Sandbox::new();
    let t = qwen_chat(&sb);
    let r = replay_json(&sb, &[t.to_str().unwrap()]);
    assert_eq!(r["format"], "qwen", "{r}");
    assert_eq!(r["tool_calls"], 3, "{r}");
    assert_eq!(
        r["warnings_at"],
        serde_json::json!([1, 1]),
        "65% and 80% of the stated 300,000"
    );
    assert_eq!(r["compactions_at"], serde_json::json!([1]));
    let t1 = &r["turns"][1];
    assert_eq!(t1["prompt"], "Refactor the parser, then run the tests.");
    assert_eq!(t1["context_tokens"], 250_000);
    let rec = &t1["recoveries"][0];
    assert_eq!(rec["from"], "transcript", "{rec}");
    assert!(
        rec["carried"]
            .as_str()
            .unwrap()
            .contains("> - NEXT-STEP-TEXT"),
        "the note written with write_file is carried: {rec}"
    );
    let human = sb.test().arg("replay").arg(&t).run().stdout;
    assert!(human.contains("qwen"), "{human}");
}

/// A CodeBuddy Code transcript as CodeBuddy 2.117.0 wrote it in the e2e's
/// `usage-warnings` run (tool outputs shortened): eight tool calls whose
/// reported usage climbs to 90% of the 200,000 window, with the emergency
/// compaction CodeBuddy made at 84% (its summary message) between them.
#[test]
fn codebuddy_transcripts_are_replayed_with_usage_and_the_compaction() {
    let sb = Sandbox::new();
    let t = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/replay/codebuddy-2.117.0.jsonl");
    let r = replay_json(&sb, &[t.to_str().unwrap()]);
    assert_eq!(r["format"], "codebuddy", "{r}");
    assert_eq!(r["tool_calls"], 8, "{r}");
    assert_eq!(
        r["warnings_at"],
        serde_json::json!([1, 1, 1]),
        "65% and 80% before the compaction, 85% after it: {r}"
    );
    assert_eq!(r["compactions_at"], serde_json::json!([1]), "{r}");
    let t1 = &r["turns"][1];
    assert_eq!(
        t1["prompt"],
        "Run the eight steps with your shell tool, then say done."
    );
    assert_eq!(t1["context_tokens"], 180_000, "{r}");
    let human = sb.test().arg("replay").arg(&t).run().stdout;
    assert!(human.contains("codebuddy"), "{human}");
}

#[test]
fn a_compaction_is_told_in_time_with_the_cards_of_its_turn() {
    // The sample with its third prompt taken out: the warnings of turn 2
    // and the compaction that follows them fall in one turn. The report
    // tells them in the order they happened, the warnings first.
    let sb = Sandbox::new();
    let lines: Vec<&str> = cuecard::replay::SAMPLE
        .lines()
        .filter(|l| !l.contains("Split the routes into one file per resource."))
        .collect();
    assert!(lines.len() < cuecard::replay::SAMPLE.lines().count());
    let path = sb.path().join("one-turn.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let human = sb.test().arg("replay").arg(&path).run().stdout;
    let warning = human
        .rfind("[compaction warning]")
        .expect("the warning line");
    let compaction = human.find("  compaction (auto)\n").expect("the compaction");
    let recovery = human.find("compact-recovery  ").expect("the recovery card");
    assert!(
        warning < compaction && compaction < recovery,
        "told out of order:\n{human}"
    );
}
