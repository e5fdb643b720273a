//! OpenAI Responses (`POST /v1/responses`, SSE the way Codex reads it).

use super::*;

pub(super) fn parse_responses(body: &Value) -> Conv {
    let items: Vec<Value> = match &body["input"] {
        Value::String(s) => vec![json!({"type": "message", "role": "user", "content": s})],
        Value::Array(a) => a.clone(),
        _ => vec![],
    };
    let fmt = &body["text"]["format"]["type"];
    Conv {
        model: model_of(body),
        tool_names: names(&body["tools"], |t| {
            t["name"].as_str().or_else(|| t["type"].as_str())
        }),
        custom_tools: body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| t["type"] == "custom")
            .filter_map(|t| t["name"].as_str().map(str::to_string))
            .collect(),
        tool_schemas: Vec::new(),
        last_user_text: items
            .iter()
            .rev()
            .find(|i| i["type"].as_str().unwrap_or("message") == "message" && i["role"] == "user")
            .map(|i| text_of(&i["content"]))
            .unwrap_or_default(),
        json_mode: fmt == "json_schema" || fmt == "json_object",
    }
}

pub(super) fn responses(cap: &mut Captured, shared: &Shared) -> Reply {
    let conv = parse_responses(&cap.body);
    let Turn { u, tool, text } = match turn(cap, shared, &conv, "openai.responses", "openai") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let seq = cap.seq;
    let inp = u.prompt_total();
    let usage = json!({"input_tokens": inp, "input_tokens_details": {"cached_tokens": u.cache_read},
                       "output_tokens": u.output, "output_tokens_details": {"reasoning_tokens": 0},
                       "total_tokens": inp + u.output});
    let mut items = Vec::new();
    if !text.is_empty() {
        items.push(
            json!({"type": "message", "role": "assistant", "id": format!("msg_mock_{seq}"),
                          "status": "completed",
                          "content": [{"type": "output_text", "text": text, "annotations": []}]}),
        );
    }
    if let Some((name, input)) = &tool {
        if conv.custom_tools.contains(name) {
            let raw = raw_input(input);
            items.push(
                json!({"type": "custom_tool_call", "id": format!("ctc_mock_{seq}"),
                              "call_id": format!("call_mock_{seq}"), "name": name, "input": raw,
                              "status": "completed"}),
            );
        } else {
            items.push(
                json!({"type": "function_call", "id": format!("fc_mock_{seq}"),
                              "call_id": format!("call_mock_{seq}"), "name": name,
                              "arguments": input.to_string(), "status": "completed"}),
            );
        }
    }
    let created = now() as u64;
    let resp = json!({"id": format!("resp_mock_{seq}"), "object": "response", "created_at": created,
                      "status": "completed", "model": conv.model, "output": items, "usage": usage});
    if cap.body["stream"] != true {
        return Reply::Json(200, resp);
    }
    let mut n = 0u64;
    let mut ev = Vec::new();
    let mut push = |mut obj: Value| {
        obj["sequence_number"] = json!(n);
        n += 1;
        let ty = obj["type"].as_str().unwrap_or_default().to_string();
        ev.push((Some(ty), obj.to_string()));
    };
    let mut created_resp = resp.clone();
    created_resp["status"] = json!("in_progress");
    created_resp["output"] = json!([]);
    created_resp["usage"] = Value::Null;
    push(json!({"type": "response.created", "response": created_resp}));
    for (i, it) in items.iter().enumerate() {
        let mut added = it.clone();
        added["status"] = json!("in_progress");
        if it["type"] == "message" {
            added["content"] = json!([]);
            push(json!({"type": "response.output_item.added", "output_index": i, "item": added}));
            push(
                json!({"type": "response.output_text.delta", "output_index": i, "content_index": 0,
                        "item_id": it["id"], "delta": text}),
            );
            push(
                json!({"type": "response.output_text.done", "output_index": i, "content_index": 0,
                        "item_id": it["id"], "text": text}),
            );
        } else {
            push(json!({"type": "response.output_item.added", "output_index": i, "item": added}));
        }
        push(json!({"type": "response.output_item.done", "output_index": i, "item": it}));
    }
    push(json!({"type": "response.completed", "response": resp}));
    Reply::Sse(ev)
}
