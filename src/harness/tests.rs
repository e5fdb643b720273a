use super::*;
use crate::event::EVENTS;

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
                crate::event::lookup(r.canonical).is_some(),
                "{} {}",
                h.id(),
                r.canonical
            );
            assert!(
                spec.events[i + 1..].iter().all(|o| o.native != r.native),
                "{} lists {} twice",
                h.id(),
                r.native
            );
            if let Delivery::Deferred(to) = r.delivery {
                assert!(
                    delivers_context(*h, to),
                    "{}: {} defers to a dead event",
                    h.id(),
                    r.native
                );
            }
        }
    }
}

#[test]
fn claude_code_mirrors_the_event_table() {
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
    assert_eq!(HarnessId::ClaudeCode.spec().events.len(), EVENTS.len());
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
        vec!["PostToolUse", "PreToolUse"]
    );
    assert_eq!(
        evaluated_events(HarnessId::Gemini, "BeforeTool"),
        vec!["PreToolUse"]
    );
    // Codex rejects context on Stop; Copilot ignores sessionStart.
    assert_eq!(native_event(HarnessId::Codex, "Stop"), None);
    assert_eq!(native_event(HarnessId::Copilot, "SessionStart"), None);
    assert_eq!(
        native_event(HarnessId::Copilot, "PreToolUse"),
        Some("preToolUse")
    );
    assert_eq!(
        native_event(HarnessId::Kiro, "SessionStart"),
        Some("agentSpawn")
    );
    assert_eq!(native_event(HarnessId::Kiro, "PostToolUse"), None);
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
        "bash|powershell|create|edit"
    );
    assert_eq!(m(HarnessId::Devin, "Bash"), "^(?:exec)$");
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
