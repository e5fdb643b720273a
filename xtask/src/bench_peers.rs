//! The bench's comparison rows: what else a user could run on every tool
//! call, each named exactly (program, version, arguments), started directly
//! (no shell in between) and measured interleaved with cuecard's own
//! dispatch on the same payload, in wall and CPU time.
//!
//! - the system Python, `/usr/bin/python3`, importing only `json`, `sys`,
//!   `os` (never a version manager's shim first on PATH, which costs far
//!   more and would flatter the ratio);
//! - the system node, `node -e` requiring only `fs`;
//! - the peer hook a user would pick instead: cc-safety-net (npm package
//!   `cc-safety-net`, pinned below), `node <its bin> hook -cc`, as its
//!   Claude Code install registers it; installed from the npm registry into
//!   `target/bench/npm`, skipped with a note when npm cannot.

use crate::bench::{Row, Sample, interleaved_many, median};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// The peer hook's pinned version.
const SAFETY_NET: &str = "cc-safety-net@2.4.5";

struct Peer {
    /// What the row calls it, with its version.
    name: String,
    program: PathBuf,
    args: Vec<String>,
}

/// The version a program prints for `flag`, first line.
fn version(program: &Path, flag: &str) -> Option<String> {
    let out = Command::new(program)
        .arg(flag)
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines().next().map(|l| l.trim().to_string())
}

/// cc-safety-net's entry script, installed once into `target/bench/npm`.
fn safety_net() -> Result<PathBuf, String> {
    let dir = crate::e2e::target_dir().join("bench/npm");
    let script = dir.join("node_modules/cc-safety-net/dist/bin/cc-safety-net.js");
    if script.is_file() {
        return Ok(script);
    }
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let status = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--prefix"])
        .arg(&dir)
        .arg(SAFETY_NET)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("npm: {e}"))?;
    if !status.success() || !script.is_file() {
        return Err(format!("npm install {SAFETY_NET} failed"));
    }
    Ok(script)
}

fn peers() -> (Vec<Peer>, Vec<String>) {
    let mut peers = Vec::new();
    let mut notes = Vec::new();
    let python = Path::new("/usr/bin/python3");
    match python
        .is_file()
        .then(|| version(python, "--version"))
        .flatten()
    {
        Some(v) => peers.push(Peer {
            name: format!("/usr/bin/python3 ({v}) importing json, sys, os"),
            program: python.to_path_buf(),
            args: vec!["-c".into(), "import json, sys, os".into()],
        }),
        None => notes.push("/usr/bin/python3 not found".into()),
    }
    let node = crate::bench::which("node");
    match node
        .as_ref()
        .and_then(|n| version(n, "--version").map(|v| (n, v)))
    {
        Some((n, v)) => {
            peers.push(Peer {
                name: format!("node {v} requiring fs"),
                program: n.clone(),
                args: vec!["-e".into(), "require('fs')".into()],
            });
            match safety_net() {
                Ok(script) => peers.push(Peer {
                    name: format!("{SAFETY_NET} `hook -cc` on node {v}"),
                    program: n.clone(),
                    args: vec![
                        script.to_string_lossy().into_owned(),
                        "hook".into(),
                        "-cc".into(),
                    ],
                }),
                Err(e) => notes.push(format!("{SAFETY_NET}: {e}")),
            }
        }
        None => notes.push("node not found".into()),
    }
    (peers, notes)
}

fn cpu(s: &[Sample]) -> Duration {
    median(s.iter().map(|s| s.cpu))
}
fn wall(s: &[Sample]) -> Duration {
    median(s.iter().map(|s| s.wall))
}

/// Each peer against cuecard's `dispatch PreToolUse` on the same payload.
pub fn rows(
    bin: &Path,
    dispatch_args: &[&str],
    payload: &[u8],
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> Vec<Row> {
    let (peers, notes) = peers();
    let mut rows = Vec::new();
    for p in &peers {
        let args: Vec<&str> = p.args.iter().map(String::as_str).collect();
        let s = interleaved_many(
            &[(bin, dispatch_args, payload), (&p.program, &args, payload)],
            env,
            warm.min(5),
            n.min(51),
        );
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        rows.push(Row {
            figure: format!("{} / dispatch PreToolUse, same payload", p.name),
            value: format!(
                "wall {:.1}x, CPU {:.1}x",
                ratio(wall(&s[1]), wall(&s[0])),
                ratio(cpu(&s[1]), cpu(&s[0]))
            ),
            target: "-".into(),
            met: None,
        });
    }
    for note in notes {
        rows.push(Row {
            figure: "comparison skipped".into(),
            value: note,
            target: "-".into(),
            met: None,
        });
    }
    rows
}
