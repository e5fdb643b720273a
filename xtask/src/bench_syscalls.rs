//! The bench's system-call rows alone, with what was counted:
//! `cargo xtask bench-syscalls [--bin <path>] [--trace <dir>]`. The rows are
//! `cargo xtask bench`'s own (`syscall_rows`: the same payloads, cards and
//! environment, only `CUECARD_STATE_DIR` set, a session that already has
//! state); `--trace` also keeps the `strace -f` lines of each call and of
//! its start-up (the same binary with `CUECARD_DISABLE=1`) in `<dir>`, one
//! file each, to read which calls the hook makes and why. Cheap enough to
//! run on a busy machine: one traced run per figure, nothing timed.

use crate::bench::{bash_payload, big_write_payload, run_once, syscall_lines};
use std::path::PathBuf;

pub fn run(args: &[String]) -> Result<(), String> {
    let value = |flag: &str| -> Result<Option<PathBuf>, String> {
        match args.iter().position(|a| a == flag) {
            Some(i) => Ok(Some(PathBuf::from(
                args.get(i + 1).ok_or(format!("{flag} needs a path"))?,
            ))),
            None => Ok(None),
        }
    };
    let bin = match value("--bin")? {
        Some(b) => b,
        None => crate::dist::build()?,
    };
    let bin = std::fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let trace = value("--trace")?;
    let work = std::env::temp_dir().join(format!("cuecard-bench-sys-{}", std::process::id()));
    std::fs::create_dir_all(work.join("src")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(work.join(".git")).map_err(|e| e.to_string())?;
    let state = work.join("state").to_string_lossy().into_owned();
    let env: Vec<(&str, &str)> = vec![("CUECARD_STATE_DIR", &state)];
    let cards: Vec<String> = cuecard::registration::shipped()
        .into_iter()
        .filter(|r| r.event == "PreToolUse")
        .flat_map(|r| r.cards)
        .collect();
    let mut dispatch: Vec<&str> = vec!["dispatch", "PreToolUse"];
    dispatch.extend(cards.iter().map(String::as_str));
    let rows = crate::bench::syscall_rows(&bin, &work, &env, &dispatch);
    if let Some(dir) = &trace {
        std::fs::create_dir_all(dir).map_err(|e| e.to_string())?;
        for (name, payload) in [
            ("bash", bash_payload(&work)),
            ("write", big_write_payload(&work)),
        ] {
            run_once(&bin, &dispatch, &payload, &env);
            for (side, extra) in [
                ("all", vec![]),
                ("start-up", vec![("CUECARD_DISABLE", "1")]),
            ] {
                let lines = syscall_lines(&bin, &dispatch, &payload, &env, &extra)
                    .ok_or("strace is not available or cannot trace here")?;
                let file = dir.join(format!("{name}-{side}.txt"));
                std::fs::write(&file, lines.join("\n") + "\n").map_err(|e| e.to_string())?;
                eprintln!("{}: {} calls", file.display(), lines.len());
            }
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    crate::bench::print_table(&rows, 1);
    Ok(())
}
