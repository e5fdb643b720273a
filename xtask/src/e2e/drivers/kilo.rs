//! Kilo Code's CLI (`@kilocode/cli`, an OpenCode fork): `kilo run -m
//! mock/<model> "<prompt>"` with the same custom OpenAI-compatible provider
//! as OpenCode's driver (`@ai-sdk/openai-compatible`, bundled in the binary:
//! nothing is fetched), in `~/.config/kilo/kilo.json`, the only provider
//! enabled (Kilo's own gateways would try to list their models); every tool
//! allowed; no models.dev fetch, no default plugins, no autoupdate, no
//! Claude Code compatibility layer. cuecard's plugin is installed by `cuecard install
//! --harness kilo` into `~/.config/kilo/plugins/`, like every other
//! registration.
//!
//! Pinned to 7.7.7: the newest `@kilocode/cli` whose Linux x64 binary
//! package is on the registry (7.8.1's `@kilocode/cli-linux-x64` is not
//! published there; its postinstall fails).

use super::{Driver, kv, opencode};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, merge, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "kilo",
    package: "@kilocode/cli",
    pinned: "7.7.7",
    bin: "kilo",
    in_ci: false,
};

pub struct Kilo;

impl Driver for Kilo {
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
        let mut config = opencode::config("https://app.kilo.ai/config.json", base_url, model);
        config["enabled_providers"] = json!(["mock"]);
        merge(&mut config, inv.user_settings);
        write_json(&dirs.home.join(".config/kilo/kilo.json"), &config)?;
        let mut env = opencode::disabled("KILO");
        for f in ["CLAUDE_CODE", "SESSION_INGEST", "CODEBASE_INDEXING"] {
            env.push(kv(&format!("KILO_DISABLE_{f}"), "1"));
        }
        Ok((opencode::run_argv(model, inv), env))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".local/share/kilo")]
    }
}
