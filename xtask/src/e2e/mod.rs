//! `cargo xtask e2e [--harness <id>]... [--all] [--scenario <name>]... [--keep] [--list]`
//!
//! Proof through the real harnesses: installs each harness CLI from npm into
//! a cache (versions pinned in `harness.rs`), starts the scripted model
//! server (`mock.rs`) on 127.0.0.1, makes a temporary HOME and git project,
//! registers cuecard there, runs the harness non-interactively, and checks
//! what reached the model in the captured requests. Without `--harness` it
//! runs the harnesses `.ci/run` covers (Claude Code, Codex); `--all` runs
//! every one. Every process is started in its own process group and stopped
//! by its id; every wait is bounded; only loopback is used.

mod drivers;
mod harness;
mod mock;
mod outcome;
mod register;
mod scenarios;
mod skill_shell;
mod tools;

use harness::{Harness, Invocation, RunDirs};
use outcome::Outcome;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The target directory (respects `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| crate::root().join("target"))
}

struct Options {
    harnesses: Vec<Harness>,
    scenarios: Vec<String>,
    keep: bool,
    timeout: Duration,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut harnesses = Vec::new();
    let mut scenarios = Vec::new();
    let mut keep = false;
    let mut all = false;
    let mut timeout = Duration::from_secs(150);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--harness" => {
                let id = it.next().ok_or("--harness needs an id")?;
                harnesses.push(harness::lookup(id).ok_or_else(|| {
                    let why = harness::NOT_DRIVEN
                        .iter()
                        .find(|(n, _)| *n == id)
                        .map(|(_, why)| format!(": the e2e does not drive it ({why})"))
                        .unwrap_or_default();
                    format!(
                        "unknown harness {id:?}{why} (one of: {})",
                        harness::HARNESSES
                            .iter()
                            .map(|h| h.id)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )
                })?);
            }
            "--scenario" => scenarios.push(it.next().ok_or("--scenario needs a name")?.clone()),
            "--all" => all = true,
            "--keep" => keep = true,
            "--timeout" => {
                let s: u64 = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--timeout needs seconds")?;
                timeout = Duration::from_secs(s.clamp(10, 900));
            }
            "--list" => {
                for h in harness::HARNESSES {
                    println!(
                        "harness {:12} {}@{}{}  (override: {})",
                        h.id,
                        h.package,
                        h.version(),
                        if h.in_ci { "  (ci)" } else { "" },
                        h.version_var()
                    );
                }
                // Every other harness of `HarnessId::ALL`, with why it is not driven.
                for (id, why) in harness::NOT_DRIVEN {
                    println!("harness {id:12} not driven: {why}");
                }
                for s in scenarios::all() {
                    println!("scenario {:20} {}", s.name, s.about);
                }
                return Ok(None);
            }
            other => return Err(format!("unknown e2e option {other:?}")),
        }
    }
    if all {
        harnesses = harness::HARNESSES.to_vec();
    } else if harnesses.is_empty() {
        harnesses = harness::HARNESSES
            .iter()
            .copied()
            .filter(|h| h.in_ci)
            .collect();
    }
    let known: Vec<&str> = scenarios::all().iter().map(|s| s.name).collect();
    if let Some(s) = scenarios.iter().find(|s| !known.contains(&s.as_str())) {
        return Err(format!(
            "unknown scenario {s:?} (one of: {})",
            known.join(", ")
        ));
    }
    Ok(Some(Options {
        harnesses,
        scenarios,
        keep,
        timeout,
    }))
}

/// How one scenario ended on one harness.
enum Verdict {
    Passed,
    Failed(Vec<String>),
    /// The harness cannot do it (with the reason).
    NotApplicable(&'static str),
    /// The feature it checks is not in this build.
    Pending(String),
}

pub fn run(args: &[String]) -> Result<(), String> {
    let Some(opts) = parse(args)? else {
        return Ok(());
    };
    let bin = build_cuecard()?;
    let root = target_dir().join(format!("e2e/runs/{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).map_err(|e| e.to_string())?;
    let started = Instant::now();
    let mut rows: Vec<(String, String, Verdict, Duration)> = Vec::new();
    for h in &opts.harnesses {
        let hbin = harness::ensure_installed(h)?;
        for s in scenarios::all() {
            if !opts.scenarios.is_empty() && !opts.scenarios.iter().any(|n| n == s.name) {
                continue;
            }
            let t0 = Instant::now();
            let verdict = if let Some(why) = (s.cannot)(h) {
                Verdict::NotApplicable(why)
            } else {
                match (s.needs)() {
                    Err(why) => Verdict::Pending(why),
                    Ok(cards) => {
                        let dir = root.join(format!("{}-{}", h.id, s.name));
                        match run_one(h, &hbin, &bin, &s, &cards, &dir, opts.timeout) {
                            Ok(problems) if problems.is_empty() => {
                                if !opts.keep {
                                    let _ = std::fs::remove_dir_all(&dir);
                                }
                                Verdict::Passed
                            }
                            Ok(problems) => Verdict::Failed(
                                problems
                                    .into_iter()
                                    .chain([format!("run kept in {}", dir.display())])
                                    .collect(),
                            ),
                            Err(e) => {
                                Verdict::Failed(vec![e, format!("run kept in {}", dir.display())])
                            }
                        }
                    }
                }
            };
            report_line(h.id, s.name, &verdict, t0.elapsed());
            rows.push((h.id.to_string(), s.name.to_string(), verdict, t0.elapsed()));
        }
    }
    let failed = rows
        .iter()
        .filter(|r| matches!(r.2, Verdict::Failed(_)))
        .count();
    let passed = rows
        .iter()
        .filter(|r| matches!(r.2, Verdict::Passed))
        .count();
    let pending = rows
        .iter()
        .filter(|r| matches!(r.2, Verdict::Pending(_)))
        .count();
    println!(
        "\ne2e: {passed} passed, {failed} failed, {pending} pending, {} not applicable ({:.0}s)",
        rows.len() - passed - failed - pending,
        started.elapsed().as_secs_f64()
    );
    if failed == 0 && !opts.keep {
        let _ = std::fs::remove_dir_all(&root);
    }
    // Every feature a scenario checks is on main now: a scenario whose card
    // is missing is a regression, not a feature still to land.
    if failed + pending > 0 {
        Err(format!("{failed} scenario(s) failed, {pending} pending"))
    } else {
        Ok(())
    }
}

fn report_line(h: &str, s: &str, v: &Verdict, t: Duration) {
    let secs = t.as_secs_f64();
    match v {
        Verdict::Passed => println!("ok      {h:12} {s:20} {secs:5.1}s"),
        Verdict::NotApplicable(why) => println!("n/a     {h:12} {s:20} {why}"),
        Verdict::Pending(why) => println!("PENDING {h:12} {s:20} {why}"),
        Verdict::Failed(problems) => {
            println!("FAILED  {h:12} {s:20} {secs:5.1}s");
            for p in problems {
                println!("        - {p}");
            }
        }
    }
}

/// Builds the cuecard binary the hooks run: the `dist` build `cargo xtask
/// dist` gives users (a debug build is slower, and once missed the deadline
/// on a loaded machine without the e2e noticing).
fn build_cuecard() -> Result<PathBuf, String> {
    let bin = crate::dist::build()?;
    bin.canonicalize()
        .map_err(|e| format!("{}: {e}", bin.display()))
}

/// What cuecard's own failure record (under the run's state root) says went
/// wrong inside the hook: any missed deadline or caught panic fails the run,
/// even when the harness carried on.
fn recorded_failures(dirs: &RunDirs) -> Vec<String> {
    let path = dirs.home.join(".local/state/cuecard/failures.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Vec::new();
    };
    let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) else {
        return vec![format!("{} is not JSON", path.display())];
    };
    v["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|e| matches!(e["kind"].as_str(), Some("deadline" | "guard-panic")))
        .map(|e| {
            format!(
                "cuecard recorded {} on {}: {}",
                e["kind"].as_str().unwrap_or("?"),
                e["event"].as_str().unwrap_or("?"),
                e["detail"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// The temporary git project every scenario starts from.
fn make_project(dirs: &RunDirs, env: &[(String, String)]) -> Result<(), String> {
    let p = &dirs.project;
    let w = |rel: &str, t: &str| harness::write(&p.join(rel), t);
    w(
        "README.md",
        "# demo\n\nA scratch project for cuecard's end-to-end runs.\n",
    )?;
    w(
        "src/lib.rs",
        "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n",
    )?;
    w(
        "test.sh",
        "#!/bin/sh\necho 'test result: ok. 1 passed; 0 failed'\n",
    )?;
    for args in [
        &["init", "-q"][..],
        &["add", "-A"],
        &[
            "-c",
            "user.name=e2e",
            "-c",
            "user.email=e2e@localhost",
            "commit",
            "-q",
            "-m",
            "init",
        ],
    ] {
        let mut cmd = Command::new("git");
        cmd.args(args)
            .current_dir(p)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        if harness::run_bounded(&mut cmd, Duration::from_secs(30), None)? != Some(0) {
            return Err(format!("git {} failed in {}", args.join(" "), p.display()));
        }
    }
    Ok(())
}

fn run_one(
    h: &Harness,
    hbin: &Path,
    bin: &Path,
    s: &scenarios::Scenario,
    cards: &[cuecard::card::Card],
    dir: &Path,
    timeout: Duration,
) -> Result<Vec<String>, String> {
    let _ = std::fs::remove_dir_all(dir);
    let dirs = RunDirs {
        root: dir.to_path_buf(),
        home: dir.join("home"),
        project: dir.join("project"),
    };
    std::fs::create_dir_all(dirs.home.join("tmp")).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&dirs.project).map_err(|e| e.to_string())?;
    let dirs = RunDirs {
        project: dirs.project.canonicalize().map_err(|e| e.to_string())?,
        ..dirs
    };
    let mut env = harness::base_env(&dirs);
    // cuecard is on PATH, as an installed one is: the project files the
    // install writes name `cuecard`, found through PATH.
    if let (Some(dir), Some(path)) = (bin.parent(), env.iter_mut().find(|(k, _)| k == "PATH")) {
        path.1 = format!("{}:{}", dir.display(), path.1);
    }
    (s.setup)(&dirs.project)?;
    make_project(&dirs, &env)?;
    let plan = (s.plan)(h, &dirs.project);
    let invocations = 1 + plan.then.len() as u64;
    let mut mock = mock::Mock::start(
        &plan.script,
        Some(dirs.root.join("mock.jsonl")),
        timeout.as_secs() * invocations + 30,
        120,
    )
    .map_err(|e| format!("mock: {e}"))?;
    // The install sees the run's policy (it registers the decision events,
    // as it would for a user who set one); no other variable of the run.
    let mut install_env = env.clone();
    install_env.extend(
        plan.env
            .iter()
            .filter(|(k, _)| k == "CUECARD_POLICY")
            .cloned(),
    );
    if let Some(policy) = plan.sandbox {
        install_env.push(("CUECARD_POLICY".into(), policy.into()));
    }
    let (how, plugin_dir) = if plan.plugin {
        let (d, how) = register::plugin(h, bin, &dirs, &install_env)?;
        (how, Some(d))
    } else {
        (
            register::register(h, bin, &dirs, &install_env, plan.sandbox.is_some())?,
            None,
        )
    };
    let inv = Invocation {
        prompt: &plan.prompt,
        then: &plan.then,
        codex_toml: &plan.codex_toml,
        user_settings: &plan.user_settings,
        env: &plan.env,
        model: plan.model.as_deref(),
        sandbox: plan.sandbox.is_some(),
    };
    let (mut argv, henv) = harness::configure(h, &dirs, &mock.base_url(), &inv)?;
    env.extend(henv);
    if let Some(d) = &plugin_dir {
        argv.extend(harness::plugin_argv(h, d)?);
        drivers::of(h)?.load_plugin(hbin, &dirs, &env, d)?;
    }
    env.extend(inv.env.iter().cloned());
    harness::write(
        &dirs.root.join("command.txt"),
        &format!("{how}\n{} {}\n", hbin.display(), argv.join(" ")),
    )?;
    let mut exits = Vec::new();
    let mut stdout = String::new();
    let mut stderr = String::new();
    let mut all_argv = vec![argv.clone()];
    for p in inv.then {
        all_argv.push(harness::resume_argv(h, &argv, inv.prompt, p)?);
    }
    for (i, a) in all_argv.iter().enumerate() {
        let out_path = dirs.root.join(format!("harness.{i}.stdout"));
        let err_path = dirs.root.join(format!("harness.{i}.stderr"));
        let so = std::fs::File::create(&out_path).map_err(|e| e.to_string())?;
        let se = std::fs::File::create(&err_path).map_err(|e| e.to_string())?;
        let mut cmd = Command::new(hbin);
        cmd.args(a)
            .current_dir(&dirs.project)
            .env_clear()
            .envs(env.iter().map(|(k, v)| (k, v)))
            .stdin(Stdio::null())
            .stdout(so)
            .stderr(se);
        exits.push(harness::run_bounded(&mut cmd, timeout, Some(()))?);
        stdout.push_str(&std::fs::read_to_string(&out_path).unwrap_or_default());
        stderr.push_str(&std::fs::read_to_string(&err_path).unwrap_or_default());
    }
    mock.stop();
    let transcripts = harness::transcripts(h, &dirs)
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect::<Vec<_>>()
        .join("\n");
    let mut outcome = Outcome::new(mock.captured(), exits, stdout, stderr, transcripts);
    outcome.project = dirs.project.clone();
    let mut problems = Vec::new();
    for (i, e) in outcome.exits.iter().enumerate() {
        if *e != Some(0) {
            problems.push(match e {
                None => format!(
                    "invocation {i} was stopped at the {}s timeout",
                    timeout.as_secs()
                ),
                Some(c) => format!("invocation {i} exited {c}"),
            });
        }
    }
    if outcome.requests.is_empty() {
        problems.push("the harness sent no model request".into());
    }
    problems.extend(
        outcome
            .hook_errors()
            .into_iter()
            .map(|e| format!("hook error: {e}")),
    );
    problems.extend(recorded_failures(&dirs));
    if plugin_dir.is_some() {
        // The plugin run must owe nothing to a settings install.
        for f in [
            dirs.project.join(".claude/settings.json"),
            dirs.home.join(".claude/settings.json"),
            dirs.project.join(".gemini/settings.json"),
            dirs.home.join(".gemini/settings.json"),
            dirs.project.join(".github/hooks/cuecard.json"),
            dirs.home.join(".copilot/hooks/cuecard.json"),
        ] {
            if std::fs::read_to_string(&f).is_ok_and(|t| t.contains("cuecard")) {
                problems.push(format!("{} names cuecard in a plugin run", f.display()));
            }
        }
        // Its state lives where the harness gives the plugin its data
        // (CLAUDE_PLUGIN_DATA, set by Claude Code, Codex and Copilot CLI;
        // Copilot's for a `--plugin-dir` plugin is under `_direct/`).
        let data = match h.id {
            "codex" => dirs.codex_home().join("plugins/data"),
            "copilot" => dirs.home.join(".copilot/plugin-data/_direct"),
            _ => dirs.home.join(".claude/plugins/data"),
        };
        let states = std::fs::read_dir(&data)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join("state").is_dir())
            .count();
        if matches!(h.id, "claude-code" | "codex" | "copilot") && states == 0 {
            problems.push(format!(
                "no cuecard state under {} (CLAUDE_PLUGIN_DATA)",
                data.display()
            ));
        }
    }
    problems.extend((s.check)(h, &outcome, cards));
    Ok(problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_deadline_or_panic_fails_the_run_and_nothing_else_does() {
        let dir = std::env::temp_dir().join(format!("cuecard-e2e-test-{}", std::process::id()));
        let dirs = RunDirs {
            root: dir.clone(),
            home: dir.join("home"),
            project: dir.join("project"),
        };
        assert!(recorded_failures(&dirs).is_empty(), "no record, no failure");
        let state = dirs.home.join(".local/state/cuecard");
        std::fs::create_dir_all(&state).unwrap();
        let entry = |kind: &str| {
            serde_json::json!({"seq": 0, "time": 0, "event": "SessionStart", "session": "s",
                               "kind": kind, "detail": "d"})
        };
        let record = serde_json::json!({"next": 3, "reported": 0, "entries": [
            entry("deadline"), entry("guard-panic"), entry("unknown-card")]});
        std::fs::write(state.join("failures.json"), record.to_string()).unwrap();
        let found = recorded_failures(&dirs);
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(found.len(), 2, "{found:?}");
        assert!(found[0].contains("deadline") && found[1].contains("guard-panic"));
    }
}
