use super::*;
use crate::event::{EVENTS, Event};

#[test]
fn ids_round_trip_and_are_unique() {
    for h in HarnessId::ALL {
        assert_eq!(HarnessId::parse(h.id()), Some(*h));
        assert_eq!(h.spec().harness, *h, "{}", h.id());
    }
    assert_eq!(HarnessId::parse("Claude"), Some(HarnessId::ClaudeCode));
    assert_eq!(HarnessId::parse("vim"), None);
}

#[test]
fn every_row_names_a_canonical_event_and_natives_are_unique() {
    for h in HarnessId::ALL {
        let spec = h.spec();
        for (i, r) in spec.events.iter().enumerate() {
            assert!(
                spec.events[i + 1..].iter().all(|o| o.native != r.native),
                "{} lists {} twice",
                h.id(),
                r.native
            );
            if let Delivery::Deferred(to) = r.delivery {
                assert!(
                    delivers_context(*h, to.name()),
                    "{}: {} defers to a dead event",
                    h.id(),
                    r.native
                );
            }
        }
    }
}

/// Every canonical event is a decision in every harness, taken in one
/// place: its line of the harness × event matrix (`matrix.rs`). A new event
/// in the event table fails here until it has a line, and a line fails
/// until each cell agrees with the harness's rows, naming the harness.
#[test]
fn every_harness_accounts_for_every_event() {
    use super::matrix::{Cell, MATRIX, cell};
    let order: Vec<Event> = MATRIX.iter().map(|(e, _)| *e).collect();
    for e in Event::ALL {
        assert!(
            order.contains(e),
            "the event {e} has no line in the harness × event matrix (src/harness/matrix.rs): \
             place it on every harness"
        );
    }
    assert_eq!(
        order,
        Event::ALL,
        "one line per event, in the event table's order"
    );
    for h in HarnessId::ALL {
        let spec = h.spec();
        for e in Event::ALL {
            let rows = spec.natives(*e).count();
            match cell(*h, *e) {
                Some(Cell::Row) => assert!(
                    rows > 0,
                    "{}: the matrix says it has {e}, but its file has no row for it",
                    h.id()
                ),
                Some(Cell::Absent) => assert!(
                    rows == 0,
                    "{}: its file has a row for {e}, but the matrix says it is absent",
                    h.id()
                ),
                None => unreachable!("checked above"),
            }
        }
    }
}

/// The registry points at the one list of hook files: every harness has
/// entries there, and every entry names a harness of the registry.
#[test]
fn every_harness_has_hook_files_and_every_entry_a_harness() {
    for h in HarnessId::ALL {
        assert!(h.hook_files().next().is_some(), "{}", h.id());
    }
    for e in crate::hookfiles::TABLE {
        assert!(
            HarnessId::parse(e.harness).is_some_and(|h| h.id() == e.harness),
            "hookfiles::TABLE names `{}`, not a harness id",
            e.harness
        );
    }
}

/// Every row that delivers has the answer shape its harness reads, and the
/// one reshaper produces it: context under the right key, never more text.
#[test]
fn the_one_reshaper_follows_each_rows_shape() {
    let canonical = |name: &str| {
        serde_json::json!({
            "systemMessage": "note",
            "hookSpecificOutput": {
                "hookEventName": name,
                "additionalContext": "CTX",
                "permissionDecision": "deny",
                "permissionDecisionReason": "why",
            }
        })
    };
    for h in HarnessId::ALL {
        for r in h.spec().events {
            let out = reshape(r, canonical(r.canonical.name()));
            let Delivery::Context(shape) = r.delivery else {
                assert!(
                    out.is_none(),
                    "{} {}: prints on a dropped row",
                    h.id(),
                    r.native
                );
                continue;
            };
            let what = format!("{} {}", h.id(), r.native);
            let out = out.unwrap_or_else(|| panic!("{what}: nothing printed"));
            match (shape, out) {
                (Shape::PlainText, Answer::Text(t)) => assert_eq!(t, "CTX", "{what}"),
                (Shape::Flat { field, decision }, Answer::Json(v)) => {
                    assert_eq!(v[field], "CTX", "{what}");
                    assert_eq!(v.get("permissionDecision").is_some(), decision, "{what}");
                    assert!(v.get("hookSpecificOutput").is_none(), "{what}");
                }
                (Shape::Envelope, Answer::Json(v)) => {
                    let s = &v["hookSpecificOutput"];
                    assert_eq!(s["additionalContext"], "CTX", "{what}");
                    assert_eq!(s["hookEventName"], r.native, "{what}");
                }
                (Shape::Strict { top, inner }, Answer::Json(v)) => {
                    for k in v.as_object().unwrap().keys() {
                        assert!(
                            k == "hookSpecificOutput" || top.contains(&k.as_str()),
                            "{what}: {k}"
                        );
                    }
                    for k in v["hookSpecificOutput"].as_object().unwrap().keys() {
                        assert!(inner.contains(&k.as_str()), "{what}: {k}");
                    }
                    assert_eq!(
                        v["hookSpecificOutput"]["additionalContext"], "CTX",
                        "{what}"
                    );
                }
                (Shape::Steps, Answer::Json(v)) => assert_eq!(
                    v,
                    serde_json::json!({"injectSteps": [{"ephemeralMessage": "CTX"}]}),
                    "{what}"
                ),
                (s, a) => panic!("{what}: {s:?} printed {a:?}"),
            }
        }
    }
}

