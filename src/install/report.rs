//! What one install did (or, on a dry run, would do), as values: the
//! transaction ([`super::txn::install`]) fills a [`Report`] and the
//! command line only prints it. Nothing here reads or writes a file.

use super::entries::Skipped;
use super::merge::MergeCounts;
use super::program::ProgramRefused;
use super::sandbox::CodexLine;
use crate::harness::HarnessId;
use crate::harness::config::Scope;
use std::path::PathBuf;

/// One install into one harness's file in one scope.
pub struct Report {
    pub harness: HarnessId,
    pub scope: Scope,
    /// The file written (or that would be).
    pub path: PathBuf,
    /// A dry run: nothing was written; the report says what would be.
    pub dry_run: bool,
    /// What happened to the file.
    pub change: Change,
    /// cuecard's entries added, replaced and removed in it.
    pub counts: MergeCounts,
    /// Every entry install writes there, in the file's order.
    pub entries: Vec<Entry>,
    /// The registrations the harness does not get (see [`Skipped::why`]).
    pub skipped: Vec<Skipped>,
    /// What the plan tells (a switch turned on, a setting left).
    pub plan_notes: Vec<String>,
    /// The form of the harness's configuration written (Kiro's V3 hook
    /// file); empty when it has one form.
    pub form: &'static str,
    /// `--self`: the binary copied to a lasting place.
    pub self_copy: Option<SelfCopy>,
    /// The installed binary (after `--self`, the copy).
    pub bin: String,
    /// The program the entries run: the binary, or `cuecard` through PATH.
    pub program: Program,
    /// A managed file that sets `allowManagedHooksOnly: true`: what that
    /// does, said on every managed install.
    pub managed_only: bool,
    /// The binary lives in a cargo build folder (`cargo clean` takes it).
    pub cargo_build: bool,
    /// cuecard's entries moved out of an older form of the harness's hooks.
    pub moved: Option<Moved>,
    /// `--sandbox`: the policy line the sandbox is rendered from, and what
    /// Codex's own file got.
    pub sandbox: Option<Sandbox>,
    /// The cards written where the "Full procedure" pointers lead.
    pub cards: Option<Written>,
    /// The skills written into the harness's skills folder.
    pub skills: Option<Written>,
    /// What the harness's own rules say about this file (after a write).
    pub harness_notes: Vec<String>,
    /// cuecard registered twice for this harness (after a write).
    pub doubles: Vec<String>,
    /// Managed scope: the binary the managed hooks run is writable by this
    /// user.
    pub writable_binary: bool,
    /// A dry run's file: as it would be created, or as it is and as it
    /// would be written (none when unchanged).
    pub would_write: Option<WouldWrite>,
    /// A project file that names this machine's binary (Devin's
    /// `.devin/config.local.json`): not to be committed.
    pub local_file: Option<LocalFile>,
}

/// What a dry run would write to the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WouldWrite {
    /// A new file, whole.
    New(String),
    /// The file as it is, and as install would write it.
    Changed { before: String, after: String },
}

/// A file in the project that is this machine's alone, and whether the
/// project's own ignore files keep it out of git.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalFile {
    /// Its path from the project root, `/`-separated.
    pub rel: String,
    /// The project is a git repository (the root holds `.git`).
    pub in_git: bool,
    /// The ignore file whose line keeps it out of git (none found: `None`).
    pub ignored_by: Option<String>,
}

/// What happens to the config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// cuecard's entries are already as install writes them.
    Unchanged,
    /// The file is new.
    Created,
    /// The file is rewritten; the previous one is kept in `backup`.
    Updated { backup: PathBuf },
}

/// One entry: its native event, its matcher (`None`: every call) and the
/// cards it dispatches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub event: String,
    pub matcher: Option<String>,
    pub cards: Vec<String>,
}

/// `install --self`: `from` copied to `to`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SelfCopy {
    pub from: String,
    pub to: String,
}

