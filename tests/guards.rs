//! The guards, judged through the real binary: every case of
//! `tests/fixtures/guards/<guard>.jsonl` must fire or stay quiet as it says,
//! and the ordinary-work corpus (`tests/fixtures/corpus/ordinary.jsonl`) must
//! fire no guard except where a line says one is meant to. Each case runs
//! `cuecard dispatch PreToolUse <every PreToolUse card>`, as the installed
//! hook does, in a fresh sandbox.
//!
//! Case format (one JSON object per line; blank lines and lines starting with
//! `//` are skipped):
//! `{"expect": "fire"|"quiet", "tool_name": .., "tool_input": {..}, "note": ..}`
//! plus, optionally: `"expect_guards": [..]` (corpus lines: the guards meant
//! to fire), `"context_has": [..]` (texts the injected context must contain),
//! `"context_lacks": [..]` (texts it must not contain: a secret's value),
//! `"known_miss": "reason"` (a case the guard gets wrong on purpose, listed
//! in docs/decisions.md: counted in the figures, not failed; it fails once
//! the guard gets it right, so the mark is removed),
//! `"env": {..}` (extra environment), `"files": {"rel/path": "text"}` (files
//! created in the project first), `"cwd": ".."` (default: the project).
//! In every string, `${PROJECT}` and `${HOME}` become the sandbox's project
//! and home directories.
//!
//! A fixture file whose guard no shipped PreToolUse card names fails the
//! test (a guard renamed or its card dropped must not silently lose its
//! cases).
//!
//! The figures of issue 13 are printed and enforced: recall on firing cases
//! at least 97% for each of destructive, secrets, protected-branch and
//! outside-project; false alarms on quiet cases at most 0.5%; at least 600
//! cases in all; the ordinary-work corpus (at least 300 lines) fires nothing
//! it is not meant to.

mod support;

use cuecard::card::{Origin, parse_card};
use serde_json::{Map, Value, json};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use support::Sandbox;

/// The PreToolUse cards shipped in messages/, each with its guard, read by
/// cuecard's own card parser.
fn pretooluse_cards() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("messages");
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if !path.is_file() || path.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let card = parse_card(&name, &text, Origin::Embedded)
            .unwrap_or_else(|e| panic!("messages/{name}.md: {e}"));
        if let (true, Some(g)) = (card.binds("PreToolUse"), card.bindings.guard) {
            out.push((name, g));
        }
    }
    out.sort();
    out
}

#[derive(Debug, Clone)]
struct Case {
    source: String,
    expect: Option<bool>,
    expect_guards: Vec<String>,
    context_has: Vec<String>,
    context_lacks: Vec<String>,
    known_miss: Option<String>,
    note: String,
    raw: Map<String, Value>,
}

fn load(path: &Path) -> Vec<Case> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with("//") {
            continue;
        }
        let source = format!("{}:{}", path.file_name().unwrap().to_string_lossy(), n + 1);
        let v: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{source}: not JSON: {e}"));
        let raw = v
            .as_object()
            .cloned()
            .unwrap_or_else(|| panic!("{source}: not an object"));
        let strings = |k: &str| -> Vec<String> {
            raw.get(k)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let expect = match raw.get("expect").and_then(Value::as_str) {
            Some("fire") => Some(true),
            Some("quiet") => Some(false),
            None => None,
            Some(other) => panic!("{source}: expect must be fire or quiet, not {other}"),
        };
        assert!(raw.get("tool_name").is_some(), "{source}: no tool_name");
        out.push(Case {
            source,
            expect,
            expect_guards: strings("expect_guards"),
            context_has: strings("context_has"),
            context_lacks: strings("context_lacks"),
            known_miss: raw
                .get("known_miss")
                .and_then(Value::as_str)
                .map(String::from),
            note: raw
                .get("note")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
            raw,
        });
    }
    out
}

