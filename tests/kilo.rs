//! Kilo Code: OpenCode's plugin, registered where Kilo's CLI loads plugins
//! (`~/.config/kilo/plugins/cuecard.js`, `.kilo/plugins/cuecard.js`; Kilo
//! never scans `.opencode/`) and calling cuecard's `kilo` contract. The
//! owned-file rules themselves (edited, user's own, symlink, FIFO) are
//! OpenCode's code and are tested in tests/opencode.rs; here: the paths,
//! the contract the entries name, that OpenCode's registration is left
//! alone, and that the plugin delivers through the `kilo` contract.

mod support;

use std::path::PathBuf;
use support::Sandbox;
use support::plugin_host::{host, no_node};

fn user_plugin(sb: &Sandbox) -> PathBuf {
    sb.home().join(".config/kilo/plugins/cuecard.js")
}

#[test]
fn install_verify_uninstall_use_kilos_plugin_directory_and_contract() {
    let sb = Sandbox::new();
    let out = sb.test().args(["install", "--harness", "opencode"]).run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let opencode = sb.home().join(".config/opencode/plugins/cuecard.js");
    let opencode_text = std::fs::read_to_string(&opencode).unwrap();

    let out = sb.test().args(["install", "--harness", "kilo"]).run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(user_plugin(&sb)).unwrap();
    assert!(
        text.starts_with("// cuecard-owned-file: Kilo Code plugin"),
        "{text}"
    );
    assert!(
        text.contains(r#""dispatch","--contract","kilo","session.created""#),
        "the entries call the kilo contract: {text}"
    );
    assert!(!text.contains(r#""--contract","opencode""#), "{text}");
    let verify = sb.test().args(["verify", "--harness", "kilo"]).run();
    assert_eq!(verify.code, 0, "{}{}", verify.stdout, verify.stderr);

    let out = sb.test().args(["uninstall", "--harness", "kilo"]).run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(!user_plugin(&sb).exists(), "{}", out.stdout);
    assert_eq!(
        std::fs::read_to_string(&opencode).unwrap(),
        opencode_text,
        "OpenCode's registration is its own"
    );
}

#[test]
fn the_project_plugin_goes_to_dot_kilo() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["install", "--harness", "kilo", "--scope", "project"])
        .run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = std::fs::read_to_string(sb.project().join(".kilo/plugins/cuecard.js")).unwrap();
    assert!(text.contains("\"command\":\"cuecard\""), "{text}");
    assert!(!sb.project().join(".opencode").exists());
}

#[test]
fn the_plugin_delivers_through_the_kilo_contract() {
    if no_node() {
        return;
    }
    let sb = Sandbox::new();
    assert_eq!(
        sb.test().args(["install", "--harness", "kilo"]).run().code,
        0
    );
    let got = host(&sb, &user_plugin(&sb));
    let system = got["system"].as_array().unwrap();
    assert!(
        system.iter().any(|s| s
            .as_str()
            .is_some_and(|s| s.contains("# cuecard is active in this session"))),
        "the session-start card joins the system prompt: {got}"
    );
    assert!(
        got["after"]
            .as_str()
            .is_some_and(|a| a.contains("/srv/canary")),
        "the advisory is appended to the tool output: {got}"
    );
    assert!(
        got["after_usage"]
            .as_str()
            .is_some_and(|a| a.contains("172,800 tokens of a 180,000-token window")),
        "Kilo's message.updated token counts are measured too, against the limit chat.params names: {got}"
    );
}
