//! The script: what the mock answers to a request, whatever the API (the
//! scripted turns, the built-in compaction rules, side and JSON-mode
//! replies), and the normalised view of a request every API is parsed into.

use super::*;

/// The compaction prompts of the harnesses, answered with a summary.
pub(super) const BUILTIN_RULES: &[(&str, &str)] = &[
    // Claude Code
    (
        "create a detailed summary of the conversation",
        "<analysis>mock</analysis>\n<summary>MOCK-COMPACTION-SUMMARY: the user asked for a few tool calls; they ran.</summary>",
    ),
    // Codex
    (
        "CONTEXT CHECKPOINT COMPACTION",
        "MOCK-COMPACTION-SUMMARY: the user asked for a few tool calls; they ran.",
    ),
    // Gemini CLI, Qwen Code
    (
        "<state_snapshot>",
        "<state_snapshot>MOCK-COMPACTION-SUMMARY</state_snapshot>",
    ),
    // CodeBuddy Code (2.117.0: a user message after the conversation)
    (
        "create a detailed and highly structured summary of the conversation so far",
        "<summary>MOCK-COMPACTION-SUMMARY: the user asked for a few tool calls; they ran.</summary>",
    ),
    // OpenCode (1.18.33: the transcript in one user message)
    (
        "Here is the conversation so far:\n\n<conversation>",
        "MOCK-COMPACTION-SUMMARY: the user asked for a few tool calls; they ran.",
    ),
];

/// The scripted conversation.
pub struct Script {
    pub(super) turns: Vec<Value>,
    pub(super) default: Value,
    pub(super) side: Value,
    pub(super) json_reply: Value,
    pub(super) rules: Vec<(String, Value)>,
    pub(super) usage: Value,
    pub(super) pointer: Mutex<usize>,
}

impl Script {
    /// From `{"turns": [...], "default", "side_reply", "json_reply", "rules":
    /// [{"contains", "reply"}], "usage"}`.
    pub fn new(v: &Value) -> Script {
        let mut rules: Vec<(String, Value)> = v["rules"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| Some((r["contains"].as_str()?.to_string(), r["reply"].clone())))
            .collect();
        rules.extend(
            BUILTIN_RULES
                .iter()
                .map(|(k, t)| (k.to_string(), json!({ "text": t }))),
        );
        let or = |key: &str, d: Value| {
            if v[key].is_null() { d } else { v[key].clone() }
        };
        Script {
            turns: v["turns"].as_array().cloned().unwrap_or_default(),
            default: or("default", json!({"text": "Done."})),
            side: or("side_reply", json!({"text": "OK"})),
            json_reply: or(
                "json_reply",
                json!({"next_speaker": "user", "reasoning": "mock reply",
                       "model_choice": "flash", "complexity_reasoning": "mock",
                       "complexity_score": 1}),
            ),
            rules,
            usage: or("usage", json!({"input_tokens": 1000, "output_tokens": 20})),
            pointer: Mutex::new(0),
        }
    }

    /// The reply to a request, and a label for the log.
    pub(super) fn choose(&self, conv: &Conv) -> (Value, String) {
        for (i, (needle, reply)) in self.rules.iter().enumerate() {
            if conv.last_user_text.contains(needle.as_str()) {
                return (reply.clone(), format!("rule{i}"));
            }
        }
        if conv.json_mode {
            return (json!({ "json": self.json_reply }), "json".into());
        }
        if conv.tool_names.is_empty() {
            return (self.side.clone(), "side".into());
        }
        let idx = {
            let mut p = self.pointer.lock().unwrap_or_else(|e| e.into_inner());
            *p += 1;
            *p - 1
        };
        match self.turns.get(idx) {
            Some(t) => (t.clone(), format!("turn{idx}")),
            None => (self.default.clone(), "default".into()),
        }
    }

    pub(super) fn usage_for(&self, reply: &Value) -> Usage {
        let get = |k: &str| {
            reply["usage"][k]
                .as_u64()
                .or_else(|| self.usage[k].as_u64())
                .unwrap_or(0)
        };
        Usage {
            input: get("input_tokens"),
            cache_read: get("cache_read_input_tokens"),
            cache_creation: get("cache_creation_input_tokens"),
            output: get("output_tokens"),
        }
    }
}

/// Usage, Anthropic style; mapped to each API.
#[derive(Debug, Clone, Copy)]
pub(super) struct Usage {
    pub(super) input: u64,
    pub(super) cache_read: u64,
    pub(super) cache_creation: u64,
    pub(super) output: u64,
}

