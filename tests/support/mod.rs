//! An integration-test builder in the style of just's: run the real binary
//! in a sandbox (its own HOME, state and data directories, a git project),
//! pipe it a payload, and check the exit code and exact stdout.
#![allow(dead_code)]

use serde_json::Value;
use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

pub mod handoff;
pub mod plugin_host;
#[cfg(target_os = "linux")]
pub mod pty;

pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cuecard"))
}

impl Sandbox {
    /// The binary, to run with `args` in this sandbox: in the project, with
    /// nothing of the caller's environment but the sandbox's homes and
    /// directories, and the binary's own folder on PATH, as an installed
    /// cuecard's is (a shared project file names `cuecard` and finds it
    /// there).
    pub fn command<S: AsRef<std::ffi::OsStr>>(&self, args: &[S]) -> Command {
        let mut cmd = Command::new(bin());
        cmd.args(args)
            .current_dir(self.project())
            .env_clear()
            .env("HOME", self.home())
            .env("CUECARD_STATE_DIR", self.state())
            .env("CUECARD_DATA_DIR", self.data())
            .env("XDG_CONFIG_HOME", self.home().join(".config"))
            .env("XDG_STATE_HOME", self.home().join(".local/state"))
            .env("XDG_DATA_HOME", self.home().join(".local/share"))
            // A debug build on a loaded machine can take longer than the
            // shipped 700 ms budget, and a call cut off by its deadline
            // answers nothing, which would make a test's result depend on
            // the machine's load. Tests of the deadline set their own.
            .env("CUECARD_DEADLINE_MS", "5000")
            // The machine's managed config (docs/audit.md) is the
            // sandbox's, absent unless a test writes it.
            .env(
                "CUECARD_TEST_MANAGED_CONFIG",
                self.path().join("managed/config.toml"),
            )
            .env(
                "PATH",
                format!(
                    "{}:/usr/bin:/bin",
                    bin().parent().expect("in a folder").display()
                ),
            );
        cmd
    }
}

/// Whether `strace` runs on this machine; says SKIPPED when it does not, for
/// the tests that count the binary's system calls.
pub fn strace_missing() -> bool {
    let missing = Command::new("strace").arg("-V").output().is_err();
    if missing {
        eprintln!("SKIPPED: no strace");
    }
    missing
}

/// `cmd` (a command built by [`Sandbox::command`]) run under `strace -f`,
/// which writes its lines to `trace`: the same program, arguments, folder
/// and environment (nothing of the caller's but what `cmd` sets).
pub fn under_strace(cmd: &Command, trace: &Path) -> Command {
    let mut traced = Command::new("strace");
    traced
        .args(["-f", "-o"])
        .arg(trace)
        .arg(cmd.get_program())
        .args(cmd.get_args())
        .env_clear();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            traced.env(k, v);
        }
    }
    if let Some(dir) = cmd.get_current_dir() {
        traced.current_dir(dir);
    }
    traced
}

/// Runs a command, retrying while the kernel says its program file is busy
/// (ETXTBSY): a binary copied by this test can still be open for writing in
/// a child another test thread forked meanwhile. Bounded: 100 tries.
pub fn output_of(cmd: &mut Command) -> std::process::Output {
    for _ in 0..100 {
        match cmd.output() {
            Err(e) if e.raw_os_error() == Some(26) => std::thread::sleep(Duration::from_millis(20)),
            r => return r.unwrap(),
        }
    }
    panic!("{cmd:?}: program file stayed busy");
}

/// Sets a file's or directory's mtime.
pub fn set_mtime(path: &Path, t: SystemTime) {
    std::fs::File::open(path).unwrap().set_modified(t).unwrap();
}

