//! Measuring the context size from the harness's transcript (docs/design.md §7).
//!
//! The file is read backwards from its end in bounded chunks, stopping at the
//! first qualifying record or after [`MAX_SCAN`] bytes, so the cost does not
//! grow with the transcript. Qualifying records, newest first:
//! - Claude Code (and harnesses that copy its format): the latest main-chain
//!   assistant record (`isSidechain: true` skipped) with a non-zero
//!   `message.usage`; the context size is `input_tokens +
//!   cache_creation_input_tokens + cache_read_input_tokens`. Its
//!   `message.id` names the measurement, so the several lines one message is
//!   written as count once.
//! - Codex rollouts: the latest `token_count` event, whose `info` carries
//!   `last_token_usage` and the model's `model_context_window`.
//! - Gemini CLI chats (`~/.gemini/tmp/<project>/chats/*.jsonl`): the latest
//!   `type: "gemini"` message with `tokens`; the context size is
//!   `tokens.input` (the response's `promptTokenCount`, cached tokens
//!   included), the measure Gemini CLI compresses by. A message is
//!   re-appended whenever it changes; its `id` names the measurement.
//! - Qwen Code chats (`~/.qwen/projects/<project>/chats/*.jsonl`): the
//!   latest main-chain `type: "assistant"` record with `usageMetadata`; the
//!   context size is `promptTokenCount`, and `contextWindowSize`, when the
//!   record has it, is the window.
//! - A compaction boundary (`compact_boundary` system record, Codex
//!   `compacted`, Qwen's `chat_compression` system record) newer than any
//!   usage: the conversation was just compacted and nothing was measured
//!   since.
//!
//! - CodeBuddy Code transcripts, Copilot CLI's events log and Factory
//!   Droid's session settings: see [`agents`].
//! - The window CodeBuddy Code's and Factory Droid's model configuration
//!   states: see [`stated`].
//!
//! [`from_payload`] reads the usage a harness's payload carries itself
//! (`context_usage`, which cuecard's own OpenCode and Kilo Code plugin fills
//! from OpenCode's `message.updated` events).
//!
//! A missing file, a non-file, a partial last line (being written), lines
//! over [`MAX_LINE`], and garbage are tolerated: they read as nothing.

pub mod agents;
pub mod stated;

use serde::Deserialize;
use std::fs::File;
use std::path::Path;

/// Bytes read per step.
pub const CHUNK: usize = 64 * 1024;
/// Bytes read from the end at most.
pub const MAX_SCAN: u64 = 8 << 20;
/// Longer lines are skipped without being parsed (no usage record is
/// anywhere near this long).
pub const MAX_LINE: usize = 1 << 20;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Usage {
    /// Tokens in the context window.
    pub tokens: u64,
    /// What the measurement was taken from: `message.id`, else `@<offset>`.
    pub record: String,
    /// The model the record names, if any.
    pub model: Option<String>,
    /// The context window the record states (Codex), if any.
    pub window: Option<u64>,
    /// The share of the window at which the harness that wrote the record
    /// compacts by default, when it is not (about) all of it: Gemini CLI
    /// compresses at 50% (`DEFAULT_COMPRESSION_TOKEN_THRESHOLD`).
    pub compacts_at: Option<(u64, &'static str)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    Usage(Usage),
    /// The newest relevant record is a compaction boundary.
    Boundary {
        id: String,
    },
    /// Nothing usable within the bound.
    Nothing,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    Missing,
    NotAFile,
    Unreadable,
}

impl Problem {
    pub fn describe(self) -> &'static str {
        match self {
            Problem::Missing => "the transcript does not exist",
            Problem::NotAFile => "the transcript is a link or not a regular file",
            Problem::Unreadable => "the transcript could not be read",
        }
    }
}

/// Measures `path` within the default bound.
pub fn measure(path: &Path) -> Result<Reading, Problem> {
    measure_bounded(path, MAX_SCAN)
}

