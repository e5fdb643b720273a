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
//!
//! One file per API (`anthropic`, `responses`, `chat`, `gemini`), the
//! script that decides replies (`script`) and the HTTP layer (`http`); this
//! hub holds the server handle, the captured requests and the routing.

mod anthropic;
mod chat;
mod gemini;
mod http;
mod responses;
mod script;

use anthropic::*;
use chat::*;
use gemini::*;
use http::*;
use responses::*;
use script::*;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
