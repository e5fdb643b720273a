//! `cuecard replay`: a recorded session, run through the dispatcher.
//!
//! A transcript (Claude Code's project transcript, a Codex rollout, or a
//! Qwen Code chat) is
//! read record by record and turned into the hook calls the harness made
//! ([`Step::Hook`]: SessionStart at the start and after each compaction,
//! UserPromptSubmit for each prompt, PreToolUse for each tool call,
//! PostToolUse / PostToolUseFailure for each result) and the measurements
//! it reported ([`Step::Usage`] from assistant records). Each hook call runs
//! through the same code as `cuecard dispatch`, with the registered cards of
//! its event, against a copy of the transcript that grows record by record,
//! so a transcript-reading guard sees exactly what it would have seen then.
//!
//! The caller provides the state directory (a fresh temporary one, see
//! the `replay` command): replay never reads or writes the user's state.

pub mod claude;
pub mod codebuddy;
pub mod codex;
pub mod qwen;
pub mod recovery;
pub mod report;

use crate::dispatch::{Request, Verdict};
use crate::registration::Registration;
use crate::state::Store;
use crate::text::{self, Fragment};
use serde_json::{Map, Value, json};
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

/// The embedded sample session (`cuecard replay` with no file).
pub const SAMPLE: &str = include_str!("sample.jsonl");

/// A transcript line longer than this is skipped (no harness writes one;
/// reading it whole would make memory grow with the input).
pub const MAX_LINE_BYTES: usize = 32 << 20;

/// Which harness wrote the transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    ClaudeCode,
    Codex,
    Qwen,
    #[serde(rename = "codebuddy")]
    CodeBuddy,
}

impl Format {
    pub fn harness(self) -> &'static str {
        match self {
            Format::ClaudeCode => "claude-code",
            Format::Codex => "codex",
            Format::Qwen => "qwen",
            Format::CodeBuddy => "codebuddy",
        }
    }
}

/// What one transcript record amounts to, in order.
#[derive(Debug, Clone)]
pub enum Step {
    /// A user prompt: a new turn starts.
    Prompt(String),
    /// The context size the harness measured (tokens), and the model.
    Usage { tokens: u64, model: Option<String> },
    /// A compaction happened (trigger: auto, manual).
    Compaction(String),
    /// A hook call: the canonical event and its payload (without the
    /// common keys, which the replayer fills in).
    Hook {
        event: &'static str,
        payload: Map<String, Value>,
        /// What the call was about, for the report (`Write package.json`).
        label: String,
    },
}

impl Step {
    /// A compaction and the session start that follows it (source
    /// `compact`), as every harness that compacts delivers them.
    pub fn compaction(trigger: &str, out: &mut Vec<Step>) {
        out.push(Step::Compaction(trigger.to_string()));
        out.push(Step::Hook {
            event: "SessionStart",
            payload: obj(json!({"source": "compact"})),
            label: "compact".into(),
        });
    }
}

/// A JSON value as a payload map (anything but an object is empty).
pub fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// Turns one record into steps; implemented per transcript format.
pub trait Reader {
    /// Session id and working directory, once known.
    fn session(&self) -> (Option<String>, Option<String>);
    fn record(&mut self, record: &Value, out: &mut Vec<Step>);
}

/// One card that fired on one hook call.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Firing {
    pub event: String,
    /// What the call was about (tool and subject, or the source).
    pub call: String,
    pub card: String,
    pub why: String,
    /// Characters (UTF-16 units, as the harness counts) this card added,
    /// with its `Full procedure` line.
    pub chars: usize,
    pub tokens: usize,
    /// Whether this card is a compaction warning.
    pub warning: bool,
    /// The hook call it fired on (1 for the first).
    pub hook_call: usize,
    /// The call's tool and target, when it was a tool call.
    pub tool: Option<String>,
    pub target: Option<String>,
}