#[test]
fn claude_code_is_built_from_the_event_table() {
    for e in EVENTS {
        assert_eq!(
            native_event(HarnessId::ClaudeCode, e.name).is_some(),
            e.carries_context(),
            "{}",
            e.name
        );
        assert_eq!(
            delivers_context(HarnessId::ClaudeCode, e.name),
            e.carries_context(),
            "{}",
            e.name
        );
    }
    let claude: Vec<&str> = EVENTS
        .iter()
        .filter(|e| e.claude.is_some())
        .map(|e| e.name)
        .collect();
    let rows: Vec<&str> = HarnessId::ClaudeCode
        .spec()
        .events
        .iter()
        .map(|r| r.native)
        .collect();
    assert_eq!(rows, claude);
}

#[test]
fn measured_drops_are_encoded() {
    // Qwen / Gemini drop context before a tool runs: PreToolUse cards ride on the after-tool event.
    assert_eq!(
        native_event(HarnessId::Qwen, "PreToolUse"),
        Some("PostToolUse")
    );
    assert_eq!(
        native_event(HarnessId::Gemini, "PreToolUse"),
        Some("AfterTool")
    );
    assert!(!delivers_context(HarnessId::Gemini, "PreToolUse"));
    assert_eq!(
        evaluated_events(HarnessId::Gemini, "AfterTool"),
        vec![Event::PostToolUse, Event::PreToolUse]
    );
    assert_eq!(
        evaluated_events(HarnessId::Gemini, "BeforeTool"),
        vec![Event::PreToolUse]
    );
    // Codex rejects context on Stop.
    assert_eq!(native_event(HarnessId::Codex, "Stop"), None);
    // Copilot documents sessionStart context now (hooks-reference).
    assert_eq!(
        native_event(HarnessId::Copilot, "SessionStart"),
        Some("sessionStart")
    );
    assert_eq!(
        native_event(HarnessId::Copilot, "PreToolUse"),
        Some("preToolUse")
    );
    assert_eq!(
        native_event(HarnessId::Kiro, "SessionStart"),
        Some("SessionStart"),
        "Kiro 3.0's standalone hook trigger"
    );
    assert_eq!(native_event(HarnessId::Kiro, "PostToolUse"), None);
    assert_eq!(
        canonical_event(HarnessId::Kiro, "agentSpawn"),
        Some("SessionStart"),
        "the legacy agent form's events still dispatch"
    );
    assert_eq!(
        canonical_event(HarnessId::Gemini, "BeforeAgent"),
        Some("UserPromptSubmit")
    );
    assert_eq!(
        canonical_event(HarnessId::Cursor, "beforeShellExecution"),
        Some("PreToolUse")
    );
    assert_eq!(
        canonical_event(HarnessId::Copilot, "PreToolUse"),
        Some("PreToolUse")
    );
    // Windsurf has no channel at all.
    assert!(!HarnessId::Windsurf.carries_context());
    assert!(
        HarnessId::Windsurf
            .limitation()
            .unwrap()
            .contains("exit code")
    );
    assert!(HarnessId::Codex.limitation().is_none());
}