impl Usage {
    pub(super) fn prompt_total(&self) -> u64 {
        self.input + self.cache_read + self.cache_creation
    }
}

/// A normalised view of one request, whatever the API.
#[derive(Debug, Default)]
pub(super) struct Conv {
    pub(super) tool_names: Vec<String>,
    pub(super) last_user_text: String,
    pub(super) json_mode: bool,
    pub(super) model: String,
    /// Responses API: which offered tools are freeform (`custom`).
    pub(super) custom_tools: Vec<String>,
    /// Chat Completions: each offered tool's parameter schema, by name, so
    /// that a candidate the tool would reject is passed over (see
    /// [`pick_tool`]).
    pub(super) tool_schemas: Vec<(String, Value)>,
}

pub(super) fn text_of(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(a) => a.iter().map(text_of).collect::<Vec<_>>().join("\n"),
        Value::Object(o) => {
            let mut out = Vec::new();
            for k in ["text", "content", "output", "input_text"] {
                if let Some(x) = o.get(k) {
                    out.push(text_of(x));
                }
            }
            out.join("\n")
        }
        _ => String::new(),
    }
}

pub(super) fn model_of(body: &Value) -> String {
    body["model"].as_str().unwrap_or("mock-model").to_string()
}

pub(super) fn names(list: &Value, f: impl Fn(&Value) -> Option<&str>) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| f(t).map(str::to_string))
        .collect()
}

/// The tool call a reply makes, chosen among its candidates by the tools the
/// request offers: exact name whose schema (when the request gives one) the
/// input fits, then exact name, then any case, then the first candidate.
/// Two harnesses can offer one name with different inputs (OpenCode's and
/// pi's `edit`): the first candidate carrying every `required` key wins, and
/// where the schema admits no other key (`additionalProperties: false`) the
/// others are dropped.
pub(super) fn pick_tool(
    reply: &Value,
    offered: &[String],
    schemas: &[(String, Value)],
) -> Option<(String, Value)> {
    let cands: Vec<&Value> = match &reply["tool"] {
        Value::Array(a) => a.iter().collect(),
        Value::Object(_) => vec![&reply["tool"]],
        _ => return None,
    };
    let name = |c: &Value| c["name"].as_str().unwrap_or_default().to_string();
    let schema = |n: &str| schemas.iter().find(|(s, _)| s == n).map(|(_, v)| v);
    for c in &cands {
        let n = name(c);
        let Some(sch) = schema(&n).filter(|_| offered.contains(&n)) else {
            continue;
        };
        let fits = sch["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .all(|k| c["input"].get(k).is_some());
        if !fits {
            continue;
        }
        let mut input = c["input"].clone();
        if sch["additionalProperties"] == Value::Bool(false)
            && let (Some(props), Some(obj)) = (sch["properties"].as_object(), input.as_object_mut())
        {
            obj.retain(|k, _| props.contains_key(k));
        }
        return Some((n, input));
    }
    if let Some(c) = cands.iter().find(|c| offered.contains(&name(c))) {
        return Some((name(c), c["input"].clone()));
    }
    for c in &cands {
        if let Some(o) = offered.iter().find(|o| o.eq_ignore_ascii_case(&name(c))) {
            return Some((o.clone(), c["input"].clone()));
        }
    }
    cands.first().map(|c| (name(c), c["input"].clone()))
}

pub(super) fn reply_text(reply: &Value) -> String {
    if !reply["json"].is_null() {
        return reply["json"].to_string();
    }
    reply["text"].as_str().unwrap_or_default().to_string()
}

/// One scripted turn, decided for a parsed request.
pub(super) struct Turn {
    pub(super) u: Usage,
    /// The tool call the reply makes (name, input), if the request offers it.
    pub(super) tool: Option<(String, Value)>,
    /// The reply's text (beside a tool call, only its own `text`).
    pub(super) text: String,
}

/// Decides the reply for a parsed request and notes it in the capture; a
/// scripted error comes back as the API's error reply.
pub(super) fn turn(
    cap: &mut Captured,
    shared: &Shared,
    conv: &Conv,
    api: &str,
    errors: &str,
) -> Result<Turn, Reply> {
    let (reply, label) = shared.script.choose(conv);
    // A turn may ask to be slow (`delay_ms`, at most 5 s), as a real model
    // is: harnesses write their transcripts asynchronously.
    if let Some(ms) = reply["delay_ms"].as_u64() {
        std::thread::sleep(Duration::from_millis(ms.min(5_000)));
    }
    cap.api = api.into();
    cap.reply = label;
    if let Some(e) = error_reply(&reply, errors) {
        return Err(e);
    }
    let u = shared.script.usage_for(&reply);
    let mut tool = pick_tool(&reply, &conv.tool_names, &conv.tool_schemas);
    if let (Some(needle), Some((_, input))) = (reply["path_after"].as_str(), tool.as_mut())
        && let Some(path) = word_after(&cap.body, needle)
    {
        substitute(input, "{{path}}", &path);
    }
    cap.tool = tool.as_ref().map(|t| t.0.clone());
    let text = if tool.is_some() {
        reply["text"].as_str().unwrap_or_default().to_string()
    } else {
        reply_text(&reply)
    };
    Ok(Turn { u, tool, text })
}

/// The word that follows `needle` in any string of `body` (up to
/// whitespace, a quote or a backtick, without a trailing full stop).
pub(super) fn word_after(body: &Value, needle: &str) -> Option<String> {
    match body {
        Value::String(s) => {
            let rest = &s[s.find(needle)? + needle.len()..];
            let end = rest
                .find(|c: char| c.is_whitespace() || matches!(c, '"' | '`' | '\''))
                .unwrap_or(rest.len());
            let w = rest[..end].trim_end_matches('.');
            (!w.is_empty()).then(|| w.to_string())
        }
        Value::Array(a) => a.iter().find_map(|v| word_after(v, needle)),
        Value::Object(o) => o.values().find_map(|v| word_after(v, needle)),
        _ => None,
    }
}

/// Replaces `from` with `to` in every string of `v`.
pub(super) fn substitute(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::String(s) => *s = s.replace(from, to),
        Value::Array(a) => a.iter_mut().for_each(|x| substitute(x, from, to)),
        Value::Object(o) => o.values_mut().for_each(|x| substitute(x, from, to)),
        _ => {}
    }
}

