//! Qwen Code chats (`~/.qwen/projects/<project>/chats/<session>.jsonl`):
//! append-only `ChatRecord`s (`uuid`, `parentUuid`, `sessionId`, `cwd`,
//! `type`), each holding the Gemini-API `Content` it sent or received in
//! `message` (`{role, parts}`), as Qwen Code's `ChatRecordingService`
//! writes them.
//!
//! - `user` records: the text parts are a prompt (UserPromptSubmit).
//! - `assistant` records: `functionCall` parts are tool calls (PreToolUse),
//!   with Qwen's own tool names (the Qwen contract maps them);
//!   `usageMetadata.promptTokenCount` is the context size, main chain only.
//! - `tool_result` records: `functionResponse` parts are results
//!   (PostToolUse, or PostToolUseFailure when `toolCallResult.status` is
//!   `error` or it carries an `error`).
//! - `system` records with `subtype: chat_compression` are compactions,
//!   followed by SessionStart with `source: compact`.

use super::{Reader, Step, call_label, tool_call};
use serde_json::{Map, Value, json};

#[derive(Default)]
pub struct Qwen {
    session: Option<String>,
    cwd: Option<String>,
    /// Tool calls waiting for their result: id -> (name, input).
    pending: super::Pending,
}

/// Whether a record is Qwen Code's (for format detection): Gemini-API
/// `parts` in its message, a `tool_result` record, or a system record's
/// `systemPayload`.
pub fn is_qwen(rec: &Value) -> bool {
    rec["message"]["parts"].is_array()
        || rec["type"] == "tool_result"
        || (rec["type"] == "system" && rec.get("systemPayload").is_some())
}

impl Reader for Qwen {
    fn session(&self) -> (Option<String>, Option<String>) {
        (self.session.clone(), self.cwd.clone())
    }

    fn record(&mut self, rec: &Value, out: &mut Vec<Step>) {
        if let Some(s) = rec["sessionId"].as_str() {
            self.session.get_or_insert_with(|| s.to_string());
        }
        if let Some(c) = rec["cwd"].as_str() {
            self.cwd = Some(c.to_string());
        }
        if rec["isSidechain"] == true {
            return; // a subagent's records
        }
        let parts = rec["message"]["parts"].as_array();
        match rec["type"].as_str() {
            Some("user") => {
                let text: Vec<&str> = parts
                    .into_iter()
                    .flatten()
                    .filter(|p| p["thought"] != true)
                    .filter_map(|p| p["text"].as_str())
                    .collect();
                let text = text.join("\n");
                if !text.trim().is_empty() {
                    out.push(Step::Prompt(text.clone()));
                    let mut p = Map::new();
                    p.insert("prompt".into(), json!(text));
                    out.push(Step::Hook {
                        event: "UserPromptSubmit",
                        payload: p,
                        label: "prompt".into(),
                    });
                }
            }
            Some("assistant") => {
                if let Some(t) = rec["usageMetadata"]["promptTokenCount"].as_u64() {
                    out.push(Step::Usage {
                        tokens: t,
                        model: rec["model"].as_str().map(str::to_string),
                    });
                }
                for part in parts.into_iter().flatten() {
                    let call = &part["functionCall"];
                    if !call.is_object() {
                        continue;
                    }
                    let name = call["name"].as_str().unwrap_or("unknown").to_string();
                    let input = call["args"].as_object().cloned().unwrap_or_default();
                    let id = call["id"].as_str().unwrap_or_default().to_string();
                    tool_call(out, &mut self.pending, name, input, id, None);
                }
            }
            Some("tool_result") => {
                let r = &rec["toolCallResult"];
                let failed = r["status"] == "error" || !r["error"].is_null();
                for part in parts.into_iter().flatten() {
                    let resp = &part["functionResponse"];
                    if !resp.is_object() {
                        continue;
                    }
                    let id = resp["id"]
                        .as_str()
                        .or_else(|| r["callId"].as_str())
                        .unwrap_or_default()
                        .to_string();
                    let (name, input) = self.pending.remove(&id).unwrap_or_else(|| {
                        (
                            resp["name"].as_str().unwrap_or("unknown").to_string(),
                            Map::new(),
                        )
                    });
                    let label = call_label(&name, &input);
                    let output = &resp["response"];
                    let text = output["output"]
                        .as_str()
                        .or_else(|| output["error"].as_str())
                        .map(str::to_string)
                        .unwrap_or_else(|| output.to_string());
                    let mut p = Map::new();
                    p.insert("tool_name".into(), json!(name));
                    p.insert("tool_input".into(), Value::Object(input));
                    p.insert("tool_use_id".into(), json!(id));
                    if failed {
                        p.insert("error".into(), json!(text));
                    } else {
                        p.insert("tool_response".into(), json!({"llmContent": text}));
                    }
                    out.push(Step::Hook {
                        event: if failed {
                            "PostToolUseFailure"
                        } else {
                            "PostToolUse"
                        },
                        payload: p,
                        label,
                    });
                }
            }
            Some("system") if rec["subtype"] == "chat_compression" => {
                Step::compaction("auto", out);
            }
            _ => {}
        }
    }
}
