//! Trust for project cards. A project card is text a repository puts into
//! your model's context, so it stays inactive until the user runs
//! `cuecard trust` in that project, which pins the SHA-256 of each project
//! card in the per-user state (`trust.json` in the state root). A card added
//! or changed afterwards is inactive until trusted again.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub const FILE: &str = "trust.json";

#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct TrustStore {
    #[serde(default)]
    pub projects: BTreeMap<String, Project>,
}

#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Project {
    /// Card file name → trusted SHA-256.
    pub cards: BTreeMap<String, String>,
    /// Seconds since the epoch when trust was last given.
    pub trusted_at: u64,
    /// The SHA-256 of the project's `.cuecard/config.toml` when trusted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub config: Option<String>,
}

impl TrustStore {
    /// Reads the store (bounded; a missing or unreadable one is empty).
    pub fn load(state_root: &Path) -> TrustStore {
        // Only this user's own regular file: a store planted by someone else
        // (or a link to one) would pin cards the user never trusted.
        let Ok(Some((f, _))) = crate::fsutil::open_private_read(&state_root.join(FILE)) else {
            return TrustStore::default();
        };
        const MAX: u64 = 4 * 1024 * 1024;
        let Ok((bytes, true)) = crate::fsutil::read_capped(f, MAX) else {
            return TrustStore::default();
        };
        serde_json::from_slice(&bytes).unwrap_or_default()
    }

    /// Names the store's current version, so that verdicts cached with the
    /// parsed cards are reused only while it is unchanged: its file's
    /// identity, size and times (`none` without one). `save` replaces the
    /// file whole, so every change gives a new stamp.
    pub fn stamp(state_root: &Path) -> String {
        let Ok(meta) = state_root.join(FILE).symlink_metadata() else {
            return "none".into();
        };
        let nanos = |t: std::io::Result<std::time::SystemTime>| {
            t.ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos())
        };
        #[cfg(unix)]
        let id = {
            use std::os::unix::fs::MetadataExt;
            format!(
                "{}:{}:{}.{}",
                meta.dev(),
                meta.ino(),
                meta.ctime(),
                meta.ctime_nsec()
            )
        };
        #[cfg(not(unix))]
        let id = String::from("-");
        format!("{id}:{}:{}", meta.len(), nanos(meta.modified()))
    }

    pub fn save(&self, state_root: &Path) -> std::io::Result<()> {
        let bytes = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        crate::fsutil::write_atomic(
            &state_root.join(FILE),
            &bytes,
            true,
            crate::fsutil::private(),
        )
    }

    pub fn is_trusted(&self, project_root: &Path, file: &str, sha256: &str) -> bool {
        self.projects
            .get(&key(project_root))
            .and_then(|p| p.cards.get(file))
            .is_some_and(|h| h == sha256)
    }

    /// Whether this card file was ever pinned for the project (with any
    /// SHA-256): a card not trusted now is then changed, not new.
    pub fn was_pinned(&self, project_root: &Path, file: &str) -> bool {
        self.projects
            .get(&key(project_root))
            .is_some_and(|p| p.cards.contains_key(file))
    }

    /// Whether the project's config file with this SHA-256 is pinned.
    pub fn config_trusted(&self, project_root: &Path, sha256: &str) -> bool {
        self.projects
            .get(&key(project_root))
            .and_then(|p| p.config.as_deref())
            .is_some_and(|h| h == sha256)
    }

    /// Pins the given cards (file name, SHA-256) and config file (its
    /// SHA-256) for a project, replacing what was pinned before.
    pub fn trust(
        &mut self,
        project_root: &Path,
        cards: &[(String, String)],
        config: Option<String>,
        now: u64,
    ) {
        let p = self.projects.entry(key(project_root)).or_default();
        p.cards = cards.iter().cloned().collect();
        p.config = config;
        p.trusted_at = now;
    }

    /// Forgets a project; true if it was trusted.
    pub fn revoke(&mut self, project_root: &Path) -> bool {
        self.projects.remove(&key(project_root)).is_some()
    }
}

/// The trust store as the card reader asks it for one project's cards:
/// read on the first verdict asked (a read that reuses cached verdicts
/// never asks), stamped by [`TrustStore::stamp`].
pub struct ProjectTrust<'a> {
    state_root: Option<&'a Path>,
    project_root: &'a Path,
    store: std::cell::OnceCell<TrustStore>,
}

impl<'a> ProjectTrust<'a> {
    pub fn new(state_root: Option<&'a Path>, project_root: &'a Path) -> Self {
        ProjectTrust {
            state_root,
            project_root,
            store: std::cell::OnceCell::new(),
        }
    }
}

impl crate::deck::sources::Vouch for ProjectTrust<'_> {
    fn stamp(&self) -> String {
        self.state_root.map_or_else(String::new, TrustStore::stamp)
    }
    fn trusted(&self, file: &str, sha256: &str) -> bool {
        self.store
            .get_or_init(|| self.state_root.map(TrustStore::load).unwrap_or_default())
            .is_trusted(self.project_root, file, sha256)
    }
}

fn key(project_root: &Path) -> String {
    project_root.to_string_lossy().into_owned()
}

/// The project's card files with their hashes (bounded like the dispatcher's
/// read), for `cuecard trust`.
pub fn current_project_cards(project_root: &Path) -> Vec<(String, String)> {
    crate::deck::sources::read_dir(
        &crate::deck::sources::project_dir(project_root),
        crate::deck::sources::CardScope::Project,
        None,
        &crate::deck::sources::Always,
    )
    .files()
    .map(|fc| (fc.file().into_owned(), fc.sha256().to_string()))
    .collect()
}

/// Where the store lives for tests and messages.
pub fn path(state_root: &Path) -> PathBuf {
    state_root.join(FILE)
}
