//! One config file: load it (refusing what cannot be rewritten without loss),
//! plan an install or an uninstall, apply the plan. A plan that changes
//! nothing writes nothing, so a reinstall leaves the file byte-identical.

use super::error::InstallError;
use super::fsio;
use super::lossless;
use super::merge::{self, HookEntry, MergeCounts};
use super::owned::{self, Owned};
use super::ownership::{Owner, Recorded};
use super::shape::BadShape;
use super::style::Style;
use crate::harness::config::{Config, OwnedFile, Roots, Scope};
use serde_json::{Map, Value};
use std::path::PathBuf;

/// A harness's config file in one scope.
pub struct ConfigFile {
    pub spec: &'static Config,
    pub scope: Scope,
    pub path: PathBuf,
    /// The directory below which no symlink is accepted (home, project root,
    /// or the working directory for managed settings).
    pub base: PathBuf,
    /// The programs `--replace` named: their `dispatch` entries are
    /// cuecard's to replace or remove though install did not write them.
    pub replace: Vec<String>,
    /// The harness sandbox keys `install --sandbox` writes (dotted, with
    /// their values; see [`super::sandbox`]).
    pub sandbox: Vec<(String, Value)>,
}

impl ConfigFile {
    pub fn new(spec: &'static Config, scope: Scope, roots: &Roots) -> Option<ConfigFile> {
        let mut path = (spec.path)(scope, roots)?;
        // A link (a dotfile manager's) to a file of the user's own inside
        // HOME: the file it leads to is the one read and written.
        if scope != Scope::Managed
            && let Some(real) = fsio::through_links(&path, &roots.home)
        {
            path = real;
        }
        let base = match scope {
            Scope::User => roots.home.clone(),
            Scope::Project => roots.project.clone(),
            Scope::Managed => roots.cwd.clone(),
        };
        // A path outside the base (CODEX_HOME elsewhere): check from its parent.
        let base = if path.starts_with(&base) {
            base
        } else {
            path.parent().map(PathBuf::from).unwrap_or(base)
        };
        Some(ConfigFile {
            spec,
            scope,
            path,
            base,
            replace: Vec::new(),
            sandbox: Vec::new(),
        })
    }
}

/// What applying a plan does to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    Unchanged,
    Create(String),
    Update {
        before: String,
        after: String,
    },
    /// Put back the operator's file exactly as it was before cuecard.
    Restore {
        before: String,
        after: String,
    },
    /// Remove a file that held nothing but cuecard's.
    Delete {
        before: String,
    },
}

pub struct Plan {
    pub action: Action,
    pub outcome: MergeCounts,
    /// Things the user should know (a switch turned on, a setting left).
    pub notes: Vec<String>,
    /// The keys install switches, with the operator's value before (`None`:
    /// absent), for [`super::record`].
    pub switched: Vec<(String, Option<Value>)>,
    /// The handlers install writes, for the record.
    pub entries: Vec<Value>,
    /// The containers install created in the file, this time or before
    /// (for the record; see [`merge::containers`]), and whether it created
    /// the file; `None` for a plan that records nothing.
    pub created: Option<(Vec<String>, bool)>,
}

/// Who owns the entries in `t`: what install recorded writing there (see
/// [`Recorded`]); in a form cuecard no longer writes (Kiro's legacy agent
/// file), any entry running a cuecard binary's `dispatch`.
pub enum FileOwner<'a> {
    Name(&'a str),
    Recorded(Recorded),
}

impl Owner for FileOwner<'_> {
    fn owns(&self, handler: &Value) -> bool {
        match self {
            FileOwner::Name(bin) => bin.owns(handler),
            FileOwner::Recorded(r) => r.owns(handler),
        }
    }
}

