//! Codex rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl`):
//! `{"timestamp", "type", "payload"}` records.
//!
//! - `session_meta`: the session id and cwd.
//! - `event_msg` `user_message` (or, in 0.171, `item_completed` with a
//!   `UserMessage` item): a prompt (UserPromptSubmit).
//! - `response_item` `function_call` / `custom_tool_call` /
//!   `local_shell_call`: a tool call (PreToolUse), in the shape Codex gives
//!   its hooks: shell calls as `tool_name: "Bash"` with `tool_input.command`,
//!   patches as `apply_patch` with the patch in `tool_input.command`.
//! - `response_item` `function_call_output` / `custom_tool_call_output`: the
//!   result (PostToolUse, `tool_response` a string).
//! - `event_msg` `token_count`: `last_token_usage.input_tokens` (cached
//!   tokens included) is the context size.
//! - `compacted`: a compaction, then SessionStart with `source: compact`.

use super::{Reader, Step, call_label, obj, tool_call};
use crate::target::ToolKind;
use serde_json::{Map, Value, json};

#[derive(Default)]
pub struct Codex {
    session: Option<String>,
    cwd: Option<String>,
    model: Option<String>,
    pending: super::Pending,
}

impl Reader for Codex {
    fn session(&self) -> (Option<String>, Option<String>) {
        (self.session.clone(), self.cwd.clone())
    }

    fn record(&mut self, rec: &Value, out: &mut Vec<Step>) {
        let p = &rec["payload"];
        match rec["type"].as_str() {
            Some("session_meta") => {
                let id = p["id"].as_str().or_else(|| p["session_id"].as_str());
                if let Some(id) = id {
                    self.session.get_or_insert_with(|| id.to_string());
                }
                if let Some(c) = p["cwd"].as_str() {
                    self.cwd = Some(c.to_string());
                }
            }
            Some("turn_context") => {
                if let Some(m) = p["model"].as_str() {
                    self.model = Some(m.to_string());
                }
                if let Some(c) = p["cwd"].as_str() {
                    self.cwd = Some(c.to_string());
                }
            }
            Some("event_msg") => match p["type"].as_str() {
                // `user_message` (older versions) or a completed
                // `UserMessage` item (0.171): the prompt as typed.
                Some("user_message" | "item_completed") => {
                    let text = if p["type"] == "user_message" {
                        p["message"].as_str().unwrap_or_default().to_string()
                    } else if p["item"]["type"] == "UserMessage" {
                        p["item"]["content"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .filter_map(|c| c["text"].as_str())
                            .collect::<Vec<_>>()
                            .join("\n")
                    } else {
                        return;
                    };
                    out.push(Step::Prompt(text.clone()));
                    let mut m = Map::new();
                    m.insert("prompt".into(), json!(text));
                    out.push(Step::Hook {
                        event: "UserPromptSubmit",
                        payload: m,
                        label: "prompt".into(),
                    });
                }
                Some("token_count") => {
                    if let Some(n) = p["info"]["last_token_usage"]["input_tokens"]
                        .as_u64()
                        .filter(|&n| n > 0)
                    {
                        out.push(Step::Usage {
                            tokens: n,
                            model: self.model.clone(),
                        });
                    }
                }
                _ => {}
            },
            Some("response_item") => self.item(p, out),
            Some("compacted") => {
                Step::compaction("auto", out);
            }
            _ => {}
        }
    }
}

/// A shell command as one string (`["bash", "-lc", "x"]` becomes `x`).
fn command_string(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Array(a) => {
            let words: Vec<&str> = a.iter().filter_map(Value::as_str).collect();
            match words.as_slice() {
                [sh, flag, cmd] if sh.ends_with("sh") && flag.starts_with('-') => {
                    Some(cmd.to_string())
                }
                _ => Some(words.join(" ")),
            }
        }
        _ => None,
    }
}

impl Codex {
    fn item(&mut self, p: &Value, out: &mut Vec<Step>) {
        let call_id = p["call_id"].as_str().unwrap_or_default().to_string();
        let (name, input) = match p["type"].as_str() {
            Some("function_call") => {
                let name = p["name"].as_str().unwrap_or("unknown");
                let args: Value = p["arguments"]
                    .as_str()
                    .and_then(|a| serde_json::from_str(a).ok())
                    .unwrap_or(Value::Null);
                match name {
                    "exec_command" | "shell" | "shell_command" | "container.exec" => {
                        let cmd = command_string(&args["cmd"])
                            .or_else(|| command_string(&args["command"]))
                            .unwrap_or_default();
                        (
                            ToolKind::Bash.name().to_string(),
                            obj(json!({ "command": cmd })),
                        )
                    }
                    "apply_patch" => {
                        let patch = args["input"].as_str().unwrap_or_default();
                        (
                            ToolKind::Patch.name().to_string(),
                            obj(json!({ "command": patch })),
                        )
                    }
                    other => (
                        other.to_string(),
                        args.as_object().cloned().unwrap_or_default(),
                    ),
                }
            }
            Some("custom_tool_call") => {
                let name = p["name"].as_str().unwrap_or("unknown").to_string();
                let input = p["input"].as_str().unwrap_or_default();
                (name, obj(json!({ "command": input })))
            }
            Some("local_shell_call") => {
                let cmd = command_string(&p["action"]["command"]).unwrap_or_default();
                (
                    ToolKind::Bash.name().to_string(),
                    obj(json!({ "command": cmd })),
                )
            }
            Some("function_call_output" | "custom_tool_call_output") => {
                let (name, input) = self
                    .pending
                    .remove(&call_id)
                    .unwrap_or_else(|| ("unknown".to_string(), Map::new()));
                let output = match &p["output"] {
                    Value::String(s) => s.clone(),
                    Value::Object(o) => o
                        .get("content")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string(),
                    _ => String::new(),
                };
                let label = call_label(&name, &input);
                let mut m = Map::new();
                m.insert("tool_name".into(), json!(name));
                m.insert("tool_input".into(), Value::Object(input));
                m.insert("tool_use_id".into(), json!(call_id));
                m.insert("tool_response".into(), json!(output));
                out.push(Step::Hook {
                    event: "PostToolUse",
                    payload: m,
                    label,
                });
                return;
            }
            _ => return,
        };
        let model = self.model.clone();
        tool_call(
            out,
            &mut self.pending,
            name,
            input,
            call_id,
            model.as_deref(),
        );
    }
}
