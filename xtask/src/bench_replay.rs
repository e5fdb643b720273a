//! The `replay` row of `cargo xtask bench`: a synthetic Claude Code session
//! of 5,000 tool calls (reads, shell commands, edits, manifest writes, usage
//! climbing to compaction three times), replayed by the `cargo xtask dist` binary.

use crate::bench::{Row, measure};
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

/// Tool calls in the synthetic session.
pub const CALLS: usize = 5_000;

/// Writes the synthetic transcript (JSON lines) and returns its path.
pub fn session(dir: &Path) -> Result<std::path::PathBuf, String> {
    let cwd = dir.join("project");
    let cwd = cwd.to_string_lossy();
    let mut out = String::with_capacity(CALLS * 900);
    let common = |ty: &str, i: usize| {
        format!(
            r#""parentUuid":null,"isSidechain":false,"userType":"external","cwd":"{cwd}","sessionId":"bench-replay","version":"2.1.328","type":"{ty}","uuid":"u{i}","timestamp":"2025-06-03T09:00:00.000Z""#
        )
    };
    let mut context = 20_000u64;
    for i in 0..CALLS {
        if i % 100 == 0 {
            let _ = writeln!(
                out,
                r#"{{{},"message":{{"role":"user","content":"Next task, number {}: keep going."}}}}"#,
                common("user", i * 10),
                i / 100
            );
        }
        if i % 1_500 == 1_499 {
            let _ = writeln!(
                out,
                r#"{{{},"subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{{"trigger":"auto","preTokens":{context}}}}}"#,
                common("system", i * 10 + 1)
            );
            context = 25_000;
        }
        context = (context + 120).min(195_000);
        let (name, input) = match i % 8 {
            0 | 1 => (
                "Read",
                format!(r#"{{"file_path":"{cwd}/src/mod{}.rs"}}"#, i % 40),
            ),
            2 | 3 => (
                "Bash",
                r#"{"command":"cargo test --quiet","description":"Run the tests"}"#.to_string(),
            ),
            4 => (
                "Bash",
                r#"{"command":"npm install left-pad@1.3.0","description":"Add a package"}"#
                    .to_string(),
            ),
            5 => (
                "Edit",
                format!(
                    r#"{{"file_path":"{cwd}/src/mod{}.rs","old_string":"a + b","new_string":"b + a","replace_all":false}}"#,
                    i % 40
                ),
            ),
            6 => (
                "Write",
                format!(
                    r#"{{"file_path":"{cwd}/package.json","content":"{{\"dependencies\":{{\"left-pad\":\"1.3.0\"}}}}\n"}}"#
                ),
            ),
            _ => ("Grep", r#"{"pattern":"fn main","path":"src"}"#.to_string()),
        };
        let cache = context * 9 / 10;
        let _ = writeln!(
            out,
            r#"{{{},"message":{{"id":"msg_{i}","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"tool_use","id":"toolu_{i}","name":"{name}","input":{input}}}],"stop_reason":"tool_use","usage":{{"input_tokens":{},"cache_creation_input_tokens":0,"cache_read_input_tokens":{cache},"output_tokens":150}}}}}}"#,
            common("assistant", i * 10 + 2),
            context - cache
        );
        let _ = writeln!(
            out,
            r#"{{{},"message":{{"role":"user","content":[{{"tool_use_id":"toolu_{i}","type":"tool_result","content":"ok: step {i} done\nall good","is_error":false}}]}}}}"#,
            common("user", i * 10 + 3)
        );
    }
    let path = dir.join("replay-5000.jsonl");
    std::fs::write(&path, out).map_err(|e| e.to_string())?;
    Ok(path)
}

/// Replays the session with the `cargo xtask dist` binary: tool calls per second.
/// `t_dispatch`: the median of one `dispatch PreToolUse` process, for the
/// ratio of spawning the hook per call to replaying in one process.
pub fn rows(
    bin: &Path,
    work: &Path,
    env: &[(&str, &str)],
    t_dispatch: Duration,
    quick: bool,
) -> Result<Vec<Row>, String> {
    let path = session(work)?;
    let p = path.to_string_lossy().to_string();
    let (t, _) = measure(
        bin,
        &["replay", &p, "--json"],
        b"",
        env,
        1,
        if quick { 1 } else { 5 },
    );
    let per_sec = CALLS as f64 / t.as_secs_f64().max(1e-9);
    let per_hook = t / (2 * CALLS as u32);
    Ok(vec![
        Row {
            figure: format!("replay of a {CALLS}-call session (tool calls per second)"),
            value: format!(
                "{per_sec:.0}/s ({:.0} us per hook call)",
                per_hook.as_secs_f64() * 1e6
            ),
            target: "-".into(),
            met: None,
        },
        Row {
            figure: "one dispatch process / one replayed hook call".into(),
            value: format!(
                "{:.1}x",
                t_dispatch.as_secs_f64() / per_hook.as_secs_f64().max(1e-12)
            ),
            target: "-".into(),
            met: None,
        },
    ])
}
