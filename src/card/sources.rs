//! Where cards come from, and which one wins.
//!
//! Three scopes, highest precedence first: the project's `.cuecard/cards/`
//! (active only once trusted, see `trust`), the user's own directory
//! (`CUECARD_CONFIG_DIR/cards`, else the platform config directory, e.g.
//! `~/.config/cuecard/cards`), and the cards shipped in the binary. A card
//! with the same name as one in a lower scope overrides it; `enabled: false`
//! switches it off for that scope.
//!
//! User and project cards are read lazily (only when a dispatch needs them),
//! with bounds (at most [`MAX_CARDS_PER_DIR`] files of at most
//! [`MAX_CARD_BYTES`] each), and their parsed form is cached in the state
//! directory keyed by file name, size, mtime and SHA-256.

use super::{Card, CardError, Origin, embedded, is_valid_name, parse_card};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

pub const MAX_CARD_BYTES: u64 = 64 * 1024;
pub const MAX_CARDS_PER_DIR: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Scope {
    Project,
    User,
    Embedded,
}

impl Scope {
    pub fn label(self) -> &'static str {
        match self {
            Scope::Project => "project",
            Scope::User => "user",
            Scope::Embedded => "shipped",
        }
    }
}

/// The user's card directory.
pub fn user_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("CUECARD_CONFIG_DIR").filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(d).join("cards"));
    }
    directories::ProjectDirs::from("", "", "cuecard").map(|p| p.config_dir().join("cards"))
}

/// A project's card directory.
pub fn project_dir(root: &Path) -> PathBuf {
    root.join(".cuecard").join("cards")
}

/// One card file of a user or project directory.
#[derive(Debug, Clone)]
pub struct FileCard {
    pub file: String,
    pub name: String,
    pub sha256: String,
    pub(super) size: u64,
    pub(super) mtime_ns: u128,
    pub card: Result<Card, String>,
}

impl FileCard {
    pub fn from_parts(
        file: String,
        name: String,
        sha256: String,
        size: u64,
        mtime_ns: u128,
        card: Result<Card, String>,
    ) -> FileCard {
        FileCard {
            file,
            name,
            sha256,
            size,
            mtime_ns,
            card,
        }
    }

    pub fn error(&self) -> Option<CardError> {
        self.card.as_ref().err().map(|m| CardError {
            card: self.name.clone(),
            message: m.clone(),
        })
    }
}

/// Reads the cards of `dir` (not recursive, bounded), reusing the cache in
/// `cache_dir` where a file's size and mtime are unchanged.
pub fn read_dir(dir: &Path, scope: Scope, cache_dir: Option<&Path>) -> Vec<FileCard> {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, std::fs::Metadata)> = Vec::new();
    for entry in listing.flatten().take(MAX_CARDS_PER_DIR * 4) {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.ends_with(".md") || name.starts_with('.') {
            continue;
        }
        // DirEntry::metadata does not follow a link (lstat semantics), so a
        // link is not followed out of the directory; it stats relative to
        // the open directory, without walking the path again.
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        if meta.is_file() {
            files.push((name, meta));
        }
    }
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files.truncate(MAX_CARDS_PER_DIR);

    let dir_s = dir.to_string_lossy().into_owned();
    let cache_path = cache_dir.map(|c| {
        c.join(format!(
            "cards-{:016x}.tsv",
            crate::hash::fnv1a(0, dir_s.as_bytes())
        ))
    });
    let mut cache: BTreeMap<String, FileCard> = cache_path
        .as_ref()
        .and_then(|p| read_cache(p))
        .and_then(|text| super::cache::decode(&text, &dir_s))
        .unwrap_or_default();
    let mut changed = cache.len() != files.len();
    let mut out = Vec::with_capacity(files.len());
    for (file, meta) in &files {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        match cache.remove(file) {
            Some(hit) if hit.size == meta.len() && hit.mtime_ns == mtime_ns => out.push(hit),
            _ => {
                changed = true;
                out.push(load_file(
                    &dir.join(file),
                    file,
                    scope,
                    meta.len(),
                    mtime_ns,
                ));
            }
        }
    }
    if changed && let Some(p) = cache_path {
        let slimmed: BTreeMap<String, FileCard> = out
            .iter()
            .map(|fc| (fc.file.clone(), slim(fc.clone())))
            .collect();
        let _ = crate::fsutil::write_atomic(
            &p,
            super::cache::encode(&dir_s, &slimmed).as_bytes(),
            false,
            None,
        );
    }
    out
}

/// Reads a cache file, bounded (64 cards of at most 64 KiB each).
fn read_cache(path: &Path) -> Option<String> {
    let meta = path.symlink_metadata().ok()?;
    if !meta.is_file() || meta.len() > MAX_CARD_BYTES * MAX_CARDS_PER_DIR as u64 * 2 {
        return None;
    }
    std::fs::read_to_string(path).ok()
}