#[test]
fn tool_matchers_speak_each_dialect() {
    let m = |h, c| native_tool_matcher(h, c);
    assert_eq!(
        m(HarnessId::ClaudeCode, "Write|Edit|MultiEdit"),
        "Write|Edit|MultiEdit"
    );
    assert_eq!(
        m(HarnessId::Qwen, "Bash|Write|Edit"),
        "^(?:run_shell_command|write_file|edit)$"
    );
    assert_eq!(
        m(HarnessId::Gemini, "Write|Edit|MultiEdit"),
        "^(?:write_file|replace)$"
    );
    assert_eq!(m(HarnessId::Codex, "Bash|Write|Edit"), "Bash|apply_patch");
    assert_eq!(
        m(HarnessId::Copilot, "Bash|Write|Edit"),
        "bash|powershell|create|edit|apply_patch",
        "Copilot CLI writes files with its freeform apply_patch too"
    );
    assert_eq!(m(HarnessId::Devin, "Bash"), "^(?:exec)$");
    // MCP tools (issue 27): anchored for Claude Code, whose matcher is an
    // unanchored regex once it holds `.` (else `Write` admits `TodoWrite`);
    // left out where MCP tool names are not `mcp__<server>__<tool>`.
    assert_eq!(
        m(HarnessId::ClaudeCode, "Bash|Write|mcp__*"),
        "^(?:Bash|Write|mcp__.*)$"
    );
    assert_eq!(m(HarnessId::Qwen, "Bash|mcp__*"), "^(?:run_shell_command)$");
    assert_eq!(m(HarnessId::Codex, "Bash|mcp__*"), "Bash");
    // Droid's matchers are regexes and its tools Execute / Create / Edit,
    // with no MultiEdit (measured, 0.225.2).
    assert_eq!(
        m(HarnessId::Factory, "Write|Edit|MultiEdit"),
        "^(?:Create|Edit)$"
    );
    assert_eq!(m(HarnessId::Factory, "Bash"), "^(?:Execute)$");
    assert_eq!(m(HarnessId::Factory, "*"), ".*");
    assert_eq!(m(HarnessId::Cursor, "Bash"), "");
    assert_eq!(m(HarnessId::Qwen, "*"), ".*");
    assert_eq!(m(HarnessId::ClaudeCode, "*"), "*");
    // No native counterpart: the canonical names stay (they never match).
    assert_eq!(m(HarnessId::Qwen, "NotebookEdit"), "^(?:NotebookEdit)$");
    assert_eq!(native_matcher(HarnessId::Gemini, "SessionStart", "*"), None);
    assert_eq!(
        native_matcher(HarnessId::Qwen, "SessionStart", "compact"),
        Some("compact".into())
    );
    assert_eq!(
        native_matcher(HarnessId::Copilot, "UserPromptSubmit", "*"),
        None
    );
    assert_eq!(
        native_matcher(HarnessId::Cursor, "PostToolUse", "Bash"),
        None
    );
}

#[test]
fn capability_table_covers_every_harness() {
    let t = capability_table();
    for h in HarnessId::ALL {
        assert!(t.contains(&format!("| `{}` |", h.id())), "{}", h.id());
    }
    assert!(t.contains("`BeforeTool` → `AfterTool`"));
}

/// Where a harness's recorded payloads are: tests/fixtures/<id>/, but
/// Kilo Code's are OpenCode's, since its payloads are built by the one plugin
/// template from hook inputs the Kilo e2e measured to be OpenCode's.
fn fixtures_of(h: HarnessId) -> &'static str {
    match h {
        HarnessId::Kilo => HarnessId::Opencode.id(),
        _ => h.id(),
    }
}

/// A fixture's (native event, payload) from tests/fixtures/<harness>/<stem>.json.
fn fixture(harness: &str, stem: &str) -> (String, serde_json::Map<String, serde_json::Value>) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(harness)
        .join(format!("{stem}.json"));
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace("${RUN}", "/run");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    (
        v["event"].as_str().unwrap().to_string(),
        v["payload"].as_object().unwrap().clone(),
    )
}

fn translated(h: HarnessId, stem: &str) -> serde_json::Map<String, serde_json::Value> {
    let (event, mut map) = fixture(fixtures_of(h), stem);
    let row = h
        .spec()
        .row(&event)
        .unwrap_or_else(|| panic!("{}: {event}", h.id()));
    (h.spec().translate)(row, &mut map);
    map
}

