//! Compaction warnings through the real binary, from generated transcripts:
//! exactly two warnings per cycle at the right steps, re-armed by a boundary,
//! a sharp drop or a post-compaction SessionStart; sidechains, duplicate
//! message ids, partial lines and a 200 MB transcript.

mod support;

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use support::Sandbox;

struct Session<'a> {
    sb: &'a Sandbox,
    id: String,
    transcript: PathBuf,
    env: Vec<(String, String)>,
    n: usize,
}

impl<'a> Session<'a> {
    fn new(sb: &'a Sandbox, id: &str) -> Self {
        let transcript = sb.path().join(format!("{id}.jsonl"));
        std::fs::write(&transcript, "").unwrap();
        Session {
            sb,
            id: id.into(),
            transcript,
            env: Vec::new(),
            n: 0,
        }
    }
    fn env(mut self, k: &str, v: &str) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }
    fn append(&self, line: &str) {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.transcript)
            .unwrap();
        writeln!(f, "{line}").unwrap();
    }
    /// Appends a main-chain assistant record using `tokens` of context.
    fn usage(&mut self, tokens: u64) {
        self.n += 1;
        let id = format!("msg_{:04}", self.n);
        self.append(&assistant(&id, tokens, false));
    }
    fn payload(&self, event: &str) -> Value {
        let name = if event == "PostToolUse" {
            "PostToolUse.Bash"
        } else {
            event
        };
        let mut p = self.sb.fixture("claude-code", name);
        p["session_id"] = json!(self.id);
        p["transcript_path"] = json!(self.transcript);
        p
    }
    /// One PostToolUse dispatch; the warning text, if any.
    fn tool_call(&self) -> Option<(String, String)> {
        self.dispatch(
            "PostToolUse",
            self.payload("PostToolUse"),
            &["compaction-warning"],
        )
    }
    fn dispatch(&self, event: &str, p: Value, cards: &[&str]) -> Option<(String, String)> {
        let mut t = self.sb.test().dispatch(event, cards).json(&p);
        for (k, v) in &self.env {
            t = t.env(k, v);
        }
        let out = t.run();
        let v = out.json()?;
        let ctx = out.context();
        let user = v["systemMessage"].as_str().unwrap_or_default().to_string();
        Some((ctx, user))
    }
}

fn assistant(id: &str, tokens: u64, sidechain: bool) -> String {
    // input + cache_creation + cache_read = tokens; output is not context yet.
    let read = tokens / 2;
    let create = tokens - read - 3;
    json!({"parentUuid": "p", "isSidechain": sidechain, "type": "assistant", "uuid": format!("u-{id}"),
        "message": {"id": id, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": "working on it"}],
            "usage": {"input_tokens": 3, "cache_creation_input_tokens": create,
                "cache_read_input_tokens": read, "output_tokens": 900}}})
    .to_string()
}

fn boundary(uuid: &str) -> String {
    json!({"type": "system", "subtype": "compact_boundary", "uuid": uuid, "isSidechain": false,
        "content": "Conversation compacted", "compactMetadata": {"trigger": "auto", "preTokens": 170000}})
    .to_string()
}

/// Feeds `steps` (tokens) one tool call each; returns the steps that warned.
fn run_steps(s: &mut Session, steps: &[u64]) -> Vec<(u64, String, String)> {
    let mut warned = Vec::new();
    for &t in steps {
        s.usage(t);
        if let Some((ctx, user)) = s.tool_call() {
            warned.push((t, ctx, user));
        }
    }
    warned
}

const RISING: &[u64] = &[
    20_000, 60_000, 100_000, 125_000, 130_000, 140_000, 155_000, 160_000, 175_000, 190_000,
];

