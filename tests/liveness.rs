//! Hooks that stopped running (issue 31 point 3), through the real binary:
//! an installed harness that has not called cuecard since install, or
//! since its config changed, is named by `status` and `doctor` with the
//! likely reason; a call from it clears that; a session start on another
//! harness says so once a day, not within an hour of the install.
#![cfg(unix)]

mod support;

use serde_json::{Value, json};
use std::time::{Duration, SystemTime};
use support::Sandbox;

const NOTE: &str = "codex (user) has not called cuecard";

fn install_codex(sb: &Sandbox) {
    sb.test().args(["install", "--harness", "codex"]).run();
}

/// Moves the install's recorded time and the config file's mtime back.
fn backdate_install(sb: &Sandbox, secs: u64) {
    let record = sb.data().join("install/record.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&record).unwrap()).unwrap();
    let config = sb.home().join(".codex/hooks.json");
    let key = config.to_string_lossy().into_owned();
    let t = v[&key]["installed"]
        .as_u64()
        .expect("install records its time");
    v[&key]["installed"] = json!(t - secs);
    std::fs::write(&record, v.to_string()).unwrap();
    support::set_mtime(&config, SystemTime::now() - Duration::from_secs(secs));
}

fn start(sb: &Sandbox, harness: &str, session: &str) -> String {
    let mut p = sb.fixture(harness, "SessionStart.startup");
    p["session_id"] = json!(session);
    let t = sb.test();
    let t = if harness == "codex" {
        t.args([
            "dispatch",
            "--contract",
            "codex",
            "SessionStart",
            "session-start",
        ])
    } else {
        t.dispatch("SessionStart", &["session-start"])
    };
    t.json(&p).run().stdout
}

#[test]
fn status_and_doctor_name_a_harness_that_has_not_called_since_install() {
    let sb = Sandbox::new();
    install_codex(&sb);
    let status = sb.cmd(&["status"]).stdout;
    assert!(
        status.contains("not calling: codex (user): ")
            && status.contains("has not called cuecard since it was installed"),
        "{status}"
    );
    assert!(status.contains("last call: never"), "{status}");
    // Codex trusts a hook only once told: the likely reason is that.
    assert!(status.contains("likely reason: untrusted"), "{status}");
    let doctor = sb.test().args(["doctor", "--harness", "codex"]).status(3);
    assert!(
        doctor.stdout.contains("note codex (user): ")
            && doctor
                .stdout
                .contains("has not called cuecard since it was installed"),
        "{}",
        doctor.stdout
    );

    // A call from Codex: it is running.
    start(&sb, "codex", "codex-1");
    let status = sb.cmd(&["status"]).stdout;
    assert!(!status.contains("not calling"), "{status}");
    assert!(
        status.contains("codex-1  (gpt-5.4, codex, updated"),
        "{status}"
    );

    // Its config changes after that call (an update, an edit): silent
    // again until the next call.
    let config = sb.home().join(".codex/hooks.json");
    support::set_mtime(&config, SystemTime::now() + Duration::from_secs(120));
    let status = sb.cmd(&["status"]).stdout;
    assert!(
        status.contains("has not called cuecard since its config file changed"),
        "{status}"
    );
    // The config file gone.
    std::fs::remove_file(&config).unwrap();
    let status = sb.cmd(&["status"]).stdout;
    assert!(
        status.contains("and its config file is gone") && status.contains("removed or moved"),
        "{status}"
    );
}

#[test]
fn another_harness_session_start_says_so_at_most_once_a_day() {
    let sb = Sandbox::new();
    install_codex(&sb);
    // Within the hour after install: no nagging.
    assert!(!start(&sb, "claude-code", "fresh").contains(NOTE));
    // The marker of that check is the day's: clear it, as a day passing.
    let clear_marker = || {
        for e in std::fs::read_dir(sb.state().join("markers")).unwrap() {
            std::fs::write(e.unwrap().path(), "0").unwrap();
        }
    };
    clear_marker();
    backdate_install(&sb, 2 * 3600);
    let first = start(&sb, "claude-code", "a");
    let v: Value = serde_json::from_str(&first).unwrap();
    let msg = v["systemMessage"].as_str().unwrap_or_default();
    assert!(
        msg.contains(&format!("{NOTE} since it was installed")) && msg.contains("cuecard doctor"),
        "{first}"
    );
    // The same day: not again, whichever session.
    assert!(!start(&sb, "claude-code", "b").contains(NOTE));
    // A day later: again.
    clear_marker();
    assert!(start(&sb, "claude-code", "c").contains(NOTE));
    // Codex's own session start never names Codex, and its call clears it.
    clear_marker();
    assert!(!start(&sb, "codex", "x").contains(NOTE));
    clear_marker();
    assert!(!start(&sb, "claude-code", "d").contains(NOTE));
}

#[test]
fn the_harness_program_updated_or_gone_is_the_likely_reason() {
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "claude-code"])
        .run();
    // `claude` on PATH, changed after the install: an update.
    let bin = sb.path().join("harness-bin");
    let claude = support::put(bin.join("claude"), "#!/bin/sh\n");
    std::fs::set_permissions(&claude, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    support::set_mtime(&claude, SystemTime::now() + Duration::from_secs(60));
    let status = sb.test().arg("status").path_prefix(&bin).run().stdout;
    assert!(
        status.contains("not calling: claude-code (user): ")
            && status.contains("likely reason: the harness was updated")
            && status.contains(&claude.display().to_string()),
        "{status}"
    );
    // No `claude` anywhere on PATH: the program is missing.
    if !["/usr/bin/claude", "/bin/claude"]
        .iter()
        .any(|p| std::path::Path::new(p).exists())
    {
        let status = sb.cmd(&["status"]).stdout;
        assert!(
            status.contains("the harness's program `claude` is not on PATH"),
            "{status}"
        );
    }
}