/// A sandbox: `home/`, `state/`, `data/`, and `project/` (a git root).
pub struct Sandbox {
    pub dir: tempfile::TempDir,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        Sandbox::with_dir(tempfile::tempdir().expect("tempdir"))
    }
    /// A sandbox outside the system temporary directory (under cargo's
    /// target/tmp), for tests where "in a temporary directory" changes the
    /// verdict, as for guards that let writes to /tmp pass.
    pub fn outside_tmp() -> Sandbox {
        // Not the target directory: a checkout (CI's among them) may itself
        // live under /tmp. The test runner's home is not a temp directory.
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let base = match home {
            Some(h) if h.is_absolute() && !h.starts_with("/tmp") && !h.starts_with("/var/tmp") => {
                h.join(".cache/cuecard-test-sandboxes")
            }
            _ => PathBuf::from(env!("CARGO_TARGET_TMPDIR")),
        };
        std::fs::create_dir_all(&base).unwrap();
        Sandbox::with_dir(tempfile::tempdir_in(&base).expect("tempdir"))
    }
    fn with_dir(dir: tempfile::TempDir) -> Sandbox {
        for d in ["home", "data", "project/.git", "project/src"] {
            std::fs::create_dir_all(dir.path().join(d)).unwrap();
        }
        Sandbox { dir }
    }
    pub fn path(&self) -> &Path {
        self.dir.path()
    }
    pub fn home(&self) -> PathBuf {
        self.path().join("home")
    }
    pub fn state(&self) -> PathBuf {
        self.path().join("state")
    }
    pub fn data(&self) -> PathBuf {
        self.path().join("data")
    }
    pub fn project(&self) -> PathBuf {
        self.path().join("project")
    }
    /// Writes a file under the project.
    pub fn write(&self, rel: &str, text: &str) -> PathBuf {
        let p = self.project().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }
    /// A recorded payload from tests/fixtures/<harness>/<name>.json, with
    /// `${RUN}/project` pointing at this sandbox's project.
    pub fn fixture(&self, harness: &str, name: &str) -> Value {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(harness)
            .join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let text = text.replace("${RUN}", &self.path().to_string_lossy());
        let v: Value = serde_json::from_str(&text).unwrap();
        v["payload"].clone()
    }
    pub fn test(&self) -> Test<'_> {
        Test::new(self)
    }
    /// Runs `cuecard <args>` expecting success.
    pub fn cmd(&self, args: &[&str]) -> Output {
        self.test().args(args).run()
    }
    /// Runs `cuecard <args>` expecting it to fail (exit 1).
    pub fn cmd_fails(&self, args: &[&str]) -> Output {
        self.test().args(args).status(1)
    }
}

/// Writes `text` at `path`, its folders created; returns the path.
pub fn put(path: PathBuf, text: &str) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

pub enum Input {
    Bytes(Vec<u8>),
    /// A pipe that is never written to nor closed while the child runs.
    NeverCloses,
    /// /dev/null.
    Null,
}

/// One run of the binary in a sandbox: arguments and input, then what is
/// expected of it, then `run()` (or `status(n)` / `success()` last).
#[must_use]
pub struct Test<'a> {
    sandbox: &'a Sandbox,
    args: Vec<OsString>,
    input: Input,
    env: Vec<(OsString, OsString)>,
    path_prefix: Option<PathBuf>,
    expect_exit: i32,
    expect_stdout: Option<String>,
    expect_stderr: Option<String>,
    stderr_needles: Vec<String>,
    expect_files: Vec<(String, Vec<u8>)>,
    hook: bool,
    timeout: Duration,
    trace: Option<PathBuf>,
}

pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Output {
    /// The one JSON object dispatch printed, if any.
    pub fn json(&self) -> Option<Value> {
        if self.stdout.is_empty() {
            None
        } else {
            Some(serde_json::from_str(&self.stdout).unwrap())
        }
    }
    /// `hookSpecificOutput.additionalContext`, or "".
    pub fn context(&self) -> String {
        self.json()
            .and_then(|v| {
                v["hookSpecificOutput"]["additionalContext"]
                    .as_str()
                    .map(String::from)
            })
            .unwrap_or_default()
    }
}

