//! No silent permit (issue 26): every path on which cuecard cannot judge a
//! call answers the user's policy, never silence, while with no policy each
//! stays fail-open as before. Each test drives the real binary and
//! reproduces one way a decision used to be dropped.

mod support;

use serde_json::{Value, json};
use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use support::Sandbox;

const DENY: &str = "destructive=deny";

/// A Claude Code PreToolUse Bash call of `command` in the sandbox.
fn bash(sb: &Sandbox, command: &str) -> Value {
    let mut p = support::payload(sb, "PreToolUse");
    p["tool_name"] = json!("Bash");
    p["tool_input"] = json!({ "command": command });
    p
}

/// Claude Code's permission decision and its reason, if any.
fn decision(stdout: &str) -> Option<(String, String)> {
    let v: Value = serde_json::from_str(stdout).ok()?;
    let h = &v["hookSpecificOutput"];
    Some((
        h["permissionDecision"].as_str()?.to_string(),
        h["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_string(),
    ))
}

/// A Kiro preToolUse payload of `command`.
fn kiro(sb: &Sandbox, command: &str) -> Vec<u8> {
    let v = sb.fixture("kiro", "preToolUse.execute_bash");
    v.to_string()
        .replace("echo rig-hello", command)
        .into_bytes()
}

// --------------------------------------------------- 1: linear scanners

/// `rm -rf ~` with tens of KiB of markers the credential scanner used to
/// rescan the rest of the text from (quadratic) appended as a comment:
/// the call is judged, and denied by the guard's own finding, well inside
/// the deadline (before: past even the 5 s maximum, no answer).
#[test]
fn markers_appended_to_a_delete_do_not_outrun_the_deadline() {
    let sb = Sandbox::new();
    for marker in ["a://", "-----BEGIN ", "xoxb-", "sk-ant-", "glpat-"] {
        let tail = marker.repeat(64 * 1024 / marker.len());
        let out = sb
            .test()
            .dispatch("PreToolUse", &[])
            .env("CUECARD_POLICY", DENY)
            .json(&bash(&sb, &format!("rm -rf ~ # {tail}")))
            .run();
        let (level, reason) = decision(&out.stdout)
            .unwrap_or_else(|| panic!("{marker}: no decision ({:?})", out.elapsed));
        assert_eq!(level, "deny", "{marker}");
        assert!(
            reason.contains("`destructive.outside-project`") && !reason.contains("could not judge"),
            "{marker}: judged, not the deadline's answer: {reason}"
        );
    }
}

// ------------------------------------------- 2: payloads not read whole

#[test]
fn a_payload_that_cannot_be_read_gets_the_policy_not_silence() {
    let sb = Sandbox::new();
    let garbled = b"{\"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"rm -rf ~".to_vec();
    // Over the 4 MiB bound: a valid call padded past it.
    let pad = "x".repeat(4 * 1024 * 1024 + 16);
    let big = serde_json::to_vec(&bash(&sb, &format!("rm -rf ~ # {pad}"))).unwrap();
    for (what, payload) in [("not JSON", garbled), ("over the bound", big)] {
        let out = sb
            .test()
            .dispatch("PreToolUse", &[])
            .env("CUECARD_POLICY", DENY)
            .stdin(payload.clone())
            .run();
        let (level, reason) =
            decision(&out.stdout).unwrap_or_else(|| panic!("{what}: no decision"));
        assert_eq!(level, "deny", "{what}");
        assert!(
            reason.contains("could not judge") && reason.contains("`destructive`"),
            "{what}: {reason}"
        );
        // An ask policy asks.
        let out = sb
            .test()
            .dispatch("PreToolUse", &[])
            .env("CUECARD_POLICY", "destructive=ask")
            .stdin(payload.clone())
            .run();
        assert_eq!(decision(&out.stdout).unwrap().0, "ask", "{what}");
        // No policy: fail-open, exactly as before.
        sb.test()
            .dispatch("PreToolUse", &[])
            .stdin(payload.clone())
            .stdout("")
            .run();
        // A policy for a guard the event's cards do not use: silence.
        sb.test()
            .dispatch("PreToolUse", &[])
            .env("CUECARD_POLICY", "compaction=deny")
            .stdin(payload.clone())
            .stdout("")
            .run();
        // A harness whose only decision channel is exit code 2.
        let out = sb
            .test()
            .args(["dispatch", "--contract", "kiro", "preToolUse"])
            .env("CUECARD_POLICY", DENY)
            .stdin(payload.clone())
            .status(2);
        assert!(
            out.stderr.contains("could not judge"),
            "{what}: {}",
            out.stderr
        );
        // Not a gating event: nothing, whatever the policy.
        sb.test()
            .dispatch("PostToolUse", &[])
            .env("CUECARD_POLICY", DENY)
            .stdin(payload)
            .stdout("")
            .run();
    }
    // An empty stdin holds no call: nothing to decide.
    sb.test()
        .dispatch("PreToolUse", &[])
        .env("CUECARD_POLICY", DENY)
        .stdin(Vec::new())
        .stdout("")
        .run();
}

/// `JSON.stringify` writes a lone surrogate as `"\ud800"`: such a payload
/// is judged like any other (before: refused whole, no guard ran).
#[test]
fn a_lone_surrogate_does_not_hide_a_call() {
    let sb = Sandbox::new();
    let payload = serde_json::to_string(&bash(&sb, "rm -rf ~ # SURROGATE"))
        .unwrap()
        .replace("SURROGATE", "\\ud800");
    let out = sb
        .test()
        .dispatch("PreToolUse", &[])
        .env("CUECARD_POLICY", DENY)
        .stdin(payload.clone())
        .run();
    let (level, reason) = decision(&out.stdout).expect("a decision");
    assert_eq!(level, "deny");
    assert!(
        reason.contains("`destructive.outside-project`") && !reason.contains("could not judge"),
        "judged: {reason}"
    );
    // And without a policy, the advice.
    let out = sb.test().dispatch("PreToolUse", &[]).stdin(payload).run();
    assert!(out.context().contains("destructive"), "{}", out.stdout);
}

// ------------------------------------------------------ the deadline

#[test]
fn the_deadline_answers_the_policy_it_rendered_before_judging() {
    let sb = Sandbox::outside_tmp();
    let out = sb
        .test()
        .dispatch("PreToolUse", &[])
        .env("CUECARD_POLICY", DENY)
        .env("CUECARD_DEADLINE_MS", "200")
        .never_closing_stdin()
        .timeout(Duration::from_secs(5))
        .run();
    let (level, reason) = decision(&out.stdout).expect("the standing decision");
    assert_eq!(level, "deny");
    assert!(reason.contains("deadline of 200 ms"), "{reason}");
    // Kiro: exit code 2 and the reason on stderr.
    let out = sb
        .test()
        .args(["dispatch", "--contract", "kiro", "preToolUse"])
        .env("CUECARD_POLICY", DENY)
        .env("CUECARD_DEADLINE_MS", "200")
        .never_closing_stdin()
        .timeout(Duration::from_secs(5))
        .status(2);
    assert!(out.stderr.contains("could not judge"), "{}", out.stderr);
    // No policy: nothing, exit 0, as before.
    sb.test()
        .dispatch("PreToolUse", &[])
        .env("CUECARD_DEADLINE_MS", "200")
        .never_closing_stdin()
        .timeout(Duration::from_secs(5))
        .stdout("")
        .run();
}

// ------------------------------------------------ 3: exit 2 survives

/// Work after the answer (the failure record, the sweep) that runs past
/// the deadline: the process still exits 2 after a Kiro or Windsurf block
/// (before: the handler's exit 0 turned it into an allow).
#[test]
fn a_block_keeps_its_exit_code_when_later_work_outlives_the_deadline() {
    let sb = Sandbox::outside_tmp();
    let out = sb
        .test()
        .args(["dispatch", "--contract", "kiro", "preToolUse"])
        .env("CUECARD_POLICY", DENY)
        .env("CUECARD_DEADLINE_MS", "1000")
        .env("CUECARD_TEST_STALL", "after-answer")
        .stdin(kiro(&sb, "rm -rf /srv/canary"))
        .timeout(Duration::from_secs(5))
        .status(2);
    assert!(
        out.stderr.contains("`destructive.outside-project`"),
        "judged, then stalled: {}",
        out.stderr
    );
    // An allow stays an allow.
    sb.test()
        .args(["dispatch", "--contract", "kiro", "preToolUse"])
        .env("CUECARD_POLICY", DENY)
        .env("CUECARD_DEADLINE_MS", "1000")
        .env("CUECARD_TEST_STALL", "after-answer")
        .stdin(kiro(&sb, "ls"))
        .timeout(Duration::from_secs(5))
        .status(0);
}

// ------------------------------------------- 9: signals and limits

/// A raw spawn of `dispatch PreToolUse` in the sandbox, with `setup` run in
/// the child before exec.
fn raw(sb: &Sandbox, env: &[(&str, &str)], setup: fn() -> std::io::Result<()>) -> Command {
    let mut cmd = Command::new(support::bin());
    cmd.args(["dispatch", "PreToolUse"])
        .current_dir(sb.project())
        .env_clear()
        .env("HOME", sb.home())
        .env("CUECARD_STATE_DIR", sb.state())
        .env("CUECARD_DATA_DIR", sb.data())
        .env("XDG_CONFIG_HOME", sb.home().join(".config"))
        .envs(env.iter().copied());
    // SAFETY: `setup` makes only async-signal-safe system calls.
    unsafe { cmd.pre_exec(setup) };
    cmd
}

/// Waits for `child` at most `outer`; its exit status (killed: panic).
fn wait(child: &mut std::process::Child, outer: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(s) = child.try_wait().unwrap() {
            return s;
        }
        if start.elapsed() > outer {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the hook outlived its deadline by far");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn an_inherited_blocked_alarm_does_not_disable_the_deadline() {
    let sb = Sandbox::outside_tmp();
    fn block_alarm() -> std::io::Result<()> {
        // SAFETY: plain-data signal set, this process's own mask.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            libc::sigaddset(&mut set, libc::SIGALRM);
            libc::sigprocmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
        }
        Ok(())
    }
    let env = [("CUECARD_DEADLINE_MS", "200"), ("CUECARD_POLICY", DENY)];
    let mut child = raw(&sb, &env, block_alarm)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let held = child.stdin.take(); // never written, never closed
    let status = wait(&mut child, Duration::from_secs(5));
    drop(held);
    assert_eq!(status.code(), Some(0));
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(decision(&out).expect("the standing decision").0, "deny");
}

#[test]
fn a_file_size_limit_does_not_kill_the_hook() {
    let sb = Sandbox::outside_tmp();
    fn no_file_growth() -> std::io::Result<()> {
        let lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: libc::RLIM_INFINITY,
        };
        // SAFETY: setrlimit on this process with a plain struct.
        unsafe { libc::setrlimit(libc::RLIMIT_FSIZE, &lim) };
        Ok(())
    }
    let env = [("CUECARD_DEADLINE_MS", "5000"), ("CUECARD_POLICY", DENY)];
    let mut child = raw(&sb, &env, no_file_growth)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&serde_json::to_vec(&bash(&sb, "rm -rf /srv/canary")).unwrap())
        .unwrap();
    let status = wait(&mut child, Duration::from_secs(10));
    assert_eq!(status.code(), Some(0), "not killed by SIGXFSZ: {status:?}");
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    assert_eq!(decision(&out).expect("the answer").0, "deny");
}

