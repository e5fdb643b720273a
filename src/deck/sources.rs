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
//! directory keyed by file name, size and mtime, with each file's SHA-256
//! and trust verdict (see `cache`). [`read_dir`] is the full check (list
//! the directory, stat every card); on a tool call, [`glance`] answers
//! from the cache's summary line when no card concerns the call, and
//! otherwise [`CardDir::verify`] checks only the cards that matter to it.
//! Every scope together, after precedence, is a [`CardSet`] (`set.rs`).

use super::cache::{self, Header};
use crate::card::{Card, CardError, Origin, is_valid_name};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

pub use super::set::{CardSet, load_all};

pub const MAX_CARD_BYTES: u64 = 64 * 1024;
pub const MAX_CARDS_PER_DIR: usize = 64;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum CardScope {
    Project,
    User,
    Embedded,
}

impl CardScope {
    pub fn label(self) -> &'static str {
        match self {
            CardScope::Project => "project",
            CardScope::User => "user",
            CardScope::Embedded => "shipped",
        }
    }
}

/// The user's cuecard config directory: `CUECARD_CONFIG_DIR`, else the
/// platform's (`$XDG_CONFIG_HOME/cuecard`).
pub fn config_dir() -> Option<PathBuf> {
    crate::dirs::config()
}

/// The user's card directory.
pub fn user_dir() -> Option<PathBuf> {
    config_dir().map(|d| d.join("cards"))
}

/// A project's card directory.
pub fn project_dir(root: &Path) -> PathBuf {
    root.join(".cuecard").join("cards")
}

/// A user or project card directory, as the parsed-card cache holds it:
/// one line of cache text per card file, read in place. Nothing of a card
/// is decoded until it is asked for, so a dispatch pays for the cards it
/// uses, not for every card in the directory.
#[derive(Debug, Default)]
pub struct CardDir {
    text: String,
    /// Each line's byte range in `text` and its fields.
    lines: Vec<(std::ops::Range<usize>, cache::Line)>,
    /// When the cache it was read from was written (its header's write
    /// time; 0: not read from a cache).
    cached_at: u64,
}

/// One card file of a [`CardDir`].
#[derive(Debug, Clone, Copy)]
pub struct FileCard<'a> {
    line: &'a str,
    fields: &'a cache::Line,
}

impl CardDir {
    pub fn files(&self) -> impl Iterator<Item = FileCard<'_>> {
        self.lines.iter().map(|(range, fields)| FileCard {
            line: &self.text[range.clone()],
            fields,
        })
    }
}

impl<'a> FileCard<'a> {
    /// The file name (`<name>.md`).
    pub fn file(&self) -> Cow<'a, str> {
        cache::unescape(&self.line[self.fields.file.clone()])
    }

    /// The card's name: the file name without `.md`.
    pub fn name(&self) -> String {
        let f = self.file();
        f.strip_suffix(".md").unwrap_or(&f).to_string()
    }

    /// Whether the file's name is `name`.md, for a valid card name (one
    /// never needs escaping, so the line's text is compared as it is).
    pub fn is_named(&self, name: &str) -> bool {
        // Asked for every listed name of every card: the length first.
        let (f, n) = (
            &self.line.as_bytes()[self.fields.file.clone()],
            name.as_bytes(),
        );
        f.len() == n.len() + 3 && f.ends_with(b".md") && &f[..n.len()] == n
    }

    pub fn sha256(&self) -> &'a str {
        self.fields.sha256(self.line)
    }

    /// The directory's [`Vouch`] on this file and hash.
    pub fn trusted(&self) -> bool {
        cache::Line::trusted(self.line)
    }

    /// Why the file is not a usable card, if it is not.
    pub fn error(&self) -> Option<CardError> {
        if self.fields.is_ok() {
            return None;
        }
        let message = self.fields.body(self.line).unwrap_or_default();
        Some(CardError {
            card: self.name(),
            message: cache::unescape(message).into_owned(),
        })
    }

    /// The rest of the Bindings and the text of a card (not of an error).
    fn body(&self) -> Option<&'a str> {
        self.fields
            .is_ok()
            .then(|| self.fields.body(self.line))
            .flatten()
    }

    /// Whether the card is bound to `event` (false for a file in error).
    /// Event names never need escaping, so the line's text is compared as
    /// it is.
    pub fn binds(&self, event: &str) -> bool {
        self.line.as_bytes()[self.fields.events.clone()]
            .split(|&b| b == b',')
            .any(|e| e == event.as_bytes())
    }

    /// The card's reach (see `trigger::reach`): "" for a file in error.
    pub fn reach(&self) -> &'a str {
        &self.line[self.fields.reach.clone()]
    }

    /// The card's trigger keys and values, in the order written.
    pub fn triggers(&self) -> Vec<(Cow<'a, str>, Cow<'a, str>)> {
        self.body().and_then(cache::triggers).unwrap_or_default()
    }

    /// The card's `order` (its place among one registration's cards).
    pub fn order(&self) -> u8 {
        self.body().and_then(cache::order).unwrap_or(50)
    }

    /// The whole card, decoded now.
    pub fn card(&self) -> Result<Card, String> {
        if let Some(e) = self.error() {
            return Err(e.message);
        }
        let events = &self.line[self.fields.events.clone()];
        self.body()
            .and_then(|b| cache::card(&self.name(), events, b))
            .ok_or_else(|| "the parsed-card cache entry is damaged".to_string())
    }
}