/// The owner of `t`'s entries; `wanted` is what install writes there now
/// (`None`: computed for this host).
pub fn owner<'a>(t: &ConfigFile, bin: &'a str, wanted: Option<&[HookEntry]>) -> FileOwner<'a> {
    if t.spec
        .harness
        .config()
        .is_some_and(|c| !std::ptr::eq(c, t.spec))
    {
        return FileOwner::Name(bin);
    }
    let wanted: Vec<Value> = match wanted {
        Some(w) => w.iter().map(|e| Value::Object(e.handler.clone())).collect(),
        None => super::entries::for_harness(
            t.spec,
            &t.spec.program(t.scope, bin),
            crate::harness::config::Host::current(),
        )
        .0
        .into_iter()
        .map(|e| Value::Object(e.handler))
        .collect(),
    };
    FileOwner::Recorded(Recorded {
        recorded: super::record::entries(&t.path),
        wanted,
        replace: t.replace.clone(),
    })
}

/// A switch of the user's in `doc` that turns every hook off and that
/// install never touches (Claude Code's `disableAllHooks: true`), in words.
pub fn hooks_switched_off(t: &ConfigFile, doc: &Value) -> Option<String> {
    (t.spec.harness == crate::harness::HarnessId::ClaudeCode
        && get(doc, "disableAllHooks") == Some(&Value::Bool(true)))
    .then(|| {
        format!(
            "disableAllHooks is true in {}: Claude Code runs no hooks while it is, neither yours nor \
             cuecard's",
            t.path.display()
        )
    })
}

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
                .and_then(super::ownership::argv)
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

/// The file's text and document, `None` when it does not exist.
pub fn load(t: &ConfigFile) -> Result<Option<(String, Value)>, InstallError> {
    fsio::refuse_symlinks(&t.base, &t.path)?;
    let Some(text) = fsio::read(&t.path)? else {
        return Ok(None);
    };
    if let Some(o) = t.spec.owned {
        // A whole file cuecard owns: its entries are the JSON line it carries.
        return match owned::parse(o, &text) {
            Owned::Ours { doc, .. } => Ok(Some((text, doc))),
            Owned::Foreign => Err(InstallError::ForeignOwned {
                path: t.path.clone(),
                what: o.what,
            }),
        };
    }
    if text.trim().is_empty() {
        return Ok(Some((text, Value::Object(Map::new()))));
    }
    lossless::check(&text).map_err(|why| InstallError::Lossy {
        path: t.path.clone(),
        why,
    })?;
    let doc: Value = serde_json::from_str(&text).map_err(|error| InstallError::InvalidJson {
        path: t.path.clone(),
        error,
    })?;
    Ok(Some((text, doc)))
}