/// A pipe of one page that nobody reads while the hook runs, and an
/// answer longer than that: what the reader finds afterwards is the whole
/// object or nothing, never a prefix (before: 4096 bytes of it, no
/// newline, once the deadline cut the blocked write).
#[test]
fn a_small_pipe_never_receives_half_an_answer() {
    use std::os::fd::{AsRawFd, FromRawFd};
    let sb = Sandbox::outside_tmp();
    let cards = sb.home().join(".config/cuecard/cards");
    std::fs::create_dir_all(&cards).unwrap();
    let words: Vec<String> = (0..900).map(|i| format!("word{i}")).collect();
    std::fs::write(
        cards.join("long-card.md"),
        format!(
            "# Long card\n\n## Advisory\n{}\n\n## Bindings\n- event: PreToolUse\n- tools: Bash\n",
            words.join(" ")
        ),
    )
    .unwrap();
    let mut fds = [0; 2];
    // SAFETY: pipe2 fills two fds this test then owns.
    assert_eq!(unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) }, 0);
    let (mut r, w) = unsafe {
        (
            std::fs::File::from_raw_fd(fds[0]),
            std::fs::File::from_raw_fd(fds[1]),
        )
    };
    // SAFETY: fcntl on our own pipe.
    unsafe { libc::fcntl(w.as_raw_fd(), libc::F_SETPIPE_SZ, 4096) };
    let env = [("CUECARD_DEADLINE_MS", "300")];
    let mut child = raw(&sb, &env, || Ok(()))
        .stdin(Stdio::piped())
        .stdout(Stdio::from(w))
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(&serde_json::to_vec(&bash(&sb, "ls")).unwrap())
        .unwrap();
    let status = wait(&mut child, Duration::from_secs(5));
    assert_eq!(status.code(), Some(0));
    let mut out = String::new();
    r.read_to_string(&mut out).unwrap();
    if !out.is_empty() {
        assert!(out.ends_with('\n'), "a prefix of {} bytes", out.len());
        let v: Value = serde_json::from_str(&out).expect("one whole object");
        assert!(v.to_string().contains("word899"));
    }
}