#[test]
fn two_warnings_per_cycle_rearmed_by_a_boundary() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "cycle-1");
    let w = run_steps(&mut s, RISING);
    let at: Vec<u64> = w.iter().map(|x| x.0).collect();
    assert_eq!(at, vec![130_000, 160_000], "65% and 80% of 200,000");
    let (ctx, user) = (&w[0].1, &w[0].2);
    assert!(
        ctx.contains("130,000 tokens of a 200,000-token window"),
        "{ctx}"
    );
    assert!(
        ctx.contains("(65%; measured from the transcript; window: known model claude-sonnet-4-5)"),
        "{ctx}"
    );
    assert!(
        ctx.contains("write HANDOFF.md at the project root"),
        "{ctx}"
    );
    assert!(ctx.contains("Full procedure: "), "{ctx}");
    assert!(
        user.starts_with("cuecard: context 65% full (130,000 of 200,000 tokens)"),
        "{user}"
    );
    assert!(user.len() < 200, "short for the user");
    assert!(w[1].1.contains("(80%;"), "{}", w[1].1);

    // Compaction: a boundary, then usage rising again from a summary.
    s.append(&boundary("b-1"));
    assert_eq!(s.tool_call(), None, "nothing measured since the boundary");
    let w = run_steps(&mut s, RISING);
    let at: Vec<u64> = w.iter().map(|x| x.0).collect();
    assert_eq!(at, vec![130_000, 160_000], "re-armed: two more");
    // The same boundary seen again does not re-arm.
    s.append(&boundary("b-1"));
    assert_eq!(s.tool_call(), None);
    assert!(run_steps(&mut s, &[185_000]).is_empty());

    let out = sb
        .test()
        .args(["status", "--session", "cycle-1", "--json"])
        .run();
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let st = &v["sessions"][0]["state"];
    assert_eq!(st["compaction"]["warnings_total"], 4);
    assert_eq!(st["compaction"]["number"], 1);
    assert_eq!(st["ledger"]["warnings"], 4);
}

#[test]
fn both_thresholds_at_once_give_one_warning_and_a_sharp_drop_rearms() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "jump");
    let w = run_steps(&mut s, &[20_000, 170_000, 180_000, 195_000]);
    assert_eq!(w.len(), 1, "one warning, the higher");
    assert!(w[0].1.contains("(85%;"), "{}", w[0].1);
    // A sharp drop (a compaction the transcript did not mark) starts a cycle.
    let w = run_steps(&mut s, &[30_000, 140_000, 165_000, 170_000]);
    let at: Vec<u64> = w.iter().map(|x| x.0).collect();
    assert_eq!(at, vec![140_000, 165_000]);
}

#[test]
fn session_start_after_compaction_starts_a_new_cycle_and_recovers() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "ss-compact");
    assert_eq!(run_steps(&mut s, &[170_000]).len(), 1);
    assert!(run_steps(&mut s, &[175_000]).is_empty());
    let mut p = s.payload("SessionStart.compact");
    p["source"] = json!("compact");
    let (ctx, _) = s
        .dispatch("SessionStart", p, &["session-start", "compact-recovery"])
        .unwrap();
    assert!(
        ctx.contains("Earlier turns were replaced by a summary"),
        "{ctx}"
    );
    // Still high (the harness compacted to a big summary): warned again.
    assert_eq!(run_steps(&mut s, &[170_000]).len(), 1);
}

#[test]
fn sidechains_duplicates_and_partial_lines() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "side");
    s.usage(50_000);
    s.append(&assistant("agent_1", 199_000, true));
    s.append(&assistant("agent_2", 199_000, true));
    assert_eq!(s.tool_call(), None, "sidechain usage is ignored");

    // One message written as several lines: one measurement, one warning.
    for _ in 0..3 {
        s.append(&assistant("msg_dup", 140_000, false));
    }
    assert!(s.tool_call().is_some());
    s.append(&assistant("msg_dup", 140_000, false));
    assert_eq!(s.tool_call(), None);

    // A line being written: the complete record before it counts.
    s.append(&assistant("msg_full", 165_000, false));
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&s.transcript)
        .unwrap();
    let partial = assistant("msg_partial", 10_000, false);
    f.write_all(&partial.as_bytes()[..partial.len() / 2])
        .unwrap();
    let (ctx, _) = s.tool_call().expect("80% warning from the complete record");
    assert!(ctx.contains("165,000"), "{ctx}");
}

