//! Factory Droid: `droid exec -m custom:<model> --skip-permissions-unsafe
//! "<prompt>"` with
//! the mock as a custom model (`generic-chat-completion-api`) in
//! `~/.factory/settings.json` (the shared rig's notes, measured on 0.225.2;
//! its calls to Factory's own API fail and do no harm). The npm shim
//! `@factory/cli` 0.225.1 names a platform build the registry does not
//! have, so the driver installs the platform package itself and runs its
//! binary: Linux x64 only.

use super::{Driver, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, merge, write_json};
use serde_json::json;
use std::path::PathBuf;

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "factory",
    package: "@factory/cli-linux-x64",
    pinned: "0.225.2",
    // Relative to `node_modules/.bin`: the platform package links no binary.
    bin: "../@factory/cli-linux-x64/bin/droid",
    in_ci: false,
};

pub struct Factory;

impl Driver for Factory {
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
        let mut settings = json!({
            "customModels": [{
                "model": model,
                "displayName": model,
                "baseUrl": format!("{base_url}/v1"),
                "apiKey": "dummy",
                "provider": "generic-chat-completion-api",
                "maxOutputTokens": 8192
            }]
        });
        merge(&mut settings, inv.user_settings);
        write_json(&dirs.home.join(".factory/settings.json"), &settings)?;
        Ok((
            vec![
                s("exec"),
                s("-m"),
                format!("custom:{model}"),
                // Droid's own permission tiers would stop the destructive
                // calls the policy scenarios make before cuecard judges
                // them (`--auto low`: "insufficient permission", exit 1).
                s("--skip-permissions-unsafe"),
                s(inv.prompt),
            ],
            Vec::new(),
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".factory/sessions")]
    }
}