/// Who vouches for the cards of a directory: a verdict per (file name,
/// SHA-256), and a stamp naming the version of what the verdicts come from
/// (the trust store), so that verdicts cached with the parsed cards are
/// reused until it changes. The project's is `trust::ProjectTrust`.
pub trait Vouch {
    /// Asked when a directory's cache is checked or written.
    fn stamp(&self) -> String;
    fn trusted(&self, file: &str, sha256: &str) -> bool;
}

/// The user's own cards: trusted by being in the user's directory.
pub struct Always;

impl Vouch for Always {
    fn stamp(&self) -> String {
        "always".into()
    }
    fn trusted(&self, _: &str, _: &str) -> bool {
        true
    }
}

/// Reads the cards of `dir` (not recursive, bounded), reusing the cache in
/// `cache_dir` where a file's size and mtime are unchanged, and the cached
/// trust verdicts while the trust store is unchanged too. Without a cache
/// directory nothing is written and cards keep their whole body.
pub fn read_dir(
    dir: &Path,
    scope: CardScope,
    cache_dir: Option<&Path>,
    vouch: &dyn Vouch,
) -> CardDir {
    // Both taken before the listing: a change during it leaves the
    // recorded mtime behind, which only sends the next read back to a full
    // one, and gives the changed file an mtime after the write time.
    let written_ns = now_ns();
    let Ok(dir_meta) = dir.metadata() else {
        return CardDir::default();
    };
    let Ok(listing) = std::fs::read_dir(dir) else {
        return CardDir::default();
    };
    let files = card_files(listing);
    let dir_s = dir.to_string_lossy().into_owned();
    let cache_path = cache_dir.map(|c| cache_file(c, &dir_s));
    let old_text = whole_cache(cache_path.as_deref());
    let stamp = vouch.stamp();
    let now = Header {
        stamp: Cow::Borrowed(&stamp),
        dir_mtime_ns: mtime_ns(&dir_meta),
        written_ns,
    };
    let (old, _, old_lines) = cache::split_header(&old_text, &dir_s).unwrap_or_default();
    let cached_at = old.written_ns;
    let verdicts_current = old.stamp == now.stamp;
    // The cache lists files in the same (sorted) order, so one pass pairs
    // each file with its line.
    let mut old_iter = cache::lines(old_lines)
        .filter_map(|(_, l)| Some((l, cache::parse_line(l)?)))
        .peekable();

    let mut body = String::with_capacity(old_text.len().max(256));
    let mut lines = Vec::with_capacity(files.len());
    // Rewritten when anything differs from what it records, and when its
    // write time does not settle the directory's mtime but this one would
    // (so that the quick read may take it; never for an mtime ahead of the
    // clock, which no write would settle).
    let mut changed = !verdicts_current
        || old.dir_mtime_ns != now.dir_mtime_ns
        || (!settled(now.dir_mtime_ns, cached_at) && settled(now.dir_mtime_ns, written_ns))
        || cache_path.is_none();
    let mut reused = 0;
    for (file, fields) in &files {
        while old_iter.peek().is_some_and(|(l, f)| {
            cache::unescape(&l[f.file.clone()]) < Cow::Borrowed(file.as_str())
        }) {
            old_iter.next();
        }
        let start = body.len();
        let hit = old_iter.next_if(|(l, f)| {
            cache::unescape(&l[f.file.clone()]) == file.as_str()
                && f.file_fields(l)
                    .is_some_and(|cached| unchanged(cached, *fields, cached_at))
        });
        let fields = match hit {
            Some((l, f)) => {
                reused += 1;
                copy_line(
                    &mut body,
                    l,
                    &f,
                    (!verdicts_current).then_some((vouch, file)),
                );
                Some(f)
            }
            None => {
                let (sha, card) = read_card(&dir.join(file), file, scope, fields.size);
                let trusted = vouch.trusted(file, &sha);
                let slim = cache_path.is_some();
                cache::line(&mut body, file, &sha, *fields, trusted, &card, slim);
                // A racy line read again to the same text is no change,
                // unless this write would settle it: a file whose mtime
                // is ahead of the clock is read on every call, but the
                // cache is not rewritten on every call for it.
                let same = old_iter.peek().is_some_and(|(l, _)| {
                    body[start..body.len() - 1] == **l && !settled(fields.mtime_ns, written_ns)
                });
                if same {
                    old_iter.next();
                    reused += 1;
                } else {
                    changed = true;
                }
                cache::parse_line(&body[start..body.len() - 1])
            }
        };
        if let Some(f) = fields {
            lines.push((start..body.len() - 1, f));
        }
    }
    changed |= reused != cache::lines(old_lines).count();
    let d = assemble(&dir_s, &now, &body, lines);
    if changed && let Some(p) = cache_path {
        let _ = crate::fsutil::write_atomic(&p, d.text.as_bytes(), false, crate::fsutil::private());
    }
    d
}

