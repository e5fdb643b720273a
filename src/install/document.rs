//! One config file: load it (refusing what cannot be rewritten without loss),
//! plan an install or an uninstall, apply the plan. A plan that changes
//! nothing writes nothing, so a reinstall leaves the file byte-identical.
//!
//! This file holds the file ([`ConfigFile`]), the [`Plan`] and who owns the
//! entries; loading is in `load`, planning in `plan`, applying a plan in
//! `apply`, and the keys install sets in `keys`.

mod apply;
mod keys;
mod load;
mod plan;

pub use apply::{apply, apply_install, apply_uninstall, finish_uninstall};
pub use keys::get;
pub use load::{ByHand, by_hand_removal, load, load_read_only};
pub use plan::{by_hand, plan_install, plan_uninstall, plan_uninstall_with};

use super::fsio;
use super::merge::{HookEntry, MergeCounts};
use super::ownership::{Owner, Recorded};
use crate::harness::config::{Config, Roots, Scope};
use serde_json::Value;
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
    /// The project root the file was found from: whose trusted cards and
    /// policy decide the entries install writes there.
    pub project: PathBuf,
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
            project: roots.project.clone(),
        })
    }

    /// The dry run that prints the entries to merge into this file by
    /// hand: `cuecard install --harness <id> [--scope <scope>] --dry-run`
    /// (the scope named when it is not the harness's default), ready to
    /// copy.
    pub fn dry_run_command(&self) -> String {
        let scope = if self.scope == self.spec.default_scope {
            String::new()
        } else {
            format!(" --scope {}", self.scope.id())
        };
        format!(
            "cuecard install --harness {}{scope} --dry-run",
            self.spec.harness.id()
        )
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
    /// (for the record; see [`super::merge::containers`]), and whether it created
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
            &t.project,
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
