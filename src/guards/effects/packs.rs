//! Packs a user adds to the effect model without code (issue 27, point 2):
//! what a pack is and how a command hits it; reading and checking the
//! config files is [`crate::policy`]'s (`policy/packs.rs`), which the
//! dispatcher hands in for each call ([`prepare`]) so this layer imports
//! nothing above it.
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
use std::cell::RefCell;
use std::path::PathBuf;

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

/// Reads the packs of the call being judged (the dispatcher's, which
/// knows what the call already read).
pub type Load = Box<dyn FnOnce() -> Vec<PackVerb>>;

/// The packs of the call being judged on this thread: how to read them,
/// then what was read. One slot a call, so the guards that read packs
/// share one read, and a call that no such guard asks about reads nothing.
#[derive(Default)]
enum Slot {
    #[default]
    Empty,
    Ready(PathBuf, Load),
    Read(PathBuf, Vec<PackVerb>),
}

thread_local! {
    static CALL: RefCell<Slot> = const { RefCell::new(Slot::Empty) };
}

/// Hands in how the packs of the call now judged in the project `root` are
/// read (by the dispatcher, once the call's cards are chosen; it replaces
/// what an earlier call left).
pub fn prepare(root: PathBuf, load: Load) {
    CALL.with(|c| c.replace(Slot::Ready(root, load)));
}

/// Forgets the packs of the last call (the dispatcher's, at each end).
pub fn clear() {
    CALL.with(|c| c.replace(Slot::Empty));
}

/// The packs of a call: none before the dispatcher prepared them (a guard
/// run on its own), read on the first ask.
pub fn of(ctx: &Ctx) -> Vec<PackVerb> {
    let root = ctx.project_root();
    CALL.with(|c| {
        // Taken out while read, so that reading never holds the cell.
        let mut slot = c.take();
        if let Slot::Ready(r, load) = slot {
            slot = if r == root {
                Slot::Read(r, load())
            } else {
                Slot::Ready(r, load)
            };
        }
        let packs = match &slot {
            Slot::Read(r, packs) if r == root => packs.clone(),
            _ => Vec::new(),
        };
        c.replace(slot);
        packs
    })
}
