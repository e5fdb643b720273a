//! CodeBuddy Code (Tencent's CLI): documented as fully compatible with
//! Claude Code's hooks (names, keys, tool names, envelope). Not measured on
//! a real run; its documentation shows `additionalContext` on SessionStart,
//! UserPromptSubmit and PostToolUse only, so the PreToolUse cards ride on
//! PostToolUse (the documented channel) rather than on an undocumented one.
//!
//! Configuration: `~/.codebuddy/settings.json` or
//! `<project>/.codebuddy/settings.json`, Claude Code's format (documented as
//! fully compatible), commands through the user's shell, `timeout` in
//! seconds. Edits made outside CodeBuddy take effect once approved in `/hooks`.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use crate::event::Event;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::CodeBuddy,
    id: "codebuddy",
    name: "CodeBuddy Code",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("PreToolUse" => PreToolUse, Deferred(Event::PostToolUse), "context not documented here [DOC]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "additionalContext documented [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only [DOC]"),
        row!("Stop" => Stop, Dropped, "a block keeps the agent running [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "[DOC]"),
        row!("PreCompact" => PreCompact, Dropped, "[DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    absent: &[
        Event::Setup,
        Event::UserPromptExpansion,
        Event::PermissionRequest,
        Event::PermissionDenied,
        Event::PostToolUseFailure,
        Event::PostToolBatch,
        Event::MessageDisplay,
        Event::SubagentStart,
        Event::TaskCreated,
        Event::TaskCompleted,
        Event::StopFailure,
        Event::TeammateIdle,
        Event::InstructionsLoaded,
        Event::ConfigChange,
        Event::CwdChanged,
        Event::DirectoryAdded,
        Event::FileChanged,
        Event::WorktreeCreate,
        Event::WorktreeRemove,
        Event::PostCompact,
        Event::Elicitation,
        Event::ElicitationResult,
        Event::Interrupt,
    ],
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "not measured on a real run; tool advisories ride on PostToolUse, the \
                 documented channel; edited hooks take effect only once approved in `/hooks`.",
    config: Some(&CONFIG),
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
}

static CONFIG: Config = Config {
    harness: HarnessId::CodeBuddy,
    layout: config::Layout::Grouped,
    form: config::Form::Shell,
    typed: true,
    timeout: Some(("timeout", config::Unit::Seconds)),
    path,
    required: config::nothing_required,
    skeleton: config::empty_object,
    skills_dir,
    other_sources,
    notes,
    default_scope: Scope::User,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".codebuddy/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".codebuddy/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![r.project.join(".codebuddy/settings.local.json")]
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "CodeBuddy applies hooks edited outside it once you approve them in its `/hooks` panel"
            .into(),
    ]
}