/// [`load`] for reading only (verify, doctor, what uninstall says to
/// remove by hand): a file with comments or trailing commas, which install
/// refuses to rewrite, is read past them. The third item says why the file
/// cannot be rewritten, when it cannot.
pub fn load_read_only(
    t: &ConfigFile,
) -> Result<Option<(String, Value, Option<String>)>, InstallError> {
    match load(t) {
        Ok(loaded) => Ok(loaded.map(|(text, doc)| (text, doc, None))),
        // A link cuecard will not write through is still read (reading
        // changes nothing).
        Err(e @ (InstallError::Symlink(_) | InstallError::SymlinkedDir(_))) => {
            let Ok(Some(text)) = fsio::read(&t.path) else {
                return Err(e);
            };
            let plain = super::lossless::tolerant(&text).unwrap_or_else(|| text.clone());
            let doc = if plain.trim().is_empty() {
                Value::Object(Map::new())
            } else {
                match serde_json::from_str::<Value>(&plain) {
                    Ok(doc) => doc,
                    Err(_) => return Err(e),
                }
            };
            Ok(Some((text, doc, Some(e.to_string()))))
        }
        Err(e @ (InstallError::Lossy { .. } | InstallError::InvalidJson { .. })) => {
            let Ok(Some(text)) = fsio::read(&t.path) else {
                return Err(e);
            };
            match super::lossless::tolerant(&text)
                .and_then(|plain| serde_json::from_str::<Value>(&plain).ok())
            {
                Some(doc) => {
                    let why = match &e {
                        InstallError::Lossy { why, .. } => why.to_string(),
                        _ => "it is not plain JSON".into(),
                    };
                    Ok(Some((text, doc, Some(why))))
                }
                None => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// What uninstall can say of a file it may read but not rewrite.
pub enum ByHand {
    /// It cannot be read even so.
    Unreadable,
    /// It holds nothing of cuecard's.
    Nothing,
    /// cuecard's entries, one line each, to delete by hand.
    Delete(String),
}

/// What to delete by hand from a file cuecard reads but cannot rewrite
/// (`refused`: why).
pub fn by_hand_removal(t: &ConfigFile, bin: &str, refused: &InstallError) -> ByHand {
    let Ok(Some((_, doc, lossy))) = load_read_only(t) else {
        return ByHand::Unreadable;
    };
    let why = lossy.unwrap_or_else(|| refused.to_string());
    let owner = owner(t, bin, None);
    let found = merge::ours(&doc, t.spec.layout, &owner);
    if found.is_empty() {
        return ByHand::Nothing;
    }
    let mut out = format!(
        "{}: cuecard does not rewrite this file ({why}); nothing was changed. Delete {} by hand \
         (each under `hooks` -> its event):\n",
        t.path.display(),
        if found.len() == 1 {
            "this entry".to_string()
        } else {
            format!("these {} entries", found.len())
        }
    );
    for (event, matcher, h) in found {
        out.push_str(&format!(
            "  {event} [{}]: {h}\n",
            matcher.as_deref().unwrap_or("every call")
        ));
    }
    ByHand::Delete(out)
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
/// placed (see [`super::patch`]), else the whole document in the file's
/// style.
fn rewrite(before: &str, old: &Value, new: &Value) -> String {
    let style = Style::detect(before);
    super::patch::patch(before, old, new, &style).unwrap_or_else(|| style.render(new))
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
    let recorded = super::record::created(&t.path);
    let keep = users_containers(&original, recorded.as_deref().unwrap_or_default());
    let outcome = merge::install_keeping(&mut doc, t.spec.layout, &owner, entries, &keep)
        .map_err(|why| unmergeable(t, why))?;
    let mut created = recorded.unwrap_or_default();
    for c in merge::containers(&doc) {
        if !merge::containers(&original).contains(&c) && !created.contains(&c) {
            created.push(c);
        }
    }
    let created_file = super::record::created_file(&t.path).unwrap_or(false) || loaded.is_none();
    let mut notes = kept_notes(t, &doc, bin, &owner);
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
    let owner = owner(t, bin, None);
    let mut after_doc = doc.clone();
    // With a record, the containers install did not create are the user's.
    let keep = super::record::created(&t.path)
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
    for (key, before) in super::record::keys(&t.path) {
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
    let ours_alone = super::record::created_file(&t.path) != Some(false);
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

/// Applies an install plan, recording the keys it switched and the
/// folders it created (with `extra_dirs`, the skills' folders it created).
pub fn apply_install(
    t: &ConfigFile,
    plan: &Plan,
    extra_dirs: &[PathBuf],
) -> Result<(), InstallError> {
    let mut dirs = match t.path.parent() {
        Some(dir) if plan.action != Action::Unchanged => super::record::missing_dirs(dir, &t.base),
        _ => Vec::new(),
    };
    dirs.extend(extra_dirs.iter().cloned());
    apply(t, plan)?;
    super::record::record(&t.path, &plan.switched, &dirs)?;
    // When and what was installed, for "has not called since it was
    // installed" (crate::state::liveness); a re-install that changed
    // nothing keeps the first time.
    if plan.action != Action::Unchanged || super::record::get(&t.path, "installed").is_none() {
        super::record::set_many(
            &t.path,
            &[
                ("harness", Value::from(t.spec.harness.id())),
                ("scope", Value::from(t.scope.id())),
                ("base", Value::from(t.base.to_string_lossy().into_owned())),
                ("installed", Value::from(crate::state::now())),
            ],
        )?;
    }
    if plan.action != Action::Unchanged || t.path.exists() {
        let written: serde_json::Map<String, Value> = sandbox_keys(t)
            .into_iter()
            .filter(|(k, _)| plan.switched.iter().any(|(s, _)| s == k))
            .chain(super::sandbox::recorded_keys(&t.path))
            .collect();
        if !written.is_empty() {
            super::record::set(
                &t.path,
                super::sandbox::RECORD_FIELD,
                Value::Object(written),
            )?;
        }
    }
    if t.spec.owned.is_none()
        && let Some((created, created_file)) = &plan.created
        && (plan.action != Action::Unchanged || t.path.exists())
    {
        super::record::set(&t.path, "entries", Value::from(plan.entries.clone()))?;
        super::record::set(&t.path, "created", Value::from(created.clone()))?;
        super::record::set(&t.path, "created_file", Value::Bool(*created_file))?;
    }
    Ok(())
}

/// Applies an uninstall plan leaving no trace: no backup of the file
/// cuecard just took its entries out of, and the backup install made
/// removed. [`finish_uninstall`] then removes the folders install created.
pub fn apply_uninstall(t: &ConfigFile, plan: &Plan) -> Result<(), InstallError> {
    fsio::refuse_symlinks(&t.base, &t.path)?;
    if plan.action != Action::Unchanged {
        fsio::refuse_read_only(&t.path)?;
    }
    match &plan.action {
        Action::Unchanged => return Ok(()),
        Action::Create(text) => fsio::write_atomic(&t.path, text, None)?,
        Action::Update { after, .. } | Action::Restore { after, .. } => {
            fsio::write_atomic(&t.path, after, None)?
        }
        Action::Delete { .. } => {
            std::fs::remove_file(&t.path).map_err(|error| InstallError::Removing {
                path: t.path.clone(),
                error,
            })?
        }
    }
    fsio::remove_backup(&t.path)
}

/// After an uninstall of `t` (and of the skills it installed): removes the
/// folders install created for them, now that they are empty, and forgets
/// the record.
pub fn finish_uninstall(t: &ConfigFile) -> Result<(), InstallError> {
    super::record::remove_empty(&super::record::dirs(&t.path));
    super::record::forget(&t.path)
}

/// Applies a plan.
pub fn apply(t: &ConfigFile, plan: &Plan) -> Result<(), InstallError> {
    // Checked again right before writing: nothing may have become a symlink.
    fsio::refuse_symlinks(&t.base, &t.path)?;
    fsio::refuse_read_only(&t.path)?;
    match &plan.action {
        Action::Unchanged => Ok(()),
        Action::Create(text) => fsio::write_atomic(&t.path, text, None),
        Action::Update { before, after } | Action::Restore { before, after } => {
            fsio::write_atomic(&t.path, after, Some(before))
        }
        Action::Delete { before } => fsio::remove(&t.path, before),
    }
}

/// The keys (dotted paths) install sets in this file, with their value: the
/// harness's own, in managed settings `allowManagedHooksOnly`, and the
/// sandbox keys of `--sandbox` (asked for now, or recorded before).
fn required(t: &ConfigFile) -> Vec<(String, Value)> {
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
fn sandbox_keys(t: &ConfigFile) -> Vec<(String, Value)> {
    let mut keys = t.sandbox.clone();
    for (k, v) in super::sandbox::recorded_keys(&t.path) {
        if !keys.iter().any(|(kk, _)| *kk == k) {
            keys.push((k, v));
        }
    }
    keys
}

/// The document without the keys install adds for the harness to run hooks
/// (when they hold the value install writes), for comparing what is the
/// operator's.
fn strip_required(t: &ConfigFile, doc: &Value) -> Value {
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
fn set(doc: &mut Value, dotted: &str, value: &Value) -> Result<Option<Value>, BadShape> {
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
fn remove(doc: &mut Value, dotted: &str) {
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