/// A scripted error turn, in the API's error shape.
pub(super) fn error_reply(reply: &Value, api: &str) -> Option<Reply> {
    let err = reply.get("error")?;
    let status = err["status"].as_u64().unwrap_or(400) as u16;
    let msg = err["message"].as_str().unwrap_or("mock error");
    let ty = err["type"].as_str();
    let body = match api {
        "anthropic" => {
            json!({"type": "error", "error": {"type": ty.unwrap_or("invalid_request_error"), "message": msg}})
        }
        "gemini" => {
            json!({"error": {"code": status, "message": msg, "status": ty.unwrap_or("INVALID_ARGUMENT")}})
        }
        _ => {
            json!({"error": {"message": msg, "type": ty.unwrap_or("invalid_request_error"), "param": null,
                              "code": err["code"].as_str().unwrap_or("context_length_exceeded")}})
        }
    };
    Some(Reply::Json(status, body))
}

/// A freeform (`custom`) tool's input: the raw string, or the JSON text.
pub(super) fn raw_input(input: &Value) -> String {
    input
        .as_str()
        .map_or_else(|| input.to_string(), str::to_string)
}

pub(super) fn sse(ev: Option<&str>, data: &Value) -> (Option<String>, String) {
    (ev.map(str::to_string), data.to_string())
}

#[cfg(test)]
mod tests {
    use super::pick_tool;
    use serde_json::json;

    /// OpenCode's and pi's `edit` share a name: the shared candidate stays
    /// OpenCode's (and every harness's that offers no schema), pi's strict
    /// schema gets the candidate that fits it, with no foreign key.
    #[test]
    fn a_candidate_is_chosen_by_the_offered_schema_when_names_collide() {
        let reply = json!({"tool": crate::e2e::tools::edit("/p/a.rs", "a", "b")});
        let offered = vec!["edit".to_string()];
        let (_, shared) = pick_tool(&reply, &offered, &[]).unwrap();
        assert_eq!(shared["filePath"], "/p/a.rs");
        let opencode = json!({"type": "object", "required": ["filePath", "oldString", "newString"],
                              "properties": {"filePath": {}, "oldString": {}, "newString": {}}});
        let (_, got) = pick_tool(&reply, &offered, &[("edit".into(), opencode)]).unwrap();
        assert_eq!(got, shared);
        let pi = json!({"type": "object", "required": ["path", "edits"], "additionalProperties": false,
                        "properties": {"path": {}, "edits": {}}});
        let (_, got) = pick_tool(&reply, &offered, &[("edit".into(), pi)]).unwrap();
        assert_eq!(
            got,
            json!({"path": "/p/a.rs", "edits": [{"oldText": "a", "newText": "b"}]})
        );
    }
}