/// The program the entries name, and what that means for who can run them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Program {
    /// A managed file: the binary's absolute path, which every machine
    /// that gets the file needs.
    Managed,
    /// The binary's absolute path on this machine (a user's file, not
    /// shared).
    Absolute,
    /// `program` through PATH (a shared project file), and PATH finds this
    /// binary.
    OnPath { program: String },
    /// `program` through PATH, which finds `found` rather than this binary.
    Elsewhere { program: String, found: PathBuf },
    /// `program` through PATH, which does not find it (`why`).
    NotOnPath {
        program: String,
        why: ProgramRefused,
    },
}

/// Entries moved out of an older form's file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moved {
    pub entries: usize,
    pub from: PathBuf,
    pub form: &'static str,
}

/// `install --sandbox`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sandbox {
    /// The policy line the confinement comes from.
    pub from: String,
    /// Codex's `config.toml`: what install did with its line.
    pub codex: Option<CodexLine>,
}

/// Files written into a folder (cards or skills).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Written {
    pub dir: PathBuf,
    /// Written (or that would be).
    pub written: Vec<PathBuf>,
    /// Already as cuecard writes them.
    pub unchanged: usize,
    /// Left because they are the user's, with why.
    pub refused: Vec<(PathBuf, String)>,
}

/// What one uninstall did, in the order it did it.
#[derive(Debug, Default)]
pub struct Uninstalled {
    /// Each harness and scope uninstalled (with `--all`, only those that
    /// held anything of cuecard's).
    pub scopes: Vec<ScopeUninstalled>,
    /// The card copies removed once cuecard is installed nowhere: how many,
    /// from where.
    pub cards: Option<(usize, PathBuf)>,
    /// cuecard's data and state folders removed because they were empty.
    pub folders: Vec<PathBuf>,
    /// With `--all`: what is left (see [`Left`]); `None` without `--all`.
    pub left: Option<Vec<Left>>,
}

impl Uninstalled {
    /// A file could only be read (comments, trailing commas): its entries
    /// are listed for deleting by hand and nothing of that scope was
    /// removed.
    pub fn by_hand(&self) -> bool {
        self.scopes.iter().any(|s| s.by_hand.is_some())
    }
}

/// One harness in one scope.
#[derive(Debug)]
pub struct ScopeUninstalled {
    pub harness: HarnessId,
    pub scope: Scope,
    /// Each form's file, in order (a legacy form only where cuecard was).
    pub files: Vec<FileUninstalled>,
    /// A file cuecard could only read: its entries, one line each, to
    /// delete by hand; then nothing more of this scope was done.
    pub by_hand: Option<String>,
    /// Skill files removed, and those left (with why), from `dir`.
    pub skills: Option<SkillsRemoved>,
    /// What became of the `sandbox_mode` line install wrote (Codex).
    pub sandbox: Vec<CodexLine>,
}

/// One form's file.
#[derive(Debug)]
pub enum FileUninstalled {
    /// cuecard's entries handled: `form` (empty for a harness with one
    /// form), what became of the file, and the plan's notes.
    Done {
        form: &'static str,
        path: PathBuf,
        what: Removal,
        entries: usize,
        notes: Vec<String>,
    },
    /// A link cuecard does not write through, holding nothing of cuecard's.
    LinkNothing { path: PathBuf },
}

/// What became of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Removal {
    /// Nothing of cuecard's was there.
    Nothing,
    /// Back exactly as it was before install.
    Restored,
    /// Removed: it held nothing else.
    Deleted,
    /// cuecard's entries removed, everything else kept.
    Removed,
}

/// Skill files taken out of a skills folder.
#[derive(Debug)]
pub struct SkillsRemoved {
    pub dir: PathBuf,
    pub removed: usize,
    pub left: Vec<(PathBuf, String)>,
}

/// What `uninstall --all` leaves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Left {
    /// A file a harness reads that still registers cuecard (`events`):
    /// the user's own entries in cuecard's file (`ours`), or a plugin,
    /// extension or file of theirs.
    Registration {
        harness: HarnessId,
        path: PathBuf,
        events: Vec<String>,
        ours: bool,
    },
    /// The copy `install --self` made.
    Binary(PathBuf),
    /// The state folder (sessions, trust records).
    State(PathBuf),
}
