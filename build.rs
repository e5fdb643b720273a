//! Names the commit `cuecard --version` prints (issue 33). Degrades to
//! `unknown commit` without git or outside a checkout (a source tarball):
//! the build never fails for it. Reads nothing else.

use std::process::Command;

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let s = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn main() {
    // The commit only: uncommitted edits are not tracked (that would
    // rebuild on every change of the index).
    let commit = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(c) => format!("commit {c}"),
        None => "unknown commit".to_string(),
    };
    println!("cargo:rustc-env=BUILD_COMMIT={commit}");
    // Built again when HEAD moves (a commit, a checkout).
    if let Some(path) = git(&["rev-parse", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(refs) = git(&["rev-parse", "--symbolic-full-name", "HEAD"])
        .and_then(|r| git(&["rev-parse", "--git-path", &r]))
    {
        println!("cargo:rerun-if-changed={refs}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
