//! Installation: writing cuecard's hook entries into each harness's own
//! configuration without disturbing anything else there (docs/design.md §9).
//!
//! The engine (one concern per file): [`lossless`] refuses what cannot be
//! rewritten without loss (and reads past comments for reading only),
//! [`style`] keeps the file's formatting, [`fsio`] writes atomically with a
//! backup (kept out of repositories) and writes through a symlink only to
//! the user's own file inside HOME, [`shell_words`] and [`ownership`]
//! recognise entries that run cuecard, [`record`] says which of them
//! cuecard wrote (only those are cuecard's), [`merge`] puts them in and
//! takes them out, [`materialise`] writes the skills with a marker so that
//! a skill of the user's is never written over.

pub mod error;
pub mod fsio;
pub mod lossless;
pub mod merge;
pub mod owned;
pub mod ownership;
pub mod patch;
pub mod program;
pub mod record;
pub mod shape;
pub mod shell_words;
pub mod style;

pub mod context;
pub mod detect;
pub mod diff;
pub mod document;
pub mod double;
pub mod entries;
pub mod local;
pub mod materialise;
pub mod plugin;
pub mod report;
pub mod roots;
pub mod sandbox;
pub mod self_copy;
pub mod txn;
pub mod uninstall;
pub mod verify;

use crate::harness::HarnessId;
use crate::harness::config::Config;

/// The configuration of a harness id, or why there is none.
pub fn resolve(id: &str) -> Result<&'static Config, Unresolved> {
    let h = HarnessId::parse(id).ok_or_else(|| Unresolved::Unknown(id.to_string()))?;
    h.config().ok_or(Unresolved::NotInstallable(h))
}

/// Why `--harness <id>` names nothing cuecard installs into.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unresolved {
    /// No harness has this id.
    Unknown(String),
    /// A harness cuecard knows but does not install into.
    NotInstallable(HarnessId),
}

impl std::fmt::Display for Unresolved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unresolved::Unknown(id) => write!(
                f,
                "unknown harness {id:?}; one of: {}",
                HarnessId::list(false)
            ),
            Unresolved::NotInstallable(h) => write!(
                f,
                "{} is not installed into: {}",
                h.name(),
                h.limitation()
                    .unwrap_or("it has no channel that reaches the model")
            ),
        }
    }
}

/// Every harness cuecard installs into.
pub fn all_specs() -> Vec<&'static Config> {
    HarnessId::ALL.iter().filter_map(|h| h.config()).collect()
}
pub mod doctor;
pub mod inspect;
pub mod probe;
pub mod silent;

impl std::error::Error for Unresolved {}

#[cfg(test)]
mod hosts_tests;
