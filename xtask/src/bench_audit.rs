//! The audit rows of `cargo xtask bench` (issue 31, point 4): the hook with
//! the audit on against the same hook with it off, on a Bash call that
//! fires (a decision-free injection: one record a call) and on a 10 KB
//! Write that fires nothing (no record: the audit must cost nothing), run
//! alternately so that the machine's load hits both alike; and the system
//! calls of each. Alone: `cargo xtask bench-audit [--quick] [--bin <path>]`.

use crate::bench::{Row, Sample, median, run_once};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A sandbox of its own for one side: its own HOME (so that no config of
/// the machine's user counts), config directory and state root.
fn side(work: &Path, name: &str, config: &str) -> Result<Vec<(String, String)>, String> {
    let dir = work.join(name);
    let cfg = dir.join("config");
    std::fs::create_dir_all(&cfg).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join("home")).map_err(|e| e.to_string())?;
    std::fs::write(cfg.join("config.toml"), config).map_err(|e| e.to_string())?;
    let s = |p: PathBuf| p.to_string_lossy().into_owned();
    Ok(vec![
        ("HOME".into(), s(dir.join("home"))),
        ("XDG_CONFIG_HOME".into(), s(dir.join("home/.config"))),
        ("CUECARD_CONFIG_DIR".into(), s(cfg)),
        ("CUECARD_STATE_DIR".into(), s(dir.join("state"))),
    ])
}

fn pairs(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect()
}

/// `n` samples of each side, alternately (off on, on off, ...), after
/// `warm` pairs.
fn alternate(
    bin: &Path,
    args: &[&str],
    payload: &[u8],
    sides: [&[(&str, &str)]; 2],
    warm: usize,
    n: usize,
) -> [Vec<Sample>; 2] {
    for _ in 0..warm {
        for env in sides {
            run_once(bin, args, payload, env);
        }
    }
    let mut out = [Vec::with_capacity(n), Vec::with_capacity(n)];
    for round in 0..n {
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for i in order {
            out[i].push(run_once(bin, args, payload, sides[i]));
        }
    }
    out
}

/// The rows: per call, audit on against audit off, wall and CPU time, the
/// difference, and the system calls of each.
pub fn rows(
    bin: &Path,
    work: &Path,
    args: &[&str],
    warm: usize,
    n: usize,
) -> Result<Vec<Row>, String> {
    // The same file but for one word: both are read in one read.
    let off = side(work, "audit-off", "[audit]\nenabled = false\n")?;
    let on = side(work, "audit-on", "[audit]\nenabled = true\n")?;
    let (off, on) = (pairs(&off), pairs(&on));
    let mut rows = Vec::new();
    for (what, payload) in [
        ("a Bash call that fires", crate::bench::bash_payload(work)),
        (
            "a 10 KB Write that fires nothing",
            crate::bench::big_write_payload(work),
        ),
    ] {
        let [a, b] = alternate(bin, args, &payload, [&off, &on], warm, n);
        let m = |s: &[Sample], f: fn(&Sample) -> Duration| median(s.iter().map(f));
        let wall = m(&b, |s| s.wall).as_secs_f64() / m(&a, |s| s.wall).as_secs_f64();
        let cpu = m(&b, |s| s.cpu).as_secs_f64() / m(&a, |s| s.cpu).as_secs_f64().max(1e-9);
        let delta = m(&b, |s| s.wall).as_secs_f64() - m(&a, |s| s.wall).as_secs_f64();
        rows.push(Row {
            figure: format!("dispatch PreToolUse, {what}: audit on / audit off, wall time"),
            value: format!("{wall:.2}x ({:+.0} µs a call)", delta * 1e6),
            target: "-".into(),
            met: None,
        });
        rows.push(Row {
            figure: format!("dispatch PreToolUse, {what}: audit on / audit off, CPU time"),
            value: format!("{cpu:.2}x"),
            target: "-".into(),
            met: None,
        });
        let count = |env: &[(&str, &str)]| crate::bench::syscalls(bin, args, &payload, env, &[]);
        rows.push(Row {
            figure: format!("system calls, dispatch PreToolUse, {what}: audit off, audit on"),
            value: match count(&off).zip(count(&on)) {
                Some((x, y)) => format!("{x}, {y} ({:+})", y as i64 - x as i64),
                None => "skipped: strace not available".into(),
            },
            target: "-".into(),
            met: None,
        });
    }
    Ok(rows)
}

/// `cargo xtask bench-audit [--quick] [--bin <path>]`: these rows alone.
pub fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let (warm, n) = if quick { (3, 21) } else { (20, 201) };
    let bin = match args.iter().position(|a| a == "--bin") {
        Some(i) => PathBuf::from(args.get(i + 1).ok_or("--bin needs a path")?),
        None => crate::dist::build()?,
    };
    let bin = std::fs::canonicalize(&bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    let work = std::env::temp_dir().join(format!("cuecard-bench-audit-{}", std::process::id()));
    std::fs::create_dir_all(work.join("src")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(work.join(".git")).map_err(|e| e.to_string())?;
    let cards: Vec<String> = cuecard::registration::shipped()
        .into_iter()
        .filter(|r| r.event == "PreToolUse")
        .flat_map(|r| r.cards)
        .collect();
    let mut dispatch: Vec<&str> = vec!["dispatch", "PreToolUse"];
    dispatch.extend(cards.iter().map(String::as_str));
    let rows = rows(&bin, &work, &dispatch, warm, n);
    let _ = std::fs::remove_dir_all(&work);
    crate::bench::print_table(&rows?, n);
    Ok(())
}
