//! Copilot CLI: `copilot -p` through a BYOK OpenAI provider (Chat
//! Completions) on the mock, the folder trusted; `--plugin-dir` loads a
//! plugin directory.

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, merge, write_json};
use serde_json::json;
use std::path::{Path, PathBuf};

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "copilot",
    package: "@github/copilot",
    pinned: "1.0.102",
    bin: "copilot",
    in_ci: false,
};

pub struct Copilot;

impl Driver for Copilot {
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
        let mut config = json!({"trusted_folders": [proj], "banner": "never"});
        merge(&mut config, inv.user_settings);
        write_json(&dirs.home.join(".copilot/config.json"), &config)?;
        Ok((
            vec![s("-p"), s(inv.prompt), s("--allow-all")],
            vec![
                kv("COPILOT_PROVIDER_BASE_URL", &format!("{base_url}/v1")),
                kv("COPILOT_PROVIDER_TYPE", "openai"),
                kv("COPILOT_PROVIDER_API_KEY", "dummy"),
                kv("COPILOT_PROVIDER_WIRE_API", "completions"),
                kv("COPILOT_MODEL", inv.model.unwrap_or("gpt-5.4")),
                kv("COPILOT_AUTO_UPDATE", "false"),
                kv("GITHUB_COPILOT_PROMPT_MODE_REPO_HOOKS", "1"),
            ],
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".copilot/session-state")]
    }

    fn plugin_dir(&self, dirs: &RunDirs) -> Option<PathBuf> {
        Some(dirs.root.join("plugin"))
    }

    fn plugin_argv(&self, dir: &Path) -> Vec<String> {
        vec!["--plugin-dir".into(), dir.to_string_lossy().to_string()]
    }
}
