//! What an install did that its uninstall must undo and that the
//! operator's file cannot say: the keys install switched (Gemini's
//! `hooksConfig.enabled`, managed settings' `allowManagedHooksOnly`), with
//! the value each had before, the folders install created for a file or
//! the skills, the hook handlers it wrote (what makes an entry cuecard's:
//! see [`super::ownership::Recorded`]), the containers it created in the
//! file (`hooks`, `hooks.<event>`: an empty one the user had stays theirs)
//! and whether it created the file. Kept in the data directory
//! (`<data>/install/record.json`, `{"<config path>": {"keys": {"<key>":
//! <value, or null for absent>}, "dirs": ["<folder>", ...], "entries":
//! [<handler>, ...], "created": ["hooks", ...], "created_file": false}}`),
//! never in the operator's file. The first
//! value recorded for a key is the operator's and is never overwritten.

use super::error::InstallError;
use serde_json::{Map, Value, json};
use std::path::{Path, PathBuf};

fn store() -> Option<PathBuf> {
    crate::paths::data_dir().map(|d| d.join("install/record.json"))
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

fn save(store: &Path, all: &Map<String, Value>) -> Result<(), InstallError> {
    if all.is_empty() {
        match std::fs::remove_file(store) {
            Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                return Err(InstallError::Io {
                    path: store.to_path_buf(),
                    error,
                });
            }
            _ => {}
        }
        if let Some(dir) = store.parent() {
            let _ = std::fs::remove_dir(dir);
        }
        return Ok(());
    }
    let text = serde_json::to_string_pretty(&Value::Object(all.clone())).unwrap_or_default();
    super::fsio::write_atomic(store, &format!("{text}\n"), None)
}

fn key(config: &Path) -> String {
    config.to_string_lossy().into_owned()
}

/// Records that install switched keys in `config` away from the operator's
/// values (`None`: the key was absent), and created `dirs`; a key or folder
/// recorded already keeps its first record.
pub fn record(
    config: &Path,
    switched: &[(String, Option<Value>)],
    dirs: &[PathBuf],
) -> Result<(), InstallError> {
    let Some(store) = store() else { return Ok(()) };
    if switched.is_empty() && dirs.is_empty() {
        return Ok(());
    }
    let mut all = load(&store);
    let entry = all
        .entry(key(config))
        .or_insert_with(|| json!({"keys": {}, "dirs": []}));
    if let Some(Value::Object(keys)) = entry.get_mut("keys") {
        for (k, v) in switched {
            keys.entry(k.clone())
                .or_insert_with(|| v.clone().unwrap_or(Value::Null));
        }
    }
    if let Some(Value::Array(list)) = entry.get_mut("dirs") {
        for d in dirs {
            let d = Value::from(d.to_string_lossy().into_owned());
            if !list.contains(&d) {
                list.push(d);
            }
        }
    }
    save(&store, &all)
}

/// Sets one field of `config`'s record (`entries`, `created`,
/// `created_file`).
pub fn set(config: &Path, field: &str, value: Value) -> Result<(), InstallError> {
    set_many(config, &[(field, value)])
}

/// Sets fields of `config`'s record in one write (`harness`, `scope`,
/// `base`, `installed`: what `crate::state::liveness` reads).
pub fn set_many(config: &Path, fields: &[(&str, Value)]) -> Result<(), InstallError> {
    let Some(store) = store() else { return Ok(()) };
    let mut all = load(&store);
    let entry = all
        .entry(key(config))
        .or_insert_with(|| json!({"keys": {}, "dirs": []}));
    if let Some(e) = entry.as_object_mut() {
        for (field, value) in fields {
            e.insert((*field).into(), value.clone());
        }
    }
    save(&store, &all)
}

/// One field of `config`'s record, `None` when there is none.
pub fn get(config: &Path, field: &str) -> Option<Value> {
    let store = store()?;
    load(&store).get(&key(config))?.get(field).cloned()
}

/// The hook handlers install recorded writing into `config`; `None` when
/// there is no record of them.
pub fn entries(config: &Path) -> Option<Vec<Value>> {
    get(config, "entries").and_then(|v| v.as_array().cloned())
}

/// The containers (`hooks`, `hooks.<event>`) install created in `config`,
/// which uninstall removes when they are empty again; `None` when there is
/// no record of them.
pub fn created(config: &Path) -> Option<Vec<String>> {
    get(config, "created").and_then(|v| {
        v.as_array().map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(String::from)
                .collect()
        })
    })
}

/// Whether install created `config` itself; `None` when no record says.
pub fn created_file(config: &Path) -> Option<bool> {
    get(config, "created_file").and_then(|v| v.as_bool())
}

/// What install switched in `config`: (key, the operator's value, `None`
/// when it was absent).
pub fn keys(config: &Path) -> Vec<(String, Option<Value>)> {
    let Some(store) = store() else {
        return Vec::new();
    };
    match load(&store).get(&key(config)).and_then(|e| e.get("keys")) {
        Some(Value::Object(keys)) => keys
            .iter()
            .map(|(k, v)| (k.clone(), (!v.is_null()).then(|| v.clone())))
            .collect(),
        _ => Vec::new(),
    }
}

/// The folders install created for `config` (and its skills).
pub fn dirs(config: &Path) -> Vec<PathBuf> {
    let Some(store) = store() else {
        return Vec::new();
    };
    load(&store)
        .get(&key(config))
        .and_then(|e| e.get("dirs"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(PathBuf::from)
                .collect()
        })
        .unwrap_or_default()
}

/// Forgets `config`'s record, once uninstall undid it.
pub fn forget(config: &Path) -> Result<(), InstallError> {
    let Some(store) = store() else { return Ok(()) };
    let mut all = load(&store);
    if all.shift_remove(&key(config)).is_some() {
        save(&store, &all)?;
    }
    Ok(())
}

/// The folders from `dir` up to (not including) `base` that do not exist
/// yet, deepest first: what writing a file in `dir` would create.
pub fn missing_dirs(dir: &Path, base: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut d = Some(dir);
    while let Some(x) = d {
        if x == base || !x.starts_with(base) || x.exists() {
            break;
        }
        out.push(x.to_path_buf());
        d = x.parent();
    }
    out
}

/// Removes the recorded folders that are empty now, deepest first; a
/// folder with anything in it stays.
pub fn remove_empty(dirs: &[PathBuf]) {
    let mut dirs = dirs.to_vec();
    dirs.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in dirs {
        if std::fs::symlink_metadata(&d).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::remove_dir(&d);
        }
    }
}