/// A trusted project's deny holds for what cuecard cannot judge too (the
/// working directory's project, when no payload names one); untrusted, it
/// counts for nothing.
#[test]
fn a_trusted_project_policy_decides_an_unreadable_payload() {
    let sb = Sandbox::new();
    sb.write(".cuecard/config.toml", "[policy]\ndestructive = \"deny\"\n");
    let garbled = "{\"tool_name\": \"Bash\", \"tool_input\": {\"command\": \"rm -rf ~";
    sb.test()
        .dispatch("PreToolUse", &[])
        .stdin(garbled)
        .stdout("")
        .run();
    sb.test().arg("trust").run();
    let out = sb.test().dispatch("PreToolUse", &[]).stdin(garbled).run();
    let (level, reason) = decision(&out.stdout).expect("the project's decision");
    assert_eq!(level, "deny");
    assert!(reason.contains(".cuecard/config.toml"), "{reason}");
}

/// An option label of tens of KiB of `(` (each opener used to scan the
/// rest of the label for its closer): the question is still judged, its
/// two recommendations found, inside the deadline (before: past even the
/// 5 s maximum, no answer).
#[test]
fn openers_in_an_option_label_do_not_outrun_the_deadline() {
    let sb = Sandbox::new();
    let mut p = support::payload(&sb, "PreToolUse");
    p["tool_name"] = json!("AskUserQuestion");
    p["tool_input"] = json!({"questions": [{
        "question": "Which one?", "header": "Pick", "multiSelect": false,
        "options": [
            {"label": format!("{} Keep it (Recommended)", "(".repeat(64 * 1024)), "description": "d"},
            {"label": "Drop it (Recommended)", "description": "d"},
        ],
    }]});
    let out = sb.test().dispatch("PreToolUse", &[]).json(&p).run();
    assert!(
        out.context().contains("2 options marked recommended"),
        "{}",
        out.stdout
    );
}

