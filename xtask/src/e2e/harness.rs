//! The real harness CLIs: which npm package and version (pinned here, in one
//! place), how each is installed into the cache, configured inside a
//! temporary HOME and project, and started non-interactively against the mock.

use super::drivers;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One harness: its id (as `cuecard install --harness` takes it), the npm
/// package and the pinned version, the binary it installs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Harness {
    pub id: &'static str,
    pub package: &'static str,
    /// The pinned version; [`Harness::version`] is the one a run uses.
    pub pinned: &'static str,
    /// The binary's name in `node_modules/.bin`, or `../<package>/<path>`
    /// for a package that links none (CodeBuddy's SDK, Droid's platform
    /// build).
    pub bin: &'static str,
    /// Run by `.ci/run` (`cargo xtask e2e` with no flag); the others are
    /// opt-in (`--all` or `--harness <id>`).
    pub in_ci: bool,
}

/// The pinned versions: the ones the harness research was recorded with
/// (each in its driver's file, `e2e/drivers/<harness>.rs`).
pub const HARNESSES: &[Harness] = &[
    drivers::CLAUDE_CODE,
    drivers::CODEX,
    drivers::GEMINI,
    drivers::QWEN,
    drivers::COPILOT,
    drivers::OPENCODE,
    drivers::KILO,
    drivers::CLINE,
    drivers::PI,
    drivers::CODEBUDDY,
    drivers::FACTORY,
];

/// The harnesses the e2e cannot drive, and why. With [`HARNESSES`] this
/// covers `cuecard::harness::HarnessId::ALL` exactly (a test checks), so a
/// new harness is either driven or says why not.
pub const NOT_DRIVEN: &[(&str, &str)] = &[
    ("cursor", "not on npm; the agent needs Cursor's own backend"),
    ("devin", "not on npm; the agent needs Devin's own backend"),
    ("kiro", "not on npm; the agent needs an AWS Builder ID"),
    (
        "qoder",
        "cannot run here: Qoder CLI 1.1.52 stops with \"Not logged in\" before it runs anything, and custom providers (the mock) are switched on only by a flag from Qoder's account service; contract from its docs and its 1.1.52 bundle (read, not run)",
    ),
    (
        "crush",
        "cannot run offline here: npm `@charmland/crush` (0.96.1) downloads its binary from GitHub releases in its postinstall, and only package registries are reachable; contract tested from its source and docs",
    ),
    (
        "antigravity",
        "cannot run here: `agy` is on no package registry (it installs from antigravity.google's install.sh, not reachable here), and a model turn needs a Google login (`agy --print` waits on OAuth, measured by a third party on 1.1.25); contract from its documentation and third-party measurements (docs/harnesses.md)",
    ),
    (
        "windsurf",
        "an IDE, not on npm; installed only for decisions (with a policy set)",
    ),
];

impl Harness {
    /// The environment variable that overrides the pinned version for a
    /// one-off run: `CUECARD_E2E_VERSION_CLAUDE_CODE=2.1.400`.
    pub fn version_var(&self) -> String {
        format!(
            "CUECARD_E2E_VERSION_{}",
            self.id.to_ascii_uppercase().replace('-', "_")
        )
    }

    /// The version a run installs: the override when set, else the pin.
    pub fn version(&self) -> String {
        std::env::var(self.version_var())
            .ok()
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .unwrap_or_else(|| self.pinned.to_string())
    }
}

pub fn lookup(id: &str) -> Option<Harness> {
    HARNESSES.iter().copied().find(|h| h.id == id)
}

/// The npm install cache: `CUECARD_E2E_CACHE`, else `target/e2e/npm`.
pub fn cache_root() -> PathBuf {
    match std::env::var_os("CUECARD_E2E_CACHE").filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => crate::e2e::target_dir().join("e2e/npm"),
    }
}

