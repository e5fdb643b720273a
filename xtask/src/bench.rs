//! `cargo xtask bench [--quick]`: docs/design.md §10's figures, measured in one run on
//! this machine and printed as ratios (absolute times on shared machines are
//! noise; ratios measured side by side are not).

//!
//! This file is the hub: the table's [`Row`], the run that builds the rows
//! in order, and the printed table. How a command is measured is in
//! `measure`, what it is fed in `payloads`, each figure's rows in `rows`.

mod measure;
mod payloads;
mod rows;

pub use measure::{
    Sample, interleaved, interleaved_many, measure, median, run_once, syscall_lines, syscalls,
    which,
};
pub use payloads::{bash_payload, big_write_payload};

use measure::peak_rss_from_file;
use payloads::{post_payload, start_payload, write_payload, write_transcript};
pub use rows::syscall_rows;
use rows::{
    cost_rows, dispatch_with, patch_rows, project_card_rows, session_start_rows, transcript_rows,
};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

pub struct Row {
    pub figure: String,
    pub value: String,
    pub target: String,
    pub met: Option<bool>,
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
    rows.extend(crate::bench_judge::rows(t_true, quick)?);
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