/// An ask or deny the policy would have answered a call with.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Decision {
    pub hook_call: usize,
    pub turn: usize,
    pub event: String,
    pub tool: Option<String>,
    pub target: Option<String>,
    /// `ask` or `deny`.
    pub decision: String,
    pub reason: String,
    /// The policy ids that decided, each with where its line came from.
    pub source: Vec<String>,
}

/// One point of the context curve: the size the transcript reported,
/// after `hook_call` hook calls.
#[derive(Debug, Clone, Copy, serde::Serialize)]
pub struct CurvePoint {
    pub hook_call: usize,
    pub tokens: u64,
}

/// One user turn.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Turn {
    pub turn: usize,
    /// The prompt (shortened), empty for what came before the first prompt.
    pub prompt: String,
    pub hook_calls: usize,
    pub tool_calls: usize,
    /// The largest context size measured in the turn.
    pub context_tokens: Option<u64>,
    /// The last context size measured in the turn.
    pub context_last: Option<u64>,
    /// Compactions in the turn (their triggers).
    pub compactions: Vec<String>,
    /// What the recovery after each of them carried, in the same order.
    pub recoveries: Vec<recovery::Recovery>,
    /// The hook calls after which each of them happened (same order), so
    /// the report tells them in time with the firings.
    pub compaction_calls: Vec<usize>,
    pub firings: Vec<Firing>,
}

/// The whole replay.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Replay {
    pub source: String,
    pub format: Format,
    pub records: usize,
    /// Lines that were not JSON objects (skipped).
    pub skipped_lines: usize,
    pub hook_calls: usize,
    pub tool_calls: usize,
    pub turns: Vec<Turn>,
    pub total_chars: usize,
    pub total_tokens: usize,
    /// Turn numbers where a compaction warning fired, in order.
    pub warnings_at: Vec<usize>,
    /// Turn numbers where a compaction happened.
    pub compactions_at: Vec<usize>,
    /// The hook calls after which each compaction happened (same order).
    pub compaction_calls: Vec<usize>,
    /// The context size each usage record reported, in order.
    pub curve: Vec<CurvePoint>,
    /// The model the transcript last named.
    pub model: Option<String>,
    /// Every ask and deny the policy answered with.
    pub decisions: Vec<Decision>,
}

/// Detects the format from the first records.
pub fn detect(first: &Value) -> Format {
    let ty = first["type"].as_str().unwrap_or_default();
    if first.get("payload").is_some()
        && matches!(
            ty,
            "session_meta" | "response_item" | "event_msg" | "turn_context" | "compacted"
        )
    {
        Format::Codex
    } else if qwen::is_qwen(first) {
        Format::Qwen
    } else if codebuddy::is_codebuddy(first) {
        Format::CodeBuddy
    } else {
        Format::ClaudeCode
    }
}