#[test]
fn window_and_thresholds_are_configurable() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "one-m");
    let mut p = s.payload("PostToolUse");
    p["model"] = json!("claude-sonnet-4-5[1m]");
    s.usage(300_000);
    assert_eq!(
        s.dispatch("PostToolUse", p.clone(), &["compaction-warning"]),
        None,
        "30% of a 1M window"
    );
    s.usage(700_000);
    let (ctx, _) = s
        .dispatch("PostToolUse", p, &["compaction-warning"])
        .unwrap();
    assert!(
        ctx.contains("700,000 tokens of a 1,000,000-token window (70%"),
        "{ctx}"
    );

    let mut s = Session::new(&sb, "custom")
        .env("CUECARD_CONTEXT_WINDOW", "400k")
        .env("CUECARD_COMPACT_WARN", "50,90");
    let at: Vec<u64> = run_steps(&mut s, &[150_000, 200_000, 300_000, 359_000, 360_000])
        .iter()
        .map(|x| x.0)
        .collect();
    assert_eq!(at, vec![200_000, 360_000]);
}

#[test]
fn codex_rollouts_give_tokens_and_window() {
    let sb = Sandbox::new();
    let s = Session::new(&sb, "codex-1");
    s.append(
        &json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}}).to_string(),
    );
    let count = |total: u64| {
        json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "token_count",
            "info": {"total_token_usage": {"total_tokens": 5_000_000},
                "last_token_usage": {"input_tokens": total - 500, "cached_input_tokens": 1000,
                    "output_tokens": 500, "reasoning_output_tokens": 0, "total_tokens": total},
                "model_context_window": 258_400}}})
        .to_string()
    };
    s.append(&count(100_000));
    assert_eq!(s.tool_call(), None);
    s.append(&count(200_000));
    let (ctx, _) = s.tool_call().unwrap();
    assert!(
        ctx.contains("200,000 tokens of a 258,400-token window (77%"),
        "{ctx}"
    );
}

fn sparse_transcript(path: &Path, size: u64, tail: &[String]) {
    let f = std::fs::File::create(path).unwrap();
    f.set_len(size).unwrap();
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    f.write_all(b"\n").unwrap();
    for l in tail {
        writeln!(f, "{l}").unwrap();
    }
}

#[test]
fn a_200_mb_transcript_is_measured_from_its_tail() {
    let sb = Sandbox::new();
    let s = Session::new(&sb, "huge");
    sparse_transcript(
        &s.transcript,
        200 << 20,
        &[assistant("msg_big", 150_000, false)],
    );
    let (ctx, _) = s.tool_call().expect("measured");
    assert!(ctx.contains("150,000"), "{ctx}");
    // A record only beyond the read bound is not found: no measurement, and
    // the small estimate does not warn.
    let s2 = Session::new(&sb, "huge-2");
    std::fs::write(&s2.transcript, assistant("msg_far", 190_000, false) + "\n").unwrap();
    let f = std::fs::OpenOptions::new()
        .append(true)
        .open(&s2.transcript)
        .unwrap();
    f.set_len(200 << 20).unwrap();
    drop(f);
    assert_eq!(s2.tool_call(), None);
    std::fs::remove_file(&s.transcript).unwrap();
    std::fs::remove_file(&s2.transcript).unwrap();
}