/// Installs `h` into the cache (once per version) and returns its binary.
pub fn ensure_installed(h: &Harness) -> Result<PathBuf, String> {
    let version = h.version();
    let dir = cache_root().join(format!("{}@{version}", h.id));
    // `../<package>/<path>`: a file of a package that links no binary.
    let bin = match h.bin.strip_prefix("../") {
        Some(file) => dir.join("node_modules").join(file),
        None => dir.join("node_modules/.bin").join(h.bin),
    };
    if bin.exists() {
        return Ok(bin);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    std::fs::write(
        dir.join("package.json"),
        r#"{"name":"cuecard-e2e-harness","private":true}"#,
    )
    .map_err(|e| e.to_string())?;
    eprintln!("e2e: npm install {}@{version}", h.package);
    let mut cmd = Command::new("npm");
    cmd.args(["install", "--no-audit", "--no-fund", "--loglevel=error"])
        .arg(format!("{}@{version}", h.package))
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null());
    let status = run_bounded(&mut cmd, Duration::from_secs(900), None)?;
    if status != Some(0) || !bin.exists() {
        return Err(format!(
            "npm install {}@{version} failed (exit {status:?})",
            h.package
        ));
    }
    Ok(bin)
}

/// Where one run lives.
pub struct RunDirs {
    pub root: PathBuf,
    pub home: PathBuf,
    pub project: PathBuf,
}

impl RunDirs {
    pub fn codex_home(&self) -> PathBuf {
        self.home.join(".codex")
    }
}

/// Environment variables, in order.
pub type Env = Vec<(String, String)>;

/// What a harness is asked to do in one scenario.
pub struct Invocation<'a> {
    pub prompt: &'a str,
    /// Prompts that resume the same session afterwards, in order.
    pub then: &'a [String],
    /// Extra `config.toml` lines (Codex), settings merged into the harness's
    /// user settings (Gemini, Qwen), extra env.
    pub codex_toml: &'a str,
    pub user_settings: &'a Value,
    pub env: &'a [(String, String)],
    /// A model name, where the scenario needs one.
    pub model: Option<&'a str>,
    /// cuecard was installed with `--sandbox`: the harness keeps its own
    /// sandbox on (Codex: no bypass flag, no `danger-full-access`).
    pub sandbox: bool,
}

/// The environment every harness runs with: nothing from the caller but
/// PATH and the locale; HOME and the XDG directories inside the run; no
/// proxies; loopback only.
pub fn base_env(dirs: &RunDirs) -> Vec<(String, String)> {
    let h = dirs.home.to_string_lossy().to_string();
    let mut env = vec![
        (
            "PATH".to_string(),
            std::env::var("PATH").unwrap_or_default(),
        ),
        ("HOME".into(), h.clone()),
        ("USER".into(), "e2e".into()),
        ("SHELL".into(), "/bin/bash".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("TERM".into(), "dumb".into()),
        ("NO_COLOR".into(), "1".into()),
        ("CI".into(), "1".into()),
        ("XDG_CONFIG_HOME".into(), format!("{h}/.config")),
        ("XDG_CACHE_HOME".into(), format!("{h}/.cache")),
        ("XDG_DATA_HOME".into(), format!("{h}/.local/share")),
        ("XDG_STATE_HOME".into(), format!("{h}/.local/state")),
        ("TMPDIR".into(), format!("{h}/tmp")),
        ("NO_PROXY".into(), "127.0.0.1,localhost".into()),
        ("no_proxy".into(), "127.0.0.1,localhost".into()),
        // Commands the scripted model runs must not reach a registry.
        ("npm_config_offline".into(), "true".into()),
        ("npm_config_registry".into(), "http://127.0.0.1:9/".into()),
        ("CARGO_NET_OFFLINE".into(), "true".into()),
        ("PIP_NO_INDEX".into(), "1".into()),
        ("GIT_CONFIG_NOSYSTEM".into(), "1".into()),
    ];
    if let Ok(v) = std::env::var("LD_LIBRARY_PATH") {
        env.push(("LD_LIBRARY_PATH".into(), v));
    }
    env
}

/// The arguments that load a plugin directory for one run (empty where the
/// harness loads none from a directory).
pub fn plugin_argv(h: &Harness, dir: &Path) -> Result<Vec<String>, String> {
    Ok(drivers::of(h)?.plugin_argv(dir))
}

/// Writes the harness's configuration (everything but cuecard's own hooks)
/// and returns (argv of the first run, extra env).
pub fn configure(
    h: &Harness,
    dirs: &RunDirs,
    base_url: &str,
    inv: &Invocation,
) -> Result<(Vec<String>, Env), String> {
    drivers::of(h)?.configure(dirs, base_url, inv)
}

/// The same invocation, resuming the last session with another prompt.
pub fn resume_argv(
    h: &Harness,
    first: &[String],
    first_prompt: &str,
    prompt: &str,
) -> Result<Vec<String>, String> {
    let out: Vec<String> = first
        .iter()
        .map(|a| {
            if a == first_prompt {
                prompt.to_string()
            } else {
                a.clone()
            }
        })
        .collect();
    Ok(drivers::of(h)?.resume(out, prompt))
}

/// The harness's own transcripts of the run (Claude Code's project
/// transcripts, Codex rollouts, ...), for the hook-error check.
pub fn transcripts(h: &Harness, dirs: &RunDirs) -> Vec<PathBuf> {
    let Ok(d) = drivers::of(h) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for r in d.transcript_roots(dirs) {
        collect_files(&r, "jsonl", 6, &mut out);
        if d.transcripts_in_json() {
            collect_files(&r, "json", 6, &mut out);
        }
    }
    for r in d.log_roots(dirs) {
        collect_files(&r, "log", 3, &mut out);
    }
    out
}

fn collect_files(dir: &Path, ext: &str, depth: usize, out: &mut Vec<PathBuf>) {
    if depth == 0 || out.len() > 200 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten().take(500) {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, ext, depth - 1, out);
        } else if p.extension().is_some_and(|x| x == ext) {
            out.push(p);
        }
    }
}

