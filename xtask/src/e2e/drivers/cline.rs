//! Cline CLI (npm `cline`, the native CLI on the Cline SDK): `cline -P
//! openai-compatible --json "<prompt>"` (act mode, auto-approve) through an
//! OpenAI-compatible provider (Chat Completions) on the mock. The provider
//! is written where `cline auth` writes it; the session runs in process
//! (`CLINE_SESSION_BACKEND_MODE=local`: no hub daemon). Not `--yolo` (it
//! loops on its completion reminders against a mock), not `-i`/`--id` (they
//! need a TTY; `-i` leaves a hub daemon behind).

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "cline",
    package: "cline",
    pinned: "3.0.65",
    bin: "cline",
    in_ci: false,
};

pub struct Cline;

impl Driver for Cline {
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
        let settings = json!({
            "provider": "openai-compatible",
            "apiKey": "sk-mock",
            "model": model,
            "baseUrl": format!("{base_url}/v1"),
        });
        write_json(
            &dirs.home.join(".cline/data/settings/providers.json"),
            &json!({
                "version": 1,
                "lastUsedProvider": "openai-compatible",
                "modes": {},
                // Without `updatedAt` Cline drops the entry and rewrites the
                // file without the key and URL (measured on 3.0.65).
                "providers": {"openai-compatible": {
                    "settings": settings,
                    "updatedAt": "2026-12-02T00:00:00.000Z",
                    "tokenSource": "manual"
                }}
            }),
        )?;
        Ok((
            vec![
                s("-P"),
                s("openai-compatible"),
                s("-m"),
                s(model),
                s("--json"),
                s(inv.prompt),
            ],
            vec![
                kv("CLINE_SESSION_BACKEND_MODE", "local"),
                kv("CLINE_TELEMETRY_DISABLED", "1"),
            ],
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".cline/data/sessions")]
    }

    fn transcripts_in_json(&self) -> bool {
        true
    }

    /// `cline.log` reports a hook whose stdout is not JSON ("hook command
    /// returned invalid JSON control output", measured) or that timed out.
    fn log_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".cline/data/logs")]
    }
}