#[test]
fn missing_and_garbage_transcripts_fall_back_to_an_estimate() {
    let sb = Sandbox::new();
    let s = Session::new(&sb, "no-transcript")
        .env("CUECARD_CONTEXT_WINDOW", "40000")
        .env("CUECARD_DEADLINE_MS", "5000");
    std::fs::write(&s.transcript, "garbage\n\u{0}\u{0}{{{\n").unwrap();
    let prose =
        "The quick brown fox jumps over the lazy dog while the compiler checks every borrow. "
            .repeat(90);
    let mut warnings = Vec::new();
    for i in 0..12 {
        let mut p = s.payload("PostToolUse");
        p["tool_response"] = json!({"stdout": prose, "stderr": ""});
        if i % 2 == 0 {
            p.as_object_mut().unwrap().remove("transcript_path");
        }
        if let Some((ctx, user)) = s.dispatch("PostToolUse", p, &["compaction-warning"]) {
            warnings.push((i, ctx, user));
        }
    }
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].1.contains("an estimate from tool calls"),
        "{}",
        warnings[0].1
    );
    assert!(
        warnings[0].2.contains("context about "),
        "{}",
        warnings[0].2
    );
}

#[test]
fn user_prompt_submit_also_measures_and_shares_the_cycle() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "prompt");
    s.usage(135_000);
    let mut p = s.payload("UserPromptSubmit");
    p["session_id"] = json!("prompt");
    let (ctx, _) = s
        .dispatch("UserPromptSubmit", p.clone(), &["compaction-warning"])
        .expect("65% on a prompt");
    assert!(ctx.contains("135,000"), "{ctx}");
    s.usage(140_000);
    assert_eq!(s.tool_call(), None, "the same cycle: no second 65% warning");
    s.usage(165_000);
    assert!(
        s.dispatch("UserPromptSubmit", p, &["compaction-warning"])
            .is_some()
    );
}

#[test]
fn through_the_codex_contract_the_rollout_is_measured() {
    let sb = Sandbox::new();
    let rollout = sb.path().join("rollout.jsonl");
    let line = json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "token_count",
        "info": {"last_token_usage": {"input_tokens": 179_000, "output_tokens": 1000, "total_tokens": 180_000},
            "model_context_window": 258_400}}});
    std::fs::write(&rollout, format!("{line}\n")).unwrap();
    let mut p = sb.fixture("codex", "PostToolUse.Bash");
    p["transcript_path"] = json!(rollout);
    let run = || {
        sb.test()
            .args([
                "dispatch",
                "--contract",
                "codex",
                "PostToolUse",
                "compaction-warning",
            ])
            .json(&p)
            .run()
    };
    let out = run();
    assert!(
        out.context()
            .contains("180,000 tokens of a 258,400-token window"),
        "{}",
        out.stdout
    );
    assert_eq!(run().stdout, "", "the same measurement is judged once");
}

/// Dispatches `native` through `--contract harness` with `p`; the context
/// it delivers (Claude Code's nesting, or the flat field of cuecard's
/// OpenCode plugin).
fn contract_call(sb: &Sandbox, harness: &str, native: &str, p: &Value) -> String {
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
    let v = out.json().unwrap_or(Value::Null);
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .or(v["additionalContext"].as_str())
        .unwrap_or_default()
        .to_string()
}

fn gemini_message(id: &str, prompt_tokens: u64) -> String {
    json!({"id": id, "timestamp": "2026-12-02T10:00:00.000Z", "type": "gemini",
        "content": [{"text": "working"}], "model": "gemini-2.5-pro",
        "tokens": {"input": prompt_tokens, "output": 40, "cached": prompt_tokens / 2,
            "thoughts": 0, "tool": 0, "total": prompt_tokens + 40}})
    .to_string()
}

