//! `cuecard report`, through the real binary, and rendered in a real
//! headless Chromium (the Debian package): what a person would see once
//! the page is laid out (the DOM after the browser parsed and ran it), not
//! only the HTML text: the curve drawn with one vertex per measured size,
//! the rows present, and a hostile transcript's markup shown as text.
//!
//! Without Chromium the browser tests skip with a line on stderr, except
//! under `CI=true`, where they fail (.ci/run installs it).
#![cfg(unix)]

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::Sandbox;

/// The system Chromium, or `None` (a failure under CI=true).
fn chromium() -> Option<PathBuf> {
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file());
    if found.is_none() {
        let ci = matches!(std::env::var("CI").as_deref(), Ok(v) if !v.is_empty() && v != "false" && v != "0");
        assert!(
            !ci,
            "CI=true but /usr/bin/chromium is missing: install the Debian packages chromium and chromium-driver (.ci/run does)"
        );
        eprintln!("SKIPPED: no /usr/bin/chromium (apt-get install chromium chromium-driver)");
    }
    found
}

/// The DOM Chromium builds from `page` (after parsing, layout and any
/// script: the page has none, and its policy allows none).
fn dom(browser: &Path, page: &Path, sb: &Sandbox) -> String {
    run_chromium(browser, page, sb, &[])
}

fn run_chromium(browser: &Path, page: &Path, sb: &Sandbox, extra: &[&str]) -> String {
    let profile = sb.path().join("chromium-profile");
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-dev-shm-usage",
        ])
        .args(extra)
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start chromium");
    let out = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut { out }, &mut s).unwrap();
        s
    });
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(90) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium did not finish within 90 s");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let dom = reader.join().unwrap();
    assert!(dom.contains("</html>"), "chromium dumped no DOM: {dom}");
    dom
}

/// The test's own page, which loads the report in a frame once laid out and
/// measures what the browser drew: the curve's vertices, its drawn size
/// and length, the chart's box, the rows with a height, the script
/// elements. (The report itself runs nothing; this page is the test's.)
const PROBE: &str = r#"<!DOCTYPE html><html><body><iframe id="f" src="page.html" width="1200" height="2400"></iframe><pre id="out">pending</pre>
<script>
document.getElementById('f').addEventListener('load', function () {
  var d = this.contentDocument, o = {};
  try {
    var c = d.getElementById('context-curve');
    if (c) {
      var b = c.getBBox();
      o.curve = {points: c.points.numberOfItems, width: Math.round(b.width), height: Math.round(b.height), length: Math.round(c.getTotalLength())};
      var r = d.getElementById('chart').getBoundingClientRect();
      o.chart = {width: Math.round(r.width), height: Math.round(r.height)};
    }
    o.rows = {};
    ['cards','warnings','compactions','decisions','harnesses','sessions'].forEach(function (id) {
      var t = d.getElementById(id); if (!t) return;
      o.rows[id] = Array.prototype.filter.call(t.tBodies[0].rows, function (tr) { return tr.getBoundingClientRect().height > 0; }).length;
    });
    o.scripts = d.getElementsByTagName('script').length;
    o.title = d.title;
  } catch (e) { o.error = String(e); }
  document.getElementById('out').textContent = JSON.stringify(o);
});
</script></body></html>"#;

/// What Chromium drew of `page` (see [`PROBE`]).
fn measure(browser: &Path, page: &Path, sb: &Sandbox) -> Value {
    let dir = sb.path().join("probe");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(page, dir.join("page.html")).unwrap();
    std::fs::write(dir.join("probe.html"), PROBE).unwrap();
    let dom = run_chromium(
        browser,
        &dir.join("probe.html"),
        sb,
        &[
            "--allow-file-access-from-files",
            "--virtual-time-budget=5000",
        ],
    );
    let start =
        dom.find("<pre id=\"out\">").expect("the probe's output") + "<pre id=\"out\">".len();
    let text = &dom[start..start + dom[start..].find("</pre>").unwrap()];
    let v: Value = serde_json::from_str(&text.replace("&quot;", "\"").replace("&amp;", "&"))
        .unwrap_or_else(|e| panic!("{e}: {text}"));
    assert!(v.get("error").is_none(), "{v}");
    v
}

/// The vertices of the context curve's polyline.
fn curve_points(dom: &str) -> usize {
    let i = dom
        .find("id=\"context-curve\"")
        .expect("the curve is drawn");
    let tag = &dom[dom[..i].rfind('<').unwrap()..];
    let tag = &tag[..tag.find('>').unwrap()];
    let p = tag.find(" points=\"").expect("points") + " points=\"".len();
    tag[p..p + tag[p..].find('"').unwrap()]
        .split_whitespace()
        .count()
}

