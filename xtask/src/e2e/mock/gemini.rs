//! Gemini (`:generateContent`, `:streamGenerateContent`): Gemini CLI, Qwen Code.

use super::*;

pub(super) fn parse_gemini(body: &Value, model: &str) -> Conv {
    let mut tool_names = Vec::new();
    for t in body["tools"].as_array().into_iter().flatten() {
        let decls = if t["functionDeclarations"].is_array() {
            &t["functionDeclarations"]
        } else {
            &t["function_declarations"]
        };
        tool_names.extend(names(decls, |d| d["name"].as_str()));
    }
    let contents = body["contents"].as_array().cloned().unwrap_or_default();
    let last_user_text = contents
        .iter()
        .rev()
        .find(|m| m["role"].as_str().unwrap_or("user") == "user")
        .map(|m| {
            m["parts"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| match p["text"].as_str() {
                    Some(t) => t.to_string(),
                    None => p.to_string(),
                })
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default();
    let gc = if body["generationConfig"].is_object() {
        &body["generationConfig"]
    } else {
        &body["config"]
    };
    Conv {
        model: model.to_string(),
        tool_names,
        last_user_text,
        json_mode: gc["responseMimeType"] == "application/json"
            || !gc["responseJsonSchema"].is_null()
            || !gc["responseSchema"].is_null(),
        ..Conv::default()
    }
}

pub(super) fn gemini(
    cap: &mut Captured,
    shared: &Shared,
    model: &str,
    stream: bool,
    sse_mode: bool,
) -> Reply {
    let conv = parse_gemini(&cap.body, model);
    let Turn { u, tool, text } = match turn(cap, shared, &conv, "gemini", "gemini") {
        Ok(t) => t,
        Err(e) => return e,
    };
    let seq = cap.seq;
    let inp = u.input + u.cache_read;
    let usage = json!({"promptTokenCount": inp, "candidatesTokenCount": u.output,
                       "totalTokenCount": inp + u.output, "cachedContentTokenCount": u.cache_read});
    let mut parts = Vec::new();
    if !text.is_empty() {
        parts.push(json!({"text": text}));
    }
    if let Some((name, input)) = &tool {
        parts.push(json!({"functionCall": {"name": name, "args": input, "id": format!("call_mock_{seq}")}}));
    }
    let resp = json!({"candidates": [{"content": {"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}],
                      "usageMetadata": usage, "modelVersion": model, "responseId": format!("mock-{seq}")});
    if !stream {
        Reply::Json(200, resp)
    } else if sse_mode {
        Reply::Sse(vec![(None, resp.to_string())])
    } else {
        Reply::Json(200, json!([resp]))
    }
}