/// Every harness that takes a decision gets the standing decision for a
/// payload it sent that cuecard cannot read, in the channel it reads: a
/// deny on stdout (the policy mark in it), or exit code 2 with the reason
/// on stderr; and nothing at all without a policy.
#[test]
fn every_deciding_contract_answers_an_unreadable_payload_in_its_own_channel() {
    let sb = Sandbox::new();
    let deciding = [
        ("claude-code", "PreToolUse"),
        ("codebuddy", "PreToolUse"),
        ("codex", "PreToolUse"),
        ("copilot", "preToolUse"),
        ("crush", "PreToolUse"),
        ("cursor", "preToolUse"),
        ("cursor", "beforeShellExecution"),
        ("devin", "PreToolUse"),
        ("gemini", "BeforeTool"),
        ("kiro", "preToolUse"),
        ("qwen", "PreToolUse"),
        ("opencode", "tool.execute.before"),
        ("windsurf", "pre_run_command"),
    ];
    for (h, native) in deciding {
        let exit2 = matches!(h, "kiro" | "windsurf");
        let out = sb
            .test()
            .args(["dispatch", "--contract", h, native])
            .env("CUECARD_POLICY", DENY)
            .stdin("{\"tool\": ")
            .status(if exit2 { 2 } else { 0 });
        let said = if exit2 { &out.stderr } else { &out.stdout };
        assert!(
            said.contains(cuecard::envelope::POLICY_MARK) && said.contains("could not judge"),
            "{h} {native}: {said}"
        );
        sb.test()
            .args(["dispatch", "--contract", h, native])
            .stdin("{\"tool\": ")
            .stdout("")
            .status(0);
    }
}