/// The body rows of the table with `id` (0 when the table is absent).
fn rows(dom: &str, id: &str) -> usize {
    let Some(i) = dom.find(&format!("<table id=\"{id}\"")) else {
        return 0;
    };
    let table = &dom[i..];
    let table = &table[..table.find("</table>").unwrap()];
    let body = &table[table.find("<tbody>").unwrap()..];
    body.matches("<tr>").count()
}

fn write_report(sb: &Sandbox, args: &[&str]) -> PathBuf {
    let page = sb.path().join("page.html");
    let out = sb
        .test()
        .arg("report")
        .args(args.iter().copied())
        .arg("-o")
        .arg(&page)
        .run();
    assert!(out.stdout.contains("wrote "), "{}", out.stdout);
    page
}

#[test]
fn a_replayed_transcript_draws_its_curve_and_lists_every_card() {
    let sb = Sandbox::new();
    let transcript = sb.path().join("sample.jsonl");
    std::fs::write(&transcript, include_str!("../src/replay/sample.jsonl")).unwrap();
    let r: Value = serde_json::from_str(
        &sb.test()
            .args(["replay", "--json"])
            .arg(&transcript)
            .run()
            .stdout,
    )
    .unwrap();
    let curve = r["curve"].as_array().unwrap().len();
    let fired: usize = r["turns"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["firings"].as_array().unwrap().len())
        .sum();
    assert!(curve > 10 && fired > 5, "{curve} sizes, {fired} cards");
    let page = write_report(&sb, &[transcript.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    // Self-contained: no script, no request.
    for bad in ["<script", "http://", "https://", "@import", "url("] {
        let at = html.find(bad);
        let ok = bad.starts_with("http://")
            && html.matches(bad).count()
                == html.matches("xmlns=\"http://www.w3.org/2000/svg\"").count();
        assert!(at.is_none() || ok, "{bad} in the page");
    }
    let Some(browser) = chromium() else { return };
    let dom = dom(&browser, &page, &sb);
    assert_eq!(curve_points(&dom), curve, "one vertex per measured size");
    assert!(dom.contains("id=\"threshold-1\"") && dom.contains("id=\"threshold-2\""));
    assert!(
        dom.contains("65% (130,000 tokens)"),
        "the first threshold is labelled"
    );
    assert_eq!(rows(&dom, "cards"), fired, "one row per card fired");
    assert_eq!(
        rows(&dom, "warnings"),
        2,
        "two warnings before the compaction"
    );
    assert_eq!(dom.matches("class=\"warning-mark\"").count(), 2);
    assert_eq!(rows(&dom, "compactions"), 1);
    assert_eq!(rows(&dom, "harnesses"), 1);
    assert!(dom.contains("<td>claude-code</td>"));
    assert!(dom.contains("<td>dependency</td>") && dom.contains("<td>Bash</td>"));
    // What the browser drew: a curve with a size, across most of the chart.
    let m = measure(&browser, &page, &sb);
    assert_eq!(m["curve"]["points"], json!(curve), "{m}");
    assert!(m["curve"]["width"].as_u64().unwrap() > 600, "{m}");
    assert!(m["curve"]["height"].as_u64().unwrap() > 100, "{m}");
    assert!(m["curve"]["length"].as_u64().unwrap() > 800, "{m}");
    assert_eq!(m["chart"], json!({"width": 900, "height": 280}), "{m}");
    assert_eq!(m["rows"]["cards"], json!(fired), "every row laid out: {m}");
    assert_eq!(m["rows"]["warnings"], json!(2));
    assert_eq!(m["scripts"], json!(0));
}

/// A Claude Code transcript whose paths and commands carry markup.
fn hostile_transcript(sb: &Sandbox) -> PathBuf {
    let evil_dir = "/home/dev/x<script>document.title='pwned'</script>";
    let lines = [
        json!({"type": "user", "sessionId": "s<b>1</b>", "cwd": "/home/dev/x", "uuid": "u1",
               "message": {"role": "user", "content": "<img src=x onerror=\"document.title='pwned'\">"}}),
        json!({"type": "assistant", "sessionId": "s<b>1</b>", "cwd": "/home/dev/x", "uuid": "u2",
               "message": {"id": "m1", "role": "assistant", "model": "claude-sonnet-4-5",
                 "content": [{"type": "tool_use", "id": "t1", "name": "Edit",
                   "input": {"file_path": format!("{evil_dir}/package.json"), "old_string": "a", "new_string": "b"}}],
                 "usage": {"input_tokens": 10, "cache_read_input_tokens": 20000, "output_tokens": 5}}}),
        json!({"type": "user", "sessionId": "s<b>1</b>", "cwd": "/home/dev/x", "uuid": "u3",
               "message": {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}),
    ];
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let p = sb.path().join("hostile<i>.jsonl");
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_hostile_transcript_is_shown_as_text_never_run() {
    let sb = Sandbox::new();
    let t = hostile_transcript(&sb);
    let page = write_report(&sb, &[t.to_str().unwrap()]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("<script"), "no script element in the page");
    assert!(html.contains("x&lt;script&gt;document.title=&#39;pwned&#39;&lt;/script&gt;"));
    assert!(!html.contains("<i>") && html.contains("hostile&lt;i&gt;"));
    let Some(browser) = chromium() else { return };
    let dom = dom(&browser, &page, &sb);
    assert!(
        !dom.contains("<script"),
        "the browser built no script element"
    );
    assert!(!dom.contains("<title>pwned"), "nothing ran");
    let m = measure(&browser, &page, &sb);
    assert_eq!(m["scripts"], json!(0), "{m}");
    assert!(!m["title"].as_str().unwrap().contains("pwned"), "{m}");
    assert!(
        dom.contains("&lt;script&gt;"),
        "the markup is there as text"
    );
    // The session start's cards, and the dependency card on the Edit,
    // whose target is the hostile path, shown as text.
    assert!(rows(&dom, "cards") >= 3, "{dom}");
    assert!(dom.contains("<td>dependency</td>"));
}

/// A Claude Code payload of `event` for session `id`.
fn payload(sb: &Sandbox, id: &str, name: &str) -> Value {
    let mut p = sb.fixture("claude-code", name);
    p["session_id"] = json!(id);
    p["transcript_path"] = json!(sb.path().join(format!("{id}.jsonl")));
    p
}

/// One tool call after the model reported `tokens` of context.
fn step(sb: &Sandbox, id: &str, i: usize, tokens: u64) {
    let transcript = sb.path().join(format!("{id}.jsonl"));
    let line = json!({"type": "assistant", "isSidechain": false, "uuid": format!("u{i}"),
        "message": {"id": format!("m{i}"), "role": "assistant", "model": "claude-sonnet-4-5",
          "content": [{"type": "text", "text": "ok"}],
          "usage": {"input_tokens": 3, "cache_read_input_tokens": tokens - 3, "output_tokens": 9}}});
    let mut text = std::fs::read_to_string(&transcript).unwrap_or_default();
    text.push_str(&format!("{line}\n"));
    std::fs::write(&transcript, text).unwrap();
    sb.test()
        .dispatch("PostToolUse", &["compaction-warning"])
        .json(&payload(sb, id, "PostToolUse.Bash"))
        .run();
}

/// A Claude Code session driven through `dispatch`: a transcript whose
/// usage rises past both thresholds, a tool call per step, and one denied
/// command.
fn drive_session(sb: &Sandbox, id: &str, steps: &[u64]) {
    std::fs::write(sb.path().join(format!("{id}.jsonl")), "").unwrap();
    sb.test()
        .dispatch("SessionStart", &["session-start"])
        .json(&payload(sb, id, "SessionStart.startup"))
        .run();
    for (i, t) in steps.iter().enumerate() {
        step(sb, id, i, *t);
    }
    let mut pre = payload(sb, id, "PreToolUse.Bash");
    pre["tool_name"] = json!("Bash");
    pre["tool_input"] = json!({"command": "rm -rf /", "description": "x"});
    sb.test()
        .dispatch("PreToolUse", &["destructive"])
        .env("CUECARD_POLICY", "destructive=deny")
        .json(&pre)
        .run();
}

#[test]
fn a_session_page_marks_its_compaction_and_what_the_start_after_it_injected() {
    let sb = Sandbox::new();
    drive_session(&sb, "cmp", &[100_000, 170_000]);
    sb.test()
        .dispatch("SessionStart", &["session-start"])
        .json(&payload(&sb, "cmp", "SessionStart.compact"))
        .run();
    step(&sb, "cmp", 10, 30_000);
    let page = write_report(&sb, &["--session", "cmp"]);
    let Some(browser) = chromium() else { return };
    let dom = dom(&browser, &page, &sb);
    assert_eq!(rows(&dom, "compactions"), 1, "{dom}");
    assert_eq!(dom.matches("class=\"compaction-mark\"").count(), 1);
    let table = &dom[dom.find("<table id=\"compactions\"").unwrap()..];
    let table = &table[..table.find("</table>").unwrap()];
    assert_eq!(
        table.matches("session-start (").count(),
        1,
        "the card the start after the compaction injected, not the first start's: {table}"
    );
    assert!(
        dom.contains("<td>call 5, "),
        "the ledger's call numbers: {dom}"
    );
    assert_eq!(
        curve_points(&dom),
        4,
        "three sizes in the first cycle, one after"
    );
}

#[test]
fn a_session_report_reads_the_state_and_the_index_lists_sessions() {
    let sb = Sandbox::new();
    let steps = [20_000, 90_000, 135_000, 150_000, 165_000, 170_000];
    drive_session(&sb, "sess-one", &steps);
    drive_session(&sb, "sess-two", &steps[..2]);
    let page = write_report(&sb, &["--session", "sess-one"]);
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("cuecard session sess-one"));
    // The ASCII sparkline of status (stdout is no terminal here).
    let status = sb.test().args(["status", "--session", "sess-one"]).run();
    let line = status
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("context "))
        .unwrap_or_else(|| panic!("a sparkline line: {}", status.stdout));
    assert!(line.is_ascii(), "{line}");
    assert!(line.contains("peak 170,000 of 200,000 tokens"), "{line}");
    assert!(status.stdout.contains("claude-code"), "{}", status.stdout);

    let Some(browser) = chromium() else { return };
    let dom = dom(&browser, &page, &sb);
    // Every call after the first measurement knew a size: the six tool
    // calls and the denied one.
    assert_eq!(curve_points(&dom), steps.len() + 1);
    let m = measure(&browser, &page, &sb);
    assert_eq!(m["curve"]["points"], json!(steps.len() + 1), "{m}");
    assert!(m["curve"]["height"].as_u64().unwrap() > 100, "{m}");
    assert_eq!(m["rows"]["decisions"], json!(1), "{m}");
    assert_eq!(rows(&dom, "warnings"), 2);
    assert_eq!(rows(&dom, "decisions"), 1);
    assert!(dom.contains("<td class=\"deny\">deny</td>"), "{dom}");
    assert!(dom.contains("<td>rm -rf</td>") || dom.contains("<td>rm</td>"));
    assert!(dom.contains("destructive"), "the policy line is named");
    // session-start, two warnings, and the destructive card's advice that
    // came with the deny.
    assert_eq!(rows(&dom, "cards"), 4, "{dom}");
    assert!(dom.contains("<td>destructive</td>"));

    let index = write_report(&sb, &[]);
    let dom = run_chromium(&browser, &index, &sb, &[]);
    assert_eq!(rows(&dom, "sessions"), 2);
    assert!(dom.contains("cuecard report --session sess-one"));
    assert_eq!(rows(&dom, "harnesses"), 1);
}

#[test]
fn open_starts_the_browser_named_by_browser() {
    let sb = Sandbox::new();
    drive_session(&sb, "s", &[10_000]);
    let seen = sb.path().join("seen.txt");
    let script = support::put(
        sb.path().join("fake-browser"),
        &format!("#!/bin/sh\necho \"$1\" > {}\n", seen.display()),
    );
    std::fs::set_permissions(&script, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = sb
        .test()
        .args(["report", "--session", "s", "--open"])
        .env("BROWSER", format!("{}:firefox", script.display()))
        .run();
    let written = out
        .stdout
        .trim()
        .strip_prefix("wrote ")
        .unwrap()
        .to_string();
    assert!(
        written.starts_with(sb.state().to_str().unwrap()),
        "{written}"
    );
    assert_eq!(std::fs::read_to_string(&seen).unwrap().trim(), written);
    // A session the state does not hold is an error.
    let out = sb
        .test()
        .args(["report", "--session", "nope"])
        .exit(1)
        .run();
    assert!(out.stderr.contains("no session \"nope\""), "{}", out.stderr);
}

/// `cuecard status` on a terminal (a pseudo-terminal made by util-linux's
/// `script`): Unicode blocks with a UTF-8 locale, ASCII without one.
#[test]
fn status_draws_blocks_on_a_utf8_terminal_and_ascii_elsewhere() {
    let script = Path::new("/usr/bin/script");
    if !script.is_file() {
        eprintln!("SKIPPED: no /usr/bin/script (util-linux) to make a terminal");
        return;
    }
    let sb = Sandbox::new();
    drive_session(&sb, "tty", &[20_000, 100_000, 190_000]);
    let on_terminal = |lang: &str| {
        let cmd = format!("{} status --session tty", support::bin().display());
        let out = support::output_of(
            Command::new(script)
                .args(["-qec", &cmd, "/dev/null"])
                .env_clear()
                .env("HOME", sb.home())
                .env("CUECARD_STATE_DIR", sb.state())
                .env("CUECARD_DATA_DIR", sb.data())
                .env("PATH", "/usr/bin:/bin")
                .env("LANG", lang)
                .current_dir(sb.project()),
        );
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        text.lines()
            .find(|l| l.trim_start().starts_with("context "))
            .unwrap_or_else(|| panic!("no sparkline: {text}"))
            .to_string()
    };
    let utf8 = on_terminal("C.UTF-8");
    assert!(utf8.contains("▂▅██"), "{utf8}");
    let plain = on_terminal("C");
    assert!(plain.is_ascii() && plain.contains(".~##"), "{plain}");
}