/// The `.md` regular files of a listing (links not followed), with their
/// size and mtime, sorted by name, at most [`MAX_CARDS_PER_DIR`].
fn card_files(listing: std::fs::ReadDir) -> Vec<(String, cache::FileFields)> {
    let mut files: Vec<(String, cache::FileFields)> = Vec::new();
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
            let (size, mtime_ns) = (meta.len(), mtime_ns(&meta));
            files.push((name, cache::FileFields { size, mtime_ns }));
        }
    }
    // An empty directory is cached too: its summary answers every call.
    files.sort_by(|a, b| a.0.cmp(&b.0));
    files.truncate(MAX_CARDS_PER_DIR);
    files
}

/// The cache's text, empty when there is none or it ends inside a line: a
/// cache cut short is not reused at all (its last line could pass for a
/// whole one up to its file's size and mtime, and be served damaged until
/// the file changes).
fn whole_cache(cache_path: Option<&Path>) -> String {
    cache_path
        .and_then(read_cache)
        .filter(|t| t.ends_with('\n'))
        .unwrap_or_default()
}

/// Copies a cached line as it is, so its fields stand where they stood (no
/// second parse); with `revouch`, its trust verdict is asked again (the
/// trust store changed).
fn copy_line(body: &mut String, l: &str, f: &cache::Line, revouch: Option<(&dyn Vouch, &str)>) {
    let start = body.len();
    body.push_str(l);
    body.push('\n');
    if let Some((vouch, file)) = revouch {
        let trusted = vouch.trusted(file, f.sha256(l));
        let at = start + cache::VERDICT_AT;
        body.replace_range(at..=at, if trusted { "1" } else { "0" });
    }
}

/// The directory's cache text: the header, the summary of `lines`, then
/// `body`; each line's range moved to where it stands in that text.
fn assemble(
    dir_s: &str,
    now: &Header<'_>,
    body: &str,
    lines: Vec<(std::ops::Range<usize>, cache::Line)>,
) -> CardDir {
    let mut summary = cache::Summary::default();
    for (range, f) in &lines {
        summary.add(&body[range.clone()], f);
    }
    let mut text = String::with_capacity(body.len() + 1024);
    cache::header(&mut text, dir_s, now);
    summary.write(&mut text);
    let at = text.len();
    text.push_str(body);
    CardDir {
        text,
        lines: lines
            .into_iter()
            .map(|(r, f)| (at + r.start..at + r.end, f))
            .collect(),
        cached_at: 0,
    }
}

/// What the quick read of a project's cards found (see [`glance`]).
pub enum Glance {
    /// No directory (or none that can be read): no cards, what the full
    /// read would find.
    Absent,
    /// Nothing in the directory concerns the call: the number of its cards
    /// bound to the call's event, passed over.
    Quiet(usize),
    /// The cached cards, to be looked at one by one.
    Cards(CardDir),
}