#[test]
fn every_fixture_translates_into_the_canonical_shape() {
    for h in HarnessId::ALL {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(fixtures_of(*h));
        let Ok(entries) = std::fs::read_dir(&dir) else {
            assert_eq!(*h, HarnessId::Windsurf, "{} has no fixtures", h.id());
            continue;
        };
        for e in entries {
            let stem = e
                .unwrap()
                .path()
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            let (event, _) = fixture(fixtures_of(*h), &stem);
            let Some(row) = h.spec().row(&event) else {
                // Events with no canonical counterpart (model-call events).
                assert!(
                    matches!(
                        event.as_str(),
                        "BeforeModel" | "AfterModel" | "BeforeToolSelection"
                    ),
                    "{}: {event} is not in its contract",
                    h.id()
                );
                continue;
            };
            let map = translated(*h, &stem);
            let what = format!("{} {stem}", h.id());
            assert_eq!(map["hook_event_name"], row.canonical.name(), "{what}");
            if *h != HarnessId::Kiro {
                assert!(
                    map.get("session_id").is_some_and(|s| s.is_string()),
                    "{what}"
                );
            }
            if row.canonical.spec().is_tool_event()
                && let Some(tool) = map.get("tool_name").and_then(|t| t.as_str())
            {
                let input = map["tool_input"]
                    .as_object()
                    .unwrap_or_else(|| panic!("{what}"));
                match tool {
                    "Bash" => assert!(input["command"].is_string(), "{what}"),
                    "Write" => {
                        assert!(input["file_path"].is_string(), "{what}");
                        assert!(input["content"].is_string(), "{what}");
                    }
                    "Edit" => {
                        assert!(input["file_path"].is_string(), "{what}");
                        assert!(input["new_string"].is_string(), "{what}");
                    }
                    "Grep" => assert!(input["pattern"].is_string(), "{what}"),
                    "MultiEdit" => {
                        assert!(input["file_path"].is_string(), "{what}");
                        assert!(input["edits"][0]["new_string"].is_string(), "{what}");
                    }
                    "AskUserQuestion" => {
                        let q = &input["questions"][0];
                        assert!(q["question"].is_string(), "{what}");
                        assert!(q["options"][0]["label"].is_string(), "{what}");
                    }
                    other => panic!("{what}: tool `{other}` was not translated"),
                }
            }
            if row.canonical == Event::SessionStart {
                assert!(map["source"].is_string(), "{what}");
            }
        }
    }
}

#[test]
fn codex_apply_patch_becomes_a_canonical_write() {
    let m = translated(HarnessId::Codex, "PreToolUse.apply_patch");
    assert_eq!(m["tool_name"], "Write");
    let i = &m["tool_input"];
    assert_eq!(i["file_path"], "Cargo.toml");
    assert_eq!(i["content"], "[package]\nname = \"demo\"");
    assert_eq!(
        i["file_paths"],
        serde_json::json!(["Cargo.toml", "src/main.rs"])
    );
    assert!(i["patch"].as_str().unwrap().starts_with("*** Begin Patch"));
}

#[test]
fn codex_patch_that_updates_is_an_edit() {
    let mut m = serde_json::Map::new();
    m.insert("tool_name".into(), "apply_patch".into());
    m.insert(
        "tool_input".into(),
        serde_json::json!({"command": "*** Begin Patch\n*** Update File: a.rs\n@@\n-old\n+new\n*** End Patch"}),
    );
    (HarnessId::Codex.spec().translate)(HarnessId::Codex.spec().row("PreToolUse").unwrap(), &mut m);
    assert_eq!(m["tool_name"], "Edit");
    assert_eq!(m["tool_input"]["old_string"], "old");
    assert_eq!(m["tool_input"]["new_string"], "new");
}

#[test]
fn copilot_keys_and_string_tool_args() {
    let m = translated(HarnessId::Copilot, "preToolUse.create");
    assert_eq!(m["tool_name"], "Write");
    assert_eq!(m["session_id"], "119ccfb1-64bf-4031-ac26-7660ae18dddc");
    assert_eq!(m["tool_input"]["file_path"], "/run/project/Cargo.toml");
    assert!(
        m["tool_input"]["content"]
            .as_str()
            .unwrap()
            .contains("[package]")
    );
    let m = translated(HarnessId::Copilot, "sessionStart.new");
    assert_eq!(m["source"], "startup");
    // PascalCase payloads are Claude-shaped already.
    let m = translated(HarnessId::Copilot, "PreToolUse.Bash");
    assert_eq!(m["tool_name"], "Bash");
}

