//! Each harness's recorded payloads (tests/fixtures/<harness>/) translated
//! into the canonical shape, and the translations a payload needs.

use super::super::*;

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
    let m = codex_patch("*** Begin Patch\n*** Update File: a.rs\n@@\n-old\n+new\n*** End Patch");
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
    let m = codex_patch(
        "*** Begin Patch\n*** Update File: a.rs\n*** Move to: b.rs\n@@\n-old\n+new\n*** Add File: c.rs\n+c\n*** End Patch",
    );
    assert_eq!(m["tool_name"], "Edit");
    assert_eq!(m["tool_input"]["file_path"], "b.rs");
    assert_eq!(m["tool_input"]["old_string"], "old");
    assert_eq!(m["tool_input"]["new_string"], "new");
    assert_eq!(
        m["tool_input"]["file_paths"],
        serde_json::json!(["b.rs", "c.rs"])
    );
}

/// Codex's PreToolUse `apply_patch` call carrying `patch`, translated.
fn codex_patch(patch: &str) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("tool_name".into(), "apply_patch".into());
    m.insert("tool_input".into(), serde_json::json!({ "command": patch }));
    let spec = HarnessId::Codex.spec();
    (spec.translate)(spec.row("PreToolUse").unwrap(), &mut m);
    m
}