/// How much of the cache the quick read reads first: its header and
/// summary line, for all but the largest directories.
const HEAD: usize = 4096;

/// The quick read of a project's cards on the hook path: the cache as it
/// stands, while the trust store's stamp and the directory's own mtime are
/// what it was written under (so no file was added, removed or renamed
/// since, and every cached verdict holds); `None` calls for [`read_dir`].
///
/// First only the head of the cache is read, and `quiet` asked of its
/// summary line (see `cache::quiet`): a call no card concerns is answered
/// from it. Otherwise the caller gets the cached cards and then
/// [`CardDir::verify`]s those that matter to its call: the untrusted ones
/// and those that could fire. A cached card that is trusted and cannot fire
/// on the call needs no look, because whatever in-place edit it may have
/// had makes its text untrusted (its hash is no longer the pinned one), so
/// that it could not fire either.
pub fn glance(
    dir: &Path,
    cache_dir: &Path,
    vouch: &dyn Vouch,
    quiet: &dyn Fn(&str) -> Option<usize>,
) -> Option<Glance> {
    let Ok(dir_meta) = dir.metadata() else {
        return Some(Glance::Absent);
    };
    let dir_s = dir.to_string_lossy();
    let dir_mtime = mtime_ns(&dir_meta);
    let mut stamp = None;
    let mut current = |h: &Header| {
        let stamp = stamp.get_or_insert_with(|| vouch.stamp());
        h.stamp == stamp.as_str()
            && h.dir_mtime_ns == dir_mtime
            && settled(h.dir_mtime_ns, h.written_ns)
    };
    // Not through a link, never waiting, and only this user's own file
    // (see `fsutil`: a cache planted by someone else would vouch for cards
    // nobody trusted); the head is read into the stack, bounded.
    let (mut f, meta) = crate::fsutil::open_private_read(&cache_file(cache_dir, &dir_s)).ok()??;
    let mut head = [0u8; HEAD];
    let n = f.read(&mut head).ok()?;
    let newline = |from: usize| {
        head[from..n]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| from + i)
    };
    let two_lines = newline(0).and_then(|i| newline(i + 1));
    if let Some(end) = two_lines {
        let text = std::str::from_utf8(&head[..end + 1]).ok()?;
        let (h, summary, _) = cache::split_header(text, &dir_s)?;
        if !current(&h) {
            return None;
        }
        if let Some(passed) = quiet(summary) {
            return Some(Glance::Quiet(passed));
        }
    }
    // The lines are needed: the rest of the file.
    let text = read_rest(f, &meta, &head[..n])?;
    let (h, summary, rest) = cache::split_header(&text, &dir_s)?;
    if !current(&h) {
        return None;
    }
    let cached_at = h.written_ns;
    let at = text.len() - rest.len();
    let mut lines = Vec::new();
    for (start, l) in cache::lines(rest) {
        lines.push((at + start..at + start + l.len(), cache::parse_line(l)?));
    }
    // A cache cut short (an unsynced write that a crash left renamed, a
    // full disk) is a miss: it ends inside a line, or it has fewer lines
    // than its summary speaks of.
    if !text.ends_with('\n') || Some(lines.len()) != cache::summary_lines(summary) {
        return None;
    }
    Some(Glance::Cards(CardDir {
        text,
        lines,
        cached_at,
    }))
}

impl CardDir {
    /// Whether the cached cards `which` picks (by index and card) are
    /// unchanged on disk: same size and mtime, safely older than the cache.
    /// One stat each, and none for the cards not picked.
    pub fn verify(&self, dir: &Path, which: &dyn Fn(usize, &FileCard) -> bool) -> bool {
        self.files().enumerate().all(|(i, fc)| {
            if !which(i, &fc) {
                return true;
            }
            let Ok(meta) = dir.join(fc.file().as_ref()).symlink_metadata() else {
                return false;
            };
            let now = cache::FileFields {
                size: meta.len(),
                mtime_ns: mtime_ns(&meta),
            };
            meta.is_file()
                && fc
                    .fields
                    .file_fields(fc.line)
                    .is_some_and(|cached| unchanged(cached, now, self.cached_at))
        })
    }
}