fn load_file(path: &Path, file: &str, scope: Scope, size: u64, mtime_ns: u128) -> FileCard {
    let name = file.trim_end_matches(".md").to_string();
    let mut fc = FileCard {
        file: file.to_string(),
        name: name.clone(),
        sha256: String::new(),
        size,
        mtime_ns,
        card: Err(String::new()),
    };
    if size > MAX_CARD_BYTES {
        fc.card = Err(format!(
            "larger than {} KiB: not loaded",
            MAX_CARD_BYTES / 1024
        ));
        return fc;
    }
    let mut bytes = Vec::new();
    let read =
        std::fs::File::open(path).and_then(|f| f.take(MAX_CARD_BYTES + 1).read_to_end(&mut bytes));
    if read.is_err() {
        fc.card = Err("cannot be read".into());
        return fc;
    }
    fc.sha256 = sha256_hex(&bytes);
    if bytes.len() as u64 > MAX_CARD_BYTES {
        fc.card = Err(format!(
            "larger than {} KiB: not loaded",
            MAX_CARD_BYTES / 1024
        ));
        return fc;
    }
    let Ok(src) = String::from_utf8(bytes) else {
        fc.card = Err("not UTF-8".into());
        return fc;
    };
    if !is_valid_name(&name) {
        fc.card =
            Err("file name must be lower-case letters, digits and dashes, ending in .md".into());
        return fc;
    }
    let origin = match scope {
        Scope::Project => Origin::Project(path.to_path_buf()),
        _ => Origin::User(path.to_path_buf()),
    };
    fc.card = parse_card(&name, &crate::text::clean_block(&src), origin)
        .and_then(|c| {
            crate::trigger::validate(&c)
                .map(|()| c)
                .map_err(|m| CardError {
                    card: name.clone(),
                    message: m,
                })
        })
        .map_err(|e| e.message);
    fc
}

/// What the hook path reads of a cached card: a card with an Advisory emits
/// only that (its procedure is read from the file through the pointer), so
/// its body is not kept in the cache, which halves what every dispatch
/// deserialises. Commands that show whole cards read without the cache.
fn slim(mut fc: FileCard) -> FileCard {
    if let Ok(card) = &mut fc.card
        && card.advisory.is_some()
    {
        card.body = String::new();
    }
    fc
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// Every card visible from a project, after precedence.
#[derive(Debug, Default)]
pub struct CardSet {
    /// The winning card per name (disabled ones included, so that they
    /// can be reported), sorted by name.
    pub cards: Vec<(Scope, Card)>,
    /// Names overridden by a higher scope: (name, winner, loser).
    pub overrides: Vec<(String, Scope, Scope)>,
    /// Cards that failed to load, with their scope.
    pub errors: Vec<(Scope, CardError)>,
    /// Project cards present but not trusted (new or changed).
    pub untrusted: Vec<String>,
}

/// Loads every scope. `trusted` tells whether a project card file (by name
/// and SHA-256) is trusted.
pub fn load_all(
    project_root: Option<&Path>,
    cache_dir: Option<&Path>,
    trusted: &dyn Fn(&str, &str) -> bool,
) -> CardSet {
    let mut set = CardSet::default();
    let mut by_name: BTreeMap<String, (Scope, Card)> = BTreeMap::new();
    for c in embedded::all() {
        match c {
            Ok(c) => {
                by_name.insert(c.name.clone(), (Scope::Embedded, c));
            }
            Err(e) => set.errors.push((Scope::Embedded, e)),
        }
    }
    let mut scoped: Vec<(Scope, Vec<FileCard>)> = Vec::new();
    if let Some(dir) = user_dir() {
        scoped.push((Scope::User, read_dir(&dir, Scope::User, cache_dir)));
    }
    if let Some(root) = project_root {
        scoped.push((
            Scope::Project,
            read_dir(&project_dir(root), Scope::Project, cache_dir),
        ));
    }
    for (scope, files) in scoped {
        for fc in files {
            if scope == Scope::Project && !trusted(&fc.file, &fc.sha256) {
                set.untrusted.push(fc.name.clone());
                continue;
            }
            match fc.card {
                Ok(card) => {
                    if let Some((prev, _)) = by_name.get(&card.name) {
                        set.overrides.push((card.name.clone(), scope, *prev));
                    }
                    by_name.insert(card.name.clone(), (scope, card));
                }
                Err(message) => set.errors.push((
                    scope,
                    CardError {
                        card: fc.name,
                        message,
                    },
                )),
            }
        }
    }
    set.cards = by_name.into_values().collect();
    set
}

impl CardSet {
    pub fn get(&self, name: &str) -> Option<&(Scope, Card)> {
        self.cards.iter().find(|(_, c)| c.name == name)
    }
    pub fn overridden(&self, name: &str) -> Option<Scope> {
        self.overrides
            .iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, _, lost)| *lost)
    }
}
