//! pi: cuecard's registration is one extension file it owns
//! (`~/.pi/agent/extensions/cuecard.js`, `.pi/extensions/cuecard.js`), on
//! the OpenCode plugin's terms: install writes it, verify reads it back, an
//! edited file is reported and never overwritten, uninstall removes only
//! cuecard's unedited file. The generated extension itself runs under node
//! in a stand-in for pi's extension host (tests/support/pi_host.cjs) against
//! the real binary: it delivers the answers where pi hands them to the
//! model, blocks a denied call, and fails open on a missing binary, a hang
//! and garbage output.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use support::Sandbox;
use support::plugin_host::{no_node, node};

fn user_extension(sb: &Sandbox) -> PathBuf {
    sb.home().join(".pi/agent/extensions/cuecard.js")
}

fn run(sb: &Sandbox, args: &[&str]) -> support::Output {
    sb.test().args(args).run()
}

fn put(path: PathBuf, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the stand-in host on `extension` (copied to `.cjs`) in the
/// sandbox's environment, bounded.
fn host(sb: &Sandbox, extension: &Path) -> Value {
    host_with(sb, extension, None)
}

/// [`host`], the tool call's assistant message ending with `usage` (pi's
/// `message.usage`) when given.
fn host_with(sb: &Sandbox, extension: &Path, usage: Option<&str>) -> Value {
    let module = sb.path().join("extension.cjs");
    std::fs::copy(extension, &module).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/pi_host.cjs");
    let mut child = std::process::Command::new(node().expect("node"))
        .arg(&script)
        .arg(&module)
        .arg(sb.project())
        .args(usage)
        .env("HOME", sb.home())
        .env("CUECARD_STATE_DIR", sb.state())
        .env("CUECARD_DATA_DIR", sb.data())
        .env("XDG_CONFIG_HOME", sb.home().join(".config"))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the host did not finish");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn install_verify_reinstall_uninstall_leave_the_users_other_extensions_alone() {
    let sb = Sandbox::new();
    let mine = put(
        sb.home().join(".pi/agent/extensions/mine.ts"),
        "export default function (pi) {}\n",
    );
    let out = run(&sb, &["install", "--harness", "pi"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(user_extension(&sb)).unwrap();
    assert!(
        text.starts_with("// cuecard-owned-file: pi extension"),
        "{text}"
    );
    assert!(text.contains(&format!(
        "\"command\":{}",
        Value::from(support::bin().to_string_lossy().as_ref())
    )));
    for event in ["session_start", "before_agent_start", "tool_result"] {
        assert!(
            text.contains(&format!("\"{event}\":[")),
            "{event} is registered"
        );
    }
    let verify = run(&sb, &["verify", "--harness", "pi"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
    let again = run(&sb, &["install", "--harness", "pi"]);
    assert!(again.stdout.contains("unchanged"), "{}", again.stdout);

    let edited = text.clone() + "// my change\n";
    std::fs::write(user_extension(&sb), &edited).unwrap();
    let verify = sb.test().args(["verify", "--harness", "pi"]).status(1);
    assert!(
        verify.stdout.contains("edited by hand"),
        "{}",
        verify.stdout
    );
    std::fs::write(user_extension(&sb), &text).unwrap();

    let out = run(&sb, &["uninstall", "--harness", "pi"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(!user_extension(&sb).exists(), "{}", out.stdout);
    assert_eq!(
        std::fs::read_to_string(&mine).unwrap(),
        "export default function (pi) {}\n"
    );
}

#[test]
fn the_project_extension_names_cuecard_through_path_only() {
    let sb = Sandbox::new();
    let out = run(&sb, &["install", "--harness", "pi", "--scope", "project"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(sb.project().join(".pi/extensions/cuecard.js")).unwrap();
    assert!(text.contains("\"command\":\"cuecard\""), "{text}");
    assert!(
        !text.contains(&sb.path().to_string_lossy().into_owned()),
        "nothing of this machine: {text}"
    );
}

#[test]
fn the_extension_puts_the_answers_where_pi_hands_them_to_the_model() {
    if no_node() {
        return;
    }
    let sb = Sandbox::new();
    // A policy, so the deny on tool_call is registered too.
    put(
        sb.home().join(".config/cuecard/config.toml"),
        "[policy]\ndestructive = \"deny\"\n",
    );
    assert_eq!(run(&sb, &["install", "--harness", "pi"]).code, 0);
    let got = host(&sb, &user_extension(&sb));
    let events: Vec<&str> = got["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert!(events.contains(&"tool_call"), "{got}");
    let system = got["system"].as_str().unwrap();
    assert!(system.starts_with("base\n\n"), "{got}");
    assert!(
        system.contains("# cuecard is active in this session"),
        "the session-start card joins the first turn's system prompt: {got}"
    );
    assert!(
        !got["system_second_turn"]
            .as_str()
            .unwrap()
            .contains("# cuecard is active in this session"),
        "once per session: {got}"
    );
    assert!(
        got["before"].as_str().unwrap().starts_with("blocked: "),
        "a deny blocks the call: {got}"
    );
    assert!(
        got["before"].as_str().unwrap().contains("/srv/canary"),
        "{got}"
    );
    let after = got["after"].as_str().unwrap();
    assert!(after.starts_with("removed\n\n"), "{got}");
    assert!(
        after.contains("/srv/canary"),
        "the advisory is appended to the tool result: {got}"
    );
    assert!(
        got["system_after_compaction"]
            .as_str()
            .unwrap()
            .contains("# cuecard is active in this session"),
        "after session_compact the start cards come again: {got}"
    );
}

#[test]
fn the_extension_fails_open_on_a_missing_binary_a_hang_and_garbage() {
    if no_node() {
        return;
    }
    let sb = Sandbox::new();
    assert_eq!(run(&sb, &["install", "--harness", "pi"]).code, 0);
    let text = std::fs::read_to_string(user_extension(&sb)).unwrap();
    let bin = Value::from(support::bin().to_string_lossy().as_ref()).to_string();
    let hang = sb.write("hang.sh", "#!/bin/sh\nexec sleep 30\n");
    let garbage = sb.write(
        "garbage.sh",
        "#!/bin/sh\ncat >/dev/null\necho 'not json {'\nexit 3\n",
    );
    #[cfg(unix)]
    for p in [&hang, &garbage] {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cases = [
        (
            "missing",
            Value::from(sb.path().join("no/such/cuecard").to_string_lossy().as_ref()).to_string(),
            10,
        ),
        (
            "hang",
            Value::from(hang.to_string_lossy().as_ref()).to_string(),
            1,
        ),
        (
            "garbage",
            Value::from(garbage.to_string_lossy().as_ref()).to_string(),
            10,
        ),
    ];
    for (what, program, timeout) in cases {
        let broken = text
            .replace(
                &format!("\"command\":{bin}"),
                &format!("\"command\":{program}"),
            )
            .replace("\"timeout\":10", &format!("\"timeout\":{timeout}"));
        assert_ne!(broken, text);
        let ext = sb.path().join(format!("{what}.js"));
        std::fs::write(&ext, broken).unwrap();
        let got = host(&sb, &ext);
        assert_eq!(got["system"], "base", "{what}: {got}");
        assert_eq!(got["before"], "allowed", "{what}: {got}");
        assert_eq!(got["after"], "removed", "{what}: {got}");
    }
}

/// pi's provider responses carry usage (`message.usage`, recorded in the
/// shared rig's payloads-r3/pi/turn_end.json); the extension passes the last
/// one, with the model's window, so the compaction warning is measured, not
/// estimated, and `status` says so.
#[test]
fn the_extension_passes_the_reported_usage_and_the_warning_is_measured() {
    if no_node() {
        return;
    }
    let sb = Sandbox::new();
    assert_eq!(run(&sb, &["install", "--harness", "pi"]).code, 0);
    let usage = r#"{"input":1000,"output":500,"cacheRead":168000,"cacheWrite":500,"totalTokens":170000,"cost":{"total":0}}"#;
    let got = host_with(&sb, &user_extension(&sb), Some(usage));
    let after = got["after"].as_str().unwrap().replace('\n', " ");
    assert!(after.starts_with("removed  "), "{got}");
    assert!(
        after.contains("This session's context holds 170,000 tokens of a 200,000-token window (85%; measured: the usage the harness reported; window: stated by the harness)"),
        "the warning from pi's reported usage and its model's window: {got}"
    );
    // The host compacts, then starts a turn: pi's last usage is from before
    // the compaction, so the extension drops it and the session's size is
    // the estimate until pi reports again (the one warning stays counted).
    let status = run(&sb, &["status"]).stdout;
    assert!(status.contains("1 in all"), "{status}");
    assert!(status.contains("(size: estimate)"), "{status}");

    // Without a reported usage the session's estimate (15,000 tokens and a
    // few calls) is far from any threshold: no warning.
    let sb = Sandbox::new();
    assert_eq!(run(&sb, &["install", "--harness", "pi"]).code, 0);
    let got = host(&sb, &user_extension(&sb));
    assert!(
        !got["after"]
            .as_str()
            .unwrap()
            .contains("Context is filling up")
            && !got["after"].as_str().unwrap().contains("context holds"),
        "{got}"
    );
}