#[test]
fn gemini_chats_are_measured_against_where_gemini_compresses() {
    // Gemini CLI's chat file (the payload's transcript_path): `type: gemini`
    // messages with `tokens.input`. The model's window comes from the table
    // of known models (gemini-2.5-pro: 1,048,576), and Gemini CLI compresses
    // at half of it, so the thresholds are taken of 524,288.
    let sb = Sandbox::new();
    let chat = sb.path().join("session-c876df5f.jsonl");
    let meta = json!({"sessionId": "g-1", "projectHash": "h", "startTime": "t", "kind": "main"});
    std::fs::write(
        &chat,
        format!("{meta}\n{}\n", gemini_message("m1", 200_000)),
    )
    .unwrap();
    let mut p = sb.fixture("gemini", "AfterTool.run_shell_command");
    p["session_id"] = json!("g-1");
    p["transcript_path"] = json!(chat);
    assert_eq!(contract_call(&sb, "gemini", "AfterTool", &p), "", "38%");
    let append = |line: String| {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&chat)
            .unwrap();
        writeln!(f, "{line}").unwrap();
    };
    append(gemini_message("m2", 350_000));
    let ctx = contract_call(&sb, "gemini", "AfterTool", &p);
    assert!(
        ctx.contains("350,000 tokens of a 524,288-token window"),
        "{ctx}"
    );
    assert!(
        ctx.contains(
            "Gemini CLI compacts at 50% of the 1,048,576-token window (known model gemini-2.5-pro)"
        ),
        "{ctx}"
    );
    // The same message re-appended (Gemini rewrites a changed message at
    // the end): judged once.
    append(gemini_message("m2", 350_000));
    assert_eq!(contract_call(&sb, "gemini", "AfterTool", &p), "");
    append(gemini_message("m3", 430_000));
    assert!(contract_call(&sb, "gemini", "AfterTool", &p).contains("430,000"));
    append(gemini_message("m4", 470_000));
    assert_eq!(
        contract_call(&sb, "gemini", "AfterTool", &p),
        "",
        "two per cycle"
    );
    // A drop below the first threshold marks the compression: re-armed.
    append(gemini_message("m5", 90_000));
    assert_eq!(contract_call(&sb, "gemini", "AfterTool", &p), "");
    append(gemini_message("m6", 360_000));
    assert!(contract_call(&sb, "gemini", "AfterTool", &p).contains("360,000"));
    let status = sb.test().args(["status", "--session", "g-1"]).run().stdout;
    assert!(status.contains("(size: measured (transcript))"), "{status}");
    assert!(
        status.contains("g-1  (gemini-2.5-pro,"),
        "the chat's model: {status}"
    );
}

#[test]
fn qwen_chats_give_tokens_window_and_compression() {
    let sb = Sandbox::new();
    let chat = sb.path().join("q.jsonl");
    let rec = |uuid: &str, prompt: u64| {
        json!({"uuid": uuid, "parentUuid": null, "sessionId": "q-1", "timestamp": "t",
            "type": "assistant", "cwd": "/p", "version": "0.24.4", "model": "qwen3-coder-plus",
            "message": {"role": "model", "parts": [{"text": "ok"}]},
            "usageMetadata": {"promptTokenCount": prompt, "candidatesTokenCount": 20,
                "totalTokenCount": prompt + 20},
            "contextWindowSize": 300_000})
        .to_string()
    };
    let append = |line: String| {
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&chat)
            .unwrap();
        writeln!(f, "{line}").unwrap();
    };
    let mut p = sb.fixture("qwen", "PostToolUse.run_shell_command");
    p["session_id"] = json!("q-1");
    p["transcript_path"] = json!(chat);
    append(rec("a1", 210_000));
    let ctx = contract_call(&sb, "qwen", "PostToolUse", &p);
    assert!(
        ctx.contains("210,000 tokens of a 300,000-token window"),
        "{ctx}"
    );
    assert!(ctx.contains("stated by the harness"), "{ctx}");
    // Qwen's compression record starts a new cycle.
    append(
        json!({"uuid": "c1", "type": "system", "subtype": "chat_compression",
        "systemPayload": {"info": {}}})
        .to_string(),
    );
    assert_eq!(contract_call(&sb, "qwen", "PostToolUse", &p), "");
    append(rec("a2", 200_000));
    assert!(
        contract_call(&sb, "qwen", "PostToolUse", &p).contains("200,000"),
        "warned again in the new cycle"
    );
}

