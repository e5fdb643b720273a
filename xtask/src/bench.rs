//! `cargo xtask bench [--quick]`: docs/design.md §10's figures, measured in one run on
//! this machine and printed as ratios (absolute times on shared machines are
//! noise; ratios measured side by side are not).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// One run of a command: wall time from spawn to reap, the CPU time the
/// child used (user + system, from the kernel's accounting), and peak RSS.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub wall: Duration,
    pub cpu: Duration,
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
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Sample {
        wall,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        max_rss_kib: usage.ru_maxrss,
    }
}

/// The largest peak RSS (KiB) of `n` runs with stdin read from `file`.
pub fn peak_rss_from_file(
    program: &Path,
    args: &[&str],
    file: &Path,
    env: &[(&str, &str)],
    n: usize,
) -> i64 {
    let mut rss = 0;
    for _ in 0..n {
        let stdin = std::fs::File::open(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let child = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: rusage is plain data; wait4 fills it for our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        std::mem::forget(child); // already reaped
        rss = rss.max(usage.ru_maxrss);
    }
    rss
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
    (median(walls.into_iter()), rss)
}

pub struct Row {
    pub figure: String,
    pub value: String,
    pub target: String,
    pub met: Option<bool>,
}

/// Medians of two commands run alternately (`a b`, `b a`, `a b`, ...).
pub fn interleaved(
    a: (&Path, &[&str], &[u8]),
    b: (&Path, &[&str], &[u8]),
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> (Duration, Duration) {
    let (a, b) = interleaved_samples(a, b, env, warm, n);
    (
        median(a.iter().map(|s| s.wall)),
        median(b.iter().map(|s| s.wall)),
    )
}

/// The samples of two commands run alternately, after `warm` pairs.
pub fn interleaved_samples(
    a: (&Path, &[&str], &[u8]),
    b: (&Path, &[&str], &[u8]),
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> (Vec<Sample>, Vec<Sample>) {
    let mut all = interleaved_many(&[a, b], env, warm, n).into_iter();
    let a = all.next().unwrap_or_default();
    (a, all.next().unwrap_or_default())
}

/// The samples of several commands run in turn, after `warm` rounds: a
/// change in the machine's load hits them alike. The order changes from
/// round to round ([`round_order`]: `a b c`, `b c a`, `c a b`, `c b a`,
/// `a c b`, `b a c`, ...), so that no command always runs first or last in a
/// round, nor always right after the same other command.
pub fn interleaved_many(
    cmds: &[(&Path, &[&str], &[u8])],
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> Vec<Vec<Sample>> {
    for _ in 0..warm {
        for c in cmds {
            run_once(c.0, c.1, c.2, env);
        }
    }
    let mut out: Vec<Vec<Sample>> = cmds.iter().map(|_| Vec::with_capacity(n)).collect();
    for round in 0..n {
        for i in round_order(round, cmds.len()) {
            let c = cmds[i];
            out[i].push(run_once(c.0, c.1, c.2, env));
        }
    }
    out
}

/// The order of the commands in one round: a Williams design, in which
/// every command stands in every place equally often and follows every
/// other command equally often (a rotation alone keeps who follows whom:
/// with three commands, the first always ran right after the third).
/// `0 1 n-1 2 n-2 ...` shifted by one each round; for an odd number of
/// commands, every second cycle of rounds runs reversed.
fn round_order(round: usize, len: usize) -> Vec<usize> {
    if len == 0 {
        return Vec::new();
    }
    let shift = round % len;
    let mut order: Vec<usize> = (0..len)
        .map(|k| {
            if k % 2 == 1 {
                k.div_ceil(2)
            } else {
                len - k / 2
            }
        })
        .map(|b| (b + shift) % len)
        .collect();
    if len % 2 == 1 && (round / len) % 2 == 1 {
        order.reverse();
    }
    order
}

pub fn median(d: impl Iterator<Item = Duration>) -> Duration {
    let mut v: Vec<Duration> = d.collect();
    v.sort();
    v[v.len() / 2]
}

/// PreToolUse in a project with 50 trusted project cards against the same
/// call in a project with none (issue 8: "no measurable cost").
fn project_card_rows(
    bin: &Path,
    work: &Path,
    env: &[(&str, &str)],
    dispatch_args: &[&str],
    warm: usize,
    n: usize,
) -> Result<Vec<Row>, String> {
    // Three projects laid out alike (a git root with `src/`, beside the
    // state directory rather than around it), so that only the cards
    // differ; the two without cards are the control: what "no difference"
    // measures in this run.
    let plain = work.join("plain-project");
    let twin = work.join("plain-project-twin");
    let with = work.join("cards-project");
    for p in [&plain, &twin, &with] {
        std::fs::create_dir_all(p.join(".git")).map_err(|e| e.to_string())?;
        std::fs::create_dir_all(p.join("src")).map_err(|e| e.to_string())?;
    }
    let dir = with.join(".cuecard/cards");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    for i in 0..50 {
        let card = format!(
            "# Team rule {i}\n\n## Advisory\n`{{path}}` is in area {i}; the team's notes for it are in docs/area{i}.md.\n\n\
             ## Procedure\nRead the notes.\n\n## Bindings\n- event: PreToolUse\n- paths: area{i}/**\n"
        );
        let path = dir.join(format!("rule-{i:02}.md"));
        std::fs::write(&path, card).map_err(|e| e.to_string())?;
        set_mtime(&path, SystemTime::now() - Duration::from_secs(3600))?;
    }
    // The steady state: a project's cards and their directory were written
    // before this session, not within the cache's 2 s "racily clean"
    // window (in which they are checked in full on every call).
    set_mtime(&dir, SystemTime::now() - Duration::from_secs(3600))?;
    let status = std::process::Command::new(bin)
        .arg("trust")
        .current_dir(&with)
        .envs(env.iter().copied())
        .stdout(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    if !status.success() {
        return Err("cuecard trust failed in the bench project".into());
    }
    // The rows before write hundreds of megabytes: their writeback would
    // otherwise run on the same two cores during these few-percent figures.
    // SAFETY: sync takes no arguments and cannot fail.
    unsafe { libc::sync() };
    let run = || {
        let payloads = [&plain, &twin, &with].map(|p| write_payload(p));
        let mut s = interleaved_many(
            &[
                (bin, dispatch_args, &payloads[0]),
                (bin, dispatch_args, &payloads[1]),
                (bin, dispatch_args, &payloads[2]),
            ],
            env,
            warm,
            n,
        )
        .into_iter();
        let mut next = || s.next().unwrap_or_default();
        (next(), next(), next())
    };
    let (none, none_twin, cards) = run();
    // A full check (list the directory, stat every card) is what a session
    // start does, and a tool call after the directory changed: a directory
    // mtime in the future keeps every call there.
    set_mtime(&dir, SystemTime::now() + Duration::from_secs(3600))?;
    let (none_full, _, full) = run();
    let wall = |s: &[Sample]| median(s.iter().map(|s| s.wall)).as_secs_f64();
    let cpu = |s: &[Sample]| median(s.iter().map(|s| s.cpu)).as_secs_f64();
    let r = wall(&cards) / wall(&none);
    let r_cpu = cpu(&cards) / cpu(&none);
    let r_full = wall(&full) / wall(&none_full);
    let us = |d: f64| format!("{:+.0} us", d * 1e6);
    Ok(vec![
        // Issue 8 asks for no measurable cost: within this machine's
        // run-to-run variation of a median (a few percent), which the
        // control row shows for this run.
        Row {
            figure: "dispatch PreToolUse, 50 trusted project cards / none".into(),
            value: format!("{r:.2}x"),
            target: "<= 1.05x".into(),
            met: Some(r <= 1.05),
        },
        Row {
            figure: "  the same in CPU time (user + system, kernel-accounted)".into(),
            value: format!("{r_cpu:.2}x ({})", us(cpu(&cards) - cpu(&none))),
            target: "<= 1.05x".into(),
            met: Some(r_cpu <= 1.05),
        },
        Row {
            figure: "  control: a second project without cards / none".into(),
            value: format!(
                "{:.2}x, CPU {:.2}x ({})",
                wall(&none_twin) / wall(&none),
                cpu(&none_twin) / cpu(&none),
                us(cpu(&none_twin) - cpu(&none))
            ),
            target: "-".into(),
            met: None,
        },
        Row {
            figure: "  with a full check of the 50 files (list + stat) / none".into(),
            value: format!("{r_full:.2}x"),
            target: "-".into(),
            met: None,
        },
    ])
}

fn set_mtime(path: &Path, t: SystemTime) -> Result<(), String> {
    std::fs::File::open(path)
        .and_then(|f| f.set_modified(t))
        .map_err(|e| format!("{}: {e}", path.display()))
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
    let bin = crate::dist::build()?;
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
    // Interleaved, so that a change in the machine's load hits both alike.
    let (t_true, t_pre) = interleaved(
        (truebin, &[], &payload),
        (&bin, &dispatch_args, &payload),
        &env,
        warm,
        n,
    );
    // Peak memory with a 20 MB payload (a 20 MB string field) against the
    // small one. Both are fed from files written in chunks: a child's peak
    // RSS starts from its parent's at spawn, so this process must never hold
    // the 20 MB itself.
    let small_file = work.join("small.json");
    std::fs::write(&small_file, &payload).map_err(|e| e.to_string())?;
    let big_file = work.join("big.json");
    {
        let mut f = std::fs::File::create(&big_file).map_err(|e| e.to_string())?;
        f.write_all(br#"{"session_id":"bench","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"x","content":""#)
            .map_err(|e| e.to_string())?;
        let chunk = vec![b'a'; 1 << 20];
        for _ in 0..20 {
            f.write_all(&chunk).map_err(|e| e.to_string())?;
        }
        f.write_all(br#""}}"#).map_err(|e| e.to_string())?;
    }
    let rss_runs = if quick { 3 } else { 7 };
    let rss_small = peak_rss_from_file(&bin, &dispatch_args, &small_file, &env, rss_runs);
    let rss_big = peak_rss_from_file(&bin, &dispatch_args, &big_file, &env, rss_runs);

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
    rows.extend(crate::bench_peers::rows(
        &bin,
        &dispatch_args,
        &bash_payload(&work),
        &env,
        warm,
        n,
    ));
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
    rows.extend(patch_rows(&bin, &work, &env, quick));
    rows.extend(crate::bench_adversarial::rows(&bin, &work, &env, quick));
    rows.extend(syscall_rows(&bin, &work, &env, &dispatch_args));
    let shipped = |event: &str| -> Vec<String> {
        cuecard::registration::shipped()
            .into_iter()
            .filter(|r| r.event == event)
            .flat_map(|r| r.cards)
            .collect()
    };
    let (start_cards, post_cards) = (shipped("SessionStart"), shipped("PostToolUse"));
    let small_transcript = work.join("small-transcript.jsonl");
    write_transcript(&small_transcript, 64 * 1024)?;
    let calls: Vec<(String, Vec<&str>, Vec<u8>)> = vec![
        (
            "PreToolUse, a Bash call that fires".into(),
            dispatch_args.clone(),
            bash_payload(&work),
        ),
        (
            "PreToolUse, a 10 KB Write that fires nothing".into(),
            dispatch_args.clone(),
            big_write_payload(&work),
        ),
        (
            "SessionStart (startup), no knowledge base".into(),
            dispatch_with("SessionStart", &start_cards),
            start_payload(&work),
        ),
        (
            "PostToolUse, a 64 KiB transcript".into(),
            dispatch_with("PostToolUse", &post_cards),
            post_payload(&work, &small_transcript),
        ),
    ];
    rows.extend(cost_rows(&bin, &calls, &env, warm, n));
    rows.extend(transcript_rows(&bin, &work, &env, warm, n)?);
    rows.extend(session_start_rows(&bin, &work, &env, warm, n)?);
    rows.extend(crate::bench_replay::rows(&bin, &work, &env, t_pre, quick)?);
    rows.extend(crate::bench_audit::rows(
        &bin,
        &work,
        &dispatch_args,
        warm,
        n,
    )?);
    rows.extend(project_card_rows(
        &bin,
        &work,
        &env,
        &dispatch_args,
        warm,
        n,
    )?);
    print_table(&rows, n);
    let _ = std::fs::remove_dir_all(&work);
    Ok(())
}

/// A 10 KB Write of a new source file, which fires nothing.
pub fn big_write_payload(dir: &Path) -> Vec<u8> {
    let body = "pub fn f() -> u32 { 1 }\n".repeat(10 * 1024 / 24);
    serde_json::to_vec(&serde_json::json!({
        "session_id": "bench-sys", "transcript_path": dir.join("transcript.jsonl"), "cwd": dir,
        "hook_event_name": "PreToolUse", "tool_name": "Write",
        "tool_input": {"file_path": dir.join("src/big.rs"), "content": body},
    }))
    .expect("JSON")
}

/// `dispatch <event> <cards>`.
fn dispatch_with<'a>(event: &'a str, cards: &'a [String]) -> Vec<&'a str> {
    let mut a = vec!["dispatch", event];
    a.extend(cards.iter().map(String::as_str));
    a
}

/// Each dispatch against `/bin/true` in wall and CPU time, in a session that
/// already has state (the warm-up runs give it one); each process started
/// directly.
fn cost_rows(
    bin: &Path,
    calls: &[(String, Vec<&str>, Vec<u8>)],
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> Vec<Row> {
    let truebin = Path::new("/bin/true");
    let mut rows = Vec::new();
    for (what, args, payload) in calls {
        let (t, d) =
            interleaved_samples((truebin, &[], payload), (bin, args, payload), env, warm, n);
        let m = |s: &[Sample], f: fn(&Sample) -> Duration| median(s.iter().map(f));
        let cpu = m(&d, |s| s.cpu).as_secs_f64() / m(&t, |s| s.cpu).as_secs_f64().max(1e-9);
        let wall = m(&d, |s| s.wall).as_secs_f64() / m(&t, |s| s.wall).as_secs_f64();
        rows.push(Row {
            figure: format!("dispatch {what} / /bin/true, CPU time"),
            value: format!("{cpu:.2}x"),
            target: "<= 1.5x".into(),
            met: Some(cpu <= 1.5),
        });
        rows.push(Row {
            figure: format!("dispatch {what} / /bin/true, wall time"),
            value: format!("{wall:.2}x"),
            target: "<= 1.6x".into(),
            met: Some(wall <= 1.6),
        });
    }
    rows
}

/// A Claude Code PreToolUse Bash call that fires (the dependency card), in
/// a session that already has state once the bench has run it.
pub fn bash_payload(dir: &Path) -> Vec<u8> {
    format!(
        r#"{{"session_id":"bench-sys","transcript_path":"{d}/transcript.jsonl","cwd":"{d}","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{{"command":"rm -rf build/ && npm install left-pad"}}}}"#,
        d = dir.display()
    )
    .into_bytes()
}

/// The system calls one process makes, counted by `strace -f` (None without
/// strace, or when it cannot trace here).
pub fn syscalls(
    program: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    extra: &[(&str, &str)],
) -> Option<usize> {
    let strace = which("strace")?;
    let out = std::env::temp_dir().join(format!("cuecard-bench-strace-{}", std::process::id()));
    let mut child = Command::new(strace)
        .arg("-f")
        .arg("-o")
        .arg(&out)
        .arg(program)
        .args(args)
        .envs(env.iter().copied())
        .envs(extra.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let Some(mut sin) = child.stdin.take() {
        let _ = sin.write_all(stdin);
    }
    let ok = child.wait().ok()?.success();
    let text = std::fs::read_to_string(&out).ok();
    let _ = std::fs::remove_file(&out);
    // One line per call; `+++ exited` is not one.
    ok.then_some(())?;
    Some(text?.lines().filter(|l| !l.contains("+++")).count())
}

/// System calls per dispatch beyond start-up (the same binary with
/// `CUECARD_DISABLE=1`, which exits right after it), on a Bash call that
/// fires and on a 10 KB Write that fires nothing, each in a session that
/// already has state.
fn syscall_rows(bin: &Path, work: &Path, env: &[(&str, &str)], args: &[&str]) -> Vec<Row> {
    let bash = bash_payload(work);
    let write = big_write_payload(work);
    let mut rows = Vec::new();
    for (what, payload) in [
        ("a Bash call that fires", bash),
        ("a 10 KB Write that fires nothing", write),
    ] {
        // The session has state: one call first.
        run_once(bin, args, &payload, env);
        let figure = format!("system calls per dispatch PreToolUse beyond start-up, {what}");
        let counted = syscalls(bin, args, &payload, env, &[]).zip(syscalls(
            bin,
            args,
            &payload,
            env,
            &[("CUECARD_DISABLE", "1")],
        ));
        rows.push(match counted {
            Some((all, start)) => Row {
                figure,
                value: format!(
                    "{} ({all} in all, start-up {start})",
                    all.saturating_sub(start)
                ),
                target: "<= 30".into(),
                met: Some(all.saturating_sub(start) <= 30),
            },
            None => Row {
                figure,
                value: "skipped: strace not available".into(),
                target: "<= 30".into(),
                met: None,
            },
        });
    }
    rows
}

/// A Codex PreToolUse `apply_patch` adding `files` files under `dir`.
fn patch_payload(dir: &Path, files: usize) -> Vec<u8> {
    let mut patch = String::from("*** Begin Patch\n");
    for i in 0..files {
        patch.push_str(&format!(
            "*** Add File: src/gen/f{i}.rs\n+pub fn f{i}() {{}}\n"
        ));
    }
    patch.push_str("*** End Patch\n");
    serde_json::to_vec(&serde_json::json!({
        "session_id": "bench-patch", "cwd": dir, "hook_event_name": "PreToolUse",
        "tool_name": "apply_patch", "tool_input": {"command": patch}, "turn_id": "t",
    }))
    .expect("a JSON value")
}

/// A Codex patch of 4,000 files against the deadline, and against one of
/// 1,000 files (4x when the cost is linear in the patch, 16x when it is
/// quadratic): every file of a patch is judged, so its cost must grow with
/// the patch and no faster.
fn patch_rows(bin: &Path, work: &Path, env: &[(&str, &str)], quick: bool) -> Vec<Row> {
    let (warm, n) = if quick { (2, 7) } else { (3, 31) };
    let args = ["dispatch", "--contract", "codex", "PreToolUse"];
    let (small, large) = (patch_payload(work, 1_000), patch_payload(work, 4_000));
    let (t_small, t_large) = interleaved((bin, &args, &small), (bin, &args, &large), env, warm, n);
    let deadline = Duration::from_millis(700);
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    vec![
        Row {
            figure: format!(
                "Codex apply_patch of 4,000 files ({} KiB) / the 700 ms deadline",
                large.len() / 1024
            ),
            value: format!(
                "{:.2}x ({:.0} ms)",
                ratio(t_large, deadline),
                t_large.as_secs_f64() * 1e3
            ),
            target: "<= 0.5x".into(),
            met: Some(ratio(t_large, deadline) <= 0.5),
        },
        Row {
            figure: "Codex apply_patch, 4,000 files / 1,000 files".into(),
            value: format!("{:.2}x", ratio(t_large, t_small)),
            target: "<= 5x (linear: 4x)".into(),
            met: Some(ratio(t_large, t_small) <= 5.0),
        },
    ]
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
    // Interleaved with /bin/true, so that the ratios compare runs of one
    // period of the machine's load.
    let (none_p, kb_p) = (start_payload(work), start_payload(&with_kb));
    let truebin = Path::new("/bin/true");
    let s = interleaved_many(
        &[
            (truebin, &[], &none_p),
            (bin, &args, &none_p),
            (bin, &args, &kb_p),
        ],
        env,
        warm,
        n,
    );
    let wall = |i: usize| median(s[i].iter().map(|x| x.wall));
    let (t_true, t_none, t_kb) = (wall(0), wall(1), wall(2));

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

pub fn which(name: &str) -> Option<PathBuf> {
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

/// A realistic transcript of about `size` bytes: tool results and assistant
/// records, the last assistant record at 50% of a 200k window (no warning).
fn write_transcript(path: &Path, size: u64) -> Result<(), String> {
    let f = std::fs::File::create(path).map_err(|e| e.to_string())?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, f);
    let result_text =
        "line of tool output with some code: fn main() { println!(\\\"hi\\\"); }\\n".repeat(60);
    let mut written = 0u64;
    let mut i = 0u64;
    while written < size {
        i += 1;
        let user = format!(
            r#"{{"parentUuid":"p{i}","isSidechain":false,"type":"user","uuid":"u{i}","message":{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"toolu_{i}","content":"{result_text}"}}]}}}}"#
        );
        let tokens = 20_000 + (i % 80_000);
        let assistant = format!(
            r#"{{"parentUuid":"u{i}","isSidechain":false,"type":"assistant","uuid":"a{i}","message":{{"id":"msg_{i}","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{{"type":"tool_use","id":"toolu_{i}","name":"Bash","input":{{"command":"cargo test"}}}}],"usage":{{"input_tokens":3,"cache_creation_input_tokens":500,"cache_read_input_tokens":{tokens},"output_tokens":200}}}}}}"#
        );
        for l in [&user, &assistant] {
            w.write_all(l.as_bytes()).map_err(|e| e.to_string())?;
            w.write_all(b"\n").map_err(|e| e.to_string())?;
            written += l.len() as u64 + 1;
        }
    }
    let last = r#"{"parentUuid":"z","isSidechain":false,"type":"assistant","uuid":"last","message":{"id":"msg_last","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"done"}],"usage":{"input_tokens":3,"cache_creation_input_tokens":1000,"cache_read_input_tokens":99000,"output_tokens":200}}}"#;
    w.write_all(last.as_bytes()).map_err(|e| e.to_string())?;
    w.write_all(b"\n").map_err(|e| e.to_string())?;
    w.flush().map_err(|e| e.to_string())
}

fn post_payload(dir: &Path, transcript: &Path) -> Vec<u8> {
    let d = dir.display();
    let t = transcript.display();
    format!(
        r#"{{"session_id":"bench-post","transcript_path":"{t}","cwd":"{d}","permission_mode":"default","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{{"command":"cargo test","description":"run tests"}},"tool_response":{{"stdout":"test result: ok. 12 passed","stderr":"","interrupted":false,"isImage":false}},"tool_use_id":"toolu_01"}}"#
    )
    .into_bytes()
}

/// PostToolUse with every PostToolUse card (the compaction measurement
/// among them) on 1 MB, 50 MB and 200 MB transcripts.
fn transcript_rows(
    bin: &Path,
    work: &Path,
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> Result<Vec<Row>, String> {
    let post_cards: Vec<String> = cuecard::registration::shipped()
        .into_iter()
        .filter(|r| r.event == "PostToolUse")
        .flat_map(|r| r.cards)
        .collect();
    let mut args: Vec<&str> = vec!["dispatch", "PostToolUse"];
    args.extend(post_cards.iter().map(String::as_str));
    let mut tokenizer_loaded = false;
    let mut payloads = Vec::new();
    let mut files = Vec::new();
    for (name, size) in [
        ("1mb", 1u64 << 20),
        ("50mb", 50 << 20),
        ("200mb", 200 << 20),
    ] {
        let path = work.join(format!("transcript-{name}.jsonl"));
        write_transcript(&path, size)?;
        let payload = post_payload(work, &path);
        // One verbose run: the tokenizer must not load on this path.
        let out = Command::new(bin)
            .args(["-v"])
            .args(&args)
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .and_then(|mut c| {
                if let Some(mut sin) = c.stdin.take() {
                    let _ = sin.write_all(&payload);
                }
                c.wait_with_output()
            })
            .map_err(|e| e.to_string())?;
        tokenizer_loaded |= String::from_utf8_lossy(&out.stderr).contains("tokenizer");
        payloads.push(payload);
        files.push(path);
    }
    // Interleaved: each round runs every variant once, so a busy moment on a
    // shared machine weighs on all of them alike.
    let mut cmds: Vec<(&Path, &[&str], &[u8])> = payloads
        .iter()
        .map(|p| (bin, args.as_slice(), p.as_slice()))
        .collect();
    cmds.push((Path::new("/bin/true"), &[], &payloads[1]));
    let times: Vec<Duration> = interleaved_many(&cmds, env, warm, n)
        .iter()
        .map(|s| median(s.iter().map(|s| s.wall)))
        .collect();
    let t_true = times[payloads.len()];
    for f in files {
        let _ = std::fs::remove_file(f);
    }
    let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
    let big_small = ratio(times[2], times[0]);
    let mid_true = ratio(times[1], t_true);
    Ok(vec![
        Row {
            figure: "dispatch PostToolUse, 200 MB / 1 MB transcript".into(),
            value: format!("{big_small:.2}x"),
            target: "<= 1.1x".into(),
            met: Some(big_small <= 1.1),
        },
        Row {
            figure: "dispatch PostToolUse (50 MB transcript) / /bin/true".into(),
            value: format!("{mid_true:.2}x"),
            target: "<= 3x".into(),
            met: Some(mid_true <= 3.0),
        },
        Row {
            figure: "tokenizer loaded on those PostToolUse calls".into(),
            value: if tokenizer_loaded { "yes" } else { "no" }.into(),
            target: "no".into(),
            met: Some(!tokenizer_loaded),
        },
    ])
}

#[cfg(test)]
mod tests {
    use super::round_order;

    #[test]
    fn every_command_follows_every_other_equally_often() {
        // What ran just before a command can slow it (its writeback, the
        // caches it left): each command must follow each other command as
        // often as any, and stand in each place of a round as often, or the
        // control row does not control for it.
        for len in 2..=4 {
            let rounds = 2 * len * 5;
            let mut after = vec![vec![0; len]; len];
            let mut place = vec![vec![0; len]; len];
            for r in 0..rounds {
                let order = round_order(r, len);
                let mut sorted = order.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..len).collect::<Vec<_>>());
                for (k, &c) in order.iter().enumerate() {
                    place[c][k] += 1;
                }
                for w in order.windows(2) {
                    after[w[1]][w[0]] += 1;
                }
            }
            for c in 0..len {
                assert!(
                    place[c].iter().all(|&p| p == rounds / len),
                    "{len}: {place:?}"
                );
                let prev: Vec<i32> = (0..len).filter(|&d| d != c).map(|d| after[c][d]).collect();
                assert!(
                    prev.iter().all(|&p| p == prev[0]),
                    "{len}: command {c} after {prev:?}"
                );
            }
        }
    }
}
