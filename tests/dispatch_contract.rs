//! The runtime contract of `cuecard dispatch`, against the real binary:
//! exit 0 (or 2 for a configured deny), stdout empty or one JSON object, context only where the
//! event table says it reaches the model, a deadline, no process spawned.

mod support;

use serde_json::{Value, json};
use std::time::Duration;
use support::{Sandbox, payload};

/// Every Claude Code event (kept in step with src/event.rs by the test below).
const ALL_EVENTS: &[&str] = &[
    "SessionStart",
    "Setup",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PreToolUse",
    "PermissionRequest",
    "PermissionDenied",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Notification",
    "MessageDisplay",
    "SubagentStart",
    "SubagentStop",
    "TaskCreated",
    "TaskCompleted",
    "Stop",
    "StopFailure",
    "TeammateIdle",
    "InstructionsLoaded",
    "ConfigChange",
    "CwdChanged",
    "DirectoryAdded",
    "FileChanged",
    "WorktreeCreate",
    "WorktreeRemove",
    "PreCompact",
    "PostCompact",
    "Elicitation",
    "ElicitationResult",
    "SessionEnd",
];

/// Events whose output can reach the model on Claude Code.
const CONTEXT_EVENTS: &[&str] = &[
    "SessionStart",
    "Setup",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "SubagentStart",
    "Stop",
];

fn shipped_cards() -> Vec<String> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("messages");
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            (p.extension()? == "md").then(|| p.file_stem().unwrap().to_string_lossy().into_owned())
        })
        .collect();
    v.sort();
    v
}

/// A realistic payload: a recorded one where the rig captured the event,
/// else a canonical one with the fields that event carries.
fn realistic(sb: &Sandbox, event: &str) -> Value {
    let recorded = match event {
        "SessionStart" => Some("SessionStart.startup"),
        "UserPromptSubmit" => Some("UserPromptSubmit"),
        "PreToolUse" => Some("PreToolUse.Write"),
        "PostToolUse" => Some("PostToolUse.Edit"),
        "PostToolBatch" => Some("PostToolBatch"),
        "Stop" => Some("Stop"),
        "SubagentStop" => Some("SubagentStop"),
        "PreCompact" => Some("PreCompact.auto"),
        "PostCompact" => Some("PostCompact.manual"),
        "SessionEnd" => Some("SessionEnd.other"),
        _ => None,
    };
    if let Some(name) = recorded {
        return sb.fixture("claude-code", name);
    }
    let mut p = payload(sb, event);
    let extra = match event {
        "PostToolUseFailure" | "PermissionRequest" | "PermissionDenied" => {
            json!({"tool_name": "Bash", "tool_input": {"command": "cargo test"}, "error": "exit 101"})
        }
        "Notification" => {
            json!({"message": "Claude needs your permission", "notification_type": "permission_prompt"})
        }
        "SubagentStart" => json!({"agent_id": "a1", "agent_type": "Explore"}),
        "InstructionsLoaded" => {
            json!({"file_path": "CLAUDE.md", "load_reason": "session_start", "memory_type": "Project"})
        }
        "FileChanged" => json!({"file_path": ".env", "event": "change"}),
        "CwdChanged" => json!({"old_cwd": "/tmp", "new_cwd": sb.project()}),
        _ => json!({}),
    };
    for (k, v) in extra.as_object().unwrap() {
        p[k] = v.clone();
    }
    p
}

#[test]
fn every_event_with_every_card_exits_zero_with_conforming_stdout() {
    let sb = Sandbox::new();
    let cards = shipped_cards();
    let cards: Vec<&str> = cards.iter().map(String::as_str).collect();
    for event in ALL_EVENTS {
        let p = realistic(&sb, event);
        for (label, list) in [("all cards", &cards[..]), ("default cards", &[][..])] {
            let out = sb
                .test()
                .dispatch(event, list)
                .json(&p)
                .env("CUECARD_STOP_CARD", "1")
                .run();
            if !CONTEXT_EVENTS.contains(event) {
                assert_eq!(
                    out.stdout, "",
                    "{event} ({label}) has no channel to the model"
                );
            }
            if let Some(v) = out.json() {
                let hso = &v["hookSpecificOutput"];
                if !hso.is_null() {
                    assert_eq!(
                        hso["hookEventName"], *event,
                        "{event}: hookEventName must name the firing event"
                    );
                }
            }
        }
    }
}

