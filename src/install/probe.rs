//! Running one installed entry the way its harness would (`doctor`): its
//! program, once resolved to an installed cuecard binary (never one inside
//! the project, see [`super::program`]), started directly with the entry's
//! words (the shell form split as `sh` would), a realistic
//! payload on stdin, the state directory pointed at a scratch directory so
//! the probe spends no real session's once-markers. Where a tool entry
//! dispatches the shipped `dependency` card and the harness delivers what
//! the hook prints there to the model, the call is `npm install left-pad`
//! (judged, never run) and the answer must carry the card: the probe then
//! proves a card reaches the model's context, not only the answer's shape.

use super::ownership;
use crate::harness::{self, Delivery, HarnessId, Shape};
use crate::target::ToolKind;
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[derive(Debug, Clone)]
pub struct Probe {
    pub event: String,
    pub exit: Option<i32>,
    /// `empty`, `one JSON object`, `text`, or what is wrong with it.
    pub shape: String,
    pub ok: bool,
    pub millis: u128,
}

/// How long a probe may run before it is killed (the harnesses' own bound).
const PROBE_TIMEOUT: Duration = Duration::from_secs(crate::harness::config::HOOK_TIMEOUT_SECS);

/// The shipped card a tool probe fires, under no policy as advice: the
/// probe's call is one it judges, never one anything runs.
pub const PROBE_CARD: &str = "dependency";

/// The call a tool probe makes to fire [`PROBE_CARD`].
pub const FIRING_COMMAND: &str = "npm install left-pad";

/// The card a probe of `handler` on the native event `native` must bring
/// into the model's context: [`PROBE_CARD`] when the entry dispatches it
/// and what the hook prints there reaches the model (`None`: the probe
/// proves the answer's shape only).
pub fn expected_card(h: HarnessId, native: &str, handler: &Value) -> Option<&'static str> {
    let delivers = h.spec().row(native).is_some_and(|r| r.delivery.delivers());
    let dispatches = handler
        .as_object()
        .and_then(|o| ownership::argv_on(o, crate::harness::config::Host::current()))
        .is_some_and(|argv| argv.iter().any(|w| w == PROBE_CARD));
    (delivers && dispatches).then_some(PROBE_CARD)
}

/// A payload like the one the harness sends on `native`; with `card`, a
/// tool event's call is [`FIRING_COMMAND`], which fires it.
pub fn payload(
    h: HarnessId,
    native: &str,
    project: &Path,
    scratch: &Path,
    card: Option<&str>,
) -> Value {
    let tool = h
        .spec()
        .tools
        .iter()
        .find(|(_, c)| ToolKind::of(Some(c)) == ToolKind::Bash)
        .map_or(ToolKind::Bash.name(), |(n, _)| *n);
    let canonical = harness::canonical_event(h, native).unwrap_or(native);
    let mut p = json!({
        "session_id": "cuecard-doctor",
        // Lossy: a path that is not UTF-8 has no JSON spelling (the probe
        // then names it with U+FFFD; no panic).
        "transcript_path": scratch.join("transcript.jsonl").to_string_lossy(),
        "cwd": project.to_string_lossy(),
        "hook_event_name": native,
    });
    let o = p.as_object_mut().expect("object");
    (h.spec().probe)(o, project);
    match canonical {
        "SessionStart" => {
            o.insert("source".into(), json!("startup"));
        }
        "UserPromptSubmit" => {
            o.insert("prompt".into(), json!("What does this project do?"));
        }
        "Stop" | "SubagentStop" => {
            o.insert("stop_hook_active".into(), json!(false));
        }
        _ => {}
    }
    if matches!(canonical, "PreToolUse" | "PostToolUse")
        || native.to_ascii_lowercase().contains("tool")
    {
        let input = match card {
            Some(_) => json!({"command": FIRING_COMMAND, "description": "Add left-pad"}),
            None => json!({"command": "git status", "description": "Show the working tree status"}),
        };
        if o.contains_key("sessionId") {
            // camelCase payloads (Copilot) carry the tool under their own keys.
            o.insert("toolName".into(), json!(tool));
            o.insert("toolArgs".into(), input.clone());
        }
        o.insert("tool_name".into(), json!(tool));
        o.insert("tool_input".into(), input);
        if canonical == "PostToolUse" {
            let stdout = match card {
                Some(_) => "added 1 package in 1s",
                None => "On branch main\nnothing to commit",
            };
            o.insert(
                "tool_response".into(),
                json!({"stdout": stdout, "stderr": ""}),
            );
        }
    }
    p
}

