//! The payloads and projects the bench's rows run against: harness payloads
//! as the agents send them, a knowledge-base project, a transcript of a
//! given size.

use std::io::Write;
use std::path::Path;

/// A realistic Claude Code PreToolUse payload for a Write.
pub fn write_payload(dir: &Path) -> Vec<u8> {
    let d = dir.display();
    format!(
        r#"{{"session_id":"bench-session","transcript_path":"{d}/transcript.jsonl","cwd":"{d}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"{d}/src/lib.rs","content":"pub fn add(a: i32, b: i32) -> i32 {{\n    a + b\n}}\n"}},"tool_use_id":"toolu_01"}}"#
    )
    .into_bytes()
}

/// A 10 KB Write of a new source file, which fires nothing.
pub fn big_write_payload(dir: &Path) -> Vec<u8> {
    let body = "pub fn f() -> u32 { 1 }\n".repeat(10 * 1024 / 24);
    serde_json::to_vec(&serde_json::json!({
        "session_id": "bench-sys", "transcript_path": dir.join("transcript.jsonl"), "cwd": dir,
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": dir.join("src/big.rs"), "content": body},
    }))
    .expect("JSON")
}

/// A Claude Code PreToolUse Bash call that fires (the dependency card), in
/// a session that already has state once the bench has run it.
pub fn bash_payload(dir: &Path) -> Vec<u8> {
    format!(
        r#"{{"session_id":"bench-sys","transcript_path":"{d}/transcript.jsonl","cwd":"{d}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"rm -rf build/ && npm install left-pad"}}}}"#,
        d = dir.display()
    )
    .into_bytes()
}

/// A Codex PreToolUse `apply_patch` adding `files` files under `dir`.
pub(super) fn patch_payload(dir: &Path, files: usize) -> Vec<u8> {
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..files {
        patch.push_str(&format!(
            "*** Add File: src/gen/f{i}.rs\n+pub fn f{i}() {{}}\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    serde_json::to_vec(&serde_json::json!({
        "session_id": "bench-patch", "cwd": dir, "hook_event_name": "PreToolUse",
        "tool_name": "apply_patch", "tool_input": {"command": patch}, "turn_id": "t",
    }))
    .expect("a JSON value")
}

/// A Claude Code SessionStart payload for a project at `dir`.
pub fn start_payload(dir: &Path) -> Vec<u8> {
    let d = dir.display();
    format!(
        r#"{{"session_id":"bench-session","transcript_path":"{d}/transcript.jsonl","cwd":"{d}","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-5"}}"#
    )
    .into_bytes()
}

/// A project with a drifted knowledge base of `pages` pages and a log of
/// about 300 KiB whose baseline lies in the tail (the worst case: every
/// part of the fingerprint is computed and the line is emitted).
pub fn kb_project(dir: &Path, pages: usize) -> Result<(), String> {
    let kb = dir.join("knowledge-base");
    std::fs::create_dir_all(kb.join("pages")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(kb.join("sources")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join(".git")).map_err(|e| e.to_string())?;
    std::fs::write(kb.join("index.md"), "# Knowledge base\n").map_err(|e| e.to_string())?;
    let mut log = String::from("# Log\n");
    for i in 0..3000 {
        log.push_str(&format!(
            "## [2025-01-01] ingest | Source {i}\n- pages/p{i}.md: {}\n\n",
            "x".repeat(60)
        ));
    }
    log.push_str(
        "## [2025-02-01] baseline | pages=999 latest=## [2025-01-01] ingest | Source 2999\n",
    );
    std::fs::write(kb.join("log.md"), log).map_err(|e| e.to_string())?;
    for i in 0..pages {
        std::fs::write(kb.join(format!("pages/p{i}.md")), "# Page\n").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// A realistic transcript of about `size` bytes: tool results and assistant
/// records, the last assistant record at 50% of a 200k window (no warning).
pub(super) fn write_transcript(path: &Path, size: u64) -> Result<(), String> {
    let f = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    let result_text =
        "line of tool output with some code: fn main() { println!(\\\"hi\\\"); }\\n".repeat(60);
    let mut written = 0u64;
    let mut i = 0u64;
    while written < size {
        i += 1;
        let user = format!(
            r#"{{"parentUuid":"p{i}","isSidechain":false,"type":"user","uuid":"u{i}","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{i}","content":"{result_text}"}}]}}}}"#
        );
        let tokens = 20_000 + (i % 80_000);
        let assistant = format!(
            r#"{{"parentUuid":"u{i}","isSidechain":false,"type":"assistant","uuid":"a{i}","message":{{"id":"msg_{i}","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"tool_use","id":"toolu_{i}","name":"Bash","input":{{"command":"cargo test"}}}}],"usage":{{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":{tokens},"output_tokens":200}}}}}}"#
        );
        for l in [&user, &assistant] {
            w.write_all(l.as_bytes()).map_err(|e| e.to_string())?;
            w.write_all(b"\n").map_err(|e| e.to_string())?;
            written += l.len() as u64 + 1;
        }
    }
    let last = r#"{"parentUuid":"z","isSidechain":false,"type":"assistant","uuid":"last","message":{"id":"msg_last","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1000,"cache_read_input_tokens":99000,"output_tokens":200}}}"#;
    w.write_all(last.as_bytes()).map_err(|e| e.to_string())?;
    w.write_all(b"\n").map_err(|e| e.to_string())?;
    w.flush().map_err(|e| e.to_string())
}

pub(super) fn post_payload(dir: &Path, transcript: &Path) -> Vec<u8> {
    let d = dir.display();
    let t = transcript.display();
    format!(
        r#"{{"session_id":"bench-post","transcript_path":"{t}","cwd":"{d}","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"cargo test","description":"run tests"}},"tool_response":{{"stdout":"test result: ok. 12 passed","stderr":"","interrupted":false,"isImage":false}},"tool_use_id":"toolu_01"}}"#
    )
    .into_bytes()
}
