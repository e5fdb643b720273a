//! `cuecard audit export --endpoint <url>`: sends the audit records not yet
//! sent to that endpoint over OTLP/HTTP (JSON encoding, `POST /v1/logs`),
//! in batches, and remembers per endpoint the last record it accepted (a
//! cursor in `<state root>/audit/export.json`, written after each batch).
//! A failure mid-way keeps the cursor at the last batch accepted, so the
//! next export resumes there and no accepted record is sent twice (a batch
//! whose answer is lost is sent again: at least once, never skipped).
//!
//! This module sits above the hook (docs/architecture.md): nothing the
//! hook runs can reach it, and it is the only place that opens a socket
//! (`tests/layers.rs` checks both).

pub mod http;

use crate::audit::log;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The cursor file, beside the log.
pub const CURSOR: &str = "export.json";

/// What an export did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Outcome {
    /// The endpoint as used (`/v1/logs` added when it had no path).
    pub endpoint: String,
    /// Records sent and accepted in this run, and in how many requests.
    pub sent: usize,
    pub requests: usize,
    /// Records that were rotated away before they could be sent.
    pub lost: u64,
    /// Records the receiver accepted but said it rejected (partial success).
    pub rejected: u64,
    /// The last record the endpoint has accepted (0: none).
    pub cursor: u64,
}

/// Why an export stopped.
#[derive(Debug)]
pub enum ExportError {
    /// The endpoint is not a URL this client takes.
    Url(String),
    /// The log could not be read (busy, unreadable).
    Log(String),
    /// A request failed: what was sent before it stays sent.
    Send { done: Outcome, why: String },
    /// The cursor could not be saved after a batch was accepted.
    Cursor { done: Outcome, why: String },
}

impl std::fmt::Display for ExportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportError::Url(why) => write!(f, "cuecard audit export: {why}"),
            ExportError::Log(why) => write!(f, "cuecard audit export: the audit log: {why}"),
            ExportError::Send { done, why } => write!(
                f,
                "cuecard audit export: {why}; {} sent before it (up to record {}); run it again to resume",
                crate::text::count(done.sent, "record", "records"),
                done.cursor
            ),
            ExportError::Cursor { done, why } => write!(
                f,
                "cuecard audit export: {} accepted, but what was sent could not be saved ({why}): the next export sends them again",
                crate::text::count(done.sent, "record", "records")
            ),
        }
    }
}

/// The endpoint's URL for logs: `/v1/logs` when it names no path (as the
/// OTLP exporters do with `OTEL_EXPORTER_OTLP_ENDPOINT`), else as given.
pub fn logs_url(endpoint: &str) -> Result<http::Url, ExportError> {
    let mut u = http::parse(endpoint.trim()).map_err(ExportError::Url)?;
    if u.path.is_empty() || u.path == "/" {
        u.path = "/v1/logs".into();
    }
    Ok(u)
}

fn cursor_path(root: &Path) -> PathBuf {
    log::dir(root).join(CURSOR)
}

/// Where an endpoint stands: the last record it accepted, and that
/// record's hash (a log started anew, whose numbers begin again, is told
/// apart by it).
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Cursor {
    seq: u64,
    #[serde(default)]
    hash: String,
}

