//! Planning an install or an uninstall of one config file: merging
//! cuecard's entries and keys into the document, or taking them out, and
//! the file's new text.

use super::keys::{get, remove, required, sandbox_keys, set, strip_required};
use super::load::load;
use super::{Action, ConfigFile, FileOwner, Plan, hooks_switched_off, owner};
use crate::harness::config::{Config, OwnedFile};
use crate::install::error::InstallError;
use crate::install::fsio;
use crate::install::lossless;
use crate::install::merge::{self, HookEntry, MergeCounts};
use crate::install::owned::{self, Owned};
use crate::install::ownership::{self, Owner};
use crate::install::patch;
use crate::install::record;
use crate::install::shape::BadShape;
use crate::install::style::Style;
use serde_json::Value;

/// The containers in `doc` install did not create (`created`): the user's,
/// kept when removals empty them.
fn users_containers(doc: &Value, created: &[String]) -> Vec<String> {
    merge::containers(doc)
        .into_iter()
        .filter(|c| !created.contains(c))
        .collect()
}

/// The entries in `doc` that run a cuecard binary's `dispatch` but that
/// `owner` does not own: the user's, kept, each named in a note.
fn kept_notes(t: &ConfigFile, doc: &Value, bin: &str, owner: &FileOwner) -> Vec<String> {
    merge::ours(doc, t.spec.layout, bin)
        .into_iter()
        .filter(|(_, _, h)| !owner.owns(h))
        .map(|(event, matcher, h)| {
            let words = h
                .as_object()
                .and_then(ownership::argv)
                .unwrap_or_default();
            format!(
                "kept an entry of yours: {event} [{}]: `{}` runs cuecard but install did not write it; \
                 `--replace {}` hands it to install",
                matcher.as_deref().unwrap_or("every call"),
                words.join(" "),
                words.first().map(String::as_str).unwrap_or("<program>")
            )
        })
        .collect()
}

/// `t`'s shape has no place for cuecard's entries: nothing was written.
fn unmergeable(t: &ConfigFile, why: BadShape) -> InstallError {
    InstallError::Unmergeable {
        path: t.path.clone(),
        why,
    }
}

/// The file's text `before` (which parses to `old`) rewritten to hold
/// `new`: a textual patch of the members that changed when it can be
/// placed (see [`patch`]), else the whole document in the file's
/// style.
fn rewrite(before: &str, old: &Value, new: &Value) -> String {
    let style = Style::detect(before);
    patch::patch(before, old, new, &style).unwrap_or_else(|| style.render(new))
}

