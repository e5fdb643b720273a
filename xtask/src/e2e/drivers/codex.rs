//! Codex: `codex exec` with a `mock` Responses provider in `config.toml`,
//! hooks enabled, the project trusted; resumes with `exec resume --last`.

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, run_bounded, write};
use std::path::{Path, PathBuf};

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "codex",
    package: "@openai/codex",
    pinned: "0.171.0",
    bin: "codex",
    in_ci: true,
};

pub struct Codex;

impl Driver for Codex {
    fn id(&self) -> &'static str {
        HARNESS.id
    }

    fn configure(
        &self,
        dirs: &RunDirs,
        base_url: &str,
        inv: &Invocation,
    ) -> Result<(Vec<String>, Env), String> {
        let proj = dirs.project.to_string_lossy().to_string();
        let home = dirs.codex_home();
        std::fs::create_dir_all(&home).map_err(|e| e.to_string())?;
        let model = inv.model.unwrap_or("gpt-5.4");
        let toml = format!(
            r#"model = "{model}"
model_provider = "mock"
approval_policy = "never"
{mode}check_for_update_on_startup = false
{extra}

[model_providers.mock]
name = "mock"
base_url = "{base_url}/v1"
wire_api = "responses"
env_key = "MOCK_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[features]
hooks = true

[projects."{proj}"]
trust_level = "trusted"
{tmp}"#,
            extra = inv.codex_toml,
            // The run's directories are wherever the checkout is, and a
            // checkout under /tmp would put the canary where Codex's
            // workspace-write lets commands write (the project and the
            // temporary directories): the run's own user config keeps the
            // temporary directories out, so that what is measured is the
            // sandbox cuecard rendered, wherever CI clones the repository.
            tmp = if inv.sandbox {
                "\n[sandbox_workspace_write]\nexclude_slash_tmp = true\nexclude_tmpdir_env_var = true\n"
            } else {
                ""
            },
            // Under `install --sandbox` the project's config.toml says.
            mode = if inv.sandbox {
                ""
            } else {
                "sandbox_mode = \"danger-full-access\"\n"
            }
        );
        write(&home.join("config.toml"), &toml)?;
        let mut argv = vec![s("exec"), s("--skip-git-repo-check")];
        if !inv.sandbox {
            argv.push(s("--dangerously-bypass-approvals-and-sandbox"));
        }
        argv.extend([
            // Without it `codex exec` runs no hook at all, silently.
            s("--dangerously-bypass-hook-trust"),
            s("-C"),
            proj,
            s(inv.prompt),
        ]);
        Ok((
            argv,
            vec![
                kv("CODEX_HOME", &home.to_string_lossy()),
                kv("MOCK_API_KEY", "dummy"),
            ],
        ))
    }

    fn resume(&self, mut argv: Vec<String>, prompt: &str) -> Vec<String> {
        let i = argv.iter().position(|a| a == prompt).unwrap_or(argv.len());
        argv.splice(i..i, ["resume".to_string(), "--last".to_string()]);
        argv
    }
    fn plugin_dir(&self, dirs: &RunDirs) -> Option<PathBuf> {
        Some(dirs.root.join("plugin"))
    }

    /// `codex plugin marketplace add <dir>`, then `codex plugin add
    /// cuecard@cuecard`: non-interactive, into the run's CODEX_HOME.
    fn load_plugin(
        &self,
        hbin: &Path,
        dirs: &RunDirs,
        env: &Env,
        dir: &Path,
    ) -> Result<(), String> {
        let dir = dir.to_string_lossy().to_string();
        for args in [
            vec!["plugin", "marketplace", "add", dir.as_str()],
            vec!["plugin", "add", "cuecard@cuecard"],
        ] {
            let mut cmd = std::process::Command::new(hbin);
            cmd.args(&args)
                .current_dir(&dirs.project)
                .env_clear()
                .envs(env.iter().map(|(k, v)| (k, v)))
                .stdin(std::process::Stdio::null())
                .stdout(std::process::Stdio::null())
                .stderr(std::process::Stdio::null());
            let code = run_bounded(&mut cmd, std::time::Duration::from_secs(60), None)?;
            if code != Some(0) {
                return Err(format!("codex {} exited {code:?}", args.join(" ")));
            }
        }
        Ok(())
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.codex_home().join("sessions")]
    }
}