/// The cursors: endpoint → where it stands.
fn load_cursors(root: &Path) -> BTreeMap<String, Cursor> {
    let Ok(bytes) = log::read(&cursor_path(root)) else {
        return BTreeMap::new();
    };
    serde_json::from_slice::<Value>(&bytes)
        .ok()
        .and_then(|v| v.get("endpoints").cloned())
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

fn save_cursors(root: &Path, c: &BTreeMap<String, Cursor>) -> std::io::Result<()> {
    let text = serde_json::to_vec_pretty(&json!({"version": 1, "endpoints": c}))?;
    crate::fsutil::write_atomic(&cursor_path(root), &text, true, None)
}

/// Sends what is pending under `root` to `endpoint`, `batch` records a
/// request.
pub fn export(
    root: &Path,
    endpoint: &str,
    batch: usize,
    timeout: Duration,
) -> Result<Outcome, ExportError> {
    let url = logs_url(endpoint)?;
    let key = format!("http://{}:{}{}", url.host, url.port, url.path);
    let mut done = Outcome {
        endpoint: key.clone(),
        ..Outcome::default()
    };
    // One export at a time: two at once would send the same records.
    let dir = log::dir(root);
    if std::fs::symlink_metadata(&dir).is_err() {
        return Ok(done);
    }
    let _one = crate::state::lock::acquire(&dir.join("export.lock"), Duration::ZERO)
        .map_err(|e| ExportError::Log(e.to_string()))?
        .ok_or_else(|| ExportError::Log("another export is running".into()))?;
    let (_, records) =
        log::records(root, Duration::from_secs(5)).map_err(|e| ExportError::Log(e.to_string()))?;
    let mut cursors = load_cursors(root);
    let mut at = cursors.get(&key).cloned().unwrap_or_default();
    // A log started anew (its numbers begin again): everything is pending.
    let last = records
        .iter()
        .filter_map(|s| s.link.as_ref())
        .map(|l| l.seq)
        .max();
    let same = records
        .iter()
        .find(|s| s.link.as_ref().is_some_and(|l| l.seq == at.seq))
        .is_none_or(|s| at.hash.is_empty() || s.hash == at.hash);
    if last.is_some_and(|l| l < at.seq) || !same {
        at = Cursor::default();
    }
    let cursor = at.seq;
    done.cursor = cursor;
    let pending: Vec<(u64, &str, &str)> = records
        .iter()
        .filter_map(|s| {
            s.link
                .as_ref()
                .map(|l| (l.seq, s.text.as_str(), s.hash.as_str()))
        })
        .filter(|(seq, _, _)| *seq > cursor)
        .collect();
    if let Some((first, _, _)) = pending.first()
        && cursor > 0
        && *first > cursor + 1
    {
        done.lost = first - cursor - 1;
    }
    for chunk in pending.chunks(batch.max(1)) {
        let mut logs: Vec<Value> = Vec::new();
        for (_, line, _) in chunk {
            if let Ok(v) = serde_json::from_str::<Value>(line)
                && let Some(Value::Array(rl)) = v.get("resourceLogs")
            {
                logs.extend(rl.iter().cloned());
            }
        }
        let body = json!({"resourceLogs": logs}).to_string();
        let resp =
            http::post_json(&url, body.as_bytes(), timeout).map_err(|why| ExportError::Send {
                done: done.clone(),
                why: format!("{key}: {why}"),
            })?;
        if !(200..300).contains(&resp.status) {
            return Err(ExportError::Send {
                done,
                why: format!("{key} answered HTTP {}", resp.status),
            });
        }
        done.rejected += rejected(&resp.body);
        done.requests += 1;
        done.sent += chunk.len();
        if let Some((seq, _, hash)) = chunk.last() {
            done.cursor = *seq;
            cursors.insert(
                key.clone(),
                Cursor {
                    seq: *seq,
                    hash: hash.to_string(),
                },
            );
        }
        save_cursors(root, &cursors).map_err(|e| ExportError::Cursor {
            done: done.clone(),
            why: e.to_string(),
        })?;
    }
    Ok(done)
}

/// `partialSuccess.rejectedLogRecords` of an OTLP response, if any.
fn rejected(body: &str) -> u64 {
    let Ok(v) = serde_json::from_str::<Value>(body.trim()) else {
        return 0;
    };
    match v.pointer("/partialSuccess/rejectedLogRecords") {
        Some(Value::String(s)) => s.parse().unwrap_or(0),
        Some(Value::Number(n)) => n.as_u64().unwrap_or(0),
        _ => 0,
    }
}
