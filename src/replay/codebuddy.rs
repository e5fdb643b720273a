//! CodeBuddy Code transcripts (`~/.codebuddy/projects/<project>/<id>.jsonl`,
//! 2.117.0, recorded by the e2e run): agent-SDK items, one a line, each with
//! `sessionId` and `cwd`.
//!
//! - `message` records with `role: user`: the `input_text` parts are a
//!   prompt (UserPromptSubmit); one whose `providerData.isSummary` is true is
//!   a compaction's summary, followed by SessionStart with `source: compact`.
//! - `function_call` records: a tool call (PreToolUse) with CodeBuddy's
//!   tool `name` (Claude Code's), its `arguments` as a JSON string and
//!   `callId`; `providerData.usage.inputTokens` is the context size of the
//!   response (cached tokens included), once per response `id`.
//! - `function_call_result` records: the call's result (PostToolUse, or
//!   PostToolUseFailure when `status` is not `completed`), `output.text`.
//! - assistant `message` records: their usage, as a function call's.

use super::{Reader, Step, call_label, tool_call};
use serde_json::{Map, Value, json};

#[derive(Default)]
pub struct CodeBuddy {
    session: Option<String>,
    cwd: Option<String>,
    /// Tool calls waiting for their result: id -> (name, input).
    pending: super::Pending,
    /// The response whose usage was reported last (one per response).
    last_usage: Option<String>,
}

/// Whether a record is CodeBuddy Code's (for format detection): the agent
/// SDK's `providerData`, or one of its item types.
pub fn is_codebuddy(rec: &Value) -> bool {
    rec.get("providerData").is_some_and(Value::is_object)
        || matches!(
            rec["type"].as_str(),
            Some("function_call" | "function_call_result")
        )
}

impl CodeBuddy {
    fn usage(&mut self, rec: &Value, out: &mut Vec<Step>) {
        let p = &rec["providerData"];
        let tokens = p["usage"]["inputTokens"]
            .as_u64()
            .or_else(|| p["rawUsage"]["prompt_tokens"].as_u64())
            .unwrap_or(0);
        let id = rec["id"].as_str().unwrap_or_default().to_string();
        if tokens > 0 && self.last_usage.as_deref() != Some(id.as_str()) {
            self.last_usage = Some(id);
            out.push(Step::Usage {
                tokens,
                model: p["model"].as_str().map(str::to_string),
            });
        }
    }
}

impl Reader for CodeBuddy {
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
            Some("message") if rec["role"] == "user" => {
                if rec["providerData"]["isSummary"] == true {
                    Step::compaction("auto", out);
                    return;
                }
                if rec["providerData"]["isCompactInternal"] == true {
                    return; // the harness's own "please continue" after it
                }
                let text: Vec<&str> = rec["content"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["type"] == "input_text")
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
            Some("message") if rec["role"] == "assistant" => self.usage(rec, out),
            Some("function_call") => {
                self.usage(rec, out);
                let name = rec["name"].as_str().unwrap_or("unknown").to_string();
                let input = match &rec["arguments"] {
                    Value::String(s) => serde_json::from_str::<Value>(s)
                        .ok()
                        .and_then(|v| v.as_object().cloned())
                        .unwrap_or_default(),
                    Value::Object(o) => o.clone(),
                    _ => Map::new(),
                };
                let id = rec["callId"].as_str().unwrap_or_default().to_string();
                tool_call(out, &mut self.pending, name, input, id, None);
            }
            Some("function_call_result") => {
                let id = rec["callId"].as_str().unwrap_or_default().to_string();
                let (name, input) = self.pending.remove(&id).unwrap_or_else(|| {
                    (
                        rec["name"].as_str().unwrap_or("unknown").to_string(),
                        Map::new(),
                    )
                });
                let label = call_label(&name, &input);
                let text = rec["output"]["text"]
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| rec["output"].to_string());
                let failed = rec["status"].as_str().is_some_and(|s| s != "completed");
                let mut p = Map::new();
                p.insert("tool_name".into(), json!(name));
                p.insert("tool_input".into(), Value::Object(input));
                p.insert("tool_use_id".into(), json!(id));
                if failed {
                    p.insert("error".into(), json!(text));
                } else {
                    p.insert("tool_response".into(), json!(text));
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
            _ => {}
        }
    }
}
