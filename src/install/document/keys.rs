//! The keys install sets in a config file, and dotted paths into a
//! document.

use super::ConfigFile;
use crate::harness::config::Scope;
use crate::install::sandbox;
use crate::install::shape::BadShape;
use serde_json::{Map, Value};

/// The keys (dotted paths) install sets in this file, with their value: the
/// harness's own, in managed settings `allowManagedHooksOnly`, and the
/// sandbox keys of `--sandbox` (asked for now, or recorded before).
pub(super) fn required(t: &ConfigFile) -> Vec<(String, Value)> {
    let mut keys: Vec<(String, Value)> = (t.spec.required)()
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect();
    if t.scope == Scope::Managed {
        keys.push(("allowManagedHooksOnly".into(), Value::Bool(true)));
    }
    keys.extend(sandbox_keys(t));
    keys
}

/// The sandbox keys install writes into `t` now or recorded writing before
/// (a key asked for now wins).
pub(super) fn sandbox_keys(t: &ConfigFile) -> Vec<(String, Value)> {
    let mut keys = t.sandbox.clone();
    for (k, v) in sandbox::recorded_keys(&t.path) {
        if !keys.iter().any(|(kk, _)| *kk == k) {
            keys.push((k, v));
        }
    }
    keys
}

/// The document without the keys install adds for the harness to run hooks
/// (when they hold the value install writes), for comparing what is the
/// operator's.
pub(super) fn strip_required(t: &ConfigFile, doc: &Value) -> Value {
    let mut d = doc.clone();
    for (key, value) in required(t) {
        if get(&d, &key) == Some(&value) {
            remove(&mut d, &key);
        }
    }
    d
}

/// The value at a dotted path.
pub fn get<'a>(doc: &'a Value, dotted: &str) -> Option<&'a Value> {
    dotted.split('.').try_fold(doc, |v, k| v.get(k))
}

/// Sets a dotted path; returns the previous value when one was replaced.
pub(super) fn set(doc: &mut Value, dotted: &str, value: &Value) -> Result<Option<Value>, BadShape> {
    let mut cur = doc;
    let parts: Vec<&str> = dotted.split('.').collect();
    for (i, k) in parts.iter().enumerate() {
        let obj = cur
            .as_object_mut()
            .ok_or_else(|| BadShape::NotObject(parts[..i].join(".")))?;
        if i == parts.len() - 1 {
            return Ok(match obj.get(*k) {
                Some(v) if v == value => None,
                Some(v) => {
                    let old = v.clone();
                    obj.insert((*k).to_string(), value.clone());
                    Some(old)
                }
                None => {
                    obj.insert((*k).to_string(), value.clone());
                    None
                }
            });
        }
        cur = obj
            .entry((*k).to_string())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    Ok(None)
}

/// Removes a dotted path, and the objects that this left empty.
pub(super) fn remove(doc: &mut Value, dotted: &str) {
    let Some((head, last)) = dotted.rsplit_once('.') else {
        if let Some(o) = doc.as_object_mut() {
            o.shift_remove(dotted);
        }
        return;
    };
    let emptied = {
        let mut parent = &mut *doc;
        for k in head.split('.') {
            match parent.get_mut(k) {
                Some(v) => parent = v,
                None => return,
            }
        }
        match parent.as_object_mut() {
            Some(o) => {
                o.shift_remove(last);
                o.is_empty()
            }
            None => false,
        }
    };
    if emptied {
        remove(doc, head);
    }
}