#[test]
fn opencode_usage_in_the_payload_is_measured_and_preferred() {
    // cuecard's OpenCode plugin passes the last assistant message's token
    // counts (from `message.updated`) as `context_usage`.
    let sb = Sandbox::new();
    let mut p = sb.fixture("opencode", "tool.execute.after.bash");
    p["session_id"] = json!("oc-1");
    let usage = |id: &str, input: u64, read: u64| {
        json!({"id": id, "model": "anthropic/claude-sonnet-4-5",
            "tokens": {"input": input, "output": 1000, "reasoning": 0,
                "cache": {"read": read, "write": 0}}})
    };
    p["context_usage"] = usage("msg_1", 2000, 60_000);
    assert_eq!(contract_call(&sb, "opencode", "tool.execute.after", &p), "");
    p["context_usage"] = usage("msg_2", 3000, 130_000);
    let ctx = contract_call(&sb, "opencode", "tool.execute.after", &p);
    assert!(
        ctx.contains("134,000 tokens of a 200,000-token window"),
        "{ctx}"
    );
    assert!(ctx.contains("the usage the harness reported"), "{ctx}");
    assert!(
        ctx.contains("known model anthropic/claude-sonnet-4-5"),
        "{ctx}"
    );
    // The same message again (several tool calls in one reply): once.
    assert_eq!(contract_call(&sb, "opencode", "tool.execute.after", &p), "");
    let status = sb.test().args(["status", "--session", "oc-1"]).run().stdout;
    assert!(
        status.contains("(size: measured (harness usage))"),
        "{status}"
    );
    // Without usage the session falls back to the estimate, and says so.
    let mut q = p.clone();
    q.as_object_mut().unwrap().remove("context_usage");
    q["session_id"] = json!("oc-2");
    contract_call(&sb, "opencode", "tool.execute.after", &q);
    let status = sb.test().args(["status", "--session", "oc-2"]).run().stdout;
    assert!(status.contains("(size: estimate)"), "{status}");
}

#[test]
fn explain_says_where_the_window_came_from() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "explain-1");
    s.usage(150_000);
    let out = sb
        .test()
        .args(["explain", "PostToolUse", "compaction-warning"])
        .json(&s.payload("PostToolUse"))
        .run()
        .stdout;
    assert!(
        out.contains("compaction: size 150,000 tokens, measured from the transcript; window 200,000 tokens (known model claude-sonnet-4-5)"),
        "{out}"
    );
    let mut s = Session::new(&sb, "explain-2").env("CUECARD_CONTEXT_WINDOW", "180k");
    s.usage(150_000);
    let mut t = sb
        .test()
        .args(["explain", "PostToolUse", "compaction-warning"])
        .json(&s.payload("PostToolUse"));
    for (k, v) in &s.env {
        t = t.env(k, v);
    }
    let out = t.run().stdout;
    assert!(
        out.contains("window 180,000 tokens (CUECARD_CONTEXT_WINDOW)"),
        "{out}"
    );
}

/// Claude Code's model switch (PostModelSwitch, measured in 2.1.332)
/// names the model now serving the session: the session records it, the
/// window is the new model's, and the size is judged again at once, so a
/// switch from a 1M-token model to a 200k one warns on the switch itself
/// (its context reaches the next request) instead of never.
#[test]
fn a_model_switch_refreshes_the_window_the_warning_takes() {
    let sb = Sandbox::new();
    let mut s = Session::new(&sb, "switch");
    let mut start = s.payload("SessionStart.startup");
    start["model"] = json!("claude-sonnet-4-5[1m]");
    s.dispatch("SessionStart", start, &["compaction-warning"]);
    s.usage(300_000);
    assert_eq!(s.tool_call(), None, "30% of a 1M window: no warning");
    let mut switch = s.payload("PostModelSwitch.sdk");
    switch["from_model"] = json!("claude-sonnet-4-5[1m]");
    switch["to_model"] = json!("claude-sonnet-4-5");
    let (ctx, _) = s
        .dispatch("PostModelSwitch", switch, &["compaction-warning"])
        .expect("the same size in the new model's window warns on the switch");
    assert!(ctx.contains("200,000-token window"), "{ctx}");
    let status = sb.cmd(&["status"]).stdout;
    assert!(status.contains("(claude-sonnet-4-5,"), "{status}");
}
