//! `cuecard verify`'s gathering: every scope and form of each harness's
//! config inspected against what install would write from the same
//! [`Context`], the harnesses cuecard cannot install into, and the double
//! registrations. `commands/verify.rs` prints it.

use super::context::Context;
use super::document::ConfigFile;
use super::double;
use super::inspect::{self, Status};
use crate::harness::HarnessId;
use crate::harness::config::Scope;

/// What verify found: each config file's state, the harnesses it cannot
/// install into (and why), and double registrations.
pub struct Found {
    /// Each config file's state, in the order of the harnesses asked for.
    pub statuses: Vec<Status>,
    /// The harnesses cuecard does not install into, and why.
    pub notes: Vec<(HarnessId, String)>,
    /// cuecard registered twice for a harness, and how.
    pub doubles: Vec<(HarnessId, String)>,
}

/// Inspects every scope and form of each harness's config, against what
/// install would write from the same context.
pub fn gather(harnesses: &[HarnessId], scopes: &[Scope], ctx: &Context, bin: &str) -> Found {
    let roots = &ctx.roots;
    let mut statuses: Vec<Status> = Vec::new();
    let mut notes: Vec<(HarnessId, String)> = Vec::new();
    let mut doubles: Vec<(HarnessId, String)> = Vec::new();
    for h in harnesses {
        let Some(spec) = h.config() else {
            notes.push((
                *h,
                h.limitation().unwrap_or("not installed into").to_string(),
            ));
            continue;
        };
        for scope in scopes.iter().copied() {
            for form in std::iter::once(spec).chain(spec.legacy) {
                if let Some(t) = ConfigFile::new(form, scope, roots) {
                    statuses.push(inspect::inspect(ctx, &t, bin));
                }
            }
        }
        for d in double::doubles(&double::find_all(spec, roots, bin)) {
            doubles.push((*h, d));
        }
    }
    Found {
        statuses,
        notes,
        doubles,
    }
}

impl Found {
    /// A problem in a file, an ask or deny the harness would not enforce,
    /// or a double registration.
    pub fn bad(&self) -> bool {
        self.statuses
            .iter()
            .any(|s| !s.problems.is_empty() || !s.unenforced.is_empty())
            || !self.doubles.is_empty()
    }

    /// Trust the user has yet to give (not a failure).
    pub fn waiting(&self) -> bool {
        self.statuses.iter().any(|s| !s.untrusted.is_empty())
    }

    /// Which of `harnesses` that cuecard installs into have no file with
    /// its entries.
    pub fn not_installed(&self, harnesses: &[HarnessId]) -> Vec<&'static str> {
        harnesses
            .iter()
            .filter(|h| h.config().is_some())
            .filter(|h| {
                !self
                    .statuses
                    .iter()
                    .any(|s| s.harness == h.id() && s.present())
            })
            .map(|h| h.id())
            .collect()
    }
}
