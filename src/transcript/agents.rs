//! The usage records of CodeBuddy Code, Copilot CLI and Factory Droid, as
//! measured in their real CLIs (2026-12-03, against the e2e's scripted
//! model; docs/decisions.md, Compaction):
//!
//! - CodeBuddy Code 2.117.0 (`transcript_path`,
//!   `~/.codebuddy/projects/<project>/<id>.jsonl`): each model response is
//!   a `function_call` record (one per tool call) or an assistant
//!   `message`, whose `providerData.usage` is the agent SDK's count
//!   (`inputTokens`, cached tokens included: 20,000 of which 19,000 cached
//!   for a Chat Completions `prompt_tokens` of 20,000) and `providerData.model`
//!   the model; the record `id` is the response's. A compaction writes a
//!   user `message` whose `providerData.isSummary` is true (a boundary).
//! - Copilot CLI 1.0.102 (`~/.copilot/session-state/<id>/events.jsonl`, which
//!   the Copilot contract names as the transcript): a `session.usage_record`
//!   event per model call, `data.usage` with `inputTokens` (cached included,
//!   as CodeBuddy's), `model`, `apiCallId` and `maxPromptTokens`, the prompt
//!   limit Copilot compacts by (the window); `session.compaction_complete`
//!   is a boundary.
//! - Factory Droid 0.225.2: its transcript holds no usage; the session's
//!   settings beside it (`<id>.settings.json`) keep `lastCallTokenUsage`
//!   (`inputTokens` without the cached ones, `cacheReadTokens`,
//!   `cacheCreationTokens`), rewritten after each call, and `model`.

use super::{Problem, Reading, Usage};
use serde_json::Value;
use std::path::Path;

/// Factory Droid's session settings are small; a bigger file is not one.
pub const MAX_SETTINGS: u64 = 256 * 1024;

/// The prefilter: whether a line may be one of these records.
pub(super) fn may_be(line: &[u8]) -> bool {
    super::contains(line, b"\"providerData\"") || super::contains(line, b"\"session.")
}

fn n(v: &Value) -> u64 {
    v.as_u64().unwrap_or(0)
}

fn text(v: &Value) -> Option<String> {
    v.as_str()
        .filter(|s| !s.is_empty())
        .map(|s| crate::text::sanitize(s, 100))
}

/// One line of a CodeBuddy transcript or a Copilot events log, parsed.
pub(super) fn judge(rec: &Value, at: impl Fn() -> String) -> Option<Reading> {
    let kind = rec["type"].as_str()?;
    let id = || text(&rec["id"]).unwrap_or_else(&at);
    match kind {
        // Copilot CLI.
        "session.usage_record" => {
            let u = &rec["data"]["usage"];
            let tokens = n(&u["inputTokens"]);
            (tokens > 0).then(|| {
                Reading::Usage(Usage {
                    tokens,
                    record: text(&u["apiCallId"]).unwrap_or_else(id),
                    model: text(&u["model"]),
                    window: Some(n(&u["maxPromptTokens"])).filter(|w| *w >= 1_000),
                    compacts_at: None,
                })
            })
        }
        "session.compaction_complete" => {
            (rec["data"]["success"] != Value::Bool(false)).then(|| Reading::Boundary { id: id() })
        }
        // CodeBuddy Code.
        "function_call" | "message" => {
            let p = &rec["providerData"];
            if p["isSummary"] == Value::Bool(true) || p["isCompacted"] == Value::Bool(true) {
                return Some(Reading::Boundary { id: id() });
            }
            if kind == "message" && rec["role"] != "assistant" {
                return None;
            }
            let tokens = match n(&p["usage"]["inputTokens"]) {
                0 => n(&p["rawUsage"]["prompt_tokens"]),
                t => t,
            };
            (tokens > 0).then(|| {
                Reading::Usage(Usage {
                    tokens,
                    record: id(),
                    model: text(&p["model"]),
                    window: None,
                    compacts_at: None,
                })
            })
        }
        _ => None,
    }
}

/// Factory Droid's session settings beside its transcript
/// (`<id>.jsonl` → `<id>.settings.json`), if the path names a `.jsonl`.
pub fn factory_settings(transcript: &Path) -> Option<std::path::PathBuf> {
    let name = transcript.file_name()?.to_str()?;
    let stem = name.strip_suffix(".jsonl")?;
    Some(transcript.with_file_name(format!("{stem}.settings.json")))
}

/// Reads Factory Droid's session settings: at most [`MAX_SETTINGS`] bytes,
/// never through a link; a file being rewritten (not yet whole JSON) reads
/// as nothing.
pub fn measure_factory(path: &Path) -> Result<Reading, Problem> {
    let (file, _) = super::open(path)?;
    let (buf, whole) =
        crate::fsutil::read_capped(file, MAX_SETTINGS).map_err(|_| Problem::Unreadable)?;
    if !whole {
        return Ok(Reading::Nothing);
    }
    let Ok(v) = serde_json::from_slice::<Value>(&buf) else {
        return Ok(Reading::Nothing);
    };
    let u = &v["lastCallTokenUsage"];
    let (input, read, write) = (
        n(&u["inputTokens"]),
        n(&u["cacheReadTokens"]),
        n(&u["cacheCreationTokens"]),
    );
    let tokens = input.saturating_add(read).saturating_add(write);
    if tokens == 0 {
        return Ok(Reading::Nothing);
    }
    Ok(Reading::Usage(Usage {
        tokens,
        // No id is kept: the counts name the call (the same counts on
        // several tool calls of one response are one measurement).
        record: format!("factory:{input}:{read}:{write}:{}", n(&u["outputTokens"])),
        model: text(&v["model"]),
        window: None,
        compacts_at: None,
    }))
}
