//! `handoff`: after a compaction (SessionStart `compact`) and on `resume`,
//! carries back what this session wrote down to keep (issue 20): the
//! hand-off note's title, "Goal", "In progress" and "Next step" (its first
//! lines without those headings), and the session's plan with its open
//! steps, each a bounded quoted excerpt (see [`crate::recovery`]): the
//! note at most 1,500 bytes, the plan at most what the note leaves of 2,200.
//!
//! Only what this session wrote counts. The note (`HANDOFF.md` at the
//! project root) counts when cuecard saw a Write, Edit, `apply_patch` or
//! shell redirection of it after the session's first compaction warning, or
//! its modification time is after that warning; a session that was never
//! warned reads nothing. The plan counts when cuecard saw this session
//! write it. The writes are recorded by [`record_writes`], which the
//! compaction guard calls on every after-tool call it judges.
//!
//! Without session state the guard stays silent: it could not tell a note
//! of this session from one committed by someone else.

use super::{Finding, Guard};
use crate::context::Ctx;
use crate::recovery::{self, note, plan};
use crate::state::Session;
use crate::state::handoff::now_ms;

pub struct Handoff;

impl Guard for Handoff {
    fn name(&self) -> &'static str {
        "handoff"
    }
    fn events(&self) -> &'static [&'static str] {
        &["SessionStart"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["carried"]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        let s = ctx.session()?;
        let carried = carried(ctx, &s)?;
        // Keyed by the source too: a resume carries the note in full even
        // when the compaction before it already did.
        let source = ctx.payload.source().unwrap_or_default();
        let mut f = Finding::new(
            format!("handoff:{source}:{}", carried.key),
            format!("this session wrote {}", carried.what.join(" and ")),
        );
        f.quoted.push(("carried", carried.text));
        Some(f)
    }
}

/// What the recovery carries for a session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Carried {
    /// The quoted blocks, each under a line naming its file.
    pub text: String,
    /// What it carries, for `explain` (`the hand-off note HANDOFF.md`).
    pub what: Vec<String>,
    /// Changes when what is carried changes (the repeat rule).
    pub key: String,
}

/// The note and plan `session` wrote, as the recovery carries them; `None`
/// when it wrote neither (or they are gone).
pub fn carried(ctx: &Ctx, session: &Session) -> Option<Carried> {
    let h = &session.handoff;
    let mut blocks = Vec::new();
    let mut what = Vec::new();
    let mut key = String::new();
    let mut used = 0;
    if h.first_warning_ms.is_some()
        && let Some(read) = recovery::read::read(&ctx.project_root().join(note::FILE))
        && h.note_counts(read.modified_ms)
    {
        let e = note::excerpt(&read.text, note::FILE, recovery::MAX_EXCERPT_BYTES);
        used = e.text.len();
        blocks.push(format!(
            "The hand-off note `{}` (written after the first compaction warning):\n{}",
            note::FILE,
            e.text
        ));
        what.push(format!("the hand-off note {}", note::FILE));
        key.push_str(&format!("{:?}", read.modified_ms));
    }
    if let Some(path) = &h.plan
        && let Some(read) = recovery::read::read(std::path::Path::new(path))
    {
        let shown = plan::shown(path);
        // The plan gets what the note leaves of the shared bound.
        let room = recovery::MAX_EXCERPT_BYTES.min(recovery::MAX_CARRIED_BYTES - used);
        let e = plan::excerpt(&read.text, &shown, room);
        blocks.push(format!(
            "The plan `{}` (written in this session), its open steps:\n{}",
            crate::text::sanitize(&shown, 200),
            e.text
        ));
        what.push(format!("the plan {shown}"));
        key.push_str(&format!(":{path}:{:?}", read.modified_ms));
    }
    if blocks.is_empty() {
        return None;
    }
    Some(Carried {
        text: blocks.join("\n\n"),
        what,
        key: crate::state::key::digest(&key),
    })
}

/// Records what the call writes that the recovery may carry: the hand-off
/// note (counted only after the session's first warning) and a plan file.
pub fn record_writes(ctx: &Ctx, session: &mut Session) {
    if ctx.event.name != "PostToolUse" {
        return; // before a call, or a failed one: nothing was written
    }
    let mut paths: Vec<crate::target::Target> = ctx.write_targets().to_vec();
    for raw in ctx.shell_write_paths().iter().flatten() {
        paths.push(crate::target::target_for(ctx, raw));
    }
    for t in &paths {
        if t.inside_project && t.shown == note::FILE {
            session.handoff.note_written(now_ms());
        } else if plan::is_plan(&t.path) {
            session.handoff.plan_written(t.as_str());
        }
    }
}
