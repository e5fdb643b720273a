//! CodeBuddy Code: the CLI inside npm `@tencent-ai/agent-sdk` (its
//! `cli/bin/codebuddy`; the package declares no bin), `codebuddy -p
//! "<prompt>" --model <id> -y` with the mock as an OpenAI-vendor model in
//! `~/.codebuddy/models.json` (the shared rig's notes, measured on 2.117.0
//! in sdk 0.3.201). Hooks in `-p` run with no approval step.

use super::{Driver, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "codebuddy",
    package: "@tencent-ai/agent-sdk",
    pinned: "0.3.201",
    // Relative to `node_modules/.bin`: the package links no binary.
    bin: "../@tencent-ai/agent-sdk/cli/bin/codebuddy",
    in_ci: false,
};

pub struct CodeBuddy;

impl Driver for CodeBuddy {
    fn id(&self) -> &'static str {
        HARNESS.id
    }

    fn configure(
        &self,
        dirs: &RunDirs,
        base_url: &str,
        inv: &Invocation,
    ) -> Result<(Vec<String>, Env), String> {
        let model = inv.model.unwrap_or("mock-model");
        write_json(
            &dirs.home.join(".codebuddy/models.json"),
            &json!({
                "models": [{
                    "id": model,
                    "name": model,
                    "vendor": "OpenAI",
                    "url": format!("{base_url}/v1/chat/completions"),
                    "apiKey": "dummy",
                    "maxInputTokens": 200000,
                    "maxOutputTokens": 8192,
                    "supportsToolCall": true
                }],
                "availableModels": [model]
            }),
        )?;
        Ok((
            vec![s("-p"), s(inv.prompt), s("--model"), s(model), s("-y")],
            Vec::new(),
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".codebuddy/projects")]
    }
}
