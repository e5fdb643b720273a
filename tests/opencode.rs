//! OpenCode: cuecard's registration is one plugin file it owns
//! (`~/.config/opencode/plugins/cuecard.js`, `.opencode/plugins/cuecard.js`).
//! Install writes it, verify reads it back, an edited file is reported and
//! never overwritten, a file of the user's own at that path is refused,
//! uninstall removes only cuecard's unedited file and leaves the user's
//! other plugins alone. The generated plugin itself runs under node in a
//! stand-in for OpenCode's plugin host (tests/support/opencode_host.mjs):
//! it delivers the answers where OpenCode hands them to the model, and
//! fails open on a missing binary, a hang and garbage output.

mod support;

use serde_json::Value;
use std::path::PathBuf;
use support::Sandbox;
use support::plugin_host::{host, no_node};

fn user_plugin(sb: &Sandbox) -> PathBuf {
    sb.home().join(".config/opencode/plugins/cuecard.js")
}

fn run(sb: &Sandbox, args: &[&str]) -> support::Output {
    sb.test().args(args).run()
}

/// A command expected to fail (exit 1).
fn fails(sb: &Sandbox, args: &[&str]) -> support::Output {
    sb.test().args(args).status(1)
}

fn put(path: PathBuf, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn install_verify_reinstall_uninstall_leave_the_users_other_plugins_alone() {
    let sb = Sandbox::new();
    let mine = put(
        sb.home().join(".config/opencode/plugins/mine.js"),
        "export const Mine = async () => ({})\n",
    );
    let out = run(&sb, &["install", "--harness", "opencode"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(user_plugin(&sb)).unwrap();
    assert!(
        text.starts_with("// cuecard-owned-file: OpenCode plugin"),
        "{text}"
    );
    // User scope runs this machine's binary, by its absolute path.
    assert!(text.contains(&format!(
        "\"command\":{}",
        Value::from(support::bin().to_string_lossy().as_ref())
    )));
    for event in ["session.created", "chat.message", "tool.execute.after"] {
        assert!(
            text.contains(&format!("\"{event}\":[")),
            "{event} is registered"
        );
    }
    let verify = run(&sb, &["verify", "--harness", "opencode"]);
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);
    let again = run(&sb, &["install", "--harness", "opencode"]);
    assert!(again.stdout.contains("unchanged"), "{}", again.stdout);
    assert_eq!(std::fs::read_to_string(user_plugin(&sb)).unwrap(), text);

    let out = run(&sb, &["uninstall", "--harness", "opencode"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(!user_plugin(&sb).exists(), "{}", out.stdout);
    assert_eq!(
        std::fs::read_to_string(&mine).unwrap(),
        "export const Mine = async () => ({})\n"
    );
    assert!(
        !sb.home()
            .join(".config/opencode/plugins/cuecard.js.cuecard.bak")
            .exists()
    );
}

#[test]
fn an_edited_plugin_is_reported_kept_and_not_written_over() {
    let sb = Sandbox::new();
    assert_eq!(run(&sb, &["install", "--harness", "opencode"]).code, 0);
    let edited = std::fs::read_to_string(user_plugin(&sb)).unwrap() + "// my change\n";
    std::fs::write(user_plugin(&sb), &edited).unwrap();

    let verify = fails(&sb, &["verify", "--harness", "opencode"]);
    assert!(
        verify.stdout.contains("edited by hand"),
        "{}",
        verify.stdout
    );

    let install = fails(&sb, &["install", "--harness", "opencode"]);
    assert!(
        install.stderr.contains("was edited since cuecard wrote it"),
        "{}",
        install.stderr
    );
    assert_eq!(std::fs::read_to_string(user_plugin(&sb)).unwrap(), edited);

    let out = run(&sb, &["uninstall", "--harness", "opencode"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.contains("edited by hand since install"),
        "{}",
        out.stdout
    );
    assert_eq!(std::fs::read_to_string(user_plugin(&sb)).unwrap(), edited);
}

#[test]
fn a_users_own_plugin_at_that_path_is_refused_and_kept() {
    let sb = Sandbox::new();
    let theirs = "export const Cuecard = async () => ({ /* not cuecard's */ })\n";
    put(user_plugin(&sb), theirs);
    let install = fails(&sb, &["install", "--harness", "opencode"]);
    assert!(
        install.stderr.contains("is not cuecard's"),
        "{}",
        install.stderr
    );
    assert!(
        install.stderr.contains("never writes over it"),
        "{}",
        install.stderr
    );
    let verify = fails(&sb, &["verify", "--harness", "opencode"]);
    assert!(
        verify.stdout.contains("is not cuecard's"),
        "verify names the file: {}",
        verify.stdout
    );
    let out = run(&sb, &["uninstall", "--harness", "opencode"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(user_plugin(&sb)).unwrap(), theirs);
}

#[test]
fn the_project_plugin_names_cuecard_through_path_only() {
    let sb = Sandbox::new();
    let out = run(
        &sb,
        &["install", "--harness", "opencode", "--scope", "project"],
    );
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(sb.project().join(".opencode/plugins/cuecard.js")).unwrap();
    assert!(text.contains("\"command\":\"cuecard\""), "{text}");
    assert!(
        !text.contains(&sb.path().to_string_lossy().into_owned()),
        "nothing of this machine: {text}"
    );
    let bin = support::bin();
    assert!(!text.contains(&bin.to_string_lossy().into_owned()));
}

#[test]
fn the_plugin_puts_the_answers_where_opencode_hands_them_to_the_model() {
    if no_node() {
        return;
    }
    let sb = Sandbox::new();
    // A policy, so the deny on tool.execute.before is registered too.
    put(
        sb.home().join(".config/cuecard/config.toml"),
        "[policy]\ndestructive = \"deny\"\n",
    );
    assert_eq!(run(&sb, &["install", "--harness", "opencode"]).code, 0);
    let got = host(&sb, &user_plugin(&sb));
    let hooks: Vec<&str> = got["hooks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    assert!(hooks.contains(&"tool.execute.before"), "{got}");
    let system = got["system"].as_array().unwrap();
    assert_eq!(system[0], "base");
    assert!(
        system.iter().any(|s| s
            .as_str()
            .unwrap()
            .contains("# cuecard is active in this session")),
        "the session-start card joins the system prompt: {got}"
    );
    assert!(
        got["before"].as_str().unwrap().starts_with("threw: "),
        "a deny is thrown: {got}"
    );
    assert!(
        got["after"].as_str().unwrap().starts_with("removed\n\n"),
        "{got}"
    );
    assert!(
        got["after"].as_str().unwrap().contains("/srv/canary"),
        "the advisory is appended to the tool output: {got}"
    );
    assert!(
        got["system_after_compaction"].as_array().unwrap().len() > 1,
        "after session.compacted the start cards come again: {got}"
    );
    // The token counts OpenCode reported (message.updated) ride with the
    // next tool call, with the model's context limit its call parameters
    // named (chat.params): the compaction warning is measured, not
    // estimated, against the window the harness states.
    let after = got["after_usage"].as_str().unwrap().replace('\n', " ");
    assert!(
        after.contains("172,800 tokens of a 180,000-token window")
            && after.contains("the usage the harness reported; window: stated by the harness"),
        "{got}"
    );
}

#[test]
fn the_plugin_fails_open_on_a_missing_binary_a_hang_and_garbage() {
    if no_node() {
        return;
    }
    let sb = Sandbox::new();
    assert_eq!(run(&sb, &["install", "--harness", "opencode"]).code, 0);
    let text = std::fs::read_to_string(user_plugin(&sb)).unwrap();
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
        let plugin = sb.path().join(format!("{what}.js"));
        std::fs::write(&plugin, broken).unwrap();
        let got = host(&sb, &plugin);
        assert_eq!(got["system"], serde_json::json!(["base"]), "{what}: {got}");
        assert_eq!(got["before"], "allowed", "{what}: {got}");
        assert_eq!(got["after"], "removed", "{what}: {got}");
    }
}

#[cfg(unix)]
#[test]
fn a_symlink_or_a_fifo_at_the_plugin_path_is_refused_and_not_followed() {
    let sb = Sandbox::new();
    let elsewhere = put(sb.path().join("dotfiles/cuecard.js"), "mine\n");
    std::fs::create_dir_all(user_plugin(&sb).parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&elsewhere, user_plugin(&sb)).unwrap();
    let install = fails(&sb, &["install", "--harness", "opencode"]);
    assert!(install.stderr.contains("symlink"), "{}", install.stderr);
    assert_eq!(std::fs::read_to_string(&elsewhere).unwrap(), "mine\n");
    let out = fails(&sb, &["uninstall", "--harness", "opencode"]);
    assert!(out.stderr.contains("symlink"), "{}", out.stderr);
    assert!(elsewhere.exists());

    let sb = Sandbox::new();
    std::fs::create_dir_all(user_plugin(&sb).parent().unwrap()).unwrap();
    let path = std::ffi::CString::new(user_plugin(&sb).to_string_lossy().as_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo only creates a node.
    assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o644) }, 0);
    let install = fails(&sb, &["install", "--harness", "opencode"]);
    assert!(
        install.stderr.contains("not a regular file"),
        "{}",
        install.stderr
    );
}