fn substitute(v: &Value, sb: &Sandbox) -> Value {
    match v {
        Value::String(s) => Value::String(
            s.replace("${PROJECT}", &sb.project().to_string_lossy())
                .replace("${HOME}", &sb.home().to_string_lossy()),
        ),
        Value::Array(a) => Value::Array(a.iter().map(|x| substitute(x, sb)).collect()),
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, x)| (k.clone(), substitute(x, sb)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// What one case did: the guards whose card fired, and the context text.
struct Outcome {
    fired: BTreeSet<String>,
    context: String,
}

fn run_case(case: &Case, cards: &[(String, String)]) -> Outcome {
    let sb = Sandbox::outside_tmp();
    let raw = substitute(&Value::Object(case.raw.clone()), &sb);
    if let Some(files) = raw.get("files").and_then(Value::as_object) {
        for (rel, text) in files {
            sb.write(rel, text.as_str().unwrap_or_default());
        }
    }
    let cwd = raw
        .get("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .unwrap_or_else(|| sb.project());
    let payload = json!({
        "session_id": "guards-test",
        "transcript_path": sb.path().join("transcript.jsonl"),
        "cwd": cwd,
        "permission_mode": "default",
        "hook_event_name": "PreToolUse",
        "tool_name": raw["tool_name"],
        "tool_input": raw.get("tool_input").cloned().unwrap_or(json!({})),
        "tool_use_id": "toolu_guards_test",
    });
    let names: Vec<&str> = cards.iter().map(|(c, _)| c.as_str()).collect();
    let mut t = sb.test().dispatch("PreToolUse", &names).json(&payload);
    if let Some(env) = raw.get("env").and_then(Value::as_object) {
        for (k, v) in env {
            t = t.env(k, v.as_str().unwrap_or_default());
        }
    }
    let out = t.run();
    let context = out.context();
    let fired = cards
        .iter()
        .filter(|(card, _)| context.contains(&format!("cuecard cards show {card}`")))
        .map(|(_, g)| g.clone())
        .collect();
    Outcome { fired, context }
}

/// Runs cases on a few threads (each case is one process), in order.
fn run_all(cases: &[Case], cards: &[(String, String)]) -> Vec<Outcome> {
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get().clamp(2, 4));
    let chunk = cases.len().div_ceil(workers).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = cases
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || part.iter().map(|c| run_case(c, cards)).collect::<Vec<_>>())
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("worker"))
            .collect()
    })
}

fn fixtures(dir: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(dir)
}

