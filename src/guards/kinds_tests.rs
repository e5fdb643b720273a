//! Every finding a PreToolUse guard reports on the guard fixtures and the
//! held-out sets carries a kind its guard lists (`Guard::kinds`), so its
//! policy id is one `cuecard policy --ids` offers and a policy or a pack can
//! name (issue 32, point 3); and each guard's list is its typed kinds'
//! ids, one each, in order.

use super::GUARDS;
use crate::context::Ctx;
use crate::payload::Payload;
use serde_json::{Map, Value};
use std::path::Path;

/// The tool calls of a fixture file: the guard fixtures' `tool_name` and
/// `tool_input`, the held-out sets' `tool`/`input` or `command`.
fn calls(path: &Path, project: &str, home: &str) -> Vec<Map<String, Value>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut out = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let line = line.replace("${PROJECT}", project).replace("${HOME}", home);
        let v: Value = serde_json::from_str(&line).unwrap();
        let tool = v
            .get("tool_name")
            .or_else(|| v.get("tool"))
            .cloned()
            .unwrap_or_else(|| "Bash".into());
        let input = v
            .get("tool_input")
            .or_else(|| v.get("input"))
            .cloned()
            .unwrap_or_else(|| serde_json::json!({ "command": v["command"] }));
        let mut raw = Map::new();
        raw.insert("hook_event_name".into(), "PreToolUse".into());
        raw.insert("cwd".into(), project.into());
        raw.insert("tool_name".into(), tool);
        raw.insert("tool_input".into(), input);
        super::effects::mcp::canonicalize(&mut raw);
        out.push(raw);
    }
    out
}

#[test]
fn every_finding_kind_is_one_its_guard_lists() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let project = home.join("work/project");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    let (project, home) = (project.to_string_lossy(), home.to_string_lossy());
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(root.join("guards"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for f in ["effects.jsonl", "effects-2.jsonl", "mcp.jsonl"] {
        files.push(root.join("heldout").join(f));
    }
    let event = crate::event::lookup("PreToolUse").unwrap();
    let guards: Vec<_> = GUARDS
        .iter()
        .filter(|g| g.events().contains(&"PreToolUse"))
        .collect();
    let mut found = 0;
    for file in &files {
        for raw in calls(file, &project, &home) {
            let payload = Payload::from_map(raw);
            let ctx = Ctx::new(event, &payload, None);
            for g in &guards {
                let Some(f) = g.check(&ctx) else { continue };
                found += 1;
                assert!(
                    f.kind.is_empty() || g.kinds().iter().any(|(k, _)| *k == f.kind),
                    "{}: {} reports the kind `{}`, which it does not list ({})",
                    file.display(),
                    g.name(),
                    f.kind,
                    f.target
                );
            }
        }
    }
    assert!(found > 1000, "the fixtures fire: {found}");
}

/// The ids `name`'s `kinds` lists.
fn listed(name: &str) -> Vec<&'static str> {
    let g = super::lookup(name).unwrap();
    g.kinds().iter().map(|(id, _)| *id).collect()
}

#[test]
fn each_guards_list_is_its_typed_kinds() {
    use super::{effects, protected_branch, secrets};
    let destructive: Vec<_> = effects::Kind::DESTRUCTIVE.iter().map(|k| k.id()).collect();
    assert_eq!(listed("destructive"), destructive);
    let secrets_ids: Vec<_> = secrets::Kind::ALL.iter().map(|k| k.id()).collect();
    assert_eq!(listed("secrets"), secrets_ids);
    for id in secrets_ids {
        assert_eq!(secrets::Kind::from_id(id).map(secrets::Kind::id), Some(id));
    }
    let branch: Vec<_> = protected_branch::Kind::ALL.iter().map(|k| k.id()).collect();
    assert_eq!(listed("protected-branch"), branch);
    // The opaque id is the one `Finding::is_opaque` knows, in each guard.
    assert_eq!(effects::Kind::Opaque.id(), crate::finding::OPAQUE);
    assert_eq!(secrets::Kind::Opaque.id(), crate::finding::OPAQUE);
    assert_eq!(protected_branch::Kind::Opaque.id(), crate::finding::OPAQUE);
    // Every other guard reports one kind, its own name.
    for g in super::GUARDS {
        if !["destructive", "secrets", "protected-branch"].contains(&g.name()) {
            assert!(g.kinds().is_empty(), "{} lists kinds", g.name());
        }
    }
}
