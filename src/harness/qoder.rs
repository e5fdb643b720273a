//! Qoder CLI (`qodercli`): Claude Code's hook dialect (event names, matcher
//! groups, tool names such as `Bash`, `Write`, `Edit`) per its hooks
//! documentation (docs.qoder.com/cli/hooks). Not measured on a real run: the
//! CLI stops with "Not logged in", and custom providers are switched on only
//! by a flag from the vendor's account service. Its 1.1.52 bundle (read, not
//! run) delivers PreToolUse, PostToolUse and PostToolUseFailure context as
//! hook context messages and honours PreToolUse's allow/deny/ask/defer, so
//! the tool cards are registered there and a policy decides on PreToolUse.
//!
//! Configuration: `~/.qoder/settings.json` or `<project>/.qoder/settings.json`
//! (`.qoder/settings.local.json` is also read), Claude Code's nesting,
//! commands through a shell, `timeout` in seconds.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Qoder,
    id: "qoder",
    name: "Qoder CLI",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "plain text or JSON context documented [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "plain text or JSON context documented [DOC]"),
        row!("PreToolUse" => PreToolUse, Context(Shape::Envelope), "context delivered as a hook context message; allow/deny/ask/defer honoured (1.1.52 bundle, read, not run) [DOC]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "context delivered as a hook context message (1.1.52 bundle, read, not run) [DOC]"),
        row!("PostToolUseFailure" => PostToolUseFailure, Context(Shape::Envelope), "context delivered as a hook context message (1.1.52 bundle, read, not run) [DOC]"),
        row!("Notification" => Notification, Dropped, "observe only [DOC]"),
        row!("SubagentStop" => SubagentStop, Dropped, "[DOC]"),
        row!("Stop" => Stop, Dropped, "[DOC]"),
        row!("PreCompact" => PreCompact, Dropped, "[DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    tools: &[],
    matchers: MatcherStyle::Literal,
    source_matcher: true,
    loads_claude_hooks: false,
    translate,
    limitation: "not measured on a real run (documented format, and the 1.1.52 bundle read): \
                 it signs in to its vendor's backend before it runs anything.",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: true })],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".qoder"),
        programs: &["qodercli"],
    },
    other_sources,
    notes,
    ..Config::claude_like(HarnessId::Qoder, path, skills_dir)
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".qoder/settings.json")
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::home_or_project(scope, r, ".qoder/skills")
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![r.project.join(".qoder/settings.local.json")]
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Qoder CLI is not measured on a real run: the entries follow its hooks documentation"
            .into(),
    ]
}
