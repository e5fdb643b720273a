//! OpenAI Chat Completions (`POST /v1/chat/completions`, SSE and not).

use super::*;

pub(super) fn parse_chat(body: &Value) -> Conv {
    let msgs = body["messages"].as_array().cloned().unwrap_or_default();
    let rf = &body["response_format"]["type"];
    Conv {
        model: model_of(body),
        tool_names: names(&body["tools"], |t| {
            t["function"]["name"]
                .as_str()
                .or_else(|| t["custom"]["name"].as_str())
                .or_else(|| t["name"].as_str())
        }),
        custom_tools: names(&body["tools"], |t| t["custom"]["name"].as_str()),
        tool_schemas: body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let f = &t["function"];
                Some((f["name"].as_str()?.to_string(), f["parameters"].clone()))
            })
            .collect(),
        last_user_text: msgs
            .iter()
            .rev()
            .find(|m| m["role"] == "user")
            .map(|m| text_of(&m["content"]))
            .unwrap_or_default(),
        json_mode: rf == "json_schema" || rf == "json_object",
    }
}

pub(super) fn chat(cap: &mut Captured, shared: &Shared) -> Reply {
    let conv = parse_chat(&cap.body);
    let Turn { u, tool, text } = match turn(cap, shared, &conv, "openai.chat", "openai") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let seq = cap.seq;
    let cid = format!("chatcmpl-mock-{seq}");
    let inp = u.input + u.cache_read;
    let usage = json!({"prompt_tokens": inp, "completion_tokens": u.output, "total_tokens": inp + u.output,
                       "prompt_tokens_details": {"cached_tokens": u.cache_read}});
    // A freeform (`custom`) tool takes its input as a raw string.
    let tcs: Vec<Value> = tool
        .iter()
        .map(|(name, input)| {
            if conv.custom_tools.contains(name) {
                let raw = raw_input(input);
                json!({"id": format!("call_mock_{seq}"), "type": "custom",
                       "custom": {"name": name, "input": raw}})
            } else {
                json!({"id": format!("call_mock_{seq}"), "type": "function",
                       "function": {"name": name, "arguments": input.to_string()}})
            }
        })
        .collect();
    let finish = if tool.is_some() { "tool_calls" } else { "stop" };
    let created = now() as u64;
    if cap.body["stream"] != true {
        let mut msg = json!({"role": "assistant", "content": if text.is_empty() { Value::Null } else { json!(text) }});
        if !tcs.is_empty() {
            msg["tool_calls"] = json!(tcs);
        }
        return Reply::Json(
            200,
            json!({"id": cid, "object": "chat.completion", "created": created, "model": conv.model,
                   "choices": [{"index": 0, "message": msg, "finish_reason": finish}], "usage": usage}),
        );
    }
    let chunk = |delta: Value, fin: Value, usage: Option<&Value>| {
        let choices = if usage.is_some() {
            json!([])
        } else {
            json!([{"index": 0, "delta": delta, "finish_reason": fin}])
        };
        let mut o = json!({"id": cid, "object": "chat.completion.chunk", "created": created,
                           "model": conv.model, "choices": choices});
        if let Some(u) = usage {
            o["usage"] = u.clone();
        }
        (None, o.to_string())
    };
    let mut ev = vec![chunk(
        json!({"role": "assistant", "content": ""}),
        Value::Null,
        None,
    )];
    if !text.is_empty() {
        ev.push(chunk(json!({"content": text}), Value::Null, None));
    }
    for (i, tc) in tcs.iter().enumerate() {
        if tc["type"] == "custom" {
            let mut d = tc.clone();
            d["index"] = json!(i);
            ev.push(chunk(json!({ "tool_calls": [d] }), Value::Null, None));
            continue;
        }
        ev.push(chunk(
            json!({"tool_calls": [{"index": i, "id": tc["id"], "type": "function",
                                   "function": {"name": tc["function"]["name"], "arguments": ""}}]}),
            Value::Null,
            None,
        ));
        ev.push(chunk(
            json!({"tool_calls": [{"index": i, "function": {"arguments": tc["function"]["arguments"]}}]}),
            Value::Null,
            None,
        ));
    }
    ev.push(chunk(json!({}), json!(finish), None));
    ev.push(chunk(json!({}), Value::Null, Some(&usage)));
    ev.push((None, "[DONE]".into()));
    Reply::Sse(ev)
}
