//! Applying a plan to one config file, and recording what install wrote.

use super::keys::sandbox_keys;
use super::{Action, ConfigFile, Plan};
use crate::install::error::InstallError;
use crate::install::fsio;
use crate::install::record;
use crate::install::sandbox;
use serde_json::Value;
use std::path::PathBuf;

/// Applies an install plan, recording the keys it switched and the
/// folders it created (with `extra_dirs`, the skills' folders it created).
pub fn apply_install(
    t: &ConfigFile,
    plan: &Plan,
    extra_dirs: &[PathBuf],
) -> Result<(), InstallError> {
    let mut dirs = match t.path.parent() {
        Some(dir) if plan.action != Action::Unchanged => record::missing_dirs(dir, &t.base),
        _ => Vec::new(),
    };
    dirs.extend(extra_dirs.iter().cloned());
    apply(t, plan)?;
    record::record(&t.path, &plan.switched, &dirs)?;
    // When and what was installed, for "has not called since it was
    // installed" (crate::state::liveness); a re-install that changed
    // nothing keeps the first time.
    if plan.action != Action::Unchanged || record::get(&t.path, "installed").is_none() {
        record::set_many(
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
            .chain(sandbox::recorded_keys(&t.path))
            .collect();
        if !written.is_empty() {
            record::set(&t.path, sandbox::RECORD_FIELD, Value::Object(written))?;
        }
    }
    if t.spec.owned.is_none()
        && let Some((created, created_file)) = &plan.created
        && (plan.action != Action::Unchanged || t.path.exists())
    {
        record::set(&t.path, "entries", Value::from(plan.entries.clone()))?;
        record::set(&t.path, "created", Value::from(created.clone()))?;
        record::set(&t.path, "created_file", Value::Bool(*created_file))?;
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
    // Not checked: taking cuecard's entries out cannot make a file the
    // harness could read unreadable, and one it already drops stays the
    // user's to fix.
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
    record::remove_empty(&record::dirs(&t.path));
    record::forget(&t.path)
}

/// Reads the text a plan is about to write back against the harness's
/// documented schema ([`crate::harness::config::Config::check`]): a file
/// the harness would drop whole is never written.
fn check_written(t: &ConfigFile, action: &Action) -> Result<(), InstallError> {
    let text = match action {
        Action::Create(text) => text,
        Action::Update { after, .. } | Action::Restore { after, .. } => after,
        Action::Unchanged | Action::Delete { .. } => return Ok(()),
    };
    let refuse = |why: String| InstallError::Unparseable {
        path: t.path.clone(),
        harness: t.spec.harness,
        why,
        dry_run: t.dry_run_command(),
    };
    if t.spec.owned.is_some() {
        return Ok(());
    }
    let doc: Value = serde_json::from_str(text).map_err(|e| refuse(format!("not JSON: {e}")))?;
    (t.spec.check)(&doc).map_err(refuse)
}

/// Applies a plan.
pub fn apply(t: &ConfigFile, plan: &Plan) -> Result<(), InstallError> {
    // Checked again right before writing: nothing may have become a symlink.
    fsio::refuse_symlinks(&t.base, &t.path)?;
    fsio::refuse_read_only(&t.path)?;
    check_written(t, &plan.action)?;
    match &plan.action {
        Action::Unchanged => Ok(()),
        Action::Create(text) => fsio::write_atomic(&t.path, text, None),
        Action::Update { before, after } | Action::Restore { before, after } => {
            fsio::write_atomic(&t.path, after, Some(before))
        }
        Action::Delete { before } => fsio::remove(&t.path, before),
    }
}