/// Replays `input` (JSONL). The state root (`CUECARD_STATE_DIR`) must
/// already point at a private directory; `work_dir` keeps the growing
/// transcript copy.
pub fn run(source: &str, input: impl BufRead, work_dir: &Path) -> std::io::Result<Replay> {
    let copy_path = work_dir.join("transcript.jsonl");
    let mut copy = std::io::BufWriter::new(std::fs::File::create(&copy_path)?);
    let mut rp = Replayer {
        // The state root the caller pointed at a private directory.
        store: Store::open().ok(),
        regs: crate::registration::shipped(),
        tracker: recovery::Tracker::default(),
        transcript: copy_path,
        r: Replay {
            source: source.to_string(),
            format: Format::ClaudeCode,
            records: 0,
            skipped_lines: 0,
            hook_calls: 0,
            tool_calls: 0,
            turns: vec![Turn::default()],
            total_chars: 0,
            total_tokens: 0,
            warnings_at: Vec::new(),
            compactions_at: Vec::new(),
            compaction_calls: Vec::new(),
            curve: Vec::new(),
            model: None,
            decisions: Vec::new(),
        },
    };
    let mut reader: Option<Box<dyn Reader>> = None;
    let mut steps = Vec::new();
    let mut started = false;
    let mut line = Vec::new();
    let mut input = input;
    loop {
        line.clear();
        let n = read_line_bounded(&mut input, &mut line)?;
        if n == 0 {
            break;
        }
        let Some(record) = rp.record_of(&line) else {
            continue;
        };
        copy.write_all(trim(&line))?;
        copy.write_all(b"\n")?;
        let rd = reader.get_or_insert_with(|| {
            rp.r.format = detect(&record);
            match rp.r.format {
                Format::ClaudeCode => Box::new(claude::Claude::default()) as Box<dyn Reader>,
                Format::Codex => Box::new(codex::Codex::default()),
                Format::Qwen => Box::new(qwen::Qwen::default()),
                Format::CodeBuddy => Box::new(codebuddy::CodeBuddy::default()),
            }
        });
        steps.clear();
        rd.record(&record, &mut steps);
        let (session, cwd) = rd.session();
        if !started && (session.is_some() || !steps.is_empty()) {
            started = true;
            copy.flush()?;
            let start = Step::Hook {
                event: "SessionStart",
                payload: obj(json!({"source": "startup"})),
                label: "startup".into(),
            };
            rp.apply(&start, &session, &cwd);
        }
        if steps.is_empty() {
            continue;
        }
        copy.flush()?;
        for s in std::mem::take(&mut steps) {
            rp.apply(&s, &session, &cwd);
        }
    }
    Ok(totals(rp.r))
}

/// The replay's totals, and without its first turn when nothing happened
/// before the first prompt.
fn totals(mut r: Replay) -> Replay {
    if r.turns
        .first()
        .is_some_and(|t| t.hook_calls == 0 && t.firings.is_empty() && t.compactions.is_empty())
    {
        r.turns.remove(0);
    }
    r.total_chars = r
        .turns
        .iter()
        .flat_map(|t| &t.firings)
        .map(|f| f.chars)
        .sum();
    r.total_tokens = r
        .turns
        .iter()
        .flat_map(|t| &t.firings)
        .map(|f| f.tokens)
        .sum();
    r
}

/// One replay's running state: the private store, the registrations, the
/// recovery tracker, the transcript copy so far, and the report.
struct Replayer {
    store: Option<Store>,
    regs: Vec<Registration>,
    tracker: recovery::Tracker,
    transcript: PathBuf,
    r: Replay,
}

fn trim(line: &[u8]) -> &[u8] {
    let mut l = line;
    while let [rest @ .., b'\n' | b'\r'] = l {
        l = rest;
    }
    l
}

/// Reads one line, keeping at most `MAX_LINE_BYTES + 1` bytes of it (the
/// rest of an over-long line is consumed and dropped).
fn read_line_bounded(r: &mut impl BufRead, out: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut total = 0;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let n = chunk.len();
        if out.len() <= MAX_LINE_BYTES {
            let room = MAX_LINE_BYTES + 1 - out.len();
            out.extend_from_slice(&chunk[..n.min(room)]);
        }
        r.consume(n);
        total += n;
        if done {
            return Ok(total);
        }
    }
}

impl Replayer {
    /// A line's record: a JSON object (counted), else `None` (a non-empty
    /// line that is not one, or one over the bound, is counted as skipped).
    fn record_of(&mut self, line: &[u8]) -> Option<Value> {
        if line.len() > MAX_LINE_BYTES {
            self.r.skipped_lines += 1;
            return None;
        }
        let Ok(Value::Object(map)) = serde_json::from_slice::<Value>(trim(line)) else {
            if !trim(line).is_empty() {
                self.r.skipped_lines += 1;
            }
            return None;
        };
        self.r.records += 1;
        Some(Value::Object(map))
    }

