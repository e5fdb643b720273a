//! The config merge: put cuecard's hook entries into a harness's `hooks`
//! object, or take them out, touching nothing else.
//!
//! - Every operator key, event, matcher group and handler survives in its
//!   order (maps keep insertion order; removals shift, never swap).
//! - cuecard's handlers are those its [`Owner`] owns (what install
//!   recorded it wrote; see [`super::ownership::Recorded`]). On install each
//!   wanted entry replaces cuecard's existing handler for the same event and
//!   matcher in place, so a reinstall is a no-op; stale cuecard handlers go;
//!   new entries are appended after the operator's.
//! - A matcher group or an event list that cuecard's removals emptied goes
//!   too, unless the caller names it the operator's (`keep`: one they had
//!   before install, even empty); one the operator left empty stays.
//! - Each event's handlers nest as `layout.of(event)` says (a
//!   [`Layout::Mixed`] file holds groups under some events, plain handler
//!   lists under others), so the arms below never see `Mixed` itself.

use super::ownership::Owner;
use super::shape::BadShape;
use serde_json::{Map, Value};

pub use crate::harness::config::Layout;

/// One hook entry cuecard wants.
#[derive(Debug, Clone, PartialEq)]
pub struct HookEntry {
    pub event: String,
    /// The group's matcher (Grouped) or the handler's (Flat); `None` = no key.
    pub matcher: Option<String>,
    /// The handler object, complete (for Flat, with its matcher).
    pub handler: Map<String, Value>,
    /// The cards the entry dispatches, as rendered into its command line
    /// (kept typed for install's report rather than read back out of it).
    pub cards: Vec<String>,
}

/// What a merge did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MergeCounts {
    pub added: usize,
    pub replaced: usize,
    pub removed: usize,
}

pub const HOOKS: &str = "hooks";

/// Puts `entries` into `doc`, replacing cuecard's previous entries.
pub fn install<O: Owner + ?Sized>(
    doc: &mut Value,
    layout: Layout,
    bin: &O,
    entries: &[HookEntry],
) -> Result<MergeCounts, BadShape> {
    install_keeping(doc, layout, bin, entries, &[])
}

/// [`install`], keeping the containers named in `keep` (`hooks`,
/// `hooks.<event>`: the user's, not install's) when removals empty them.
pub fn install_keeping<O: Owner + ?Sized>(
    doc: &mut Value,
    layout: Layout,
    bin: &O,
    entries: &[HookEntry],
    keep: &[String],
) -> Result<MergeCounts, BadShape> {
    let keep_hooks = keep.iter().any(|k| k == HOOKS);
    if layout == Layout::List {
        return install_list(doc, bin, entries, keep_hooks);
    }
    let root = doc.as_object_mut().ok_or(BadShape::TopNotObject)?;
    if let Some(h) = root.get(HOOKS)
        && !h.is_object()
    {
        return Err(BadShape::HooksNotObject);
    }
    if entries.is_empty() && !root.contains_key(HOOKS) {
        return Ok(MergeCounts::default());
    }
    let had_hooks = root.contains_key(HOOKS);
    let hooks = root
        .entry(HOOKS)
        .or_insert_with(|| Value::Object(Map::new()))
        .as_object_mut()
        .expect("checked above");
    for e in entries {
        if let Some(v) = hooks.get(&e.event)
            && !v.is_array()
        {
            return Err(BadShape::EventNotList(e.event.clone()));
        }
    }
    let mut out = MergeCounts::default();
    let mut claimed: Vec<(String, usize, Option<usize>)> = Vec::new();
    let mut pending: Vec<&HookEntry> = Vec::new();
    for e in entries {
        match find_slot(hooks, layout, bin, e, &claimed) {
            Some((gi, hi)) => {
                let list = hooks[&e.event].as_array_mut().expect("checked");
                let slot = match hi {
                    Some(hi) => &mut list[gi][HOOKS][hi],
                    None => &mut list[gi],
                };
                let new = Value::Object(e.handler.clone());
                if *slot != new {
                    *slot = new;
                    out.replaced += 1;
                }
                claimed.push((e.event.clone(), gi, hi));
            }
            None => pending.push(e),
        }
    }
    out.removed = remove_unclaimed(hooks, layout, bin, &claimed, keep);
    for e in pending {
        let item = match layout.of(&e.event) {
            Layout::Grouped => {
                let mut g = Map::new();
                if let Some(m) = &e.matcher {
                    g.insert("matcher".into(), Value::String(m.clone()));
                }
                g.insert(
                    HOOKS.into(),
                    Value::Array(vec![Value::Object(e.handler.clone())]),
                );
                Value::Object(g)
            }
            Layout::Flat | Layout::List | Layout::Mixed { .. } => Value::Object(e.handler.clone()),
        };
        hooks
            .entry(e.event.clone())
            .or_insert_with(|| Value::Array(Vec::new()))
            .as_array_mut()
            .expect("checked")
            .push(item);
        out.added += 1;
    }
    if hooks.is_empty() && (!had_hooks || out.removed > 0) && !keep_hooks {
        root.shift_remove(HOOKS);
    }
    Ok(out)
}

