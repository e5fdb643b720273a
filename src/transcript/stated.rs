//! The context window a harness states in its own model configuration,
//! where the usage it records does not carry one (measured in the bundled
//! CLIs, 2026-12-03; docs/decisions.md, Compaction):
//!
//! - CodeBuddy Code 2.117.0 (agent SDK 0.3.201): `models.json`, in the
//!   project (`<cwd>/.codebuddy/models.json`, which wins) and the user's
//!   (`$CODEBUDDY_CONFIG_DIR/models.json`, else
//!   `~/.codebuddy/models.json`), either `{"models": [...]}` or a bare
//!   array; the entry whose `id` is the model (or the model with a
//!   `custom-local:` prefix, which CodeBuddy adds on some products) has
//!   `maxInputTokens`, the window its compaction takes its trigger point of
//!   (`resolveCompactTriggerAt(model.maxInputTokens, threshold)`).
//! - Factory Droid 0.225.2: `settings.json` (the project's
//!   `<cwd>/.factory/settings.json`, then `~/.factory/settings.json`).
//!   Droid compacts at `compactionTokenLimitPerModel[<model id>]`, else
//!   `compactionTokenLimit` (else 250,000), capped by the model's input
//!   limit; a custom model (`customModels` entry, id
//!   `custom:<displayName, spaces as ->-<n>` unless it sets `id`) may state
//!   `maxContextLimit`, which Droid parses but does not compact by, so the
//!   smaller of the two is taken. A compaction limit alone, on one of
//!   Factory's own models, is only an upper bound: the model's own window
//!   (the table) may be smaller, and the lookup takes the smaller.
//!
//! Each file is read whole (at most [`MAX_CONFIG`] bytes, never through a
//! link); a missing, oversized or unparsable file states nothing. The
//! compaction guard reads them once per session and model and keeps the
//! result in the session's state.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// A model configuration bigger than this is not one.
pub const MAX_CONFIG: u64 = 256 * 1024;

/// Whose configuration format the files are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CodeBuddy Code's `models.json`.
    CodeBuddy,
    /// Factory Droid's `settings.json`.
    Factory,
}

impl Format {
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "codebuddy" => Some(Format::CodeBuddy),
            "factory" => Some(Format::Factory),
            _ => None,
        }
    }
}

/// A window a harness's configuration states for a model.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct StatedWindow {
    /// The model it was looked up for.
    #[serde(default)]
    pub model: String,
    /// The window, when one was stated.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokens: Option<u64>,
    /// Where it was stated (`maxInputTokens in …/models.json`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub from: String,
    /// Only an upper bound: the model's own window, when smaller, wins.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub at_most: bool,
}

fn read(path: &Path) -> Option<Value> {
    let text = crate::fsutil::read_text_whole(path, false, MAX_CONFIG)?;
    serde_json::from_str(&text).ok()
}

fn tokens(v: &Value) -> Option<u64> {
    v.as_u64()
        .or_else(|| {
            v.as_f64()
                .filter(|f| f.is_finite() && *f > 0.0)
                .map(|f| f as u64)
        })
        .filter(|w| *w >= 1_000)
}

fn shown(path: &Path) -> String {
    crate::text::sanitize(&path.to_string_lossy(), 120)
}

/// The window `files` (in precedence order) state for `model`.
pub fn lookup(format: Format, files: &[PathBuf], model: &str) -> StatedWindow {
    let found = files.iter().find_map(|f| {
        let v = read(f)?;
        match format {
            Format::CodeBuddy => codebuddy(&v, model, f),
            Format::Factory => factory(&v, model, f),
        }
    });
    let (tokens, from, at_most) = match found {
        Some((t, from, at_most)) => (Some(t), from, at_most),
        None => (None, String::new(), false),
    };
    StatedWindow {
        model: crate::text::sanitize(model, 100),
        tokens,
        from,
        at_most,
    }
}

fn codebuddy(v: &Value, model: &str, file: &Path) -> Option<(u64, String, bool)> {
    let models = match v {
        Value::Array(a) => a,
        Value::Object(o) => o.get("models")?.as_array()?,
        _ => return None,
    };
    let bare = model.strip_prefix("custom-local:").unwrap_or(model);
    models.iter().find_map(|m| {
        let id = m["id"].as_str()?;
        if id != model && id != bare {
            return None;
        }
        let w = tokens(&m["maxInputTokens"])?;
        Some((w, format!("maxInputTokens in {}", shown(file)), false))
    })
}

/// Droid's id of a custom model: `custom:<displayName>-<n>`, `n` counting
/// the earlier entries of the same name (`id` when the entry sets one).
fn factory_ids(models: &[Value]) -> Vec<(String, &Value)> {
    let mut seen: std::collections::HashMap<String, usize> = Default::default();
    models
        .iter()
        .filter(|m| {
            m["model"].is_string()
                && m["provider"].is_string()
                && (m["baseUrl"].is_string() || m["bedrock"].is_object())
        })
        .map(|m| {
            let name = m["displayName"]
                .as_str()
                .or(m["model"].as_str())
                .unwrap_or_default()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join("-");
            let n = seen.entry(name.clone()).or_default();
            let id = match m["id"].as_str() {
                Some(id) => id.to_string(),
                None => format!("custom:{name}-{n}"),
            };
            *n += 1;
            (id, m)
        })
        .collect()
}

fn factory(v: &Value, model: &str, file: &Path) -> Option<(u64, String, bool)> {
    let at = shown(file);
    let limit = tokens(&v["compactionTokenLimitPerModel"][model])
        .map(|w| (w, format!("compactionTokenLimitPerModel in {at}")))
        .or_else(|| {
            tokens(&v["compactionTokenLimit"]).map(|w| (w, format!("compactionTokenLimit in {at}")))
        });
    let custom = v["customModels"].as_array().and_then(|ms| {
        factory_ids(ms)
            .into_iter()
            .find(|(id, _)| id == model)
            .and_then(|(_, m)| tokens(&m["maxContextLimit"]))
            .map(|w| (w, format!("maxContextLimit in {at}")))
    });
    match (limit, custom) {
        (Some(l), Some(c)) => Some(if l.0 <= c.0 {
            (l.0, l.1, false)
        } else {
            (c.0, c.1, false)
        }),
        (None, Some(c)) => Some((c.0, c.1, false)),
        // A compaction limit alone: Droid compacts there or at the model's
        // own window, whichever is smaller.
        (Some(l), None) => Some((l.0, l.1, true)),
        (None, None) => None,
    }
}
