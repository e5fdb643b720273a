//! A session that reaches its first compaction warning and writes what the
//! recovery carries back (issue 20), driven through the real binary.
#![allow(dead_code)]

use super::{Output, Sandbox};
use serde_json::{Value, json};
use std::io::Write;
use std::path::PathBuf;

pub struct Session<'a> {
    pub sb: &'a Sandbox,
    pub id: String,
    pub transcript: PathBuf,
    n: usize,
}

/// The cards the generated registration lists for `event`, in order.
pub fn cards(event: &str) -> Vec<String> {
    cuecard::registration::shipped()
        .into_iter()
        .find(|r| r.event == event)
        .unwrap_or_else(|| panic!("a {event} registration"))
        .cards
}

impl<'a> Session<'a> {
    pub fn new(sb: &'a Sandbox, id: &str) -> Self {
        let transcript = sb.path().join(format!("{id}.jsonl"));
        std::fs::write(&transcript, "").unwrap();
        Session {
            sb,
            id: id.into(),
            transcript,
            n: 0,
        }
    }

    fn with_ids(&self, mut p: Value) -> Value {
        p["session_id"] = json!(self.id);
        p["transcript_path"] = json!(self.transcript);
        p
    }

    /// Dispatches `event` with every card its registration lists.
    pub fn dispatch(&self, event: &str, p: Value) -> Output {
        let cards = cards(event);
        let cards: Vec<&str> = cards.iter().map(String::as_str).collect();
        self.sb
            .test()
            .dispatch(event, &cards)
            .json(&self.with_ids(p))
            .run()
    }

    /// A shell call after the model used `tokens` of a 200,000 window.
    pub fn tool_call(&mut self, tokens: u64) -> Output {
        self.n += 1;
        let read = tokens / 2;
        let line = json!({"parentUuid": "p", "isSidechain": false, "type": "assistant",
            "uuid": format!("u-{}", self.n),
            "message": {"id": format!("msg_{:04}", self.n), "type": "message", "role": "assistant",
                "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": "working"}],
                "usage": {"input_tokens": 3, "cache_creation_input_tokens": tokens - read - 3,
                    "cache_read_input_tokens": read, "output_tokens": 90}}});
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.transcript)
            .unwrap();
        writeln!(f, "{line}").unwrap();
        self.dispatch(
            "PostToolUse",
            self.sb.fixture("claude-code", "PostToolUse.Bash"),
        )
    }

    /// Reaches the first compaction warning (75% of the window).
    pub fn warn(&mut self) {
        let out = self.tool_call(150_000);
        assert!(
            out.context().contains("This session's context holds"),
            "no warning: {}",
            out.stdout
        );
    }

    /// The model writes `content` to `path` with the Write tool.
    pub fn write(&self, path: &std::path::Path, content: &str) -> Output {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
        let mut p = self.sb.fixture("claude-code", "PostToolUse.Write");
        p["tool_input"] = json!({"file_path": path, "content": content});
        p["tool_response"]["filePath"] = json!(path);
        self.dispatch("PostToolUse", p)
    }

    /// The model writes the hand-off note.
    pub fn write_note(&self, content: &str) -> Output {
        self.write(&self.sb.project().join("HANDOFF.md"), content)
    }

    /// The session's plan file, where the pinned Claude Code keeps it.
    pub fn plan_path(&self) -> PathBuf {
        self.sb.home().join(".claude/plans/quiet-amber-fox.md")
    }

    /// A session start of `source` ("startup", "compact", "resume").
    pub fn start(&self, source: &str) -> Output {
        let mut p = self.sb.fixture("claude-code", "SessionStart.compact");
        p["source"] = json!(source);
        self.dispatch("SessionStart", p)
    }
}

/// A note in the compaction-handoff skill's template.
pub const NOTE: &str = "# Hand-off (2026-12-01 18:40)
## Goal
Cache the parsed cards so a dispatch reads no Markdown.
## Done
- DONE-SECTION-TEXT: the cache format (commit 1a2b3c4).
## In progress
- src/card/cache.rs: the eviction half written, uncommitted.
## Next step
- NEXT-STEP-TEXT: run `cargo test --test user_cards` and fix the stale-entry case.
## Facts worth keeping
- FACTS-SECTION-TEXT: the bench needs `--release`.
## Decisions
- Keep the cache per state root.
";

/// Lines that fill a note to its bound: dense English (paths, commands,
/// hashes), Chinese, emoji (the most tokens per byte ordinary text has).
pub const FILLERS: [&str; 3] = [
    "src/card/cache.rs:104: `read_rest()` returns None when len > MAX_CACHE_BYTES (0x0001f3a7); see 4f07e1c.",
    "缓存解析后的卡片，使调度在钩子路径上不读取任何文本；键为哈希与修改时间。",
    "🙂🚀✅❌🔥🧪📦🔒 ⚠️🗂️🧹🪄",
];

/// The largest note: the template's carried sections, "In progress" filled
/// with `filler` lines far past the bound.
pub fn largest_note(filler: &str) -> String {
    let mut s = String::from("# Hand-off (2026-12-01 18:40)\n## Goal\n");
    s.push_str(filler);
    s.push_str("\n## In progress\n");
    for i in 0..60 {
        s.push_str(&format!("- {i}: {filler}\n"));
    }
    s.push_str("## Next step\n- run `cargo test --test user_cards -- stale`.\n");
    s
}

/// The largest plan: a title and many open steps of `filler`.
pub fn largest_plan(filler: &str) -> String {
    let mut s = String::from("# Plan: cache parsed cards\n\n## Steps\n");
    for i in 0..60 {
        s.push_str(&format!("- [ ] Step {i}: {filler}\n"));
    }
    s
}
