//! OpenCode: `opencode run -m mock/<model> "<prompt>"` with a custom
//! OpenAI-compatible provider (`@ai-sdk/openai-compatible`, bundled in the
//! 1.18.33 binary: nothing is fetched) whose `baseURL` is the mock; every
//! tool allowed (`permission`), including paths outside the project; no
//! models.dev fetch, no default plugins, no autoupdate. cuecard's plugin
//! is installed by `cuecard install --harness opencode` into
//! `~/.config/opencode/plugins/`, like every other registration.

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, merge, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "opencode",
    package: "opencode-ai",
    pinned: "1.18.33",
    bin: "opencode",
    in_ci: false,
};

pub struct Opencode;

impl Driver for Opencode {
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
        let mut config = json!({
            "$schema": "https://opencode.ai/config.json",
            "autoupdate": false,
            "share": "disabled",
            "permission": {
                "edit": "allow",
                "bash": "allow",
                "webfetch": "allow",
                "external_directory": "allow",
                "doom_loop": "allow"
            },
            "provider": {
                "mock": {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "Mock",
                    "options": {"baseURL": format!("{base_url}/v1"), "apiKey": "dummy"},
                    "models": {
                        model: {
                            "name": model,
                            "tool_call": true,
                            "limit": {"context": 200000, "output": 8192}
                        }
                    }
                }
            },
            "model": format!("mock/{model}")
        });
        merge(&mut config, inv.user_settings);
        write_json(&dirs.home.join(".config/opencode/opencode.json"), &config)?;
        Ok((
            vec![s("run"), s("-m"), format!("mock/{model}"), s(inv.prompt)],
            vec![
                kv("OPENCODE_DISABLE_AUTOUPDATE", "1"),
                kv("OPENCODE_DISABLE_MODELS_FETCH", "1"),
                kv("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"),
                kv("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
                kv("OPENCODE_DISABLE_SHARE", "1"),
            ],
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".local/share/opencode")]
    }
}
