//! The scanners on the hook path against adversarial input (issue 26,
//! "linear on the hook path"): for each, 1 MiB of the markers that would
//! make a scan that rescans from every marker quadratic, in a PreToolUse
//! call, timed against the 700 ms deadline (target: under a tenth of it),
//! and against the same call with a quarter of the markers (4x when the
//! cost is linear, 16x when quadratic).
//!
//! `cargo xtask bench` prints these rows with the others; `cargo xtask
//! bench-adversarial [--quick] [--bin <path>]` prints them alone, against
//! a given binary (a debug build is several times slower than the release
//! one the target is set for).

use crate::bench::{Row, interleaved};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the markers go in the call.
#[derive(Clone, Copy)]
enum Place {
    /// A comment after `rm -rf ~` in a Bash command.
    Comment,
    /// Shell code after `rm -rf ~;` in a Bash command.
    Code,
    /// The content of a Write.
    Content,
    /// An AskUserQuestion option's label.
    Label,
}

/// (what it stresses, the marker, where it goes).
const CASES: &[(&str, &str, Place)] = &[
    ("credential scan, URL passwords", "a://", Place::Comment),
    (
        "credential scan, key headers on one line",
        "-----BEGIN ",
        Place::Comment,
    ),
    (
        "credential scan, a key header per line",
        "-----BEGIN : PRIVATE KEY-----\n",
        Place::Content,
    ),
    ("credential scan, token bodies", "xoxb-", Place::Comment),
    (
        "credential scan, AWS secret keys",
        "secret_access_key=",
        Place::Comment,
    ),
    ("credential scan of written content", "a://", Place::Content),
    ("shell reader, command substitutions", "$(", Place::Code),
    ("shell reader, process substitutions", "<(", Place::Code),
    ("shell reader, parameter expansions", "${", Place::Code),
    ("shell reader, backquotes", "`", Place::Code),
    ("shell reader, assignments", "a=b ", Place::Code),
    ("shell reader, line continuations", "\\\n", Place::Code),
    ("shell reader, quotes", "'\"", Place::Code),
    (
        "shell reader, one short command per line",
        "a b\n",
        Place::Code,
    ),
    ("recommendation markers, openers", "(", Place::Label),
    (
        "recommendation markers, openers and blanks",
        "( ",
        Place::Label,
    ),
];

const MIB: usize = 1024 * 1024;

/// A Claude Code PreToolUse payload with `bytes` of `marker` at `place`.
fn payload(dir: &Path, marker: &str, place: Place, bytes: usize) -> Vec<u8> {
    let text = marker.repeat(bytes / marker.len());
    let (tool, input) = match place {
        Place::Comment => (
            "Bash",
            serde_json::json!({ "command": format!("rm -rf ~ # {text}") }),
        ),
        Place::Code => (
            "Bash",
            serde_json::json!({ "command": format!("rm -rf ~; {text}") }),
        ),
        Place::Content => (
            "Write",
            serde_json::json!({ "file_path": dir.join("src/notes.txt"), "content": text }),
        ),
        Place::Label => (
            "AskUserQuestion",
            serde_json::json!({ "questions": [{ "question": "Which?", "header": "h",
                "multiSelect": false, "options": [
                    { "label": text, "description": "d" },
                    { "label": "b (Recommended)", "description": "d" },
                ] }] }),
        ),
    };
    serde_json::to_vec(&serde_json::json!({
        "session_id": "bench-adversarial", "transcript_path": dir.join("transcript.jsonl"),
        "cwd": dir, "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
    }))
    .expect("a JSON value")
}

/// One row per case: 1 MiB against the deadline, and against 256 KiB.
pub fn rows(bin: &Path, work: &Path, env: &[(&str, &str)], quick: bool) -> Vec<Row> {
    let (warm, n) = if quick { (1, 5) } else { (2, 15) };
    let deadline = Duration::from_millis(700);
    // The deadline at its maximum, so that a slow scan is measured, not cut.
    let mut env: Vec<(&str, &str)> = env.to_vec();
    env.push(("CUECARD_DEADLINE_MS", "5000"));
    let args = ["dispatch", "PreToolUse"];
    let mut rows = Vec::new();
    for (what, marker, place) in CASES {
        let (small, large) = (
            payload(work, marker, *place, MIB / 4),
            payload(work, marker, *place, MIB),
        );
        let (t_small, t_large) =
            interleaved((bin, &args, &small), (bin, &args, &large), &env, warm, n);
        let of_deadline = t_large.as_secs_f64() / deadline.as_secs_f64();
        rows.push(Row {
            figure: format!(
                "1 MiB of {:?}: {what} / the 700 ms deadline",
                marker.replace('\n', "\\n")
            ),
            value: format!(
                "{of_deadline:.3}x ({:.0} ms; 1 MiB / 256 KiB {:.1}x)",
                t_large.as_secs_f64() * 1e3,
                t_large.as_secs_f64() / t_small.as_secs_f64()
            ),
            target: "<= 0.1x".into(),
            met: Some(of_deadline <= 0.1),
        });
    }
    rows
}

/// `cargo xtask bench-adversarial [--quick] [--bin <path>]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let bin = match args.iter().position(|a| a == "--bin") {
        Some(i) => PathBuf::from(args.get(i + 1).ok_or("--bin needs a path")?),
        None => crate::dist::build()?,
    };
    let bin = std::fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let work = std::env::temp_dir().join(format!("cuecard-bench-adv-{}", std::process::id()));
    std::fs::create_dir_all(work.join("src")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(work.join(".git")).map_err(|e| e.to_string())?;
    let state = work.join("state").to_string_lossy().to_string();
    let env = [("CUECARD_STATE_DIR", state.as_str())];
    let rows = rows(&bin, &work, &env, quick);
    crate::bench::print_table(&rows, if quick { 5 } else { 15 });
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}
