//! What the recovery would have carried at each compaction of a replayed
//! session (issue 20): the hand-off card as the dispatcher answered the
//! SessionStart `compact` (the note and plan read now, as the hook reads
//! them, under the same "written in this session" rule), or, when the note
//! cannot be read now (deleted once the task was done, or a transcript from
//! another machine), the note as the session's last `Write` of it after a
//! compaction warning left it in the transcript.

use crate::recovery::note;
use crate::target::ToolKind;
use crate::text::Fragment;
use serde_json::{Map, Value};
use std::path::Path;

/// The guard of the card that carries the hand-off back.
pub const GUARD: &str = "handoff";

/// The recovery at one compaction.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Recovery {
    /// What the hand-off card carried, as the model would have read it.
    pub carried: Option<String>,
    /// `project` (read now, as the hook reads it), `transcript` (the note's
    /// last Write in the session), or `nothing`.
    pub from: &'static str,
}

/// Follows a replay for what its recoveries carry.
pub struct Tracker {
    /// The shipped cards whose guard is [`GUARD`].
    cards: Vec<String>,
    /// The note's content as the session last wrote it after a warning.
    note: Option<String>,
}

impl Default for Tracker {
    fn default() -> Self {
        Tracker {
            cards: crate::card::embedded::all()
                .into_iter()
                .flatten()
                .filter(|c| c.bindings.guard.as_deref() == Some(GUARD))
                .map(|c| c.name)
                .collect(),
            note: None,
        }
    }
}

impl Tracker {
    /// Notes a `Write` of the project's hand-off note, once `warned`
    /// (`tool`: the kind of the call's tool, by its canonical name: the
    /// recording's own name is mapped by its harness's contract).
    pub fn saw_call(
        &mut self,
        tool: ToolKind,
        payload: &Map<String, Value>,
        cwd: Option<&str>,
        warned: bool,
    ) {
        if !warned || tool != ToolKind::Write {
            return;
        }
        let input = &payload.get("tool_input").cloned().unwrap_or(Value::Null);
        let (Some(path), Some(content)) = (input["file_path"].as_str(), input["content"].as_str())
        else {
            return;
        };
        let at_root = match cwd {
            Some(c) => Path::new(path) == Path::new(c).join(note::FILE),
            None => path == note::FILE,
        };
        if at_root || path == note::FILE {
            self.note = Some(content.to_string());
        }
    }

    /// The recovery the session start after a compaction answered with.
    pub fn at_compaction(&self, fragments: &[Fragment]) -> Recovery {
        if let Some(f) = fragments.iter().find(|f| self.cards.contains(&f.card)) {
            return Recovery {
                carried: Some(f.text.clone()),
                from: "project",
            };
        }
        match &self.note {
            Some(n) => Recovery {
                carried: Some(format!(
                    "The hand-off note `{}` (as the session last wrote it; it cannot be read now):\n{}",
                    note::FILE,
                    note::excerpt(n, note::FILE, crate::recovery::MAX_EXCERPT_BYTES).text
                )),
                from: "transcript",
            },
            None => Recovery {
                carried: None,
                from: "nothing",
            },
        }
    }
}