impl<'a> Test<'a> {
    fn new(sandbox: &'a Sandbox) -> Test<'a> {
        Test {
            sandbox,
            args: Vec::new(),
            input: Input::Null,
            env: Vec::new(),
            path_prefix: None,
            expect_exit: 0,
            expect_stdout: None,
            expect_stderr: None,
            stderr_needles: Vec::new(),
            expect_files: Vec::new(),
            hook: false,
            timeout: Duration::from_secs(20),
            trace: None,
        }
    }
    pub fn arg(mut self, a: impl Into<OsString>) -> Self {
        let a = a.into();
        if self.args.is_empty() && a == "dispatch" {
            self.hook = true;
        }
        self.args.push(a);
        self
    }
    pub fn args<I: IntoIterator<Item = S>, S: Into<OsString>>(mut self, args: I) -> Self {
        for a in args {
            self = self.arg(a);
        }
        self
    }
    /// `dispatch <event> [cards]`.
    pub fn dispatch(self, event: &str, cards: &[&str]) -> Self {
        self.arg("dispatch").arg(event).args(cards.iter().copied())
    }
    pub fn stdin(mut self, bytes: impl Into<Vec<u8>>) -> Self {
        self.input = Input::Bytes(bytes.into());
        self
    }
    pub fn json(self, v: &Value) -> Self {
        self.stdin(serde_json::to_vec(v).unwrap())
    }
    pub fn never_closing_stdin(mut self) -> Self {
        self.input = Input::NeverCloses;
        self
    }
    pub fn env(mut self, k: impl Into<OsString>, v: impl Into<OsString>) -> Self {
        self.env.push((k.into(), v.into()));
        self
    }
    pub fn path_prefix(mut self, dir: impl Into<PathBuf>) -> Self {
        self.path_prefix = Some(dir.into());
        self
    }
    pub fn exit(mut self, code: i32) -> Self {
        self.expect_exit = code;
        self
    }
    /// The exact stdout expected.
    pub fn stdout(mut self, s: impl Into<String>) -> Self {
        self.expect_stdout = Some(s.into());
        self
    }
    /// The exact stderr expected.
    pub fn stderr(mut self, s: impl Into<String>) -> Self {
        self.expect_stderr = Some(s.into());
        self
    }
    /// Text stderr must contain (may be given more than once).
    pub fn stderr_contains(mut self, s: impl Into<String>) -> Self {
        self.stderr_needles.push(s.into());
        self
    }
    /// A file (relative to the project) the run must leave with exactly
    /// these bytes.
    pub fn expect_file(mut self, rel: &str, bytes: impl Into<Vec<u8>>) -> Self {
        self.expect_files.push((rel.to_string(), bytes.into()));
        self
    }
    pub fn timeout(mut self, t: Duration) -> Self {
        self.timeout = t;
        self
    }
    /// Runs the binary under `strace -f`, its lines written to `trace`
    /// ([`under_strace`]); see [`strace_missing`].
    pub fn strace(mut self, trace: impl Into<PathBuf>) -> Self {
        self.trace = Some(trace.into());
        self
    }

    /// Runs, expecting exit code `code` (the last call of a test).
    #[track_caller]
    pub fn status(self, code: i32) -> Output {
        self.exit(code).run()
    }

    /// Runs, expecting exit code 0.
    #[track_caller]
    pub fn success(self) -> Output {
        self.status(0)
    }

    #[track_caller]
    pub fn run(self) -> Output {
        let sb = self.sandbox;
        let mut cmd = sb.command(&self.args);
        if let Some(trace) = &self.trace {
            cmd = under_strace(&cmd, trace);
        }
        if let Some(p) = &self.path_prefix {
            cmd.env("PATH", format!("{}:/usr/bin:/bin", p.display()));
        }
        for (k, v) in &self.env {
            cmd.env(k, v);
        }
        cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.stdin(match self.input {
            Input::Null => Stdio::null(),
            _ => Stdio::piped(),
        });
        let plain_text = self.plain_text_contract();
        let start = Instant::now();
        let mut child = cmd.spawn().expect("start cuecard");
        let mut held_stdin = None;
        let writer = match self.input {
            Input::Bytes(b) => {
                let mut sin = child.stdin.take().unwrap();
                Some(std::thread::spawn(move || {
                    let _ = sin.write_all(&b);
                }))
            }
            Input::NeverCloses => {
                held_stdin = child.stdin.take();
                None
            }
            Input::Null => None,
        };
        let out_pipe = child.stdout.take().unwrap();
        let err_pipe = child.stderr.take().unwrap();
        let out_t = std::thread::spawn(move || read_all(out_pipe));
        let err_t = std::thread::spawn(move || read_all(err_pipe));
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if start.elapsed() > self.timeout {
                let _ = child.kill();
                let _ = child.wait();
                panic!(
                    "cuecard {:?} did not finish within {:?}",
                    self.args, self.timeout
                );
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let elapsed = start.elapsed();
        drop(held_stdin);
        if let Some(w) = writer {
            let _ = w.join();
        }
        let stdout = String::from_utf8(out_t.join().unwrap()).expect("stdout is UTF-8");
        let stderr = String::from_utf8_lossy(&err_t.join().unwrap()).into_owned();
        let code = status.code().unwrap_or(-1);
        assert_eq!(
            code, self.expect_exit,
            "exit code of {:?}; stderr: {stderr}",
            self.args
        );
        if self.hook && !self.args.iter().any(|a| a == "--help" || a == "-h") {
            if plain_text {
                assert_plain_hook_stdout(&stdout);
            } else {
                assert_hook_stdout(&stdout);
            }
        }
        if let Some(want) = &self.expect_stdout {
            assert_eq!(&stdout, want, "stdout of {:?}", self.args);
        }
        if let Some(want) = &self.expect_stderr {
            assert_eq!(&stderr, want, "stderr of {:?}", self.args);
        }
        for needle in &self.stderr_needles {
            assert!(
                stderr.contains(needle.as_str()),
                "stderr of {:?} lacks {needle:?}: {stderr}",
                self.args
            );
        }
        for (rel, want) in &self.expect_files {
            let got = std::fs::read(sb.project().join(rel))
                .unwrap_or_else(|e| panic!("{rel} after {:?}: {e}", self.args));
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(want),
                "{rel} after {:?}",
                self.args
            );
        }
        Output {
            code,
            stdout,
            stderr,
            elapsed,
        }
    }
}

impl Test<'_> {
    /// Kiro reads plain stdout: its contract answers with text, not JSON.
    fn plain_text_contract(&self) -> bool {
        self.args
            .windows(2)
            .any(|w| w[0] == "--contract" && w[1] == "kiro")
            || self.args.iter().any(|a| a == "--contract=kiro")
    }
}

