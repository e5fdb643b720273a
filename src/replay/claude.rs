//! Claude Code project transcripts (`~/.claude/projects/<dir>/<session>.jsonl`).
//!
//! - `user` records: a text prompt starts a turn (UserPromptSubmit), unless
//!   it is the compaction summary or a meta record; `tool_result` blocks are
//!   tool results (PostToolUse, or PostToolUseFailure when `is_error`).
//! - `assistant` records: `tool_use` blocks are tool calls (PreToolUse);
//!   `message.usage` is the context size, once per `message.id`, main chain
//!   only.
//! - `system` records with `subtype: compact_boundary` are compactions,
//!   followed by SessionStart with `source: compact`.

use super::{Reader, Step, call_label, tool_call};
use serde_json::{Map, Value, json};

#[derive(Default)]
pub struct Claude {
    session: Option<String>,
    cwd: Option<String>,
    /// Tool calls waiting for their result: id -> (name, input).
    pending: super::Pending,
    last_usage_id: Option<String>,
}

impl Reader for Claude {
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
        match rec["type"].as_str() {
            Some("user") => self.user(rec, out),
            Some("assistant") => self.assistant(rec, out),
            Some("system") if rec["subtype"] == "compact_boundary" => {
                let trigger = rec["compactMetadata"]["trigger"].as_str().unwrap_or("auto");
                Step::compaction(trigger, out);
            }
            _ => {}
        }
    }
}

impl Claude {
    fn user(&mut self, rec: &Value, out: &mut Vec<Step>) {
        let content = &rec["message"]["content"];
        let meta = rec["isMeta"] == true
            || rec["isCompactSummary"] == true
            || rec["isVisibleInTranscriptOnly"] == true;
        match content {
            Value::String(s) if !meta => prompt(s, out),
            Value::Array(blocks) => {
                let mut text = String::new();
                for b in blocks {
                    match b["type"].as_str() {
                        Some("tool_result") => self.result(rec, b, out),
                        Some("text") => text.push_str(b["text"].as_str().unwrap_or_default()),
                        _ => {}
                    }
                }
                if !meta && !text.trim().is_empty() {
                    prompt(&text, out);
                }
            }
            _ => {}
        }
    }

    fn result(&mut self, rec: &Value, block: &Value, out: &mut Vec<Step>) {
        let id = block["tool_use_id"].as_str().unwrap_or_default();
        let (name, input) = self
            .pending
            .remove(id)
            .unwrap_or_else(|| ("unknown".to_string(), Map::new()));
        let label = call_label(&name, &input);
        let failed = block["is_error"] == true;
        let mut p = Map::new();
        p.insert("tool_name".into(), json!(name));
        p.insert("tool_input".into(), Value::Object(input));
        p.insert("tool_use_id".into(), json!(id));
        if failed {
            p.insert("error".into(), text_of(&block["content"]).into());
        } else {
            let response = if rec["toolUseResult"].is_null() {
                json!(text_of(&block["content"]))
            } else {
                rec["toolUseResult"].clone()
            };
            p.insert("tool_response".into(), response);
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

    fn assistant(&mut self, rec: &Value, out: &mut Vec<Step>) {
        let msg = &rec["message"];
        let main_chain = rec["isSidechain"] != true;
        let id = msg["id"].as_str().map(str::to_string);
        let u = &msg["usage"];
        if main_chain && u.is_object() && (id.is_none() || id != self.last_usage_id) {
            let n = |k: &str| u[k].as_u64().unwrap_or(0);
            out.push(Step::Usage {
                tokens: n("input_tokens")
                    + n("cache_creation_input_tokens")
                    + n("cache_read_input_tokens"),
                model: msg["model"].as_str().map(str::to_string),
            });
            self.last_usage_id = id;
        }
        for b in msg["content"].as_array().into_iter().flatten() {
            if b["type"] != "tool_use" {
                continue;
            }
            let name = b["name"].as_str().unwrap_or("unknown").to_string();
            let input = b["input"].as_object().cloned().unwrap_or_default();
            let id = b["id"].as_str().unwrap_or_default().to_string();
            tool_call(out, &mut self.pending, name, input, id, None);
        }
    }
}

fn prompt(text: &str, out: &mut Vec<Step>) {
    out.push(Step::Prompt(text.to_string()));
    let mut p = Map::new();
    p.insert("prompt".into(), json!(text));
    out.push(Step::Hook {
        event: "UserPromptSubmit",
        payload: p,
        label: "prompt".into(),
    });
}

/// The text of a tool result's content (a string or text blocks).
fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a
            .iter()
            .filter_map(|b| b["text"].as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}