    fn apply(&mut self, step: &Step, session: &Option<String>, cwd: &Option<String>) {
        let r = &mut self.r;
        match step {
            Step::Prompt(p) => {
                let n = r.turns.len();
                r.turns.push(Turn {
                    turn: n,
                    prompt: text::sanitize(p, 80),
                    ..Turn::default()
                });
            }
            Step::Usage { tokens, model } => {
                r.curve.push(CurvePoint {
                    hook_call: r.hook_calls,
                    tokens: *tokens,
                });
                if let Some(m) = model {
                    r.model = Some(text::sanitize(m, 100));
                }
                let t = r.turns.last_mut().expect("one turn at least");
                t.context_tokens = Some(t.context_tokens.map_or(*tokens, |c| c.max(*tokens)));
                t.context_last = Some(*tokens);
            }
            Step::Compaction(trigger) => {
                let t = r.turns.last_mut().expect("one turn at least");
                t.compactions.push(trigger.clone());
                t.compaction_calls.push(r.hook_calls);
                let turn = t.turn;
                r.compactions_at.push(turn);
                r.compaction_calls.push(r.hook_calls);
            }
            Step::Hook {
                event,
                payload,
                label,
            } => self.hook(event, payload, label, session, cwd),
        }
    }

    /// One hook call: the payload as the harness would send it, counted,
    /// run through the hook's core (when the event has cards registered),
    /// and what fired recorded on the turn.
    fn hook(
        &mut self,
        event: &'static str,
        payload: &Map<String, Value>,
        label: &str,
        session: &Option<String>,
        cwd: &Option<String>,
    ) {
        let mut p = payload.clone();
        p.insert(
            "session_id".into(),
            json!(session.clone().unwrap_or_else(|| "replay".into())),
        );
        p.insert("transcript_path".into(), json!(self.transcript));
        if let Some(c) = cwd {
            p.insert("cwd".into(), json!(c));
        }
        p.insert("hook_event_name".into(), json!(event));
        let cards = registered_cards(&self.regs, event);
        let r = &mut self.r;
        if event == "PreToolUse" {
            r.tool_calls += 1;
            r.turns.last_mut().expect("one turn").tool_calls += 1;
        }
        r.hook_calls += 1;
        let turn = r.turns.last_mut().expect("one turn");
        turn.hook_calls += 1;
        let Some(cards) = cards else {
            return; // nothing registered on this event: the hook never runs
        };
        let contract = match r.format {
            Format::ClaudeCode => None,
            Format::Codex => Some(crate::harness::HarnessId::Codex),
            // Qwen's event names are Claude Code's; its tool names and
            // input keys are its own, which the contract maps.
            Format::Qwen => Some(crate::harness::HarnessId::Qwen),
            // CodeBuddy's event and tool names are Claude Code's.
            Format::CodeBuddy => Some(crate::harness::HarnessId::CodeBuddy),
        };
        // One recorded run: no second copy of a hook to silence (`once`
        // stays off); a recorded payload was read whole, and no deadline
        // runs here (nothing `unjudged`).
        let mut req = Request::new(event.to_string(), cards, contract);
        req.state_root = self.store.as_ref().map(|s| s.root().to_path_buf());
        if event == "PostToolUse" {
            let name = p.get("tool_name").and_then(Value::as_str);
            let name = name.map(|n| req.contract.map_or(n, |h| h.spec().canonical_tool(n)));
            let tool = crate::target::ToolKind::of(name);
            self.tracker
                .saw_call(tool, &p, cwd.as_deref(), !r.warnings_at.is_empty());
        }
        let run = crate::hook::answer(
            self.store.as_ref(),
            &req,
            Ok(crate::payload::Payload::from_map(p)),
            &mut crate::hook::CallRecord::default(),
            |_: &crate::dispatch::Run| true,
        );
        if event == "SessionStart" && label == "compact" {
            let turn = r.turns.last_mut().expect("one turn");
            turn.recoveries
                .push(self.tracker.at_compaction(&run.outcome.fragments));
        }
        let turn = r.turns.last_mut().expect("one turn");
        let n = r.hook_calls;
        if let (Some((level, reason)), Some(ruling)) = (&run.decided, &run.outcome.ruling) {
            r.decisions.push(Decision {
                hook_call: n,
                turn: turn.turn,
                event: event.to_string(),
                tool: run.subject.tool.clone(),
                target: run.subject.target.clone(),
                decision: match level {
                    crate::policy::Level::Ask => "ask",
                    _ => "deny",
                }
                .into(),
                reason: reason.clone(),
                source: ruling
                    .by
                    .iter()
                    .map(|(id, from)| format!("{id}: {from}"))
                    .collect(),
            });
        }
        for f in &run.outcome.fragments {
            let why = run
                .trace
                .iter()
                .find(|t| t.card == f.card && t.verdict == Verdict::Fired)
                .map(|t| t.why.clone())
                .unwrap_or_default();
            let rendered = rendered(f);
            let warning = run.is_warning(&f.card);
            turn.firings.push(Firing {
                event: event.to_string(),
                call: label.to_string(),
                card: f.card.clone(),
                why,
                chars: text::len16(&rendered),
                tokens: crate::tokens::count(&rendered),
                warning,
                hook_call: n,
                tool: run.subject.tool.clone(),
                target: run.subject.target.clone(),
            });
            if warning {
                r.warnings_at.push(turn.turn);
            }
        }
    }
}