/// The plain-text hook contract (Kiro): empty, or one text and a newline,
/// at most 10,000 characters, never JSON.
pub fn assert_plain_hook_stdout(stdout: &str) {
    if stdout.is_empty() {
        return;
    }
    assert!(stdout.ends_with('\n'), "stdout must end with a newline");
    let body = &stdout[..stdout.len() - 1];
    let n: usize = body.chars().map(char::len_utf16).sum();
    assert!(n <= 10_000, "a text of {n} characters");
    assert!(
        serde_json::from_str::<Value>(body).is_err(),
        "plain-text answer must not be JSON: {stdout:?}"
    );
}

fn read_all(mut r: impl std::io::Read) -> Vec<u8> {
    let mut v = Vec::new();
    let _ = r.read_to_end(&mut v);
    v
}

/// The hook's stdout contract: empty, or exactly one JSON object and a
/// newline, with no text longer than 10,000 characters.
pub fn assert_hook_stdout(stdout: &str) {
    if stdout.is_empty() {
        return;
    }
    assert!(
        stdout.ends_with('\n'),
        "stdout must end with a newline: {stdout:?}"
    );
    let body = &stdout[..stdout.len() - 1];
    assert!(!body.contains('\n'), "stdout must be one line: {stdout:?}");
    let v: Value = serde_json::from_str(body)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {stdout:?}"));
    assert!(v.is_object(), "stdout must be a JSON object: {stdout:?}");
    fn walk(v: &Value) {
        match v {
            Value::String(s) => {
                let n: usize = s.chars().map(char::len_utf16).sum();
                assert!(n <= 10_000, "a text of {n} characters");
            }
            Value::Array(a) => a.iter().for_each(walk),
            Value::Object(o) => o.values().for_each(walk),
            _ => {}
        }
    }
    walk(&v);
}

/// A minimal canonical payload for `event`.
pub fn payload(sb: &Sandbox, event: &str) -> Value {
    serde_json::json!({
        "session_id": "test-session",
        "transcript_path": sb.path().join("transcript.jsonl"),
        "cwd": sb.project(),
        "hook_event_name": event,
    })
}