#[test]
fn the_event_list_matches_the_table() {
    let sb = Sandbox::new();
    // `explain` reads the same table as the renderer: every event is known.
    for event in ALL_EVENTS {
        let out = sb.test().args(["explain", event]).run();
        assert!(!out.stdout.contains("unknown"), "{event}: {}", out.stdout);
    }
    assert_eq!(ALL_EVENTS.len(), 31);
}

#[test]
fn session_start_emits_the_start_card_without_license_or_bindings() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.startup");
    let out = sb
        .test()
        .dispatch("SessionStart", &["session-start", "compact-recovery"])
        .json(&p)
        .run();
    let ctx = out.context();
    assert!(
        ctx.starts_with("# cuecard is active in this session\n"),
        "{ctx}"
    );
    assert!(!ctx.contains("SPDX") && !ctx.contains("Bindings") && !ctx.contains("compacted"));
}

#[test]
fn session_start_after_compaction_adds_the_recovery_card() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.compact");
    let out = sb
        .test()
        .dispatch("SessionStart", &["session-start", "compact-recovery"])
        .json(&p)
        .run();
    let ctx = out.context();
    let start = ctx.find("# cuecard is active").expect("start card");
    let recovery = ctx
        .find("Earlier turns were replaced by a summary")
        .expect("recovery advisory");
    assert!(start < recovery, "stable order: start card first");
    assert!(
        ctx.ends_with("Full procedure: run `cuecard cards show compact-recovery`"),
        "{ctx}"
    );
    assert!(
        !ctx.contains("## Procedure"),
        "only the Advisory reaches the model"
    );
}

#[test]
fn full_procedure_points_at_the_materialised_card_when_it_exists() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.data().join("cards")).unwrap();
    let card = sb.data().join("cards/compact-recovery.md");
    std::fs::write(&card, "x").unwrap();
    let p = sb.fixture("claude-code", "SessionStart.compact");
    let out = sb
        .test()
        .dispatch("SessionStart", &["compact-recovery"])
        .json(&p)
        .run();
    assert!(
        out.context()
            .ends_with(&format!("Full procedure: {}", card.display()))
    );
}

#[test]
fn duplicate_card_names_emit_once() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.startup");
    let once = sb
        .test()
        .dispatch("SessionStart", &["session-start"])
        .json(&p)
        .run();
    // Another sandbox: SessionStart is answered once per session and source.
    let sb2 = Sandbox::new();
    let twice = sb2
        .test()
        .dispatch("SessionStart", &["session-start", "session-start"])
        .json(&sb2.fixture("claude-code", "SessionStart.startup"))
        .run();
    assert_eq!(once.stdout, twice.stdout);
}

const STOP_ADVISORY: &str = "This session asked for one end-of-turn check (`CUECARD_STOP_CARD` is set). If anything below applies, consider handling it now; otherwise simply finish: tests or builds that were not run after the last change, work left uncommitted that should be committed, and notes the next session would need.";

#[test]
fn stop_card_is_opt_in_and_never_while_a_stop_hook_is_active() {
    let sb = Sandbox::new();
    let mut p = sb.fixture("claude-code", "Stop");
    p["stop_hook_active"] = json!(false);
    sb.test()
        .dispatch("Stop", &["stop"])
        .json(&p)
        .stdout("")
        .run();
    let want = json!({"hookSpecificOutput": {"hookEventName": "Stop",
        "additionalContext": format!("{STOP_ADVISORY}\n\nFull procedure: run `cuecard cards show stop`")}});
    sb.test()
        .dispatch("Stop", &["stop"])
        .json(&p)
        .env("CUECARD_STOP_CARD", "1")
        .stdout(format!("{want}\n"))
        .run();
    p["stop_hook_active"] = json!(true);
    sb.test()
        .dispatch("Stop", &["stop"])
        .json(&p)
        .env("CUECARD_STOP_CARD", "1")
        .stdout("")
        .run();
}