/// Measures `path`, reading at most about `max_scan` bytes from its end.
pub fn measure_bounded(path: &Path, max_scan: u64) -> Result<Reading, Problem> {
    let (file, meta) = open(path)?;
    let mut pos = meta.len();
    let mut buf = vec![0u8; CHUNK];
    // The part of the current line already read (it lies after the chunk
    // being scanned), as chunks in reverse order.
    let mut carry: Vec<Vec<u8>> = Vec::new();
    let mut carry_len = 0usize;
    let mut skipping = false;
    let mut scanned = 0u64;
    while pos > 0 && scanned < max_scan {
        let n = CHUNK.min(pos as usize);
        pos -= n as u64;
        read_at(&file, &mut buf[..n], pos).map_err(|_| Problem::Unreadable)?;
        scanned += n as u64;
        let mut end = n;
        while let Some(nl) = buf[..end].iter().rposition(|&b| b == b'\n') {
            let head = &buf[nl + 1..end];
            if !skipping && carry_len + head.len() <= MAX_LINE {
                let found = if carry.is_empty() {
                    judge(head, pos + nl as u64 + 1)
                } else {
                    let mut line = Vec::with_capacity(head.len() + carry_len);
                    line.extend_from_slice(head);
                    carry.iter().rev().for_each(|c| line.extend_from_slice(c));
                    judge(&line, pos + nl as u64 + 1)
                };
                if let Some(r) = found {
                    return Ok(r);
                }
            }
            carry.clear();
            carry_len = 0;
            skipping = false;
            end = nl;
        }
        if !skipping {
            if carry_len + end > MAX_LINE {
                skipping = true;
                carry.clear();
                carry_len = 0;
            } else if end > 0 {
                carry.push(buf[..end].to_vec());
                carry_len += end;
            }
        }
    }
    if pos == 0 && !skipping && carry_len > 0 {
        let mut line = Vec::with_capacity(carry_len);
        carry.iter().rev().for_each(|c| line.extend_from_slice(c));
        if let Some(r) = judge(&line, 0) {
            return Ok(r);
        }
    }
    Ok(Reading::Nothing)
}

/// Opens a usage file to read: never through a link in the last place
/// (a link reads as not a file), never waiting on a FIFO.
fn open(path: &Path) -> Result<(File, std::fs::Metadata), Problem> {
    crate::fsutil::open_regular(path, false).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Problem::Missing,
        std::io::ErrorKind::InvalidInput => Problem::NotAFile,
        #[cfg(unix)]
        _ if e.raw_os_error() == Some(libc::ELOOP) => Problem::NotAFile,
        _ => Problem::Unreadable,
    })
}

#[cfg(unix)]
fn read_at(f: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, at)
}

