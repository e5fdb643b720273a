//! The keys install switched in an operator's file (Gemini's
//! `hooksConfig.enabled`, managed settings' `allowManagedHooksOnly`), with
//! the value each had before, so that uninstall can put them back as the
//! operator had them. Kept in the data directory
//! (`<data>/install/switched.json`, `{"<config path>": {"<key>": <value
//! or null for absent>}}`), never in the operator's file; the first value
//! recorded for a key is the operator's and is never overwritten.

use serde_json::{Map, Value};
use std::path::{Path, PathBuf};

fn store() -> Option<PathBuf> {
    crate::paths::data_dir().map(|d| d.join("install/switched.json"))
}

fn load(store: &Path) -> Map<String, Value> {
    std::fs::read_to_string(store)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| match v {
            Value::Object(m) => Some(m),
            _ => None,
        })
        .unwrap_or_default()
}

fn save(store: &Path, all: &Map<String, Value>) -> Result<(), String> {
    if all.is_empty() {
        return match std::fs::remove_file(store) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                Err(format!("{}: {e}", store.display()))
            }
            _ => Ok(()),
        };
    }
    let text = serde_json::to_string_pretty(&Value::Object(all.clone())).unwrap_or_default();
    super::fsio::write_atomic(store, &format!("{text}\n"), None)
}

/// Records that install switched `key` in `config` away from `before`
/// (`None`: the key was absent), unless a value is recorded already.
pub fn record(config: &Path, switched: &[(String, Option<Value>)]) -> Result<(), String> {
    let Some(store) = store() else { return Ok(()) };
    if switched.is_empty() {
        return Ok(());
    }
    let mut all = load(&store);
    let entry = all
        .entry(config.to_string_lossy().into_owned())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(keys) = entry {
        for (k, v) in switched {
            keys.entry(k.clone())
                .or_insert_with(|| v.clone().unwrap_or(Value::Null));
        }
    }
    save(&store, &all)
}

/// What install switched in `config`: (key, the operator's value, `None`
/// when it was absent).
pub fn recorded(config: &Path) -> Vec<(String, Option<Value>)> {
    let Some(store) = store() else {
        return Vec::new();
    };
    match load(&store).get(config.to_string_lossy().as_ref()) {
        Some(Value::Object(keys)) => keys
            .iter()
            .map(|(k, v)| (k.clone(), (!v.is_null()).then(|| v.clone())))
            .collect(),
        _ => Vec::new(),
    }
}

/// Forgets `config`'s record, once uninstall put its keys back.
pub fn forget(config: &Path) -> Result<(), String> {
    let Some(store) = store() else { return Ok(()) };
    let mut all = load(&store);
    if all
        .shift_remove(config.to_string_lossy().as_ref())
        .is_some()
    {
        save(&store, &all)?;
    }
    Ok(())
}