/// Starts `handler` with `payload` on stdin and judges what comes back
/// (with `card`, the answer must carry it: the card reached the model's
/// context).
pub fn run(
    h: HarnessId,
    handler: &Value,
    event: &str,
    (payload, card): (&Value, Option<&str>),
    cwd: &Path,
    scratch: &Path,
) -> Probe {
    let mut probe = Probe {
        event: event.to_string(),
        exit: None,
        shape: String::new(),
        ok: false,
        millis: 0,
    };
    // The entry's own words (exec form, or the shell form split as its
    // shell would, Copilot's line for this host: an entry is cuecard's only
    // when it is a plain word list), with
    // its program as resolved and checked by `program::resolve`: never a
    // shell, never a program the project ships.
    let host = crate::harness::config::Host::current();
    let argv = handler
        .as_object()
        .and_then(|h| ownership::argv_on(h, host))
        .unwrap_or_default();
    let program = match argv.first().map(|p| super::program::resolve(p, cwd)) {
        Some(Ok(p)) => p,
        Some(Err(why)) => {
            probe.shape = format!("not run: not an installed cuecard binary ({why})");
            return probe;
        }
        None => {
            probe.shape = "not run: no program".into();
            return probe;
        }
    };
    let mut cmd = Command::new(program);
    cmd.args(&argv[1..]);
    cmd.current_dir(cwd)
        .env("CUECARD_STATE_DIR", scratch.join("state"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    let start = Instant::now();
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            probe.shape = format!("could not start: {e}");
            return probe;
        }
    };
    if let Some(mut sin) = child.stdin.take() {
        let _ = sin.write_all(payload.to_string().as_bytes());
    }
    let mut stdout = child.stdout.take();
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(s) = stdout.as_mut() {
            let _ = s.take(1 << 20).read_to_end(&mut buf);
        }
        buf
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() > PROBE_TIMEOUT => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(2)),
            Err(_) => break None,
        }
    };
    probe.millis = start.elapsed().as_millis();
    let out = reader.join().unwrap_or_default();
    probe.exit = status.and_then(|s| s.code());
    let Some(status) = status else {
        probe.shape = format!("killed after {} s", PROBE_TIMEOUT.as_secs());
        return probe;
    };
    let (mut shape, mut shape_ok) = judge(h, event, &out);
    if let Some(card) = card
        && shape_ok
    {
        if String::from_utf8_lossy(&out).contains(card) {
            shape.push_str(&format!(", `{card}` in the model's context"));
        } else {
            shape_ok = false;
            shape = format!("{shape}, without the card `{card}` that `{FIRING_COMMAND}` fires");
        }
    }
    probe.shape = shape;
    probe.ok = status.success() && shape_ok;
    probe
}

/// The output's shape, and whether the harness reads that shape on the
/// native event `event`.
fn judge(h: HarnessId, event: &str, out: &[u8]) -> (String, bool) {
    let Ok(text) = std::str::from_utf8(out) else {
        return ("not UTF-8".into(), false);
    };
    if text.is_empty() {
        return ("empty".into(), true);
    }
    if h.spec()
        .row(event)
        .is_some_and(|r| r.delivery == Delivery::Context(Shape::PlainText))
    {
        return ("text".into(), true);
    }
    let Some(body) = text.strip_suffix('\n') else {
        return ("no final newline".into(), false);
    };
    if body.contains('\n') {
        return ("more than one line".into(), false);
    }
    match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(_)) => ("one JSON object".into(), true),
        Ok(_) => ("JSON but not an object".into(), false),
        Err(_) => ("not JSON".into(), false),
    }
}