/// [`install`] for a [`Layout::List`] file: `hooks` is one list whose items
/// name their event in `trigger`. The same rules: the operator's items stay
/// in order, cuecard's are replaced in place, stale ones go, new ones are
/// appended, and a list cuecard's removals emptied goes too.
fn install_list<O: Owner + ?Sized>(
    doc: &mut Value,
    bin: &O,
    entries: &[HookEntry],
    keep_hooks: bool,
) -> Result<MergeCounts, BadShape> {
    let root = doc.as_object_mut().ok_or(BadShape::TopNotObject)?;
    if let Some(h) = root.get(HOOKS)
        && !h.is_array()
    {
        return Err(BadShape::HooksNotList);
    }
    if entries.is_empty() && !root.contains_key(HOOKS) {
        return Ok(MergeCounts::default());
    }
    let had_hooks = root.contains_key(HOOKS);
    let list = root
        .entry(HOOKS)
        .or_insert_with(|| Value::Array(Vec::new()))
        .as_array_mut()
        .expect("checked above");
    let mut out = MergeCounts::default();
    let mut claimed: Vec<usize> = Vec::new();
    let mut pending: Vec<&HookEntry> = Vec::new();
    for e in entries {
        let slot = (0..list.len()).find(|&i| {
            let item = &list[i];
            !claimed.contains(&i)
                && bin.owns(item)
                && item.get("trigger").and_then(Value::as_str) == Some(e.event.as_str())
                && item.get("matcher").and_then(Value::as_str) == e.matcher.as_deref()
        });
        match slot {
            Some(i) => {
                let new = Value::Object(e.handler.clone());
                if list[i] != new {
                    list[i] = new;
                    out.replaced += 1;
                }
                claimed.push(i);
            }
            None => pending.push(e),
        }
    }
    let mut i = 0;
    list.retain(|item| {
        let drop = bin.owns(item) && !claimed.contains(&i);
        i += 1;
        if drop {
            out.removed += 1;
        }
        !drop
    });
    for e in pending {
        list.push(Value::Object(e.handler.clone()));
        out.added += 1;
    }
    if list.is_empty() && (!had_hooks || out.removed > 0) && !keep_hooks {
        root.shift_remove(HOOKS);
    }
    Ok(out)
}

/// Takes every cuecard entry out of `doc`.
pub fn uninstall<O: Owner + ?Sized>(
    doc: &mut Value,
    layout: Layout,
    bin: &O,
) -> Result<MergeCounts, BadShape> {
    install(doc, layout, bin, &[])
}

/// cuecard's entries in `doc`: (event, matcher, handler), in file order.
pub fn ours<O: Owner + ?Sized>(
    doc: &Value,
    layout: Layout,
    bin: &O,
) -> Vec<(String, Option<String>, Value)> {
    let mut out = Vec::new();
    if layout == Layout::List {
        for item in doc
            .get(HOOKS)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if bin.owns(item) {
                let get = |k: &str| item.get(k).and_then(Value::as_str).map(String::from);
                out.push((
                    get("trigger").unwrap_or_default(),
                    get("matcher"),
                    item.clone(),
                ));
            }
        }
        return out;
    }
    let Some(hooks) = doc.get(HOOKS).and_then(Value::as_object) else {
        return out;
    };
    for (event, list) in hooks {
        for item in list.as_array().into_iter().flatten() {
            match layout.of(event) {
                Layout::Grouped => {
                    let m = item
                        .get("matcher")
                        .and_then(Value::as_str)
                        .map(String::from);
                    for h in item
                        .get(HOOKS)
                        .and_then(Value::as_array)
                        .into_iter()
                        .flatten()
                    {
                        if bin.owns(h) {
                            out.push((event.clone(), m.clone(), h.clone()));
                        }
                    }
                }
                Layout::Flat | Layout::List | Layout::Mixed { .. } => {
                    if bin.owns(item) {
                        let m = item
                            .get("matcher")
                            .and_then(Value::as_str)
                            .map(String::from);
                        out.push((event.clone(), m, item.clone()));
                    }
                }
            }
        }
    }
    out
}

