//! `cargo xtask bench [--quick]`: DESIGN §10's figures, measured in one run on
//! this machine and printed as ratios (absolute times on shared machines are
//! noise; ratios measured side by side are not).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of a command: wall time from spawn to reap, and peak RSS.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub wall: Duration,
    pub max_rss_kib: i64,
}

/// Runs `program args` with `stdin` piped in, reaps it with wait4 to read its
/// own peak memory.
pub fn run_once(program: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Sample {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let pid = child.id() as libc::pid_t;
    if let Some(mut sin) = child.stdin.take() {
        // A program that does not read its stdin closes the pipe early.
        let _ = sin.write_all(stdin);
    }
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    std::mem::forget(child); // already reaped
    Sample {
        wall,
        max_rss_kib: usage.ru_maxrss,
    }
}

/// The median wall time and the largest peak RSS of `n` runs after `warm`.
pub fn measure(
    program: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> (Duration, i64) {
    for _ in 0..warm {
        run_once(program, args, stdin, env);
    }
    let mut walls = Vec::with_capacity(n);
    let mut rss = 0;
    for _ in 0..n {
        let s = run_once(program, args, stdin, env);
        walls.push(s.wall);
        rss = rss.max(s.max_rss_kib);
    }
    walls.sort();
    (walls[n / 2], rss)
}

pub struct Row {
    pub figure: String,
    pub value: String,
    pub target: String,
    pub met: Option<bool>,
}

fn build_release() -> Result<PathBuf, String> {
    let root = crate::root();
    let status = Command::new(env!("CARGO"))
        .args(["build", "--release", "--quiet", "-p", "cuecard"])
        .current_dir(&root)
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("release build failed".into());
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(target.join("release/cuecard"))
}

/// A realistic Claude Code PreToolUse payload for a Write.
pub fn write_payload(dir: &Path) -> Vec<u8> {
    let d = dir.display();
    format!(
        r#"{{"session_id":"bench-session","transcript_path":"{d}/transcript.jsonl","cwd":"{d}","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{{"file_path":"{d}/src/lib.rs","content":"pub fn add(a: i32, b: i32) -> i32 {{\n    a + b\n}}\n"}},"tool_use_id":"toolu_01"}}"#
    )
    .into_bytes()
}

pub fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let (warm, n) = if quick { (5, 31) } else { (20, 201) };
    let bin = build_release()?;
    let work = std::env::temp_dir().join(format!("cuecard-bench-{}", std::process::id()));
    std::fs::create_dir_all(work.join("src")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(work.join(".git")).map_err(|e| e.to_string())?;
    let state = work.join("state");
    let state_s = state.to_string_lossy().to_string();
    let env: Vec<(&str, &str)> = vec![("CUECARD_STATE_DIR", &state_s)];

    let pre_cards: Vec<String> = cuecard::registration::shipped()
        .into_iter()
        .filter(|r| r.event == "PreToolUse")
        .flat_map(|r| r.cards)
        .collect();
    let mut dispatch_args: Vec<&str> = vec!["dispatch", "PreToolUse"];
    dispatch_args.extend(pre_cards.iter().map(String::as_str));
    let payload = write_payload(&work);

    let truebin = Path::new("/bin/true");
    let (t_true, _) = measure(truebin, &[], &payload, &env, warm, n);
    let (t_pre, rss_small) = measure(&bin, &dispatch_args, &payload, &env, warm, n);
    let python = which("python3");
    let t_py = python.as_ref().map(|p| {
        measure(
            p,
            &["-c", "import json,sys,os,re,pathlib"],
            &payload,
            &env,
            warm.min(5),
            n.min(51),
        )
        .0
    });

    // Peak memory with a 20 MB payload (a 20 MB string field).
    let mut big = Vec::with_capacity(21 << 20);
    big.extend_from_slice(br#"{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"x","content":""#);
    big.resize(big.len() + (20 << 20), b'a');
    big.extend_from_slice(br#""}}"#);
    let (_, rss_big) = measure(
        &bin,
        &dispatch_args,
        &big,
        &env,
        1,
        if quick { 3 } else { 7 },
    );

    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let mut rows = vec![Row {
        figure: format!(
            "dispatch PreToolUse ({} card(s)) / /bin/true",
            pre_cards.len()
        ),
        value: format!("{:.2}x", ratio(t_pre, t_true)),
        target: "<= 2.5x".into(),
        met: Some(ratio(t_pre, t_true) <= 2.5),
    }];
    match t_py {
        Some(t) => rows.push(Row {
            figure: "python3 (stdlib imports) / dispatch PreToolUse".into(),
            value: format!("{:.1}x", ratio(t, t_pre)),
            target: ">= 40x".into(),
            met: Some(ratio(t, t_pre) >= 40.0),
        }),
        None => rows.push(Row {
            figure: "python3 (stdlib imports) / dispatch PreToolUse".into(),
            value: "python3 not found".into(),
            target: ">= 40x".into(),
            met: None,
        }),
    }
    let extra_mib = (rss_big - rss_small) as f64 / 1024.0;
    rows.push(Row {
        figure: "peak RSS, 20 MB payload minus small payload".into(),
        value: format!(
            "{extra_mib:+.1} MiB ({:.1} vs {:.1} MiB)",
            rss_big as f64 / 1024.0,
            rss_small as f64 / 1024.0
        ),
        target: "<= 8 MiB".into(),
        met: Some(extra_mib <= 8.0),
    });
    rows.extend(session_start_rows(&bin, &work, &env, t_true, warm, n)?);
    rows.extend(crate::bench_replay::rows(&bin, &work, &env, t_pre, quick)?);
    print_table(&rows, n);
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// A Claude Code SessionStart payload for a project at `dir`.
pub fn start_payload(dir: &Path) -> Vec<u8> {
    let d = dir.display();
    format!(
        r#"{{"session_id":"bench-session","transcript_path":"{d}/transcript.jsonl","cwd":"{d}","hook_event_name":"SessionStart","source":"startup","model":"claude-sonnet-4-5"}}"#
    )
    .into_bytes()
}

/// A project with a drifted knowledge base of `pages` pages and a log of
/// about 300 KiB whose baseline lies in the tail (the worst case: every
/// part of the fingerprint is computed and the line is emitted).
pub fn kb_project(dir: &Path, pages: usize) -> Result<(), String> {
    let kb = dir.join("knowledge-base");
    std::fs::create_dir_all(kb.join("pages")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(kb.join("sources")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(dir.join(".git")).map_err(|e| e.to_string())?;
    std::fs::write(kb.join("index.md"), "# Knowledge base\n").map_err(|e| e.to_string())?;
    let mut log = String::from("# Log\n");
    for i in 0..3000 {
        log.push_str(&format!(
            "## [2025-01-01] ingest | Source {i}\n- pages/p{i}.md: {}\n\n",
            "x".repeat(60)
        ));
    }
    log.push_str(
        "## [2025-02-01] baseline | pages=999 latest=## [2025-01-01] ingest | Source 2999\n",
    );
    std::fs::write(kb.join("log.md"), log).map_err(|e| e.to_string())?;
    for i in 0..pages {
        std::fs::write(kb.join(format!("pages/p{i}.md")), "# Page\n").map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// SessionStart (every card of its registration) on a project with no base
/// and on one with a 1,000-page base, as ratios to /bin/true; and the drift
/// probe alone, in process.
fn session_start_rows(
    bin: &Path,
    work: &Path,
    env: &[(&str, &str)],
    t_true: Duration,
    warm: usize,
    n: usize,
) -> Result<Vec<Row>, String> {
    use cuecard::guards::kb_drift;
    let start_cards: Vec<String> = cuecard::registration::shipped()
        .into_iter()
        .filter(|r| r.event == "SessionStart")
        .flat_map(|r| r.cards)
        .collect();
    let mut args: Vec<&str> = vec!["dispatch", "SessionStart"];
    args.extend(start_cards.iter().map(String::as_str));

    let with_kb = work.join("kb-project");
    kb_project(&with_kb, 1000)?;
    if kb_drift::probe(&with_kb).is_none() {
        return Err("the 1,000-page bench base should have drifted".into());
    }
    let (t_none, _) = measure(bin, &args, &start_payload(work), env, warm, n);
    let (t_kb, _) = measure(bin, &args, &start_payload(&with_kb), env, warm, n);

    // The drift probe in process: the cost a project without a base adds.
    let reps = 2000u32;
    let per_call = |root: &Path, reps: u32| {
        let t = Instant::now();
        for _ in 0..reps {
            std::hint::black_box(kb_drift::probe(std::hint::black_box(root)));
        }
        t.elapsed() / reps
    };
    let probe_none = per_call(work, reps);
    let probe_kb = per_call(&with_kb, 50);

    let ratio = |a: Duration| a.as_secs_f64() / t_true.as_secs_f64();
    Ok(vec![
        Row {
            figure: "dispatch SessionStart, no knowledge base / /bin/true".into(),
            value: format!("{:.2}x", ratio(t_none)),
            target: "-".into(),
            met: None,
        },
        Row {
            figure: "dispatch SessionStart, 1,000-page base / /bin/true".into(),
            value: format!("{:.2}x", ratio(t_kb)),
            target: "-".into(),
            met: None,
        },
        Row {
            figure: "kb-drift probe, no base (in process, per call, xtask build)".into(),
            value: format!("{:.1} us", probe_none.as_secs_f64() * 1e6),
            target: "< 1 ms".into(),
            met: Some(probe_none < Duration::from_millis(1)),
        },
        Row {
            figure: "kb-drift probe, 1,000-page base (in process, per call, xtask build)".into(),
            value: format!("{:.1} us", probe_kb.as_secs_f64() * 1e6),
            target: "-".into(),
            met: None,
        },
    ])
}

fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

pub fn print_table(rows: &[Row], n: usize) {
    let w0 = rows.iter().map(|r| r.figure.len()).max().unwrap_or(0);
    let w1 = rows.iter().map(|r| r.value.len()).max().unwrap_or(0);
    println!("cuecard bench: medians of {n} runs, measured side by side in this run\n");
    println!("{:w0$}  {:w1$}  {:8}  met", "figure", "value", "target");
    for r in rows {
        let met = match r.met {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        };
        println!("{:w0$}  {:w1$}  {:8}  {met}", r.figure, r.value, r.target);
    }
}