#[test]
fn malformed_input_corpus_exits_zero_with_empty_stdout() {
    let sb = Sandbox::new();
    let mut deep = "[".repeat(100_000);
    deep.push_str(&"]".repeat(100_000));
    let mut big =
        br#"{"session_id":"s","hook_event_name":"SessionStart","source":"startup","x":""#.to_vec();
    big.resize(big.len() + 20 * 1024 * 1024, b'a');
    big.extend_from_slice(b"\"}");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("whitespace", b" \n\t ".to_vec()),
        ("open brace", b"{".to_vec()),
        ("array", b"[]".to_vec()),
        ("bare string", b"\"SessionStart\"".to_vec()),
        ("number", b"42".to_vec()),
        ("null", b"null".to_vec()),
        ("invalid utf-8", b"{\"source\":\"\xff\xfe\"}".to_vec()),
        ("deep nesting", deep.into_bytes()),
        ("20 MB string field", big),
        ("two objects", b"{}{}".to_vec()),
        ("trailing garbage", b"{\"source\":\"startup\"} x".to_vec()),
    ];
    for (label, bytes) in cases {
        for event in ["SessionStart", "PreToolUse", "Stop"] {
            let out = sb
                .test()
                .dispatch(event, &[])
                .stdin(bytes.clone())
                .env("CUECARD_STOP_CARD", "1")
                .run();
            assert_eq!(out.stdout, "", "{label} on {event}");
        }
    }
}

#[test]
fn wrong_types_for_every_field_read_never_crash() {
    let sb = Sandbox::new();
    let wrong = [
        json!(null),
        json!(1),
        json!(true),
        json!([]),
        json!({}),
        json!("x".repeat(100_000)),
    ];
    let fields = [
        "session_id",
        "cwd",
        "transcript_path",
        "hook_event_name",
        "tool_name",
        "tool_input",
        "tool_response",
        "source",
        "prompt",
        "model",
        "stop_hook_active",
    ];
    for field in fields {
        for w in &wrong {
            for event in [
                "SessionStart",
                "PreToolUse",
                "PostToolUse",
                "Stop",
                "UserPromptSubmit",
            ] {
                let mut p = realistic(&sb, event);
                p[field] = w.clone();
                sb.test()
                    .dispatch(event, &[])
                    .json(&p)
                    .env("CUECARD_STOP_CARD", "1")
                    .run();
            }
        }
    }
}

#[test]
fn stdin_that_never_closes_is_answered_by_the_deadline() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .dispatch("SessionStart", &["session-start"])
        .never_closing_stdin()
        .timeout(Duration::from_secs(15))
        .run();
    assert_eq!(out.stdout, "");
}

#[test]
fn bad_arguments_unknown_events_and_cards_exit_zero_silently() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.startup");
    let cases: Vec<Vec<&str>> = vec![
        vec!["dispatch"],
        vec!["dispatch", "--bogus"],
        vec!["dispatch", "NoSuchEvent"],
        vec!["dispatch", "sessionstart"],
        vec!["dispatch", "SessionStart", "no-such-card"],
        vec!["dispatch", "SessionStart", "../../etc/passwd"],
        vec!["dispatch", "--contract"],
    ];
    for args in cases {
        // Diagnostics only with -v.
        sb.test()
            .args(args.clone())
            .json(&p)
            .stdout("")
            .stderr("")
            .success();
    }
    // An unknown card next to a good one: the good one still speaks.
    let out = sb
        .test()
        .dispatch("SessionStart", &["nope", "session-start"])
        .json(&p)
        .run();
    assert!(out.context().contains("cuecard is active"));
    // -v explains on stderr, never on stdout.
    sb.test()
        .args(["dispatch", "-v", "NoSuchEvent"])
        .json(&p)
        .stdout("")
        .stderr_contains("unknown event")
        .success();
}