/// Plans writing `entries` (and the keys the harness needs) into the file.
pub fn plan_install(
    t: &ConfigFile,
    bin: &str,
    entries: &[HookEntry],
) -> Result<Plan, InstallError> {
    if let Some(o) = t.spec.owned {
        return plan_owned_install(t, o, bin, entries);
    }
    let loaded = load(t)?;
    if loaded.is_some() {
        fsio::refuse_read_only(&t.path)?;
    }
    let (before, mut doc) = match &loaded {
        Some((text, doc)) => (Some(text.clone()), doc.clone()),
        None => (None, (t.spec.skeleton)()),
    };
    let original = doc.clone();
    let owner = owner(t, bin, Some(entries));
    let recorded = record::created(&t.path);
    let keep = users_containers(&original, recorded.as_deref().unwrap_or_default());
    let outcome = merge::install_keeping(&mut doc, t.spec.layout, &owner, entries, &keep)
        .map_err(|why| unmergeable(t, why))?;
    let mut created = recorded.unwrap_or_default();
    for c in merge::containers(&doc) {
        if !merge::containers(&original).contains(&c) && !created.contains(&c) {
            created.push(c);
        }
    }
    let created_file = record::created_file(&t.path).unwrap_or(false) || loaded.is_none();
    // The user's entries are those the file held before this install: one
    // it adds now is in no record yet, and is not theirs.
    let mut notes = kept_notes(t, &original, bin, &owner);
    let mut switched = Vec::new();
    let sandbox_keys = sandbox_keys(t);
    for (key, value) in required(t) {
        let key = key.as_str();
        let is_sandbox = sandbox_keys.iter().any(|(k, _)| k == key);
        let managed_off = key == "allowManagedHooksOnly"
            && get(&doc, key).is_some_and(|v| v == &Value::Bool(false));
        if managed_off {
            notes.push(format!(
                "warning: {} sets allowManagedHooksOnly to false: users' own settings can add hooks beside these \
                 and plugins can override them; left as the file says",
                t.path.display()
            ));
            continue;
        }
        let before = get(&doc, key).cloned();
        match &before {
            // The user's own sandbox setting: kept, and said.
            Some(old) if old != &value && is_sandbox => {
                notes.push(format!(
                    "warning: {key} is {old} in {}, your own setting: left as it is, so the sandbox \
                     does not do what --sandbox renders (docs/policy.md); set it to {value} yourself \
                     to have it",
                    t.path.display()
                ));
                continue;
            }
            // The user's switch: never flipped; said, with what to change.
            Some(old) if old != &value => {
                notes.push(format!(
                    "warning: {key} is {old} in {}: {} runs no hooks while it is, neither yours nor \
                     cuecard's; install leaves your switch as it is: set it to {value} yourself when \
                     you want hooks to run",
                    t.path.display(),
                    t.spec.harness.name()
                ));
                continue;
            }
            Some(_) => {}
            None => {
                set(&mut doc, key, &value).map_err(|why| unmergeable(t, why))?;
                notes.push(format!(
                    "added {key}: {value} to {} ({}; uninstall removes it)",
                    t.path.display(),
                    if is_sandbox {
                        "--sandbox, from your policy"
                    } else if key == "allowManagedHooksOnly" {
                        "what it does to every other hook: below"
                    } else {
                        "the harness runs no hooks without it"
                    }
                ));
            }
        }
        if before.as_ref() != Some(&value) && (loaded.is_some() || is_sandbox) {
            switched.push((key.to_string(), before));
        }
    }
    if let Some(why) = hooks_switched_off(t, &doc) {
        notes.push(format!(
            "warning: {why}; install leaves it as it is: set it to false yourself when you want hooks \
             to run"
        ));
    }
    let action = match before {
        _ if loaded.is_some() && doc == original => Action::Unchanged,
        // Nothing to register: no file is created just to hold nothing.
        None if entries.is_empty() => Action::Unchanged,
        Some(before) => {
            let after = rewrite(&before, &original, &doc);
            Action::Update { before, after }
        }
        None => Action::Create(Style::new_file().render(&doc)),
    };
    Ok(Plan {
        action,
        outcome,
        notes,
        switched,
        entries: entries
            .iter()
            .map(|e| Value::Object(e.handler.clone()))
            .collect(),
        created: Some((created, created_file)),
    })
}

/// [`plan_install`] for a whole file cuecard owns: rendered anew around
/// the entries; a file of the user's own at that path, or cuecard's edited
/// by hand, is refused (see [`owned`]).
fn plan_owned_install(
    t: &ConfigFile,
    o: &OwnedFile,
    bin: &str,
    entries: &[HookEntry],
) -> Result<Plan, InstallError> {
    fsio::refuse_symlinks(&t.base, &t.path)?;
    let before = fsio::read(&t.path)?;
    if let Some(why) = before
        .as_deref()
        .and_then(|text| owned::refusal(o, &t.path, text))
    {
        return Err(why);
    }
    let mut doc = match before.as_deref().map(|text| owned::parse(o, text)) {
        Some(Owned::Ours { doc, .. }) => doc,
        _ => (t.spec.skeleton)(),
    };
    let outcome =
        merge::install(&mut doc, t.spec.layout, bin, entries).map_err(|why| unmergeable(t, why))?;
    let after = owned::render(o, &doc);
    let action = match before {
        Some(before) if before == after => Action::Unchanged,
        Some(before) => Action::Update { before, after },
        None if entries.is_empty() => Action::Unchanged,
        None => Action::Create(after),
    };
    Ok(Plan {
        action,
        outcome,
        notes: Vec::new(),
        switched: Vec::new(),
        entries: Vec::new(),
        created: None,
    })
}

/// [`plan_uninstall`] for a whole file cuecard owns: removed when it is
/// cuecard's and unedited; a file of the user's own, or cuecard's edited
/// by hand, stays (with a note saying why).
fn plan_owned_uninstall(t: &ConfigFile, bin: &str, o: &OwnedFile) -> Result<Plan, InstallError> {
    let mut plan = Plan {
        action: Action::Unchanged,
        outcome: MergeCounts::default(),
        notes: Vec::new(),
        switched: Vec::new(),
        entries: Vec::new(),
        created: None,
    };
    fsio::refuse_symlinks(&t.base, &t.path)?;
    let Some(before) = fsio::read(&t.path)? else {
        return Ok(plan);
    };
    match owned::parse(o, &before) {
        Owned::Foreign => plan.notes.push(format!(
            "left {}: not cuecard's (no `{}` marker)",
            t.path.display(),
            owned::MARKER
        )),
        Owned::Ours { edited: true, .. } => plan.notes.push(format!(
            "left {}: edited by hand since install, so it is yours now; delete it yourself",
            t.path.display()
        )),
        Owned::Ours { doc, .. } => {
            plan.outcome.removed = merge::ours(&doc, t.spec.layout, bin).len();
            plan.action = Action::Delete { before };
        }
    }
    Ok(plan)
}