/// Runs `cmd` in its own process group, waits at most `timeout`, and on
/// timeout stops that group (TERM, then KILL). Returns the exit code (`None`
/// when killed or on timeout). With `group_cleanup`, the group of the
/// finished process is also stopped, so nothing it left behind survives.
pub fn run_bounded(
    cmd: &mut Command,
    timeout: Duration,
    group_cleanup: Option<()>,
) -> Result<Option<i32>, String> {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| format!("cannot start: {e}"))?;
    let pid = child.id() as libc::pid_t;
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break Some(s),
            Ok(None) if start.elapsed() < timeout => std::thread::sleep(Duration::from_millis(50)),
            _ => break None,
        }
    };
    let kill_group = |sig| {
        // SAFETY: a negative pid addresses the process group we created for
        // this child (process_group(0) makes its pid the group id).
        unsafe { libc::kill(-pid, sig) };
    };
    match status {
        Some(s) => {
            if group_cleanup.is_some() {
                kill_group(libc::SIGTERM);
            }
            Ok(s.code())
        }
        None => {
            kill_group(libc::SIGTERM);
            for _ in 0..50 {
                if let Ok(Some(_)) = child.try_wait() {
                    return Ok(None);
                }
                std::thread::sleep(Duration::from_millis(100));
            }
            kill_group(libc::SIGKILL);
            let _ = child.wait();
            Ok(None)
        }
    }
}

pub fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn write_json(path: &Path, v: &Value) -> Result<(), String> {
    write(
        path,
        &serde_json::to_string_pretty(v).map_err(|e| e.to_string())?,
    )
}

/// Deep-merges `b` into `a`.
pub fn merge(a: &mut Value, b: &Value) {
    match (a, b) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in b {
                match a.get_mut(k) {
                    Some(x) if x.is_object() && v.is_object() => merge(x, v),
                    _ => {
                        a.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (a, b) if !b.is_null() => *a = b.clone(),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cuecard::harness::HarnessId;

    #[test]
    fn every_harness_is_driven_or_says_why_not() {
        for h in HarnessId::ALL {
            let driven = HARNESSES.iter().filter(|d| d.id == h.id()).count();
            let not = NOT_DRIVEN.iter().filter(|(id, _)| *id == h.id()).count();
            assert_eq!(driven + not, 1, "{}: in neither or both lists", h.id());
        }
        for d in HARNESSES {
            assert!(HarnessId::parse(d.id).is_some(), "{}", d.id);
        }
        for (id, _) in NOT_DRIVEN {
            assert!(HarnessId::parse(id).is_some(), "{id}");
        }
    }

    #[test]
    fn a_version_can_be_overridden_for_one_run() {
        let h = lookup("qwen").unwrap();
        assert_eq!(h.version_var(), "CUECARD_E2E_VERSION_QWEN");
        assert_eq!(
            lookup("claude-code").unwrap().version_var(),
            "CUECARD_E2E_VERSION_CLAUDE_CODE"
        );
    }
}