fn cache_file(cache_dir: &Path, dir_s: &str) -> PathBuf {
    cache_dir.join(format!(
        "cards-{:016x}.tsv",
        crate::hash::fnv1a(0, dir_s.as_bytes())
    ))
}

/// Whether a cached line still describes its file: same size and mtime,
/// and that mtime safely older than the cache. A file whose mtime is not
/// could have been changed again within the file system's timestamp
/// granularity after it was cached, keeping both ("racily clean", as git
/// calls it): it is read again until it settles.
fn unchanged(cached: cache::FileFields, now: cache::FileFields, cached_at: u64) -> bool {
    cached.size == now.size && cached.mtime_ns == now.mtime_ns && settled(now.mtime_ns, cached_at)
}

fn settled(mtime_ns: u64, cached_at: u64) -> bool {
    mtime_ns.saturating_add(RACY_NS) < cached_at
}

/// How much older than the cache a file's (or the directory's) mtime must
/// be for the cache's entry to be trusted without reading the file: above
/// the coarsest timestamp granularity of common file systems (2 s on FAT).
const RACY_NS: u64 = 2_000_000_000;

/// The largest cache file read: 64 cards of at most 64 KiB each, twice
/// over.
const MAX_CACHE_BYTES: u64 = MAX_CARD_BYTES * MAX_CARDS_PER_DIR as u64 * 2;

/// Reads a cache file, bounded: not through a link; one open, one stat
/// and one read.
fn read_cache(path: &Path) -> Option<String> {
    let (f, meta) = crate::fsutil::open_private_read(path).ok()??;
    read_rest(f, &meta, &[])
}

/// The whole text of an open cache file of which `head` was read already:
/// a regular file of at most [`MAX_CACHE_BYTES`]. The cache is replaced by
/// rename, never written in place, so its length is its content's.
fn read_rest(mut f: std::fs::File, meta: &std::fs::Metadata, head: &[u8]) -> Option<String> {
    let len = usize::try_from(meta.len()).ok()?;
    if !meta.is_file() || meta.len() > MAX_CACHE_BYTES || len < head.len() {
        return None;
    }
    let mut bytes = Vec::with_capacity(len);
    bytes.extend_from_slice(head);
    bytes.resize(len, 0);
    f.read_exact(&mut bytes[head.len()..]).ok()?;
    String::from_utf8(bytes).ok()
}

fn now_ns() -> u64 {
    std::time::SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

fn mtime_ns(meta: &std::fs::Metadata) -> u64 {
    meta.modified()
        .ok()
        .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
        .map_or(0, |d| u64::try_from(d.as_nanos()).unwrap_or(u64::MAX))
}

/// Reads and parses one card file: its SHA-256 (empty when it could not be
/// read) and the card or why it is not one.
fn read_card(
    path: &Path,
    file: &str,
    scope: CardScope,
    size: u64,
) -> (String, Result<Card, String>) {
    let too_large = || format!("larger than {} KiB: not loaded", MAX_CARD_BYTES / 1024);
    if size > MAX_CARD_BYTES {
        return (String::new(), Err(too_large()));
    }
    let mut bytes = Vec::new();
    let read = crate::fsutil::open_regular(path, false)
        .and_then(|(f, _)| f.take(MAX_CARD_BYTES + 1).read_to_end(&mut bytes));
    if read.is_err() {
        return (String::new(), Err("cannot be read".into()));
    }
    let sha = sha256_hex(&bytes);
    if bytes.len() as u64 > MAX_CARD_BYTES {
        return (sha, Err(too_large()));
    }
    let Ok(src) = String::from_utf8(bytes) else {
        return (sha, Err("not UTF-8".into()));
    };
    let name = file.strip_suffix(".md").unwrap_or(file);
    if !is_valid_name(name) {
        return (
            sha,
            Err("file name must be lower-case letters, digits and dashes, ending in .md".into()),
        );
    }
    let origin = match scope {
        CardScope::Project => Origin::Project(path.to_path_buf()),
        _ => Origin::User(path.to_path_buf()),
    };
    let card = super::validate::parse_checked(name, &crate::text::clean_block(&src), origin)
        .and_then(|c| {
            crate::trigger::validate(&c)
                .map(|()| c)
                .map_err(|m| CardError {
                    card: name.to_string(),
                    message: m,
                })
        })
        .map_err(|e| e.message);
    (sha, card)
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    let d = Sha256::digest(bytes);
    d.iter().map(|b| format!("{b:02x}")).collect()
}