/// What install would write into an empty file of this harness: the
/// entries to merge by hand into a file cuecard refuses to rewrite.
pub fn by_hand(spec: &Config, bin: &str, entries: &[HookEntry]) -> Result<String, BadShape> {
    let mut doc = (spec.skeleton)();
    merge::install(&mut doc, spec.layout, bin, entries)?;
    if let Some(o) = spec.owned {
        return Ok(owned::render(o, &doc));
    }
    for (key, value) in (spec.required)() {
        set(&mut doc, key, &value)?;
    }
    Ok(Style::new_file().render(&doc))
}

/// Plans taking cuecard's entries out of the file.
pub fn plan_uninstall(t: &ConfigFile, bin: &str) -> Result<Plan, InstallError> {
    plan_uninstall_with(t, bin, None)
}

/// [`plan_uninstall`], with what install would write there now (`wanted`,
/// from the run's context) when the caller has it: `None` derives it.
pub fn plan_uninstall_with(
    t: &ConfigFile,
    bin: &str,
    wanted: Option<&[HookEntry]>,
) -> Result<Plan, InstallError> {
    if let Some(o) = t.spec.owned {
        return plan_owned_uninstall(t, bin, o);
    }
    let mut unchanged = Plan {
        action: Action::Unchanged,
        outcome: MergeCounts::default(),
        notes: Vec::new(),
        switched: Vec::new(),
        entries: Vec::new(),
        created: None,
    };
    let Some((before, doc)) = load(t)? else {
        return Ok(unchanged);
    };
    let owner = owner(t, bin, wanted);
    let mut after_doc = doc.clone();
    // With a record, the containers install did not create are the user's.
    let keep = record::created(&t.path)
        .map(|c| users_containers(&doc, &c))
        .unwrap_or_default();
    let outcome = merge::install_keeping(&mut after_doc, t.spec.layout, &owner, &[], &keep)
        .map_err(|why| unmergeable(t, why))?;
    // The keys install switched go back to the operator's values.
    let mut notes = kept_notes(t, &after_doc, bin, &owner);
    if outcome.removed == 0 {
        unchanged.notes = notes;
        return Ok(unchanged);
    }
    fsio::refuse_read_only(&t.path)?;
    for (key, before) in record::keys(&t.path) {
        let Some((_, value)) = required(t).into_iter().find(|(k, _)| *k == key) else {
            continue;
        };
        if get(&after_doc, &key) != Some(&value) {
            continue; // changed since by the operator: theirs stays
        }
        match &before {
            Some(old) => {
                set(&mut after_doc, &key, old).map_err(|why| unmergeable(t, why))?;
                notes.push(format!("put {key} back to {old}, as it was before install"));
            }
            None => {
                remove(&mut after_doc, &key);
                notes.push(format!("removed {key}, which install had added"));
            }
        }
    }
    let plain = |d: &Value| strip_required(t, d);
    // The operator's file from before cuecard, when nothing else changed since.
    if let Ok(Some(backup)) = fsio::read(&fsio::backup_path(&t.path))
        && lossless::check(&backup).is_ok()
        && let Ok(bdoc) = serde_json::from_str::<Value>(if backup.trim().is_empty() {
            "{}"
        } else {
            &backup
        })
        && merge::ours(&bdoc, t.spec.layout, &owner).is_empty()
        && plain(&bdoc) == plain(&after_doc)
    {
        return Ok(Plan {
            action: Action::Restore {
                before,
                after: backup,
            },
            outcome,
            notes,
            switched: Vec::new(),
            entries: Vec::new(),
            created: None,
        });
    }
    // A file the user had before install is never deleted.
    let ours_alone = record::created_file(&t.path) != Some(false);
    let action = if ours_alone && plain(&after_doc) == plain(&(t.spec.skeleton)()) {
        Action::Delete { before }
    } else {
        let after = rewrite(&before, &doc, &after_doc);
        Action::Update { before, after }
    };
    Ok(Plan {
        action,
        outcome,
        notes,
        switched: Vec::new(),
        entries: Vec::new(),
        created: None,
    })
}
