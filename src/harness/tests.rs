use super::*;
use crate::event::{EVENTS, Event};

/// Each harness's recorded payloads translated into the canonical shape.
mod translate;

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
