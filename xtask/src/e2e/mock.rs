//! The scripted model server the end-to-end runs talk to (std only).
//!
//! It speaks, as far as the real harnesses need:
//! - Anthropic Messages: `POST /v1/messages` (SSE and not), `/v1/messages/count_tokens`;
//! - OpenAI Responses: `POST /v1/responses` (SSE the way Codex reads it, and not);
//! - OpenAI Chat Completions: `POST /v1/chat/completions` (SSE and not);
//! - Gemini: `:generateContent`, `:streamGenerateContent` (`?alt=sse` or a JSON
//!   array), `:countTokens`;
//! - a few `GET .../models` lists.
//!
//! A [`Script`] decides each reply: built-in and scripted rules first (the
//! harnesses' compaction prompts get a summary), then JSON-mode requests get
//! `json_reply`, requests without tools (titles, classifiers) get `side_reply`,
//! and every other ("main") request takes the next scripted turn; once the
//! turns run out every main request gets `default` (plain text), so a harness
//! loop always ends. A turn is `{"tool": [candidates], "text", "usage",
//! "delay_ms", "path_after"}` (`path_after`: the word after that text in the
//! request replaces `{{path}}` in the tool's input, for a path the harness
//! names, such as Claude Code's plan file) or
//! `{"error": {"status", "message"}}`; the first tool candidate whose name the
//! request offers is used, so one script serves every harness.
//!
//! Safety: it binds 127.0.0.1 only, runs on threads of the calling process,
//! and stops by itself after `max_seconds` or `max_requests` (the request over
//! the limit gets a 503). Every request is kept (and appended to a JSONL log).

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Request bodies above this are refused (no harness sends more).
const MAX_BODY: usize = 64 << 20;
/// Header block bound.
const MAX_HEADER: usize = 256 << 10;
/// Connections served at once, at most.
const MAX_CONNECTIONS: usize = 64;

/// The compaction prompts of the harnesses, answered with a summary.
const BUILTIN_RULES: &[(&str, &str)] = &[
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
];