#[test]
fn cuecard_disable_prints_nothing() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.startup");
    for v in ["1", "true", "TRUE", "yes", "On"] {
        sb.test()
            .dispatch("SessionStart", &["session-start"])
            .json(&p)
            .env("CUECARD_DISABLE", v)
            .stdout("")
            .run();
    }
    for v in ["0", "false", ""] {
        // A session of its own each time: SessionStart is answered once per
        // session and source within ten seconds.
        let mut p = p.clone();
        p["session_id"] = format!("disable-{v}").into();
        let out = sb
            .test()
            .dispatch("SessionStart", &["session-start"])
            .json(&p)
            .env("CUECARD_DISABLE", v)
            .run();
        assert!(
            !out.stdout.is_empty(),
            "CUECARD_DISABLE={v:?} must not disable"
        );
    }
}

#[test]
fn a_panic_inside_a_guard_is_caught() {
    let sb = Sandbox::new();
    let p = sb.fixture("claude-code", "SessionStart.compact");
    // Debug builds panic inside one card's evaluation on request (dispatch.rs).
    let out = sb
        .test()
        .dispatch("SessionStart", &["session-start", "compact-recovery"])
        .json(&p)
        .env("CUECARD_TEST_PANIC", "card:compact-recovery")
        .run();
    assert!(
        out.context().contains("cuecard is active"),
        "other cards still speak"
    );
    assert!(
        !out.context().contains("Earlier turns"),
        "the panicking card is left out"
    );
    assert_eq!(out.stderr, "", "no traceback");
    let p = sb.fixture("claude-code", "Stop");
    sb.test()
        .dispatch("Stop", &["stop"])
        .json(&p)
        .env("CUECARD_STOP_CARD", "1")
        .env("CUECARD_TEST_PANIC", "card:stop")
        .stdout("")
        .run();
    let out = sb
        .test()
        .dispatch("SessionStart", &["session-start"])
        .json(&p)
        .env("CUECARD_TEST_PANIC", "pipeline")
        .run();
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr, "");
}