#[test]
fn cursor_gemini_kiro_devin_specifics() {
    let m = translated(HarnessId::Cursor, "postToolUse.Write");
    assert_eq!(m["cwd"], "/run/project", "workspace_roots[0] is the cwd");
    assert_eq!(m["tool_input"]["content"], "hello\n");
    let m = translated(HarnessId::Cursor, "afterFileEdit");
    assert_eq!(m["tool_name"], "Edit");
    assert_eq!(m["tool_input"]["old_string"], "hello");
    let m = translated(HarnessId::Gemini, "BeforeTool.replace");
    assert_eq!(
        (m["tool_name"].as_str(), m["hook_event_name"].as_str()),
        (Some("Edit"), Some("PreToolUse"))
    );
    let m = translated(HarnessId::Kiro, "postToolUse.fs_write");
    assert_eq!(m["tool_name"], "Write");
    assert_eq!(m["tool_input"]["file_path"], "/run/project/hello.txt");
    let m = translated(HarnessId::Devin, "PreToolUse.exec");
    assert_eq!(m["tool_name"], "Bash");
}

#[test]
fn every_context_row_is_a_canonical_context_event() {
    for h in HarnessId::ALL {
        for r in h.spec().events {
            if r.delivery.delivers() {
                assert!(
                    r.canonical.spec().carries_context(),
                    "{} {}",
                    h.id(),
                    r.native
                );
            }
        }
    }
}

/// The search and question tools of Qwen Code, Gemini CLI and Copilot CLI
/// arrive as the canonical Grep and AskUserQuestion, so the secrets and
/// AskUserQuestion cards can judge them.
#[test]
fn search_and_question_tools_are_canonical() {
    for (h, stem, tool) in [
        (HarnessId::Qwen, "PostToolUse.grep_search", "Grep"),
        (
            HarnessId::Qwen,
            "PostToolUse.ask_user_question",
            "AskUserQuestion",
        ),
        (HarnessId::Gemini, "AfterTool.grep_search", "Grep"),
        (HarnessId::Gemini, "AfterTool.ask_user", "AskUserQuestion"),
        (HarnessId::Copilot, "preToolUse.grep", "Grep"),
        (HarnessId::Copilot, "preToolUse.ask_user", "AskUserQuestion"),
    ] {
        let m = translated(h, stem);
        assert_eq!(m["tool_name"], tool, "{} {stem}", h.id());
    }
    let m = translated(HarnessId::Gemini, "AfterTool.grep_search");
    assert_eq!(
        m["tool_input"]["path"], "/run/project",
        "dir_path is the path"
    );
    let m = translated(HarnessId::Copilot, "preToolUse.grep");
    assert_eq!(
        m["tool_input"]["path"], "/run/project/.env",
        "Grep keeps `path`"
    );
    let m = translated(HarnessId::Copilot, "preToolUse.ask_user");
    assert_eq!(
        m["tool_input"]["questions"][0]["options"][1]["label"],
        "SQLite"
    );
}

#[test]
fn codex_patch_that_moves_its_first_file_is_an_edit_of_the_destination() {
    let mut m = serde_json::Map::new();
    m.insert("tool_name".into(), "apply_patch".into());
    m.insert(
        "tool_input".into(),
        serde_json::json!({"command": "*** Begin Patch\n*** Update File: a.rs\n*** Move to: b.rs\n@@\n-old\n+new\n*** Add File: c.rs\n+c\n*** End Patch"}),
    );
    (HarnessId::Codex.spec().translate)(HarnessId::Codex.spec().row("PreToolUse").unwrap(), &mut m);
    assert_eq!(m["tool_name"], "Edit");
    assert_eq!(m["tool_input"]["file_path"], "b.rs");
    assert_eq!(m["tool_input"]["old_string"], "old");
    assert_eq!(m["tool_input"]["new_string"], "new");
    assert_eq!(
        m["tool_input"]["file_paths"],
        serde_json::json!(["b.rs", "c.rs"])
    );
}