/// The first unclaimed cuecard handler for `e`'s event and matcher:
/// (group index, handler index within the group) or (item index, None).
fn find_slot<O: Owner + ?Sized>(
    hooks: &Map<String, Value>,
    layout: Layout,
    bin: &O,
    e: &HookEntry,
    claimed: &[(String, usize, Option<usize>)],
) -> Option<(usize, Option<usize>)> {
    let list = hooks.get(&e.event)?.as_array()?;
    let free = |gi: usize, hi: Option<usize>| {
        !claimed
            .iter()
            .any(|c| c.0 == e.event && c.1 == gi && c.2 == hi)
    };
    for (gi, item) in list.iter().enumerate() {
        let m = item.get("matcher").and_then(Value::as_str);
        if m != e.matcher.as_deref() {
            continue;
        }
        match layout.of(&e.event) {
            Layout::Grouped => {
                let Some(hs) = item.get(HOOKS).and_then(Value::as_array) else {
                    continue;
                };
                if let Some(hi) = (0..hs.len()).find(|&hi| bin.owns(&hs[hi]) && free(gi, Some(hi)))
                {
                    return Some((gi, Some(hi)));
                }
            }
            Layout::Flat | Layout::List | Layout::Mixed { .. } => {
                if bin.owns(item) && free(gi, None) {
                    return Some((gi, None));
                }
            }
        }
    }
    None
}

/// Removes cuecard's handlers that were not claimed, and the groups and
/// event lists that this emptied. Returns how many handlers went.
fn remove_unclaimed<O: Owner + ?Sized>(
    hooks: &mut Map<String, Value>,
    layout: Layout,
    bin: &O,
    claimed: &[(String, usize, Option<usize>)],
    kept: &[String],
) -> usize {
    let mut removed = 0;
    let mut emptied_events = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Some(list) = list.as_array_mut() else {
            continue;
        };
        let is_claimed = |gi: usize, hi: Option<usize>| {
            claimed
                .iter()
                .any(|c| &c.0 == event && c.1 == gi && c.2 == hi)
        };
        let before = removed;
        let mut keep = Vec::with_capacity(list.len());
        for (gi, mut item) in std::mem::take(list).into_iter().enumerate() {
            match layout.of(event) {
                Layout::Grouped => {
                    let mut emptied = false;
                    if let Some(hs) = item.get_mut(HOOKS).and_then(Value::as_array_mut) {
                        let n = hs.len();
                        let mut hi = 0;
                        hs.retain(|h| {
                            let drop = bin.owns(h) && !is_claimed(gi, Some(hi));
                            hi += 1;
                            !drop
                        });
                        removed += n - hs.len();
                        emptied = n > hs.len() && hs.is_empty();
                    }
                    if !emptied {
                        keep.push(item);
                    }
                }
                Layout::Flat | Layout::List | Layout::Mixed { .. } => {
                    if bin.owns(&item) && !is_claimed(gi, None) {
                        removed += 1;
                    } else {
                        keep.push(item);
                    }
                }
            }
        }
        *list = keep;
        if removed > before && list.is_empty() && !kept.contains(&format!("{HOOKS}.{event}")) {
            emptied_events.push(event.clone());
        }
    }
    for e in emptied_events {
        hooks.shift_remove(&e);
    }
    removed
}

#[cfg(test)]
mod tests;

/// The containers in `doc` entries can empty: `hooks`, and
/// `hooks.<event>` for each event list (not for a [`Layout::List`]).
pub fn containers(doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    match doc.get(HOOKS) {
        Some(Value::Object(h)) => {
            out.push(HOOKS.to_string());
            out.extend(h.keys().map(|e| format!("{HOOKS}.{e}")));
        }
        Some(_) => out.push(HOOKS.to_string()),
        None => {}
    }
    out
}
