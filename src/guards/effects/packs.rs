//! Packs a user adds to the effect model without code (issue 27, point 2):
//! what a pack is and how a command hits it; reading and checking the
//! config files is [`crate::policy`]'s (`policy/packs.rs`), which hands the
//! loader in ([`set_loader`]) so this layer imports nothing above it.
//!
//! an `[effects]` table in the user's `config.toml` or in a trusted
//! project's `.cuecard/config.toml`, one line a verb:
//!
//! ```toml
//! [effects]
//! "acmectl db wipe|reset" = "destructive.database"
//! "vaultctl reveal" = "secrets.printed"
//! ```
//!
//! The key is the tool, then the words its leading operands hold in order
//! (the shipped tables' patterns: `a|b`, `kind/name`, comma lists); the
//! value is the finding id it gives, one of the `destructive` or `secrets`
//! ids `cuecard policy --ids` lists, so the policy of that id applies to it
//! as to a shipped finding. A pack only adds findings: a project's pack is
//! stricter by nature, and counts once the file is trusted
//! (`cuecard trust`), like its `[policy]`. A malformed table counts for
//! nothing and is recorded (`cuecard doctor`, `cuecard policy`), never
//! silently half-read.

use crate::context::Ctx;
use std::path::Path;
use std::sync::OnceLock;

/// One line of a pack: the tool, its words, the finding id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackVerb {
    pub tool: String,
    pub words: Vec<String>,
    pub guard: &'static str,
    pub kind: &'static str,
}

/// The pack verb a command hits for `guard`, if any.
pub fn hit<'a>(
    packs: &'a [PackVerb],
    guard: &str,
    tool: &str,
    args: &[String],
) -> Option<&'a PackVerb> {
    if packs.is_empty() {
        return None;
    }
    let words = super::leading_words(args, 6);
    packs.iter().find(|p| {
        p.guard == guard
            && p.tool == tool
            && super::path_matches(
                &words,
                &p.words.iter().map(String::as_str).collect::<Vec<_>>(),
            )
    })
}

/// Reads the packs that count for a project (set by the dispatcher).
type Loader = fn(&Path) -> Vec<PackVerb>;

static LOADER: OnceLock<Loader> = OnceLock::new();

/// Hands in the function that reads the packs (the policy layer's).
pub fn set_loader(f: Loader) {
    let _ = LOADER.set(f);
}

/// The packs read for the first project this process judged: a hook
/// process judges one call, so the guards that read packs share one read.
static READ: OnceLock<(std::path::PathBuf, Vec<PackVerb>)> = OnceLock::new();

/// The packs of a call (none before a loader is set).
pub fn of(ctx: &Ctx) -> Vec<PackVerb> {
    let Some(load) = LOADER.get() else {
        return Vec::new();
    };
    let root = ctx.project_root();
    let (first, packs) = READ.get_or_init(|| (root.to_path_buf(), load(root)));
    if first == root {
        packs.clone()
    } else {
        load(root)
    }
}