/// The scripted conversation.
pub struct Script {
    turns: Vec<Value>,
    default: Value,
    side: Value,
    json_reply: Value,
    rules: Vec<(String, Value)>,
    usage: Value,
    pointer: Mutex<usize>,
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
    fn choose(&self, conv: &Conv) -> (Value, String) {
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

    fn usage_for(&self, reply: &Value) -> Usage {
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
struct Usage {
    input: u64,
    cache_read: u64,
    cache_creation: u64,
    output: u64,
}

impl Usage {
    fn prompt_total(&self) -> u64 {
        self.input + self.cache_read + self.cache_creation
    }
}

/// A normalised view of one request, whatever the API.
#[derive(Debug, Default)]
struct Conv {
    tool_names: Vec<String>,
    last_user_text: String,
    json_mode: bool,
    model: String,
    /// Responses API: which offered tools are freeform (`custom`).
    custom_tools: Vec<String>,
}

fn text_of(v: &Value) -> String {
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

fn model_of(body: &Value) -> String {
    body["model"].as_str().unwrap_or("mock-model").to_string()
}

fn parse_anthropic(body: &Value) -> Conv {
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

fn parse_responses(body: &Value) -> Conv {
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
        last_user_text: items
            .iter()
            .rev()
            .find(|i| i["type"].as_str().unwrap_or("message") == "message" && i["role"] == "user")
            .map(|i| text_of(&i["content"]))
            .unwrap_or_default(),
        json_mode: fmt == "json_schema" || fmt == "json_object",
    }
}

fn parse_chat(body: &Value) -> Conv {
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
        last_user_text: msgs
            .iter()
            .rev()
            .find(|m| m["role"] == "user")
            .map(|m| text_of(&m["content"]))
            .unwrap_or_default(),
        json_mode: rf == "json_schema" || rf == "json_object",
    }
}

fn parse_gemini(body: &Value, model: &str) -> Conv {
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

fn names(list: &Value, f: impl Fn(&Value) -> Option<&str>) -> Vec<String> {
    list.as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| f(t).map(str::to_string))
        .collect()
}

/// The tool call a reply makes, chosen among its candidates by the tools the
/// request offers: exact name, then any case, then the first candidate.
fn pick_tool(reply: &Value, offered: &[String]) -> Option<(String, Value)> {
    let cands: Vec<&Value> = match &reply["tool"] {
        Value::Array(a) => a.iter().collect(),
        Value::Object(_) => vec![&reply["tool"]],
        _ => return None,
    };
    let name = |c: &Value| c["name"].as_str().unwrap_or_default().to_string();
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

fn reply_text(reply: &Value) -> String {
    if !reply["json"].is_null() {
        return reply["json"].to_string();
    }
    reply["text"].as_str().unwrap_or_default().to_string()
}

/// One captured request.
#[derive(Debug, Clone)]
pub struct Captured {
    pub seq: usize,
    /// `anthropic`, `openai.responses`, `openai.chat`, `gemini`, or a
    /// count/get/unknown/refused label.
    pub api: String,
    pub path: String,
    pub body: Value,
    /// The reply's label (`turn3`, `default`, `side`, `rule0`, ...).
    pub reply: String,
    /// The tool the reply called, if any.
    pub tool: Option<String>,
}

impl Captured {
    /// A request that asks the model for its next move (not a token count,
    /// a model list or a refused request).
    pub fn is_model_request(&self) -> bool {
        matches!(
            self.api.as_str(),
            "anthropic" | "openai.responses" | "openai.chat" | "gemini"
        )
    }
}

struct Shared {
    script: Script,
    log: Mutex<Option<std::fs::File>>,
    captured: Mutex<Vec<Captured>>,
    count: AtomicUsize,
    max_requests: usize,
    stop: AtomicBool,
    deadline: Instant,
    connections: AtomicUsize,
}

impl Shared {
    fn stopping(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || Instant::now() >= self.deadline
    }
}

/// A running mock server.
pub struct Mock {
    pub port: u16,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl Mock {
    /// Binds 127.0.0.1 on a free port and serves until [`Mock::stop`], or
    /// `max_seconds`, or `max_requests`.
    pub fn start(
        script: &Value,
        log: Option<PathBuf>,
        max_seconds: u64,
        max_requests: usize,
    ) -> std::io::Result<Mock> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let port = listener.local_addr()?.port();
        let log = match log {
            Some(p) => Some(
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)?,
            ),
            None => None,
        };
        let shared = Arc::new(Shared {
            script: Script::new(script),
            log: Mutex::new(log),
            captured: Mutex::new(Vec::new()),
            count: AtomicUsize::new(0),
            max_requests,
            stop: AtomicBool::new(false),
            deadline: Instant::now() + Duration::from_secs(max_seconds),
            connections: AtomicUsize::new(0),
        });
        let s = Arc::clone(&shared);
        let accept = std::thread::spawn(move || accept_loop(listener, s));
        Ok(Mock {
            port,
            shared,
            accept: Some(accept),
        })
    }

    pub fn base_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every request so far, in arrival order.
    pub fn captured(&self) -> Vec<Captured> {
        let mut v = self
            .shared
            .captured
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        v.sort_by_key(|c| c.seq);
        v
    }

    /// Stops accepting; connection threads end within their read timeout.
    pub fn stop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.accept.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        self.stop();
    }
}

fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while !shared.stopping() {
        match listener.accept() {
            Ok((stream, addr)) => {
                if !addr.ip().is_loopback()
                    || shared.connections.load(Ordering::Relaxed) >= MAX_CONNECTIONS
                {
                    continue; // dropped: closes the connection
                }
                shared.connections.fetch_add(1, Ordering::Relaxed);
                let s = Arc::clone(&shared);
                std::thread::spawn(move || {
                    let _ = serve(stream, &s);
                    s.connections.fetch_sub(1, Ordering::Relaxed);
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// A parsed HTTP request.
struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Serves one connection (keep-alive) until it closes, the server stops, or
/// a reply closes it (SSE).
fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_millis(500)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    for _ in 0..10_000 {
        let Some(req) = read_request(&mut reader, shared)? else {
            return Ok(());
        };
        let keep = answer(&req, &mut writer, shared)?;
        writer.flush()?;
        if !keep {
            return Ok(());
        }
    }
    Ok(())
}

/// Reads one request; `None` when the peer closed or the server stops while
/// the connection is idle.
fn read_request(r: &mut BufReader<TcpStream>, shared: &Shared) -> std::io::Result<Option<Request>> {
    let mut head = Vec::new();
    loop {
        if head.len() > MAX_HEADER {
            return Ok(None);
        }
        let mut line = Vec::new();
        match r.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(None),
            Ok(_) => {
                head.extend_from_slice(&line);
                if line == b"\r\n" || line == b"\n" {
                    if head.len() <= 2 {
                        head.clear(); // stray blank line between requests
                        continue;
                    }
                    break;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                head.extend_from_slice(&line);
                if shared.stopping() {
                    return Ok(None);
                }
            }
            Err(e) => return Err(e),
        }
    }
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.lines();
    let mut first = lines.next().unwrap_or_default().split_whitespace();
    let method = first.next().unwrap_or_default().to_string();
    let target = first.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    let mut req = Request {
        method,
        target,
        headers,
        body: Vec::new(),
    };
    // Bodies are read with the same short timeout, retried up to the deadline.
    if req
        .header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"))
    {
        for _ in 0..1_000_000 {
            let line = read_line(r, shared)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            if size == 0 {
                let _ = read_line(r, shared)?;
                break;
            }
            if req.body.len() + size > MAX_BODY {
                return Ok(None);
            }
            let start = req.body.len();
            req.body.resize(start + size, 0);
            read_exact(r, &mut req.body[start..], shared)?;
            let _ = read_line(r, shared)?;
        }
    } else if let Some(n) = req
        .header("content-length")
        .and_then(|v| v.parse::<usize>().ok())
    {
        if n > MAX_BODY {
            return Ok(None);
        }
        req.body.resize(n, 0);
        read_exact(r, &mut req.body, shared)?;
    }
    Ok(Some(req))
}

fn retryable(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock
            | std::io::ErrorKind::TimedOut
            | std::io::ErrorKind::Interrupted
    )
}

fn read_line(r: &mut BufReader<TcpStream>, shared: &Shared) -> std::io::Result<String> {
    let mut line = Vec::new();
    loop {
        match r.read_until(b'\n', &mut line) {
            Ok(_) => return Ok(String::from_utf8_lossy(&line).into_owned()),
            Err(e) if retryable(&e) && !shared.stopping() => continue,
            Err(e) => return Err(e),
        }
    }
}

fn read_exact(
    r: &mut BufReader<TcpStream>,
    buf: &mut [u8],
    shared: &Shared,
) -> std::io::Result<()> {
    let mut done = 0;
    while done < buf.len() {
        match r.read(&mut buf[done..]) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => done += n,
            Err(e) if retryable(&e) && !shared.stopping() => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}

/// A reply being built: status, content type, body or SSE events.
enum Reply {
    Json(u16, Value),
    /// SSE events: (event name, data).
    Sse(Vec<(Option<String>, String)>),
}

/// Answers one request. Returns whether the connection stays open.
fn answer(req: &Request, w: &mut TcpStream, shared: &Shared) -> std::io::Result<bool> {
    let seq = shared.count.fetch_add(1, Ordering::SeqCst) + 1;
    let (path, query) = req
        .target
        .split_once('?')
        .unwrap_or((req.target.as_str(), ""));
    let body: Value = if req.body.is_empty() {
        Value::Null
    } else if let Some(enc) = req
        .header("content-encoding")
        .filter(|e| !e.eq_ignore_ascii_case("identity"))
    {
        json!({ "_encoded": enc, "_bytes": req.body.len() })
    } else {
        serde_json::from_slice(&req.body).unwrap_or_else(
            |_| json!({ "_raw": String::from_utf8_lossy(&req.body[..req.body.len().min(20_000)]) }),
        )
    };
    let mut cap = Captured {
        seq,
        api: String::new(),
        path: req.target.clone(),
        body,
        reply: String::new(),
        tool: None,
    };
    let reply = if seq > shared.max_requests {
        shared.stop.store(true, Ordering::Relaxed);
        cap.api = "refused".into();
        Reply::Json(
            503,
            json!({"type": "error", "error": {"type": "overloaded_error", "message": "mock request limit reached"}}),
        )
    } else if req.method == "GET" || req.method == "HEAD" {
        cap.api = "get".into();
        if path.trim_end_matches('/').ends_with("/models") {
            if path.contains("v1beta") {
                Reply::Json(
                    200,
                    json!({"models": [{"name": "models/gemini-mock", "supportedGenerationMethods": ["generateContent"]}]}),
                )
            } else {
                Reply::Json(
                    200,
                    json!({"object": "list", "data": [{"id": "mock-model", "object": "model", "created": 0, "owned_by": "mock", "type": "model", "display_name": "mock-model"}]}),
                )
            }
        } else {
            Reply::Json(404, json!({}))
        }
    } else if path.ends_with("/messages/count_tokens") {
        cap.api = "anthropic.count_tokens".into();
        Reply::Json(200, json!({"input_tokens": (req.body.len() / 4).max(1)}))
    } else if path.ends_with("/messages") {
        anthropic(&mut cap, shared)
    } else if path.ends_with("/responses") {
        responses(&mut cap, shared)
    } else if path.ends_with("/chat/completions") {
        chat(&mut cap, shared)
    } else if let Some((model, method)) = path
        .rsplit('/')
        .next()
        .and_then(|last| last.split_once(':'))
        .filter(|_| path.contains("/models/"))
    {
        match method {
            "countTokens" => {
                cap.api = "gemini.countTokens".into();
                Reply::Json(200, json!({"totalTokens": (req.body.len() / 4).max(1)}))
            }
            "generateContent" | "streamGenerateContent" => {
                let stream = method == "streamGenerateContent";
                let sse = query.split('&').any(|kv| kv == "alt=sse");
                gemini(&mut cap, shared, model, stream, sse)
            }
            _ => {
                cap.api = "unknown".into();
                Reply::Json(404, json!({"error": "unknown method"}))
            }
        }
    } else {
        cap.api = "unknown".into();
        Reply::Json(404, json!({"error": "unknown path"}))
    };
    record(shared, &cap);
    let keep = !req
        .header("connection")
        .is_some_and(|c| c.eq_ignore_ascii_case("close"));
    match reply {
        Reply::Json(status, v) => {
            let data = v.to_string();
            let reason = match status {
                200 => "OK",
                400 => "Bad Request",
                404 => "Not Found",
                413 => "Payload Too Large",
                503 => "Service Unavailable",
                _ => "Error",
            };
            let head = format!(
                "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n{}\r\n",
                data.len(),
                if keep { "" } else { "connection: close\r\n" }
            );
            w.write_all(head.as_bytes())?;
            if req.method != "HEAD" {
                w.write_all(data.as_bytes())?;
            }
            Ok(keep)
        }
        Reply::Sse(events) => {
            w.write_all(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n",
            )?;
            for (ev, data) in events {
                let mut s = String::new();
                if let Some(e) = ev {
                    s.push_str(&format!("event: {e}\n"));
                }
                s.push_str(&format!("data: {data}\n\n"));
                w.write_all(s.as_bytes())?;
                w.flush()?;
            }
            Ok(false)
        }
    }
}

fn record(shared: &Shared, cap: &Captured) {
    if let Some(f) = shared
        .log
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .as_mut()
    {
        let line = json!({"seq": cap.seq, "t": now(), "api": cap.api, "path": cap.path,
                          "reply": cap.reply, "tool": cap.tool, "body": cap.body});
        let _ = writeln!(f, "{line}");
    }
    shared
        .captured
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .push(cap.clone());
}

/// One scripted turn, decided for a parsed request.
struct Turn {
    u: Usage,
    /// The tool call the reply makes (name, input), if the request offers it.
    tool: Option<(String, Value)>,
    /// The reply's text (beside a tool call, only its own `text`).
    text: String,
}

/// Decides the reply for a parsed request and notes it in the capture; a
/// scripted error comes back as the API's error reply.
fn turn(
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
    let mut tool = pick_tool(&reply, &conv.tool_names);
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
fn word_after(body: &Value, needle: &str) -> Option<String> {
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
fn substitute(v: &mut Value, from: &str, to: &str) {
    match v {
        Value::String(s) => *s = s.replace(from, to),
        Value::Array(a) => a.iter_mut().for_each(|x| substitute(x, from, to)),
        Value::Object(o) => o.values_mut().for_each(|x| substitute(x, from, to)),
        _ => {}
    }
}

/// A scripted error turn, in the API's error shape.
fn error_reply(reply: &Value, api: &str) -> Option<Reply> {
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
fn raw_input(input: &Value) -> String {
    input
        .as_str()
        .map_or_else(|| input.to_string(), str::to_string)
}

fn sse(ev: Option<&str>, data: &Value) -> (Option<String>, String) {
    (ev.map(str::to_string), data.to_string())
}

fn anthropic(cap: &mut Captured, shared: &Shared) -> Reply {
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

fn responses(cap: &mut Captured, shared: &Shared) -> Reply {
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

fn chat(cap: &mut Captured, shared: &Shared) -> Reply {
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

fn gemini(cap: &mut Captured, shared: &Shared, model: &str, stream: bool, sse_mode: bool) -> Reply {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn script() -> Value {
        json!({
            "turns": [
                {"tool": [{"name": "Bash", "input": {"command": "echo hi"}},
                          {"name": "exec_command", "input": {"cmd": "echo hi"}}],
                 "usage": {"input_tokens": 150000, "output_tokens": 7}},
                {"error": {"status": 400, "message": "prompt is too long: 210000 tokens > 200000 maximum"}},
                {"text": "third"}
            ],
            "default": {"text": "fallback"}
        })
    }

    /// Sends one request and returns (status line, body text).
    fn post(port: u16, path: &str, body: &Value) -> (String, String) {
        let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
        s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        let data = body.to_string();
        write!(
            s,
            "POST {path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{data}",
            data.len()
        )
        .unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        (head.lines().next().unwrap().to_string(), body.to_string())
    }

    #[test]
    fn anthropic_turns_in_order_then_default() {
        let mut m = Mock::start(&script(), None, 30, 20).unwrap();
        let req = json!({"model": "m", "stream": true, "tools": [{"name": "Bash"}],
                         "messages": [{"role": "user", "content": "go"}]});
        let (status, body) = post(m.port, "/v1/messages", &req);
        assert!(status.contains("200"), "{status}");
        assert!(body.contains("event: message_start"));
        assert!(body.contains(r#""name":"Bash""#), "{body}");
        assert!(body.contains(r#""cache_read_input_tokens":0"#));
        assert!(body.contains(r#""input_tokens":150000"#));
        let (status, body) = post(m.port, "/v1/messages", &req);
        assert!(status.contains("400"), "{status}");
        assert!(body.contains("prompt is too long"));
        let (_, body) = post(
            m.port,
            "/v1/messages",
            &json!({"tools": [{"name": "Bash"}], "messages": []}),
        );
        assert!(body.contains(r#""text":"third""#), "{body}");
        let (_, body) = post(
            m.port,
            "/v1/messages",
            &json!({"tools": [{"name": "Bash"}], "messages": []}),
        );
        assert!(body.contains("fallback"));
        // No tools: a side request, which does not use up a turn.
        let (_, body) = post(m.port, "/v1/messages", &json!({"messages": []}));
        assert!(body.contains(r#""text":"OK""#));
        // The compaction prompt gets a summary.
        let (_, body) = post(
            m.port,
            "/v1/messages",
            &json!({"tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": [{"type": "text", "text": "Please create a detailed summary of the conversation so far"}]}]}),
        );
        assert!(body.contains("MOCK-COMPACTION-SUMMARY"));
        let caps = m.captured();
        assert_eq!(caps.len(), 6);
        assert_eq!(caps[0].tool.as_deref(), Some("Bash"));
        assert_eq!(caps[1].reply, "turn1");
        m.stop();
    }

    #[test]
    fn a_path_the_request_names_fills_the_tool_input() {
        let body = json!({"messages": [{"content": [{"text": "No plan file exists yet. You should create your plan at /h/.claude/plans/a-b-c.md using the Write tool."}]}]});
        let path = word_after(&body, "create your plan at ").unwrap();
        assert_eq!(path, "/h/.claude/plans/a-b-c.md");
        let mut input = json!({"file_path": "{{path}}", "content": "x"});
        substitute(&mut input, "{{path}}", &path);
        assert_eq!(input["file_path"], "/h/.claude/plans/a-b-c.md");
        assert_eq!(word_after(&body, "absent needle"), None);
    }

    #[test]
    fn responses_sse_picks_the_offered_candidate() {
        let m = Mock::start(&script(), None, 30, 20).unwrap();
        let req = json!({"model": "gpt", "stream": true,
                         "tools": [{"type": "function", "name": "exec_command"}],
                         "input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}]});
        let (_, body) = post(m.port, "/v1/responses", &req);
        assert!(body.contains("event: response.completed"));
        assert!(body.contains(r#""name":"exec_command""#));
        assert!(body.contains(r#"\"cmd\":\"echo hi\""#), "{body}");
        assert!(body.contains(r#""input_tokens":150000"#));
    }

    #[test]
    fn chat_and_gemini_speak_their_shapes() {
        let m = Mock::start(&json!({"turns": [{"text": "hello"}]}), None, 30, 20).unwrap();
        let (_, body) = post(
            m.port,
            "/v1/chat/completions",
            &json!({"stream": true, "tools": [{"type": "function", "function": {"name": "bash"}}], "messages": []}),
        );
        assert!(body.contains("chat.completion.chunk") && body.contains("[DONE]"));
        assert!(body.contains("hello"));
        let (_, body) = post(
            m.port,
            "/v1beta/models/gemini-x:streamGenerateContent?alt=sse",
            &json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "tools": [{"functionDeclarations": [{"name": "run_shell_command"}]}]}),
        );
        assert!(body.starts_with("data: "), "{body}");
        assert!(body.contains("usageMetadata"));
        let (_, body) = post(
            m.port,
            "/v1beta/models/gemini-x:countTokens",
            &json!({"contents": []}),
        );
        assert!(body.contains("totalTokens"));
    }

    #[test]
    fn request_limit_refuses_and_stops() {
        let mut m = Mock::start(&script(), None, 30, 1).unwrap();
        let req = json!({"tools": [{"name": "Bash"}], "messages": []});
        assert!(post(m.port, "/v1/messages", &req).0.contains("200"));
        assert!(post(m.port, "/v1/messages", &req).0.contains("503"));
        m.stop();
        assert!(TcpStream::connect(("127.0.0.1", m.port)).is_err());
    }
}
