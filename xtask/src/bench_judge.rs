//! What judging a PreToolUse call costs inside the process, apart from
//! starting one (issue 27): the `bench_judge` example (examples/), built
//! with the distributed binary's profile and flags, times the library's
//! parse, dispatch (every PreToolUse card) and answer on 13 typical calls,
//! quiet and firing, short and long. `cargo xtask bench` prints three rows
//! of it; `cargo xtask bench-judge [--quick] [--cards]` prints every call,
//! and with `--cards` each card alone and the payload's parse alone. The
//! calls run in a throw-away project under `target/` (not a temporary
//! folder: the guards treat those as scratch), with `HOME` beside it and
//! no other environment variable, so the maintainer's own policy and cards
//! do not count.

use crate::bench::Row;
use std::process::Command;
use std::time::Duration;

/// One line of the example's output: what was timed and its median per call.
pub struct Timed {
    /// `call` (one command, every card), or `mean` (over every command).
    pub what: String,
    pub name: String,
    pub per_call: Duration,
}

/// Builds the example and runs it: `cards` adds each card alone.
pub fn measure(quick: bool, cards: bool) -> Result<Vec<Timed>, String> {
    let example = crate::dist::example("bench_judge")?;
    let work = crate::root()
        .join("target")
        .join(format!("bench-judge-{}", std::process::id()));
    let project = work.join("home").join("project");
    std::fs::create_dir_all(project.join(".git")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(project.join("src")).map_err(|e| e.to_string())?;
    let (iters, rounds) = if quick { ("50", "5") } else { ("200", "11") };
    let mut cmd = Command::new(&example);
    cmd.args(["--project", &project.to_string_lossy()])
        .args(["--iters", iters, "--rounds", rounds]);
    if cards {
        cmd.arg("--cards");
    }
    // Only `HOME`: the maintainer's policy, cards and folders do not count.
    cmd.env_clear()
        .env("HOME", work.join("home"))
        .current_dir(&project);
    let out = cmd
        .output()
        .map_err(|e| format!("{}: {e}", example.display()));
    let _ = std::fs::remove_dir_all(&work);
    let out = out?;
    if !out.status.success() {
        return Err(format!(
            "bench_judge failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split('\t');
            let (what, name, ns) = (f.next()?, f.next()?, f.next()?);
            Some(Timed {
                what: what.to_string(),
                name: name.to_string(),
                per_call: Duration::from_nanos(ns.parse().ok()?),
            })
        })
        .collect())
}

fn us(d: Duration) -> String {
    format!("{:.1} us", d.as_secs_f64() * 1e6)
}

/// `cargo xtask bench`'s rows: the mean over the calls, the slowest call
/// and the Bash call the start-up rows time, each also as a share of
/// starting `/bin/true` (`t_true`, measured in the same run).
pub fn rows(t_true: Duration, quick: bool) -> Result<Vec<Row>, String> {
    let timed = measure(quick, false)?;
    let share = |d: Duration| d.as_secs_f64() / t_true.as_secs_f64().max(1e-12);
    let row = |figure: String, d: Duration| Row {
        figure,
        value: format!("{} ({:.3}x /bin/true)", us(d), share(d)),
        target: "-".into(),
        met: None,
    };
    let calls: Vec<&Timed> = timed.iter().filter(|t| t.what == "call").collect();
    let mut rows = Vec::new();
    if let Some(mean) = timed.iter().find(|t| t.what == "mean") {
        rows.push(row(
            format!(
                "in process: judging a PreToolUse call ({}), mean of {} calls",
                mean.name,
                calls.len()
            ),
            mean.per_call,
        ));
    }
    if let Some(slow) = calls.iter().max_by_key(|t| t.per_call) {
        rows.push(row(
            format!("in process: the slowest of them ({})", slow.name),
            slow.per_call,
        ));
    }
    if let Some(bash) = calls.iter().find(|t| t.name == "fires: rm + npm install") {
        rows.push(row(
            "in process: the Bash call that fires (`rm -rf build/ && npm install left-pad`)".into(),
            bash.per_call,
        ));
    }
    Ok(rows)
}

/// `cargo xtask bench-judge [--quick] [--cards]`: every call's line.
pub fn run(args: &[String]) -> Result<(), String> {
    let quick = args.iter().any(|a| a == "--quick");
    let cards = args.iter().any(|a| a == "--cards");
    let timed = measure(quick, cards)?;
    let rows: Vec<Row> = timed
        .iter()
        .map(|t| Row {
            figure: match t.what.as_str() {
                "call" => format!("{} (every card)", t.name),
                _ => format!("mean over the calls: {}", t.name),
            },
            value: us(t.per_call),
            target: "-".into(),
            met: None,
        })
        .collect();
    println!("in process, per call: the median of rounds of repeated calls\n");
    crate::bench::print_table(&rows, if quick { 5 } else { 11 });
    Ok(())
}