#[test]
fn every_guard_case_fires_or_stays_quiet_as_written() {
    let cards = pretooluse_cards();
    let guards: BTreeSet<String> = cards.iter().map(|(_, g)| g.clone()).collect();
    let mut files: BTreeMap<String, PathBuf> = BTreeMap::new();
    for e in std::fs::read_dir(fixtures("guards")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "jsonl") {
            files.insert(p.file_stem().unwrap().to_string_lossy().into_owned(), p);
        }
    }
    // Every PreToolUse guard has its cases.
    for g in &guards {
        assert!(
            files.contains_key(g),
            "guard `{g}` has a PreToolUse card but no tests/fixtures/guards/{g}.jsonl"
        );
    }
    let mut failures = Vec::new();
    let mut table =
        String::from("guard                 fire  quiet  recall  false alarms  kept misses\n");
    let (mut all_cases, mut all_quiet, mut all_false) = (0usize, 0usize, 0usize);
    for (guard, path) in &files {
        assert!(
            guards.contains(guard),
            "tests/fixtures/guards/{guard}.jsonl: no PreToolUse card in messages/ names guard `{guard}`"
        );
        let cases = load(path);
        let fire = cases.iter().filter(|c| c.expect == Some(true)).count();
        let quiet = cases.iter().filter(|c| c.expect == Some(false)).count();
        assert!(
            fire >= 10 && quiet >= 10,
            "{guard}: needs at least 10 firing and 10 quiet cases (has {fire} and {quiet})"
        );
        let (mut caught, mut false_alarms, mut kept) = (0usize, 0usize, 0usize);
        for (case, out) in cases.iter().zip(run_all(&cases, &cards)) {
            let want = case
                .expect
                .unwrap_or_else(|| panic!("{}: no expect", case.source));
            let got = out.fired.contains(guard);
            caught += usize::from(want && got);
            false_alarms += usize::from(!want && got);
            match (&case.known_miss, got == want) {
                (Some(reason), true) => failures.push(format!(
                    "{}: marked as a known miss ({reason}) but the guard gets it right now: remove the mark and its entry in docs/decisions.md",
                    case.source
                )),
                (Some(_), false) => kept += 1,
                (None, false) => failures.push(format!(
                    "{}: expected {} but {} ({})\n    tool_input: {}\n    context: {}",
                    case.source,
                    if want { "fire" } else { "quiet" },
                    if got { "it fired" } else { "it stayed quiet" },
                    case.note,
                    case.raw.get("tool_input").unwrap_or(&Value::Null),
                    out.context.replace('\n', " ⏎ "),
                )),
                (None, true) => {}
            }
            if want && got {
                for needle in &case.context_has {
                    if !out.context.contains(needle.as_str()) {
                        failures.push(format!(
                            "{}: the context lacks {needle:?}: {}",
                            case.source, out.context
                        ));
                    }
                }
            }
            for needle in &case.context_lacks {
                if out.context.contains(needle.as_str()) {
                    failures.push(format!(
                        "{}: the context repeats a text it must not ({} characters)",
                        case.source,
                        needle.len()
                    ));
                }
            }
        }
        let recall = 100.0 * caught as f64 / fire as f64;
        let fa = 100.0 * false_alarms as f64 / quiet as f64;
        table.push_str(&format!(
            "{guard:20} {fire:5} {quiet:6}  {recall:5.1}%  {fa:11.1}%  {kept:11}\n"
        ));
        if RECALL_GUARDS.contains(&guard.as_str()) && recall < MIN_RECALL {
            failures.push(format!(
                "{guard}: recall {recall:.1}% is under the target of {MIN_RECALL}%"
            ));
        }
        all_cases += cases.len();
        all_quiet += quiet;
        all_false += false_alarms;
    }
    let fa = 100.0 * all_false as f64 / all_quiet.max(1) as f64;
    table.push_str(&format!(
        "{all_cases} cases; false alarms on {all_quiet} quiet cases: {all_false} ({fa:.2}%)\n"
    ));
    eprintln!("{table}");
    if fa > MAX_FALSE_ALARMS {
        failures.push(format!(
            "false alarms {fa:.2}% are over the target of {MAX_FALSE_ALARMS}%"
        ));
    }
    assert!(
        all_cases >= 600,
        "the guard cases need at least 600 firing and quiet cases in all (have {all_cases})"
    );
    assert!(
        failures.is_empty(),
        "{table}\n{} case(s) failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The guards whose recall on their firing cases is held to [`MIN_RECALL`].
const RECALL_GUARDS: &[&str] = &[
    "destructive",
    "secrets",
    "protected-branch",
    "outside-project",
];
/// The least recall, in percent, of each of [`RECALL_GUARDS`].
const MIN_RECALL: f64 = 97.0;
/// The most false alarms on quiet cases, in percent of them.
const MAX_FALSE_ALARMS: f64 = 0.5;

#[test]
fn ordinary_work_fires_no_guard_but_where_meant_to() {
    let cards = pretooluse_cards();
    let guards: BTreeSet<String> = cards.iter().map(|(_, g)| g.clone()).collect();
    let cases = load(&fixtures("corpus").join("ordinary.jsonl"));
    assert!(
        cases.len() >= 300,
        "the corpus needs at least 300 lines (has {})",
        cases.len()
    );
    let outcomes = run_all(&cases, &cards);
    let mut false_pos: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    let mut missed = Vec::new();
    let mut expected_fires: BTreeMap<&str, usize> = BTreeMap::new();
    for (case, out) in cases.iter().zip(&outcomes) {
        for g in &out.fired {
            if case.expect_guards.contains(g) {
                *expected_fires.entry(g.as_str()).or_default() += 1;
            } else {
                false_pos.entry(g.as_str()).or_default().push(format!(
                    "{} ({}): {}",
                    case.source,
                    case.note,
                    case.raw.get("tool_input").unwrap_or(&Value::Null)
                ));
            }
        }
        for g in &case.expect_guards {
            if guards.contains(g) && !out.fired.contains(g) {
                missed.push(format!(
                    "{}: `{g}` was meant to fire ({})",
                    case.source, case.note
                ));
            }
        }
    }
    let n = cases.len();
    let mut table = format!(
        "false positives on {n} ordinary calls\nguard                 meant  false  rate\n"
    );
    for g in &guards {
        let fp = false_pos.get(g.as_str()).map_or(0, Vec::len);
        table.push_str(&format!(
            "{g:20} {:6} {fp:6}  {:.1}%\n",
            expected_fires.get(g.as_str()).copied().unwrap_or(0),
            100.0 * fp as f64 / n as f64
        ));
    }
    eprintln!("{table}");
    let fps: Vec<String> = false_pos.values().flatten().cloned().collect();
    assert!(
        fps.is_empty() && missed.is_empty(),
        "{table}\nfalse positives:\n{}\nmissed:\n{}",
        fps.join("\n"),
        missed.join("\n")
    );
}