#[test]
fn every_decision_field_sits_on_an_event_whose_mechanism_is_a_permission_decision() {
    for h in HarnessId::ALL {
        let spec = h.spec();
        for (native, _) in spec.decides {
            let row = spec
                .row(native)
                .unwrap_or_else(|| panic!("{}: `{native}` is not one of its events", h.id()));
            assert_eq!(
                row.canonical.spec().decision,
                crate::event::Decision::Permission,
                "{} `{native}`",
                h.id()
            );
        }
        // Only the events an explicit deny can reach use the exit code.
        for (native, d) in spec.decides {
            if *d == super::Decides::ExitCode {
                assert!(
                    matches!(h, HarnessId::Kiro | HarnessId::Windsurf),
                    "{} `{native}`",
                    h.id()
                );
            }
        }
    }
}

/// Issue 26, point 6: every file a harness reads hooks, plugins,
/// extensions or skills from, as install writes or reads it (each scope's
/// config file, an owned file, a skill, every other source, an older form,
/// an installed plugin's files), is one the outside-project guard knows
/// (`hookfiles::TABLE`, the one list the guard reads).
#[test]
fn every_hook_file_a_harness_has_is_one_the_guard_knows() {
    use super::config::{Roots, Scope};
    use std::path::{Path, PathBuf};
    let roots = Roots {
        home: PathBuf::from("/h"),
        project: PathBuf::from("/p"),
        cwd: PathBuf::from("/c"),
    };
    let var = |k: &str| std::env::var(k).ok();
    let mut unknown: Vec<String> = Vec::new();
    let mut check = |h: HarnessId, what: &str, p: &Path| {
        let s = p.to_string_lossy();
        if crate::hookfiles::lookup(&s, &var).is_none() {
            unknown.push(format!("{}: {what} {s}", h.id()));
        }
    };
    // Where each plugin format is installed for its harness to load it.
    let installed = |h: HarnessId| -> Option<PathBuf> {
        Some(PathBuf::from(match h {
            HarnessId::ClaudeCode => "/h/.claude/plugins/cache/m/cuecard/1.0",
            HarnessId::Codex => "/h/.codex/plugins/cache/m/cuecard/1.0",
            HarnessId::Copilot => "/h/.copilot/installed-plugins/m/cuecard",
            HarnessId::Gemini => "/h/.gemini/extensions/cuecard",
            _ => return None,
        }))
    };
    let mut counted = 0;
    for &h in HarnessId::ALL {
        let Some(c) = h.spec().config else { continue };
        let forms = std::iter::once(c).chain(c.legacy);
        for c in forms {
            for scope in [Scope::User, Scope::Project, Scope::Managed] {
                if let Some(p) = (c.path)(scope, &roots) {
                    check(h, "config file", &p);
                    counted += 1;
                }
                if let Some(d) = (c.skills_dir)(scope, &roots) {
                    check(h, "skill", &d.join("cuecard-recover/SKILL.md"));
                    check(h, "skill script", &d.join("cuecard-recover/run.sh"));
                    counted += 1;
                }
            }
            for p in (c.other_sources)(&roots) {
                check(h, "other source", &p);
                counted += 1;
            }
            if let (Some(f), Some(dir)) = (c.plugin, installed(h)) {
                check(h, "plugin hooks", &dir.join(f.hooks));
                check(h, "plugin manifest", &dir.join(f.manifest));
                counted += 1;
            } else {
                assert!(
                    c.plugin.is_none(),
                    "{}: where is its plugin installed?",
                    h.id()
                );
            }
        }
    }
    assert!(counted > 40, "{counted}");
    assert!(
        unknown.is_empty(),
        "files the outside-project guard does not know (add them to hookfiles::TABLE):\n{}",
        unknown.join("\n")
    );
}

/// `install --detect` reads each harness's own signs: every harness cuecard
/// installs into names a program and a folder of its own under HOME.
#[test]
fn every_installable_harness_names_its_signs_of_use() {
    let roots = config::Roots {
        home: "/h".into(),
        project: "/p".into(),
        cwd: "/p".into(),
    };
    let mut dirs = Vec::new();
    for h in HarnessId::ALL {
        let Some(c) = h.config() else { continue };
        assert!(c.presence.known(), "{}: no program named", h.id());
        let dir = (c.presence.dir)(&roots);
        assert!(dir.is_absolute(), "{}: no folder named", h.id());
        assert!(
            !dirs.contains(&dir),
            "{}: {dir:?} is another harness's",
            h.id()
        );
        dirs.push(dir);
    }
}
