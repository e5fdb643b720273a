//! Devin CLI (Devin for Terminal, which Devin Desktop runs; Windsurf's
//! successor agent). Claude Code-compatible hooks (`.devin/hooks.v1.json`,
//! the `hooks` key of its config files): the same event names and envelope,
//! but lowercase tool names (`exec`, `edit`, `write`, `read`) matched as
//! regexes, and no `cwd` in the payload (`DEVIN_PROJECT_DIR` instead). It
//! also imports Claude Code's hooks from `.claude/`, so SessionStart can
//! arrive twice: see `once`. Windsurf's own Cascade hooks are `windsurf`.
//!
//! Configuration: hooks in Claude Code's
//! format under a `hooks` key of `<project>/.devin/config.local.json` (the
//! personal, git-ignored project config; the default scope) or of the user
//! config `~/.config/devin/config.json`; commands through a shell, `timeout`
//! in seconds. Devin also runs `.claude/` hooks: the dispatcher's
//! session-start marker keeps SessionStart from printing twice.

use super::answer::Shape;
use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};
use std::path::PathBuf;

pub static SPEC: Spec = Spec {
    harness: HarnessId::Devin,
    id: "devin",
    name: "Devin CLI",
    events: &[
        row!("SessionStart" => SessionStart, Context(Shape::Envelope), "Claude Code's envelope [DOC]"),
        row!("UserPromptSubmit" => UserPromptSubmit, Context(Shape::Envelope), "Claude-compatible [DOC]"),
        row!("PreToolUse" => PreToolUse, Context(Shape::Envelope), "\"add context to tool calls\" [DOC]"),
        row!("PostToolUse" => PostToolUse, Context(Shape::Envelope), "Claude-compatible [DOC]"),
        row!("PermissionRequest" => PermissionRequest, Dropped, "decision only [DOC]"),
        row!("Stop" => Stop, Dropped, "a block keeps the agent running [DOC]"),
        row!("SessionEnd" => SessionEnd, Dropped, "[DOC]"),
    ],
    tools: &[
        ("exec", "Bash"),
        ("write", "Write"),
        ("edit", "Edit"),
        ("edit", "MultiEdit"),
        ("read", "Read"),
    ],
    matchers: MatcherStyle::Anchored,
    source_matcher: false,
    loads_claude_hooks: true,
    translate,
    limitation: "not measured on a real run; the payload has no cwd (DEVIN_PROJECT_DIR is \
                 used); also imports Claude Code's hooks (SessionStart is answered once).",
    config: Some(&CONFIG),
    decides: &[("PreToolUse", Envelope { ask: false })],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::set_event(row, map);
    t::map_tool(SPEC.tools, map);
    t::rename_input(map, &[("path", "file_path")]);
    t::cwd_from_env(map, &["DEVIN_PROJECT_DIR"]);
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: user_dir,
        programs: &["devin"],
    },
    other_sources,
    default_scope: Scope::Project,
    local_project_file: true,
    ..Config::claude_like(HarnessId::Devin, path, skills_dir)
};

fn user_dir(r: &Roots) -> PathBuf {
    r.home.join(".config/devin")
}

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        user_dir(r).join("config.json"),
        r.project.join(".devin/config.local.json"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        user_dir(r).join("skills"),
        r.project.join(".devin/skills"),
    )
}

fn other_sources(r: &Roots) -> Vec<PathBuf> {
    vec![
        r.project.join(".devin/config.json"),
        r.project.join(".devin/hooks.v1.json"),
    ]
}