/// The cards the registration of `event` lists (`None`: nothing registered).
fn registered_cards(regs: &[Registration], event: &str) -> Option<Vec<String>> {
    regs.iter()
        .find(|r| r.event == event)
        .map(|r| r.cards.clone())
}

/// Tool calls waiting for their result, by call id: the tool's name and
/// input (at most [`MAX_PENDING`]).
pub type Pending = std::collections::HashMap<String, (String, Map<String, Value>)>;

/// Tool calls a reader keeps waiting for their result, at most.
const MAX_PENDING: usize = 10_000;

/// A tool call read from a recording: its PreToolUse step (with `model`
/// when the recording names one), and the call kept in `pending` for its
/// result's PostToolUse.
pub fn tool_call(
    out: &mut Vec<Step>,
    pending: &mut Pending,
    name: String,
    input: Map<String, Value>,
    id: String,
    model: Option<&str>,
) {
    let label = call_label(&name, &input);
    let mut p = Map::new();
    p.insert("tool_name".into(), json!(name));
    p.insert("tool_input".into(), Value::Object(input.clone()));
    p.insert("tool_use_id".into(), json!(id));
    if let Some(model) = model {
        p.insert("model".into(), json!(model));
    }
    out.push(Step::Hook {
        event: "PreToolUse",
        payload: p,
        label,
    });
    if pending.len() < MAX_PENDING {
        pending.insert(id, (name, input));
    }
}

/// A short description of a tool call: the tool and its subject.
pub fn call_label(tool: &str, input: &Map<String, Value>) -> String {
    let subject = ["file_path", "path", "command", "cmd", "pattern", "url"]
        .iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .map(|s| {
            // Paths: the file name is what a reader recognises.
            if s.starts_with('/') && !s.contains(' ') {
                Path::new(s)
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_else(|| s.to_string())
            } else {
                s.lines().next().unwrap_or_default().to_string()
            }
        })
        .unwrap_or_default();
    text::sanitize(format!("{tool} {subject}").trim(), 60)
}

/// A private work directory for one replay: a fresh directory under the
/// system temp dir, mode 0700, removed when dropped.
pub struct WorkDir(pub PathBuf);

impl WorkDir {
    pub fn new() -> std::io::Result<WorkDir> {
        let base = std::env::temp_dir();
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        for i in 0..100u32 {
            let p = base.join(format!(
                "cuecard-replay-{}-{nanos:08x}-{i}",
                std::process::id()
            ));
            #[allow(unused_mut)]
            let mut builder = std::fs::DirBuilder::new();
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            match builder.create(&p) {
                Ok(()) => return Ok(WorkDir(p)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
        Err(std::io::Error::other("no fresh temporary directory"))
    }
}

impl Drop for WorkDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Renders one fragment as the model reads it (for tests and the report).
pub fn rendered(f: &Fragment) -> String {
    text::join_capped(std::slice::from_ref(f), text::MAX_CHARS)
}
