//! The bench's rows: each figure of docs/design.md §10, measured and set
//! against its target.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use super::Row;
use super::measure::{
    Sample, interleaved, interleaved_many, interleaved_samples, median, run_once, syscalls,
};
use super::payloads::{
    bash_payload, big_write_payload, kb_project, patch_payload, post_payload, start_payload,
    write_payload, write_transcript,
};

/// PreToolUse in a project with 50 trusted project cards against the same
/// call in a project with none (issue 8: "no measurable cost").
pub(super) fn project_card_rows(
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

/// `dispatch <event> <cards>`.
pub(super) fn dispatch_with<'a>(event: &'a str, cards: &'a [String]) -> Vec<&'a str> {
    let mut a = vec!["dispatch", event];
    a.extend(cards.iter().map(String::as_str));
    a
}

/// Each dispatch against `/bin/true` in wall and CPU time, in a session that
/// already has state (the warm-up runs give it one); each process started
/// directly.
pub(super) fn cost_rows(
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

/// System calls per dispatch beyond start-up (the same binary with
/// `CUECARD_DISABLE=1`, which exits right after it), on a Bash call that
/// fires and on a 10 KB Write that fires nothing, each in a session that
/// already has state.
pub fn syscall_rows(bin: &Path, work: &Path, env: &[(&str, &str)], args: &[&str]) -> Vec<Row> {
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

/// A Codex patch of 4,000 files against the deadline, and against one of
/// 1,000 files (4x when the cost is linear in the patch, 16x when it is
/// quadratic): every file of a patch is judged, so its cost must grow with
/// the patch and no faster.
pub(super) fn patch_rows(bin: &Path, work: &Path, env: &[(&str, &str)], quick: bool) -> Vec<Row> {
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

/// SessionStart (every card of its registration) on a project with no base
/// and on one with a 1,000-page base, as ratios to /bin/true; and the drift
/// probe alone, in process.
pub(super) fn session_start_rows(
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

/// PostToolUse with every PostToolUse card (the compaction measurement
/// among them) on 1 MB, 50 MB and 200 MB transcripts.
pub(super) fn transcript_rows(
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
