//! Windsurf (Cascade hooks, `.windsurf/hooks.json`). Cascade reads a hook's
//! exit code only: 0 proceeds, 2 blocks a pre-hook and shows the agent the
//! hook's stderr; stdout is shown to the user (with `show_output`), never to
//! the model. No documented field or stream carries context to the model on
//! any event, and cuecard never blocks to smuggle text through stderr, so
//! Windsurf cannot carry context. It is installed into only for decisions
//! (docs/design.md §4a): with a policy set, the PreToolUse cards are registered on
//! the four pre-hooks, where an explicit deny exits 2 with the reason on
//! stderr; without one `install` refuses and says why. Devin CLI, its
//! successor agent, is `devin`.
//!
//! Configuration (docs.windsurf.com/windsurf/cascade/hooks):
//! `hooks.<event>[] = {command, show_output, working_directory}` in
//! `~/.codeium/windsurf/hooks.json` (user) or `<workspace>/.windsurf/hooks.json`
//! (project); one shell command line, no matcher, no timeout key.

use super::config::{self, Config, Roots, Scope};
use super::table::{Decides::*, Delivery::*, EventRow, MatcherStyle, Spec, no_probe, row};
use super::{HarnessId, translate as t};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Windsurf,
    id: "windsurf",
    name: "Windsurf (Cascade)",
    events: &[
        row!("pre_user_prompt" => UserPromptSubmit, Dropped, "exit code only [DOC]"),
        row!("pre_run_command" => PreToolUse, Dropped, "exit code only; exit 2 blocks [DOC]"),
        row!("pre_write_code" => PreToolUse, Dropped, "exit code only; exit 2 blocks [DOC]"),
        row!("pre_read_code" => PreToolUse, Dropped, "exit code only; exit 2 blocks [DOC]"),
        row!("pre_mcp_tool_use" => PreToolUse, Dropped, "exit code only; exit 2 blocks [DOC]"),
        row!("post_run_command" => PostToolUse, Dropped, "stdout to the user only [DOC]"),
        row!("post_write_code" => PostToolUse, Dropped, "stdout to the user only [DOC]"),
        row!("post_read_code" => PostToolUse, Dropped, "stdout to the user only [DOC]"),
        row!("post_mcp_tool_use" => PostToolUse, Dropped, "stdout to the user only [DOC]"),
        row!("post_cascade_response" => Stop, Dropped, "stdout to the user only [DOC]"),
    ],
    tools: &[],
    matchers: MatcherStyle::Unmatched,
    source_matcher: false,
    loads_claude_hooks: false,
    translate,
    limitation: "cannot carry context: Cascade hooks are read by exit code only (2 blocks a \
                 pre-hook and shows the agent stderr), stdout goes to the user, and no \
                 documented field reaches the model; installed only with a policy set, for the \
                 four pre-hooks, where a deny exits 2 with the reason on stderr (an ask is sent \
                 as that deny). For context, use Devin CLI (`devin`), which reads Claude Code's \
                 envelope.",
    config: Some(&CONFIG),
    decides: &[
        ("pre_run_command", ExitCode),
        ("pre_write_code", ExitCode),
        ("pre_read_code", ExitCode),
        ("pre_mcp_tool_use", ExitCode),
    ],
    probe: no_probe,
};

fn translate(row: &EventRow, map: &mut Map<String, Value>) {
    t::rename(map, "trajectory_id", "session_id");
    t::set_event(row, map);
    // `tool_info` (docs.windsurf.com/windsurf/cascade/hooks): a command
    // line and its directory, or the file a write or read is about.
    let Some(Value::Object(info)) = map.remove("tool_info") else {
        return;
    };
    let tool = match row.native {
        "pre_run_command" | "post_run_command" => "Bash",
        "pre_write_code" | "post_write_code" => "Edit",
        "pre_read_code" | "post_read_code" => "Read",
        _ => return,
    };
    let mut input = Map::new();
    if let Some(c) = info.get("command_line") {
        input.insert("command".into(), c.clone());
    }
    if let Some(p) = info.get("file_path") {
        input.insert("file_path".into(), p.clone());
    }
    if let Some(c) = info.get("cwd")
        && !map.contains_key("cwd")
    {
        map.insert("cwd".into(), c.clone());
    }
    map.insert("tool_name".into(), Value::from(tool));
    map.insert("tool_input".into(), Value::Object(input));
}

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| r.home.join(".codeium/windsurf"),
        programs: &["windsurf"],
    },
    harness: HarnessId::Windsurf,
    layout: config::Layout::Flat,
    // Not documented for Windows; PowerShell as for Devin Desktop, which
    // runs the same Cascade hooks (docs/decisions.md).
    form: config::Form::Shell {
        windows: config::Shell::PowerShell,
    },
    typed: false,
    timeout: None,
    path,
    required: config::nothing_required,
    skeleton: config::empty_object,
    skills_dir: no_skills,
    other_sources: config::no_sources,
    notes,
    default_scope: Scope::User,
    local_project_file: false,
    form_name: "",
    trust: config::no_trust_check,
    legacy: None,
    plugin: None,
    owned: None,
    check: config::no_check,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        r.home.join(".codeium/windsurf/hooks.json"),
        r.project.join(".windsurf/hooks.json"),
    )
}

/// Skills carry context, which nothing here reaches the model with.
fn no_skills(_: Scope, _: &Roots) -> Option<PathBuf> {
    None
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Windsurf gets decisions only: a deny in your policy stops the call (exit 2, the reason \
         on stderr for the agent); advice never reaches its model"
            .into(),
    ]
}