#[cfg(not(unix))]
fn read_at(mut f: &File, buf: &mut [u8], at: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    f.seek(SeekFrom::Start(at))?;
    f.read_exact(buf)
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[derive(Deserialize)]
struct Record {
    #[serde(rename = "type")]
    kind: Option<String>,
    subtype: Option<String>,
    #[serde(rename = "isSidechain")]
    sidechain: Option<bool>,
    uuid: Option<String>,
    /// Gemini CLI's message id.
    id: Option<String>,
    model: Option<String>,
    message: Option<Message>,
    payload: Option<CodexPayload>,
    /// Gemini CLI's per-message token counts (`{input, output, cached,
    /// ...}`). Kept as values: a field of an unexpected type reads as no
    /// usage rather than making the whole record unreadable.
    tokens: Option<serde_json::Value>,
    /// Qwen Code's per-response usage (`{promptTokenCount, ...}`), and its
    /// model's window.
    #[serde(rename = "usageMetadata")]
    usage_metadata: Option<serde_json::Value>,
    #[serde(rename = "contextWindowSize")]
    context_window: Option<serde_json::Value>,
}

#[derive(Deserialize)]
struct Message {
    id: Option<String>,
    model: Option<String>,
    usage: Option<ClaudeUsage>,
}

#[derive(Deserialize)]
struct ClaudeUsage {
    input_tokens: Option<u64>,
    cache_creation_input_tokens: Option<u64>,
    cache_read_input_tokens: Option<u64>,
}

#[derive(Deserialize)]
struct CodexPayload {
    #[serde(rename = "type")]
    kind: Option<String>,
    info: Option<CodexInfo>,
}

#[derive(Deserialize)]
struct CodexInfo {
    last_token_usage: Option<CodexUsage>,
    model_context_window: Option<u64>,
}

#[derive(Deserialize)]
struct CodexUsage {
    input_tokens: Option<u64>,
    output_tokens: Option<u64>,
    total_tokens: Option<u64>,
}

/// Whether one line is a qualifying record, and what it says.
fn judge(line: &[u8], offset: u64) -> Option<Reading> {
    let boundary = contains(line, b"compact_boundary")
        || contains(line, b"\"compacted\"")
        || contains(line, b"chat_compression");
    let codex = contains(line, b"token_count");
    let claude = contains(line, b"\"usage\"") && contains(line, b"assistant");
    let qwen = contains(line, b"\"usageMetadata\"");
    let gemini = contains(line, b"\"tokens\"") && contains(line, b"\"gemini\"");
    let other = agents::may_be(line);
    if !(boundary || codex || claude || qwen || gemini || other) {
        return None;
    }
    if other
        && let Some(r) = serde_json::from_slice::<serde_json::Value>(line)
            .ok()
            .and_then(|v| agents::judge(&v, || format!("@{offset}")))
    {
        return Some(r);
    }
    let rec: Record = serde_json::from_slice(line).ok()?;
    let kind = rec.kind.as_deref();
    let subtype = rec.subtype.as_deref();
    if (kind == Some("system") && matches!(subtype, Some("compact_boundary" | "chat_compression")))
        || kind == Some("compacted")
    {
        return Some(Reading::Boundary {
            id: rec.uuid.unwrap_or_else(|| format!("@{offset}")),
        });
    }
    let at = || format!("@{offset}");
    if kind == Some("assistant") && rec.sidechain != Some(true) {
        // Qwen Code: the usage beside the message.
        if let Some(u) = rec.usage_metadata.filter(|u| u.is_object()) {
            let tokens = u["promptTokenCount"].as_u64().unwrap_or(0);
            if tokens == 0 {
                return None;
            }
            return Some(Reading::Usage(Usage {
                tokens,
                record: rec.uuid.unwrap_or_else(at),
                model: rec.model,
                window: rec
                    .context_window
                    .and_then(|w| w.as_u64())
                    .filter(|w| *w >= 1_000),
                compacts_at: None,
            }));
        }
        let m = rec.message?;
        let u = m.usage?;
        let tokens = u.input_tokens.unwrap_or(0)
            + u.cache_creation_input_tokens.unwrap_or(0)
            + u.cache_read_input_tokens.unwrap_or(0);
        if tokens == 0 {
            return None; // synthetic records (errors, interruptions)
        }
        return Some(Reading::Usage(Usage {
            tokens,
            record: m.id.unwrap_or_else(at),
            model: m.model,
            window: None,
            compacts_at: None,
        }));
    }
    if kind == Some("gemini") {
        let tokens = rec.tokens?["input"].as_u64().unwrap_or(0);
        if tokens == 0 {
            return None;
        }
        return Some(Reading::Usage(Usage {
            tokens,
            record: rec.id.unwrap_or_else(at),
            model: rec.model,
            window: None,
            compacts_at: Some((50, "Gemini CLI")),
        }));
    }
    if let Some(p) = rec.payload
        && p.kind.as_deref() == Some("token_count")
    {
        let info = p.info?;
        let u = info.last_token_usage?;
        let tokens = u
            .total_tokens
            .unwrap_or_else(|| u.input_tokens.unwrap_or(0) + u.output_tokens.unwrap_or(0));
        if tokens == 0 {
            return None;
        }
        return Some(Reading::Usage(Usage {
            tokens,
            record: at(),
            model: None,
            window: info.model_context_window.filter(|w| *w > 0),
            compacts_at: None,
        }));
    }
    None
}

/// The usage a payload carries itself, under `context_usage`: OpenCode's
/// assistant-message token counts as cuecard's plugin passes them,
/// `{"id", "model", "tokens": {"input", "output", "reasoning", "cache":
/// {"read", "write"}}}`. The context size is `input + cache.read +
/// cache.write + output`, the count OpenCode itself compares with the
/// model's limit (the reply joins the context of the next call).
pub fn from_payload(raw: &serde_json::Map<String, serde_json::Value>) -> Option<Usage> {
    let u = raw.get("context_usage")?.as_object()?;
    let t = u.get("tokens")?;
    let n = |v: &serde_json::Value| v.as_u64().unwrap_or(0);
    let tokens = n(&t["input"])
        .saturating_add(n(&t["output"]))
        .saturating_add(n(&t["cache"]["read"]))
        .saturating_add(n(&t["cache"]["write"]));
    if tokens == 0 {
        return None;
    }
    let text = |k: &str| {
        u.get(k)
            .and_then(serde_json::Value::as_str)
            .filter(|s| !s.is_empty())
            .map(|s| crate::text::sanitize(s, 100))
    };
    Some(Usage {
        tokens,
        // A message's counts grow as it is written: a new count is a new
        // measurement, the same one repeated (several tool calls) is not.
        record: format!("{}:{tokens}", text("id").unwrap_or_default()),
        model: text("model"),
        window: u
            .get("limit")
            .and_then(serde_json::Value::as_u64)
            .filter(|w| *w >= 1_000),
        compacts_at: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn assistant(id: &str, tokens: u64, side: bool) -> String {
        format!(
            r#"{{"type":"assistant","isSidechain":{side},"uuid":"u-{id}","message":{{"id":"{id}","model":"claude-x","role":"assistant","usage":{{"input_tokens":10,"cache_creation_input_tokens":{},"cache_read_input_tokens":0,"output_tokens":50}}}}}}"#,
            tokens - 10
        )
    }

    fn file(lines: &[String], tail: &str) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().unwrap();
        for l in lines {
            writeln!(f, "{l}").unwrap();
        }
        f.write_all(tail.as_bytes()).unwrap();
        f
    }

    fn tokens(r: Reading) -> u64 {
        match r {
            Reading::Usage(u) => u.tokens,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn latest_main_chain_usage_wins_sidechains_and_partial_lines_do_not() {
        let f = file(
            &[
                assistant("m1", 1000, false),
                assistant("m2", 5000, false),
                assistant("s1", 190_000, true),
                r#"{"type":"user","message":{"content":"usage assistant"}}"#.into(),
            ],
            r#"{"type":"assistant","isSidechain":false,"message":{"id":"m3","usage":{"input_tok"#,
        );
        assert_eq!(tokens(measure(f.path()).unwrap()), 5000);
    }

    #[test]
    fn boundary_after_usage_reads_as_boundary() {
        let f = file(
            &[
                assistant("m1", 150_000, false),
                r#"{"type":"system","subtype":"compact_boundary","uuid":"b1"}"#.into(),
            ],
            "",
        );
        assert_eq!(
            measure(f.path()).unwrap(),
            Reading::Boundary { id: "b1".into() }
        );
    }

    #[test]
    fn codex_token_count_with_window() {
        let f = file(
            &[r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"total_tokens":999999},"last_token_usage":{"input_tokens":120000,"cached_input_tokens":100000,"output_tokens":800,"total_tokens":120800},"model_context_window":258400}}}"#.into()],
            "",
        );
        match measure(f.path()).unwrap() {
            Reading::Usage(u) => assert_eq!((u.tokens, u.window), (120_800, Some(258_400))),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn long_lines_garbage_and_bounds() {
        let huge = format!(r#"{{"type":"user","x":"{}"}}"#, "a".repeat(3 * MAX_LINE));
        let f = file(
            &[assistant("m1", 7000, false), huge, "garbage {{{".into()],
            "",
        );
        assert_eq!(tokens(measure(f.path()).unwrap()), 7000);
        assert_eq!(
            measure_bounded(f.path(), 64 * 1024).unwrap(),
            Reading::Nothing,
            "the record lies beyond the bound"
        );
        assert_eq!(
            measure(Path::new("/nonexistent/t.jsonl")),
            Err(Problem::Missing)
        );
        let d = tempfile::tempdir().unwrap();
        assert_eq!(measure(d.path()), Err(Problem::NotAFile));
    }

    #[test]
    fn a_first_line_without_newline_before_it_is_read() {
        let f = file(&[], &assistant("only", 4242, false));
        assert_eq!(tokens(measure(f.path()).unwrap()), 4242);
    }

    #[test]
    fn gemini_chats_latest_message_with_tokens() {
        let f = file(
            &[
                r#"{"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}"#.into(),
                r#"{"id":"g1","type":"gemini","content":[{"text":"a"}],"model":"gemini-2.5-pro","tokens":{"input":120000,"output":50,"cached":100000,"thoughts":0,"tool":0,"total":120050}}"#.into(),
                r#"{"id":"u2","type":"user","content":[{"text":"gemini tokens"}]}"#.into(),
                r#"{"id":"g2","type":"gemini","content":[],"model":"gemini-2.5-pro","tokens":null}"#.into(),
                r#"{"$set":{"lastUpdated":"t2"}}"#.into(),
            ],
            "",
        );
        match measure(f.path()).unwrap() {
            Reading::Usage(u) => assert_eq!(
                (u.tokens, u.record.as_str(), u.model.as_deref()),
                (120_000, "g1", Some("gemini-2.5-pro"))
            ),
            o => panic!("{o:?}"),
        }
    }

    #[test]
    fn qwen_chats_usage_window_sidechains_and_compression() {
        let rec = |uuid: &str, side: bool, prompt: u64| {
            format!(
                r#"{{"uuid":"{uuid}","parentUuid":null,"sessionId":"s","timestamp":"t","type":"assistant","isSidechain":{side},"cwd":"/p","version":"0.24.4","model":"qwen3-coder-plus","message":{{"role":"model","parts":[{{"text":"ok"}}]}},"usageMetadata":{{"promptTokenCount":{prompt},"candidatesTokenCount":20,"totalTokenCount":{}}},"contextWindowSize":1000000}}"#,
                prompt + 20
            )
        };
        let f = file(&[rec("q1", false, 640_000), rec("q2", true, 900_000)], "");
        match measure(f.path()).unwrap() {
            Reading::Usage(u) => assert_eq!(
                (u.tokens, u.record.as_str(), u.window),
                (640_000, "q1", Some(1_000_000))
            ),
            o => panic!("{o:?}"),
        }
        let f = file(
            &[
                rec("q1", false, 640_000),
                r#"{"uuid":"c1","type":"system","subtype":"chat_compression","systemPayload":{"info":{}}}"#.into(),
            ],
            "",
        );
        assert_eq!(
            measure(f.path()).unwrap(),
            Reading::Boundary { id: "c1".into() }
        );
    }

    #[test]
    fn payload_usage_from_the_plugin() {
        let v: serde_json::Value = serde_json::json!({"context_usage": {"id": "msg_1",
            "model": "anthropic/claude-sonnet-4-5",
            "tokens": {"input": 1000, "output": 500, "reasoning": 0, "cache": {"read": 150000, "write": 2000}}}});
        let u = from_payload(v.as_object().unwrap()).unwrap();
        assert_eq!((u.tokens, u.record.as_str()), (153_500, "msg_1:153500"));
        let none = serde_json::json!({"context_usage": {"tokens": {"input": 0}}});
        assert!(from_payload(none.as_object().unwrap()).is_none());
        let garbage = serde_json::json!({"context_usage": "lots"});
        assert!(from_payload(garbage.as_object().unwrap()).is_none());
    }
}
