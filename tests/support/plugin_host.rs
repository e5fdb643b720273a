//! The generated OpenCode-family plugin (OpenCode's, Kilo Code's: one
//! template) run under node in a stand-in for their plugin host
//! (tests/support/opencode_host.mjs), for tests/opencode.rs and tests/kilo.rs.
#![allow(dead_code)]

use super::Sandbox;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// `node` when the machine has one; these tests say so and pass otherwise
/// (the generated file is still checked by the callers), except under CI
/// (`CI` set), which has node: there a missing node fails them.
pub fn node() -> Option<PathBuf> {
    let out = std::process::Command::new("node")
        .arg("--version")
        .output()
        .ok()?;
    out.status.success().then(|| PathBuf::from("node"))
}

/// Whether the machine has no node (the test then says it is skipped).
pub fn no_node() -> bool {
    let missing = node().is_none();
    assert!(
        !(missing && std::env::var_os("CI").is_some()),
        "node cannot be run, and CI has node: the generated plugin is untested"
    );
    if missing {
        eprintln!("skipped: no node on this machine");
    }
    missing
}

/// Runs the stand-in host on `plugin` (copied to `.mjs`, as node wants an
/// ES module) in the sandbox's environment, bounded.
pub fn host(sb: &Sandbox, plugin: &Path) -> Value {
    let node = node().expect("node");
    let module = sb.path().join("plugin.mjs");
    std::fs::copy(plugin, &module).unwrap();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/opencode_host.mjs");
    let mut child = std::process::Command::new(node)
        .arg(&script)
        .arg(&module)
        .arg(sb.project())
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