/// dispatch spawns no process: fake git, sh, python3, ... first on PATH and
/// in the project would leave a marker if anything ran them.
#[test]
fn dispatch_spawns_no_process() {
    let sb = Sandbox::new();
    let fake = sb.path().join("fakebin");
    std::fs::create_dir_all(&fake).unwrap();
    let marker = sb.path().join("markers");
    std::fs::create_dir_all(&marker).unwrap();
    let names = [
        "git", "sh", "bash", "python3", "python", "node", "npm", "cargo", "env", "ls", "cat", "rg",
        "uname",
    ];
    for dir in [
        fake.clone(),
        sb.project(),
        sb.project().join("node_modules/.bin"),
    ] {
        std::fs::create_dir_all(&dir).unwrap();
        for n in names {
            let p = dir.join(n);
            std::fs::write(&p, format!("#!/bin/sh\ntouch '{}/{n}'\n", marker.display())).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
    }
    sb.write(
        "package.json",
        "{\"scripts\":{\"preinstall\":\"touch marker\"}}",
    );
    sb.write(".git/hooks/pre-commit", "#!/bin/sh\ntouch marker\n");
    let cards = shipped_cards();
    let cards: Vec<&str> = cards.iter().map(String::as_str).collect();
    for event in ALL_EVENTS {
        let p = realistic(&sb, event);
        sb.test()
            .dispatch(event, &cards)
            .json(&p)
            .path_prefix(&fake)
            .env("CUECARD_STOP_CARD", "1")
            .run();
    }
    let ran: Vec<_> = std::fs::read_dir(&marker)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(ran.is_empty(), "dispatch ran: {ran:?}");
}

#[test]
fn dispatch_help_is_for_people_and_exits_zero() {
    let sb = Sandbox::new();
    let out = sb.test().args(["dispatch", "--help"]).run();
    assert!(
        out.stdout.contains("Usage: cuecard dispatch"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("--contract"));
}

/// The process as a harness starts it, for the tests of the start-up below:
/// `dispatch SessionStart session-start`, which always has an answer.
#[cfg(unix)]
fn start_command(sb: &Sandbox) -> std::process::Command {
    let mut cmd = std::process::Command::new(support::bin());
    cmd.args(["dispatch", "SessionStart", "session-start"])
        .current_dir(sb.project())
        .env_clear()
        .env("HOME", sb.home())
        .env("CUECARD_STATE_DIR", sb.state())
        .env("CUECARD_DATA_DIR", sb.data());
    cmd
}

#[cfg(unix)]
#[test]
fn a_harness_that_stops_reading_still_gets_exit_zero() {
    use std::io::Write;
    use std::process::Stdio;
    let sb = Sandbox::new();
    let body = serde_json::to_vec(&sb.fixture("claude-code", "SessionStart.startup")).unwrap();
    let mut child = start_command(&sb)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The reading end goes away before the answer is written: the write
    // fails (EPIPE) instead of the process being killed by SIGPIPE.
    drop(child.stdout.take());
    child.stdin.take().unwrap().write_all(&body).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_never_sends_the_answer_into_a_state_file() {
    use std::io::Write;
    use std::os::unix::process::CommandExt;
    use std::process::Stdio;
    let sb = Sandbox::new();
    let body = serde_json::to_vec(&sb.fixture("claude-code", "SessionStart.startup")).unwrap();
    let mut cmd = start_command(&sb);
    cmd.stdin(Stdio::piped()).stderr(Stdio::null());
    // SAFETY: only close(2) between fork and exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::close(1);
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(&body).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert_no_answer_in_state(&sb);
}

/// No file under the sandbox's state directory holds the SessionStart
/// answer; at least one file is there.
#[cfg(unix)]
fn assert_no_answer_in_state(sb: &Sandbox) {
    let mut dirs = vec![sb.state()];
    let mut files = 0;
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                dirs.push(p);
                continue;
            }
            files += 1;
            let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).into_owned();
            assert!(
                !text.contains("cuecard is active"),
                "the answer went into {}: {text}",
                p.display()
            );
        }
    }
    assert!(files > 0, "the dispatch kept its state");
}

/// A sandbox that hides /dev (an empty one mounted over it, as some
/// container set-ups have no /dev/null) and starts the hook with stdout
/// closed: the descriptor must still be taken before the first state file
/// is opened. Needs unprivileged user namespaces (`unshare -rm`); skipped
/// where they are not available.
#[cfg(target_os = "linux")]
#[test]
fn a_closed_stdout_without_dev_null_never_sends_the_answer_into_a_state_file() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let quiet = |c: &mut Command| {
        c.stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if !quiet(Command::new("unshare").args(["-rm", "sh", "-c", "mount -t tmpfs none /dev"])) {
        eprintln!("skipped: no unprivileged mount namespace here (unshare -rm)");
        return;
    }
    let sb = Sandbox::new();
    let body = serde_json::to_vec(&sb.fixture("claude-code", "SessionStart.startup")).unwrap();
    let mut cmd = Command::new("unshare");
    cmd.args([
        "-rm",
        "sh",
        "-c",
        r#"mount -t tmpfs none /dev && [ ! -e /dev/null ] && exec "$@" >&-"#,
        "sh",
    ])
    .arg(support::bin())
    .args(["dispatch", "SessionStart", "session-start"])
    .current_dir(sb.project())
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .env("HOME", sb.home())
    .env("CUECARD_STATE_DIR", sb.state())
    .env("CUECARD_DATA_DIR", sb.data())
    .stdin(Stdio::piped())
    .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    child.stdin.take().unwrap().write_all(&body).unwrap();
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0), "{status:?}");
    assert_no_answer_in_state(&sb);
}
