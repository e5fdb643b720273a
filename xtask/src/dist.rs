//! `cargo xtask dist`: the binary users install (the `dist` profile).
//!
//! On Linux with glibc it is linked statically and not position-independent
//! (`+crt-static`, `relocation-model=static`): the dynamic loader's work
//! (loading libc and libgcc_s, binding symbols) and the start-up relocation
//! of some 14,000 pointers (regex's Unicode tables, vtables) are most of what
//! a hook pays beyond `/bin/true`, and a hook starts on every tool call.
//! Measured side by side (perf stat, 200 runs): the default build takes
//! 3.0x `/bin/true`, static-pie 2.2x, static non-PIE 2.1x with every
//! PreToolUse card, and its `CUECARD_DISABLE` path is as fast as `/bin/true`.
//! The price is no address-space randomisation of the executable itself — a
//! short-lived, memory-safe process — recorded in docs/decisions.md. The
//! flags must not reach proc-macros, so the build names the host target
//! explicitly (RUSTFLAGS then apply to target crates only). Elsewhere it is
//! the plain `dist` build.

use std::path::PathBuf;
use std::process::Command;

/// The host's target triple, from `rustc -vV`.
fn host() -> Result<String, String> {
    let out = Command::new(std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into()))
        .arg("-vV")
        .output()
        .map_err(|e| format!("rustc -vV: {e}"))?;
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .ok_or_else(|| "rustc -vV printed no host".to_string())
}

/// The cargo profile of the binary users install: `release` with fat LTO
/// and one code-generation unit (Cargo.toml). `cargo run --release`, the
/// Quick start's build, uses thin LTO and builds several times faster.
const PROFILE: &str = "dist";

/// Builds the distributed binary and returns its path. Cargo's own progress
/// (each crate compiled, and a progress bar on a terminal) goes to stderr:
/// the build takes minutes on a small machine and must not look hung.
pub fn build() -> Result<PathBuf, String> {
    Ok(build_with(&["--bin", "cuecard"])?.join("cuecard"))
}

/// Builds the example `name` (bench-only code, never shipped) with the
/// distributed binary's profile and flags, so that it runs the library as
/// the hook's code is compiled, and returns its path.
pub fn example(name: &str) -> Result<PathBuf, String> {
    Ok(build_with(&["--example", name])?
        .join("examples")
        .join(name))
}

/// Runs the `dist` build of `what` and returns the folder it lands in.
fn build_with(what: &[&str]) -> Result<PathBuf, String> {
    let root = crate::root();
    let host = host()?;
    let static_glibc = host.ends_with("-linux-gnu");
    eprintln!(
        "building cuecard with the `{PROFILE}` profile (fat LTO, one code-generation unit; \
         the slowest build and the fastest hook)"
    );
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args(["build", "--profile", PROFILE, "-p", "cuecard"])
        .args(what)
        .current_dir(&root);
    if static_glibc {
        let mut flags = std::env::var("RUSTFLAGS").unwrap_or_default();
        flags.push_str(" -C target-feature=+crt-static -C relocation-model=static");
        cmd.args(["--target", &host]).env("RUSTFLAGS", flags.trim());
    }
    let status = cmd.status().map_err(|e| e.to_string())?;
    if !status.success() {
        return Err(format!("the `{PROFILE}` build failed"));
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(if static_glibc {
        target.join(&host).join(PROFILE)
    } else {
        target.join(PROFILE)
    })
}

pub fn run() -> Result<(), String> {
    let bin = build()?;
    println!("{}", bin.display());
    eprintln!("install it with: {} install --harness <id>", bin.display());
    Ok(())
}
