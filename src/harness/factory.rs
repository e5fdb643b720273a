//! Factory Droid (`droid`): Claude Code's hook dialect (event names, matcher
//! groups, `hookSpecificOutput.additionalContext`) per its hooks reference
//! (docs.factory.ai/reference/hooks-reference), with its own tool names
//! (`Execute` for the shell, `Create` for a new file, `Edit`, `MultiEdit`,
//! `Read`, `Grep`). Not measured on a real run (`droid` signs in to
//! Factory's backend; not tried against a mock), so the rows are the
//! documented ones. Context is
//! documented on SessionStart, UserPromptSubmit and PostToolUse, so the
//! PreToolUse cards ride on PostToolUse. Payload keys are Claude Code's
//! (snake case); the camelCase spelling one integration shows is accepted.
//!
//! Configuration: `~/.factory/settings.json` or `<project>/.factory/settings.json`
//! under `hooks` (Droid reads it when no `hooks.json` sits beside it), commands
//! through a shell, `timeout` in seconds.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Factory,
    id: "factory",
    name: "Factory Droid",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "decision documented, context not [DOC]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "a block keeps the subagent running [DOC]"),
        row!("Stop" => Stop, Dropped, "a block keeps the agent running [DOC]"),
        row!("PreCompact" => PreCompact, Dropped, "[DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    tools: &TOOLS,
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "not measured on a real run (documented format); tool advisories ride on \
                 PostToolUse, the documented channel.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: true })],
    probe: no_probe,
};

/// Droid's tool names and the canonical ones.
static TOOLS: [(&str, &str); 6] = [
    ("Execute", "Bash"),
    ("Create", "Write"),
    ("Edit", "Edit"),
    ("MultiEdit", "MultiEdit"),
    ("Read", "Read"),
    ("Grep", "Grep"),
];

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    for (from, to) in [
        ("sessionId", "session_id"),
        ("transcriptPath", "transcript_path"),
        ("permissionMode", "permission_mode"),
        ("hookEventName", "hook_event_name"),
    ] {
        t::rename(map, from, to);
    }
    t::set_event(row, map);
    t::map_tool(&TOOLS, map);
}

static CONFIG: Config = Config {
    other_sources,
    notes,
    ..Config::claude_like(HarnessId::Factory, path, skills_dir)
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".factory/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".factory/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![
        r.project.join(".factory/settings.local.json"),
        r.home.join(".factory/settings.local.json"),
    ]
}

fn notes(scope: Scope, path: &Path) -> Vec<String> {
    let hooks = path.with_file_name("hooks.json");
    let mut out = vec![
        "Factory Droid is not measured on a real run: the entries follow its hooks reference"
            .into(),
    ];
    if scope != Scope::Managed && hooks.exists() {
        out.push(format!(
            "{} exists: Droid reads hooks from it instead of settings.json; move cuecard's entries there",
            hooks.display()
        ));
    }
    out
}
