//! Gemini CLI: `gemini -p` with an API key and `GOOGLE_GEMINI_BASE_URL` on
//! the mock, the folder trusted; resumes with `--resume latest`; its chats
//! are JSON files.

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, merge, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "gemini",
    package: "@google/gemini-cli",
    pinned: "0.61.0",
    bin: "gemini",
    in_ci: false,
};

pub struct Gemini;

impl Driver for Gemini {
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
        let mut settings = json!({
            "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
            "general": {"disableAutoUpdate": true, "disableUpdateNag": true}
        });
        merge(&mut settings, inv.user_settings);
        write_json(&dirs.home.join(".gemini/settings.json"), &settings)?;
        write_json(
            &dirs.home.join(".gemini/trustedFolders.json"),
            &json!({ proj.clone(): "TRUST_FOLDER" }),
        )?;
        let mut argv = vec![
            s("-p"),
            s(inv.prompt),
            s("--yolo"),
            s("--output-format"),
            s("json"),
        ];
        if let Some(m) = inv.model {
            argv.extend([s("-m"), s(m)]);
        }
        Ok((
            argv,
            vec![
                kv("GEMINI_API_KEY", "dummy"),
                kv("GOOGLE_GEMINI_BASE_URL", base_url),
                kv("GEMINI_CLI_TRUST_WORKSPACE", "true"),
                kv("GEMINI_CLI_NO_RELAUNCH", "true"),
            ],
        ))
    }

    fn resume(&self, mut argv: Vec<String>, _prompt: &str) -> Vec<String> {
        argv.extend(["--resume".to_string(), "latest".to_string()]);
        argv
    }
    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".gemini/tmp")]
    }

    /// Gemini CLI loads every extension under `~/.gemini/extensions/`.
    fn plugin_dir(&self, dirs: &RunDirs) -> Option<PathBuf> {
        Some(dirs.home.join(".gemini/extensions/cuecard"))
    }

    fn transcripts_in_json(&self) -> bool {
        true
    }
}
