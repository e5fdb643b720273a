//! `install --sandbox` (issue 26, must-hold 9): the user's policy rendered
//! into the harness's own OS sandbox, and uninstall giving the user's
//! settings back byte for byte, through the real binary.

mod support;

use serde_json::Value;
use support::{Sandbox, put};

const DENY: &str = "outside-project=deny";

fn read(p: &std::path::Path) -> String {
    std::fs::read_to_string(p).unwrap()
}

fn claude_settings(sb: &Sandbox) -> std::path::PathBuf {
    sb.home().join(".claude/settings.json")
}

/// A settings file of the user's own, spelled as people write them.
const USERS: &str = "{\n    \"model\":\"opus\",\n  \"permissions\": { \"allow\": [\"Bash(ls:*)\"] },\n\t\"sandbox\": {\"network\": {\"allowLocalBinding\": true}}\n}\n";

#[test]
fn claude_code_deny_confines_bash_and_uninstall_gives_the_bytes_back() {
    let sb = Sandbox::new();
    let settings = put(claude_settings(&sb), USERS);
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code", "--sandbox"])
        .env("CUECARD_POLICY", DENY)
        .run();
    assert!(
        out.stdout
            .contains("sandbox: rendered from CUECARD_POLICY: outside-project = deny"),
        "{}",
        out.stdout
    );
    let v: Value = serde_json::from_str(&read(&settings)).unwrap();
    let s = &v["sandbox"];
    assert_eq!(s["enabled"], true, "{v}");
    assert_eq!(
        s["autoAllowBashIfSandboxed"], false,
        "the user's prompts stay"
    );
    assert_eq!(
        s["allowUnsandboxedCommands"], false,
        "no escape hatch under deny"
    );
    assert_eq!(s["failIfUnavailable"], true, "no silent run without it");
    assert_eq!(
        s["network"]["allowLocalBinding"], true,
        "the user's key stays"
    );
    assert!(v["hooks"]["PreToolUse"].is_array());
    sb.cmd(&["uninstall", "--harness", "claude-code"]);
    assert_eq!(read(&settings), USERS);
}

#[test]
fn claude_code_ask_keeps_the_escape_hatch_behind_a_prompt() {
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "claude-code", "--sandbox"])
        .env("CUECARD_POLICY", "destructive=ask")
        .run();
    let settings = claude_settings(&sb);
    let v: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(v["sandbox"]["enabled"], true);
    assert!(
        v["sandbox"].get("allowUnsandboxedCommands").is_none(),
        "{v}"
    );
    // A file install created is gone again.
    sb.cmd(&["uninstall", "--harness", "claude-code"]);
    assert!(!settings.exists());
}

/// A sandbox setting of the user's own is never flipped; the user's edit
/// after install survives uninstall, and the keys install added go.
#[test]
fn the_users_sandbox_setting_and_later_edits_stay() {
    let sb = Sandbox::new();
    let mine = "{\"sandbox\": {\"enabled\": false}}\n";
    let settings = put(claude_settings(&sb), mine);
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code", "--sandbox"])
        .env("CUECARD_POLICY", DENY)
        .run();
    assert!(
        out.stdout.contains("warning: sandbox.enabled is false"),
        "{}",
        out.stdout
    );
    let v: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(v["sandbox"]["enabled"], false);
    assert_eq!(v["sandbox"]["allowUnsandboxedCommands"], false);
    let edited = read(&settings).replace("\"enabled\": false", "\"enabled\": false, \"x\": 1");
    std::fs::write(&settings, &edited).unwrap();
    sb.cmd(&["uninstall", "--harness", "claude-code"]);
    let v: Value = serde_json::from_str(&read(&settings)).unwrap();
    assert_eq!(
        v,
        serde_json::json!({"sandbox": {"enabled": false, "x": 1}}),
        "{}",
        read(&settings)
    );
}

#[test]
fn codex_gets_workspace_write_and_uninstall_takes_exactly_that_line_out() {
    let sb = Sandbox::new();
    let mine = "model = \"o3\"\r\n\r\n[features]\r\nhooks = true\r\n";
    let toml = put(sb.home().join(".codex/config.toml"), mine);
    let out = sb
        .test()
        .args(["install", "--harness", "codex", "--sandbox"])
        .env("CUECARD_POLICY", DENY)
        .run();
    assert!(
        out.stdout.contains("sandbox_mode = \"workspace-write\""),
        "{}",
        out.stdout
    );
    let text = read(&toml);
    assert!(
        text.starts_with("sandbox_mode = \"workspace-write\""),
        "{text}"
    );
    assert!(text.ends_with(mine));
    sb.cmd(&["uninstall", "--harness", "codex"]);
    assert_eq!(read(&toml), mine);

    // No config.toml before: none after.
    std::fs::remove_file(&toml).unwrap();
    sb.test()
        .args(["install", "--harness", "codex", "--sandbox"])
        .env("CUECARD_POLICY", DENY)
        .run();
    assert!(toml.exists());
    sb.cmd(&["uninstall", "--harness", "codex"]);
    assert!(!toml.exists());
}

#[test]
fn a_codex_mode_of_the_users_own_stays() {
    let sb = Sandbox::new();
    let mine = "sandbox_mode = \"danger-full-access\"\n";
    let toml = put(sb.home().join(".codex/config.toml"), mine);
    let out = sb
        .test()
        .args(["install", "--harness", "codex", "--sandbox"])
        .env("CUECARD_POLICY", DENY)
        .run();
    assert!(
        out.stdout.contains("your own setting: left as it is"),
        "{}",
        out.stdout
    );
    assert_eq!(read(&toml), mine);
    sb.cmd(&["uninstall", "--harness", "codex"]);
    assert_eq!(read(&toml), mine);
}

/// Nothing to render, or nowhere to render it: refused, nothing written.
#[test]
fn refused_without_a_policy_or_a_sandbox() {
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "claude-code", "--sandbox"])
        .stderr_contains("nothing to confine")
        .status(1);
    sb.test()
        .args(["install", "--harness", "claude-code", "--sandbox"])
        .env("CUECARD_POLICY", "secrets=deny")
        .stderr_contains("nothing to confine")
        .status(1);
    sb.test()
        .args(["install", "--harness", "gemini", "--sandbox"])
        .env("CUECARD_POLICY", DENY)
        .stderr_contains("has none cuecard writes")
        .status(1);
    assert!(!claude_settings(&sb).exists());
    assert!(!sb.home().join(".gemini/settings.json").exists());
}

/// Without `--sandbox`, install writes no sandbox setting even under a
/// deny policy: the second layer is opt-in.
#[test]
fn without_the_flag_no_sandbox_is_written() {
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "claude-code"])
        .env("CUECARD_POLICY", DENY)
        .run();
    let v: Value = serde_json::from_str(&read(&claude_settings(&sb))).unwrap();
    assert!(v.get("sandbox").is_none());
}
