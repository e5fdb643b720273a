//! Anthropic Messages (`POST /v1/messages`, SSE and not): Claude Code.

use super::*;

pub(super) fn parse_anthropic(body: &Value) -> Conv {
    let msgs = body["messages"].as_array().cloned().unwrap_or_default();
    Conv {
        model: model_of(body),
        tool_names: names(&body["tools"], |t| t["name"].as_str()),
        last_user_text: msgs
            .iter()
            .rev()
            .find(|m| m["role"] == "user")
            .map(|m| text_of(&m["content"]))
            .unwrap_or_default(),
        ..Conv::default()
    }
}

pub(super) fn anthropic(cap: &mut Captured, shared: &Shared) -> Reply {
    let conv = parse_anthropic(&cap.body);
    let Turn { u, tool, text } = match turn(cap, shared, &conv, "anthropic", "anthropic") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let mid = format!("msg_mock_{}", cap.seq);
    let usage = json!({"input_tokens": u.input, "cache_creation_input_tokens": u.cache_creation,
                       "cache_read_input_tokens": u.cache_read, "output_tokens": u.output});
    let mut blocks = Vec::new();
    if !text.is_empty() {
        blocks.push(json!({"type": "text", "text": text}));
    }
    if let Some((name, input)) = &tool {
        blocks.push(json!({"type": "tool_use", "id": format!("toolu_mock_{}", cap.seq), "name": name, "input": input}));
    }
    let stop = if tool.is_some() {
        "tool_use"
    } else {
        "end_turn"
    };
    if cap.body["stream"] != true {
        return Reply::Json(
            200,
            json!({"id": mid, "type": "message", "role": "assistant", "model": conv.model,
                   "content": blocks, "stop_reason": stop, "stop_sequence": null, "usage": usage}),
        );
    }
    let mut start_usage = usage.clone();
    start_usage["output_tokens"] = json!(1);
    let mut ev = vec![sse(
        Some("message_start"),
        &json!({"type": "message_start", "message": {"id": mid, "type": "message", "role": "assistant",
                "model": conv.model, "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": start_usage}}),
    )];
    for (i, b) in blocks.iter().enumerate() {
        if b["type"] == "text" {
            ev.push(sse(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": i, "content_block": {"type": "text", "text": ""}}),
            ));
            ev.push(sse(
                Some("content_block_delta"),
                &json!({"type": "content_block_delta", "index": i, "delta": {"type": "text_delta", "text": b["text"]}}),
            ));
        } else {
            ev.push(sse(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": i, "content_block":
                        {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}}),
            ));
            ev.push(sse(
                Some("content_block_delta"),
                &json!({"type": "content_block_delta", "index": i, "delta":
                        {"type": "input_json_delta", "partial_json": b["input"].to_string()}}),
            ));
        }
        ev.push(sse(
            Some("content_block_stop"),
            &json!({"type": "content_block_stop", "index": i}),
        ));
    }
    ev.push(sse(
        Some("message_delta"),
        &json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                "usage": {"output_tokens": u.output}}),
    ));
    ev.push(sse(Some("message_stop"), &json!({"type": "message_stop"})));
    Reply::Sse(ev)
}
