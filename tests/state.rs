//! Session state through the real binary: the root's security checks,
//! hostile session ids, concurrent dispatches, a process killed mid-write,
//! corrupt state, the once-per-session Stop card, the failure record and the
//! sweep.

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use support::Sandbox;

fn post(sb: &Sandbox, session: Value) -> Value {
    let mut p = sb.fixture("claude-code", "PostToolUse.Bash");
    p["session_id"] = session;
    p
}

fn status(sb: &Sandbox, session: &str) -> Value {
    let out = sb
        .test()
        .args(["status", "--session", session, "--json"])
        .run();
    serde_json::from_str(&out.stdout).unwrap()
}

fn calls(sb: &Sandbox, session: &str) -> u64 {
    status(sb, session)["sessions"][0]["state"]["calls"]
        .as_u64()
        .unwrap_or(0)
}

fn session_file(sb: &Sandbox, session: &str) -> PathBuf {
    let key = status(sb, session)["sessions"][0]["key"]
        .as_str()
        .unwrap()
        .to_string();
    sb.state().join("sessions").join(format!("{key}.json"))
}

fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p.clone());
            }
            out.push(p);
        }
    }
    out
}

#[test]
fn concurrent_dispatches_on_one_session_are_all_counted() {
    let sb = Sandbox::new();
    let p = post(&sb, json!("busy-session"));
    const N: usize = 32;
    std::thread::scope(|s| {
        for _ in 0..N {
            s.spawn(|| {
                sb.test()
                    .dispatch("PostToolUse", &[])
                    .json(&p)
                    .env("CUECARD_DEADLINE_MS", "5000")
                    .timeout(Duration::from_secs(60))
                    .run();
            });
        }
    });
    assert_eq!(calls(&sb, "busy-session"), N as u64, "no update lost");
    let temps: Vec<_> = all_files(&sb.state())
        .into_iter()
        .filter(|p| p.to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(temps.is_empty(), "temp files left: {temps:?}");
}

#[test]
fn a_process_killed_mid_write_leaves_the_previous_state() {
    let sb = Sandbox::new();
    let p = post(&sb, json!("killed"));
    for _ in 0..3 {
        sb.test().dispatch("PostToolUse", &[]).json(&p).run();
    }
    assert_eq!(calls(&sb, "killed"), 3);
    // Debug builds SIGKILL themselves between the temp write and the rename
    // (while holding the session's lock).
    sb.test()
        .dispatch("PostToolUse", &[])
        .json(&p)
        .env("CUECARD_TEST_KILL", "state:before-rename")
        .exit(-1)
        .run();
    assert_eq!(calls(&sb, "killed"), 3, "the previous state is readable");
    let temp_left = || {
        all_files(&sb.state().join("sessions"))
            .into_iter()
            .any(|p| p.to_string_lossy().ends_with(".tmp"))
    };
    assert!(temp_left(), "the killed writer's temp is there");
    // The dead holder's lock does not wedge the session; its temp goes.
    sb.test().dispatch("PostToolUse", &[]).json(&p).run();
    assert_eq!(calls(&sb, "killed"), 4);
    assert!(!temp_left(), "the stray temp was removed");
}

#[test]
fn corrupt_state_is_reset_and_recorded() {
    let sb = Sandbox::new();
    let p = post(&sb, json!("corrupt"));
    sb.test().dispatch("PostToolUse", &[]).json(&p).run();
    let f = session_file(&sb, "corrupt");
    for garbage in [
        &b"{\"calls\": 7, \"once\": [1,"[..],
        b"\xff\xfe\x00",
        b"[]",
        b"",
    ] {
        std::fs::write(&f, garbage).unwrap();
        let out = sb.test().dispatch("PostToolUse", &[]).json(&p).run();
        assert_eq!(out.stdout, "");
        assert_eq!(calls(&sb, "corrupt"), 1, "reset, then counted");
    }
    let v = status(&sb, "corrupt");
    let kinds: Vec<&str> = v["failures"]["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds.iter().filter(|k| **k == "state-corrupt").count(), 4);
    // Each is named by its call's record: the event, and the session key
    // learnt when the state was loaded.
    for e in v["failures"]["entries"].as_array().unwrap() {
        if e["kind"] == "state-corrupt" {
            assert_eq!(e["event"], "PostToolUse", "{e}");
            assert_eq!(e["session"], "s-corrupt", "{e}");
        }
    }
}

#[test]
fn hostile_session_ids_stay_inside_the_root_and_apart() {
    let sb = Sandbox::new();
    let ids = [
        json!("../../etc/passwd"),
        json!("../x"),
        json!("/tmp/abs"),
        json!(".."),
        json!(" "),
        json!(""),
        json!("a\u{0}b"),
        json!("x".repeat(10_000)),
        json!(5),
        json!({"id": "x"}),
        json!(null),
        json!("x"),
    ];
    for id in &ids {
        let p = post(&sb, id.clone());
        sb.test().dispatch("PostToolUse", &[]).json(&p).run();
    }
    let mut no_id = post(&sb, json!(null));
    no_id.as_object_mut().unwrap().remove("session_id");
    sb.test().dispatch("PostToolUse", &[]).json(&no_id).run();
    for f in all_files(sb.path()) {
        let s = f.to_string_lossy();
        assert!(!s.contains("passwd") && !s.contains("abs"), "escaped: {s}");
    }
    assert!(!Path::new("/tmp/abs.json").exists());
    // "x" has its own state, shared with nothing hostile.
    assert_eq!(calls(&sb, "x"), 1);
    // No id (absent, null, empty, blank): keyed by the transcript, so the
    // calls of that session add up.
    let out = sb.test().args(["status", "--json"]).run();
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    let keyed_by_transcript: Vec<u64> = v["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["key"].as_str().unwrap().starts_with("n-"))
        .map(|s| s["state"]["calls"].as_u64().unwrap())
        .collect();
    assert_eq!(keyed_by_transcript, vec![4]);
    let files = std::fs::read_dir(sb.state().join("sessions"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().unwrap() == "json")
        .count();
    assert_eq!(
        files, 10,
        "each distinct id its own file, the id-less ones one"
    );
}

#[cfg(unix)]
mod root {
    use super::*;
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    fn session_start(sb: &Sandbox, state: &Path) -> support::Output {
        let p = sb.fixture("claude-code", "SessionStart.startup");
        sb.test()
            .args(["dispatch", "-v", "SessionStart"])
            .json(&p)
            .env("CUECARD_STATE_DIR", state)
            .run()
    }

    #[test]
    fn a_symlinked_root_is_refused_and_the_hook_still_answers() {
        let sb = Sandbox::new();
        let real = sb.path().join("real");
        std::fs::create_dir(&real).unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o700)).unwrap();
        let link = sb.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        let out = session_start(&sb, &link);
        assert!(
            out.context().contains("cuecard is active"),
            "stateless, not silent"
        );
        assert!(out.stderr.contains("symlink"), "{}", out.stderr);
        assert_eq!(
            std::fs::read_dir(&real).unwrap().count(),
            0,
            "nothing written"
        );
        let st = sb
            .test()
            .args(["status"])
            .env("CUECARD_STATE_DIR", &link)
            .exit(1)
            .run();
        assert!(st.stdout.contains("symlink"), "{}", st.stdout);
    }

    #[test]
    fn a_world_writable_root_is_tightened_and_a_file_is_refused() {
        let sb = Sandbox::new();
        let dir = sb.path().join("open");
        std::fs::create_dir(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o777)).unwrap();
        session_start(&sb, &dir);
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        assert!(dir.join("sessions").is_dir(), "then used");
        let fresh = sb.path().join("new/state");
        session_start(&sb, &fresh);
        assert_eq!(
            std::fs::metadata(&fresh).unwrap().permissions().mode() & 0o777,
            0o700,
            "created 0700"
        );
        let file = sb.path().join("file");
        std::fs::write(&file, "x").unwrap();
        let out = session_start(&sb, &file);
        assert!(out.stderr.contains("not a directory"), "{}", out.stderr);
        let out = session_start(&sb, Path::new("relative/state"));
        assert!(
            out.stderr.contains("not an absolute path"),
            "{}",
            out.stderr
        );
    }

    #[test]
    fn a_root_owned_by_someone_else_is_refused() {
        let sb = Sandbox::new();
        // SAFETY: geteuid cannot fail.
        let me = unsafe { libc::geteuid() };
        let foreign = if me == 0 {
            let d = sb.path().join("theirs");
            std::fs::create_dir(&d).unwrap();
            let c = std::ffi::CString::new(d.to_string_lossy().as_bytes()).unwrap();
            // SAFETY: a valid C string; root may chown.
            assert_eq!(unsafe { libc::chown(c.as_ptr(), 65534, 65534) }, 0);
            d
        } else {
            // A directory root owns, which an unprivileged test cannot change.
            PathBuf::from("/")
        };
        assert_ne!(std::fs::metadata(&foreign).unwrap().uid(), me);
        let out = session_start(&sb, &foreign);
        assert!(
            out.stderr.contains("owned by another user"),
            "{}",
            out.stderr
        );
        assert!(out.context().contains("cuecard is active"));
    }
}

#[test]
fn the_stop_card_is_spent_only_when_emitted() {
    let sb = Sandbox::new();
    let mut p = sb.fixture("claude-code", "Stop");
    p["session_id"] = json!("stopper");
    let stop = |p: &Value| {
        sb.test()
            .dispatch("Stop", &["stop"])
            .json(p)
            .env("CUECARD_STOP_CARD", "1")
            .run()
            .stdout
    };
    p["stop_hook_active"] = json!(true);
    assert_eq!(stop(&p), "", "never while a Stop hook is active");
    p["stop_hook_active"] = json!(false);
    assert!(!stop(&p).is_empty(), "not spent by the silent call");
    assert_eq!(stop(&p), "", "at most once per session");
    p["session_id"] = json!("other");
    assert!(!stop(&p).is_empty(), "per session");
}

#[test]
fn failures_are_told_once_at_the_next_session_start_and_listed() {
    let sb = Sandbox::new();
    let secret = "sk-live-SECRET-PAYLOAD-CONTENT";
    sb.test()
        .dispatch("PostToolUse", &[])
        .stdin(format!("{{\"tool_name\": \"{secret}\""))
        .run();
    sb.test()
        .dispatch("SessionStart", &[])
        .never_closing_stdin()
        .env("CUECARD_DEADLINE_MS", "100")
        .run();
    let mut p = sb.fixture("claude-code", "SessionStart.startup");
    p["session_id"] = json!("next");
    let first = sb.test().dispatch("SessionStart", &[]).json(&p).run();
    let note = first.json().unwrap()["systemMessage"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(note.contains("2 hook failures"), "{note}");
    assert!(first.context().contains("cuecard is active"));
    p["session_id"] = json!("after-next");
    let again = sb.test().dispatch("SessionStart", &[]).json(&p).run();
    assert!(again.json().unwrap().get("systemMessage").is_none(), "once");

    let st = sb.test().args(["status"]).run();
    assert!(st.stdout.contains("unusable-payload"), "{}", st.stdout);
    assert!(st.stdout.contains("deadline"), "{}", st.stdout);
    assert!(!st.stdout.contains(secret));
    let state_text: String = all_files(&sb.state())
        .iter()
        .filter(|p| p.is_file())
        .map(|p| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned())
        .collect();
    assert!(!state_text.contains(secret), "no payload contents stored");
}

#[test]
fn the_ledger_records_what_was_injected() {
    let sb = Sandbox::new();
    let mut p = sb.fixture("claude-code", "SessionStart.startup");
    p["session_id"] = json!("ledger");
    let out = sb.test().dispatch("SessionStart", &[]).json(&p).run();
    let injected = out.context();
    let v = status(&sb, "ledger");
    let l = &v["sessions"][0]["state"]["ledger"];
    assert_eq!(l["entries"][0]["card"], "session-start");
    assert_eq!(l["entries"][0]["event"], "SessionStart");
    // Each fragment is counted; the joined text adds "\n\n" between them.
    let entries = l["entries"].as_array().unwrap().len();
    assert_eq!(
        l["chars"].as_u64().unwrap() as usize + 2 * (entries - 1),
        injected.chars().map(char::len_utf16).sum::<usize>()
    );
    assert!(l["tokens"].as_u64().unwrap() > 0);
    let text = sb
        .test()
        .args(["status", "--session", "ledger"])
        .run()
        .stdout;
    assert!(text.contains("session-start"), "{text}");
    assert!(text.contains("ledger"), "{text}");
    sb.test()
        .args(["status", "--session", "nobody"])
        .exit(1)
        .run();
}

fn age(path: &Path, days: u64) {
    support::set_mtime(path, SystemTime::now() - Duration::from_secs(days * 86_400));
}

#[test]
fn idle_state_is_swept_at_most_daily() {
    let sb = Sandbox::new();
    let old = post(&sb, json!("old"));
    let fresh = post(&sb, json!("fresh"));
    sb.test().dispatch("PostToolUse", &[]).json(&old).run();
    let old_file = session_file(&sb, "old");
    // A session is its record and its call log: both idle for 8 days.
    age(&old_file, 8);
    age(&old_file.with_extension("log"), 8);
    // A sweep ran today (the first call): nothing goes until a day passed.
    sb.test().dispatch("PostToolUse", &[]).json(&fresh).run();
    assert!(old_file.exists());
    age(&sb.state().join("last-sweep"), 2);
    sb.test()
        .dispatch("PostToolUse", &[])
        .json(&fresh)
        .env("CUECARD_STATE_MAX_AGE_DAYS", "9")
        .run();
    assert!(old_file.exists(), "8 days idle is within a 9-day age");
    age(&sb.state().join("last-sweep"), 2);
    sb.test().dispatch("PostToolUse", &[]).json(&fresh).run();
    assert!(!old_file.exists(), "idle past 7 days: swept");
    assert!(!old_file.with_extension("lock").exists());
    assert!(!old_file.with_extension("log").exists());
    assert_eq!(calls(&sb, "fresh"), 3);
}

#[test]
fn a_call_that_changes_nothing_else_appends_a_line_and_rewrites_no_record() {
    use std::os::unix::fs::MetadataExt;
    let sb = Sandbox::new();
    let mut pre = support::payload(&sb, "PreToolUse");
    pre["session_id"] = json!("quiet");
    pre["tool_name"] = json!("Bash");
    pre["tool_input"] = json!({"command": "cargo build"});
    sb.test().dispatch("PreToolUse", &[]).json(&pre).run();
    let record = session_file(&sb, "quiet");
    let before = std::fs::metadata(&record).unwrap();
    for _ in 0..3 {
        sb.test().dispatch("PreToolUse", &[]).json(&pre).run();
    }
    let after = std::fs::metadata(&record).unwrap();
    assert_eq!(
        (before.ino(), before.mtime_nsec()),
        (after.ino(), after.mtime_nsec()),
        "the record was not rewritten"
    );
    assert_eq!(
        calls(&sb, "quiet"),
        4,
        "every call is counted, from the log"
    );
    let log = std::fs::read_to_string(record.with_extension("log")).unwrap();
    assert_eq!(log.lines().count(), 4, "{log}");
}

#[test]
fn a_record_from_before_the_call_log_keeps_its_counters_and_ledger() {
    let sb = Sandbox::new();
    let p = post(&sb, json!("legacy"));
    sb.test().dispatch("PostToolUse", &[]).json(&p).run();
    let record = session_file(&sb, "legacy");
    let _ = std::fs::remove_file(record.with_extension("log"));
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    v["calls"] = json!(41);
    v["events"] = json!({"PostToolUse": 41});
    v["ledger"] = json!({"entries": [{"time": 1, "event": "PreToolUse", "card": "dependency",
        "kind": "card", "chars": 300, "tokens": 80}], "injections": 5, "reminders": 1,
        "warnings": 0, "chars": 1500, "tokens": 400});
    std::fs::write(&record, v.to_string()).unwrap();
    sb.test().dispatch("PostToolUse", &[]).json(&p).run();
    let s = &status(&sb, "legacy")["sessions"][0]["state"];
    assert_eq!(s["calls"], 42, "{s}");
    assert_eq!(s["ledger"]["injections"], 5, "{s}");
    assert_eq!(s["ledger"]["entries"][0]["card"], "dependency", "{s}");
    let stored: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    assert_eq!(
        stored["calls"], 0,
        "the counters moved to the log: {stored}"
    );
}