/// Judging that breaks off (a panic outside a card's own containment) is a
/// call cuecard could not judge: the policy's decision, with that reason;
/// nothing without a policy, as before.
#[test]
fn judging_that_breaks_off_answers_the_policy() {
    let sb = Sandbox::new();
    let call = bash(&sb, "ls");
    let out = sb
        .test()
        .dispatch("PreToolUse", &[])
        .env("CUECARD_POLICY", DENY)
        .env("CUECARD_TEST_PANIC", "pipeline")
        .json(&call)
        .run();
    let (level, reason) = decision(&out.stdout).expect("the standing decision");
    assert_eq!(level, "deny");
    assert!(reason.contains("broke off"), "{reason}");
    assert_eq!(out.stderr, "", "no traceback");
    sb.test()
        .args(["dispatch", "--contract", "kiro", "preToolUse"])
        .env("CUECARD_POLICY", DENY)
        .env("CUECARD_TEST_PANIC", "pipeline")
        .stdin(kiro(&sb, "ls"))
        .status(2);
    sb.test()
        .dispatch("PreToolUse", &[])
        .env("CUECARD_TEST_PANIC", "pipeline")
        .json(&call)
        .stdout("")
        .run();
}

/// The standing decision follows precedence: the user's deny counts, a
/// variable cannot loosen it (`CUECARD_POLICY` only tightens the user's
/// file, since a repository can set a hook's environment), a variable can
/// tighten the user's ask into a deny, and of an ask and a deny for guards
/// of the event the deny stands (naming only its own line).
#[test]
fn the_standing_decision_follows_precedence() {
    let sb = Sandbox::new();
    let dir = sb.home().join(".config/cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    let user = |level: &str| {
        std::fs::write(
            dir.join("config.toml"),
            format!("[policy]\ndestructive = \"{level}\"\n"),
        )
        .unwrap();
    };
    let garbled = "{\"tool_name\": \"Bash\"";
    let run = |env: &[(&str, &str)]| {
        let mut t = sb.test().dispatch("PreToolUse", &[]).stdin(garbled);
        for (k, v) in env {
            t = t.env(k, v);
        }
        decision(&t.run().stdout)
    };
    user("deny");
    let (level, reason) = run(&[]).expect("the user's deny");
    assert_eq!(level, "deny");
    assert!(
        reason.contains("config.toml: destructive = deny"),
        "{reason}"
    );
    let (level, _) = run(&[("CUECARD_POLICY", "destructive=advise")])
        .expect("a variable cannot loosen the user's deny");
    assert_eq!(level, "deny");
    let (level, reason) = run(&[("CUECARD_POLICY", "secrets=ask")]).expect("a decision");
    assert_eq!(level, "deny");
    assert!(
        !reason.contains("`secrets`"),
        "only the deciding line: {reason}"
    );
    let (level, _) = run(&[("CUECARD_POLICY", "destructive=ask")]).expect("a decision");
    assert_eq!(
        level, "deny",
        "the user's deny stands over a looser variable"
    );
    user("ask");
    let (level, _) = run(&[]).expect("the user's ask");
    assert_eq!(
        level, "ask",
        "the user's strictest line is ask: ask, not deny"
    );
    let (level, _) = run(&[("CUECARD_POLICY", "destructive=deny")]).expect("a decision");
    assert_eq!(level, "deny", "a variable may tighten the user's ask");
}
