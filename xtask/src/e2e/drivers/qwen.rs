//! Qwen Code: `qwen -p` through its OpenAI (Chat Completions) auth on the mock.

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, merge, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "qwen",
    package: "@qwen-code/qwen-code",
    pinned: "0.24.4",
    bin: "qwen",
    in_ci: false,
};

pub struct Qwen;

impl Driver for Qwen {
    fn id(&self) -> &'static str {
        HARNESS.id
    }

    fn configure(
        &self,
        dirs: &RunDirs,
        base_url: &str,
        inv: &Invocation,
    ) -> Result<(Vec<String>, Env), String> {
        let mut settings = json!({
            "security": {"auth": {"selectedType": "openai"}},
            "privacy": {"usageStatisticsEnabled": false},
            "telemetry": {"enabled": false},
            "general": {"disableAutoUpdate": true}
        });
        merge(&mut settings, inv.user_settings);
        write_json(&dirs.home.join(".qwen/settings.json"), &settings)?;
        Ok((
            vec![
                s("-p"),
                s(inv.prompt),
                s("--yolo"),
                s("--output-format"),
                s("json"),
            ],
            vec![
                kv("OPENAI_API_KEY", "dummy"),
                kv("OPENAI_BASE_URL", &format!("{base_url}/v1")),
                kv("OPENAI_MODEL", inv.model.unwrap_or("qwen3-coder-plus")),
            ],
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".qwen")]
    }
}
