//! Maintainer tasks: `cargo xtask <task>`.
//!
//! - `gen [--check]`: generated/ from the cards' Bindings.
//! - `gen-skill-index [--check]`: generated/skill-index.md from the catalogue.
//! - `bench`: the performance ratios of docs/design.md §10.
//! - `bench-adversarial`: those rows of `bench` that feed each scanner on the
//!   hook path 1 MiB of adversarial text, alone (`--bin` for a given build).
//! - `bench-audit`: the rows of `bench` that compare the hook with the audit
//!   on and off (issue 31), alone (`--bin` for a given build).
//! - `bench-judge`: what judging a PreToolUse call costs in process, apart
//!   from starting one, per call (`--cards`: each card alone).
//! - `dist`: the binary users install (the `dist` profile: fat LTO; static on Linux/glibc).
//! - `e2e`: the scenarios through the real harnesses (see `e2e/mod.rs`).

mod bench;
mod bench_adversarial;
mod bench_audit;
mod bench_judge;
mod bench_peers;
mod bench_replay;
mod bench_syscalls;
mod dist;
mod e2e;
mod gen_files;
mod options;
mod skill_index;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match options::check(&args) {
        options::Verdict::Run => {}
        options::Verdict::Help => {
            println!("{}", options::USAGE);
            return ExitCode::SUCCESS;
        }
        options::Verdict::Refused(why) => {
            eprintln!("xtask: {why}\n{}", options::USAGE);
            return ExitCode::from(2);
        }
    }
    let check = args.iter().any(|a| a == "--check");
    let result = match args.first().map(String::as_str) {
        Some("gen") => gen_files::run(check),
        Some("gen-skill-index") => skill_index::run(check),
        Some("bench") => bench::run(&args[1..]),
        Some("bench-adversarial") => bench_adversarial::run(&args[1..]),
        Some("bench-audit") => bench_audit::run(&args[1..]),
        Some("bench-syscalls") => bench_syscalls::run(&args[1..]),
        Some("bench-judge") => bench_judge::run(&args[1..]),
        Some("dist") => dist::run(),
        Some("e2e") => e2e::run(&args[1..]),
        _ => {
            eprintln!("{}", options::USAGE);
            return ExitCode::from(2);
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The workspace root.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// Writes `files` (relative path, contents), or with `check` compares them
/// with what is committed and fails on any difference.
pub fn write_or_check(files: &[(String, String)], check: bool) -> Result<(), String> {
    let root = root();
    let mut stale = Vec::new();
    for (rel, want) in files {
        let path = root.join(rel);
        let have = std::fs::read_to_string(&path).ok();
        if have.as_deref() == Some(want.as_str()) {
            continue;
        }
        if check {
            stale.push(rel.clone());
        } else {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            }
            std::fs::write(&path, want).map_err(|e| format!("{}: {e}", path.display()))?;
            eprintln!("wrote {rel}");
        }
    }
    if stale.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "generated files are stale (run `cargo xtask gen`): {}",
            stale.join(", ")
        ))
    }
}
