//! pi coding agent: `pi -p --offline --provider mock --model <model>
//! "<prompt>"` with the mock as an OpenAI-compatible provider in
//! `~/.pi/agent/models.json` (the shared rig's notes, measured on 0.73.1).
//! cuecard's extension is installed by `cuecard install --harness pi` into
//! `~/.pi/agent/extensions/`, like every other registration.

use super::{Driver, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "pi",
    package: "@mariozechner/pi-coding-agent",
    pinned: "0.73.1",
    bin: "pi",
    in_ci: false,
};

pub struct Pi;

impl Driver for Pi {
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
            &dirs.home.join(".pi/agent/models.json"),
            &json!({
                "providers": {
                    "mock": {
                        "baseUrl": format!("{base_url}/v1"),
                        "api": "openai-completions",
                        "apiKey": "dummy",
                        "models": [{"id": model, "contextWindow": 200000, "maxTokens": 8192}]
                    }
                }
            }),
        )?;
        Ok((
            vec![
                s("-p"),
                s("--offline"),
                s("--provider"),
                s("mock"),
                s("--model"),
                s(model),
                s(inv.prompt),
            ],
            Vec::new(),
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".pi/agent/sessions")]
    }
}
