//! Opt-in policy (docs/design.md §4a): per guard and per kind of finding, `advise`
//! (the default), `ask` or `deny`. [`Level`] is the policy, [`Rules`] one
//! source's lines, [`Policy`] the sources of one call and the answer for a
//! finding. Read only when a guard found something, so a call with no
//! finding pays nothing for it.

pub mod defeats;
mod effective;
mod error;
pub mod packs;
mod project;
pub(crate) mod rules;

pub use crate::level::Level;
pub use effective::{
    CardDecision, MAX_BYTES, Policy, PolicyOrigin, Read, ResolvedLevel, Source, read_file,
};
pub use error::PolicyError;
pub use project::project_changes;
pub use rules::Rules;

use std::path::{Path, PathBuf};

/// The environment variable that sets a policy for one run.
pub const ENV: &str = "CUECARD_POLICY";

/// Whether `key` names a guard or one of its findings' ids.
pub fn known(key: &str) -> bool {
    crate::guards::finding_ids().iter().any(|id| id == key) || crate::guards::lookup(key).is_some()
}

/// Every guard name and finding id (the keys a policy line can have).
pub fn all_ids() -> Vec<String> {
    let mut out: Vec<String> = crate::guards::GUARDS
        .iter()
        .map(|g| g.name().to_string())
        .collect();
    out.extend(crate::guards::finding_ids());
    out
}

/// The user's config file: `CUECARD_CONFIG_DIR/config.toml`, else the
/// platform config directory's (`$XDG_CONFIG_HOME/cuecard/config.toml`).
pub fn user_file() -> Option<PathBuf> {
    crate::deck::sources::config_dir().map(|d| d.join("config.toml"))
}

/// The user's config file at its default places, whatever
/// `CUECARD_CONFIG_DIR` and `XDG_CONFIG_HOME` say: the platform config
/// directory's, and `$HOME/.config/cuecard/config.toml`. A repository can
/// set the environment a hook runs with (Claude Code's project `env`,
/// Gemini's `.env`), so a variable that moves the config must not hide
/// the user's own file (issue 26).
pub fn default_user_files() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let platform = directories::ProjectDirs::from("", "", "cuecard")
        .map(|p| p.config_dir().join("config.toml"));
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(|h| PathBuf::from(h).join(".config/cuecard/config.toml"));
    for p in [platform, home].into_iter().flatten() {
        if p.is_absolute() && !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The user's files at their default places other than `primary` (the
/// one read as the user's), each as read.
fn floors(primary: Option<&Path>) -> Vec<Source> {
    default_user_files()
        .into_iter()
        .filter(|p| Some(p.as_path()) != primary)
        .filter_map(|p| {
            let read = read_file(&p, true, &known).0;
            (read != Read::Absent).then_some(Source {
                origin: PolicyOrigin::User(p),
                read,
            })
        })
        .collect()
}

/// Whether `CUECARD_DISABLE` is honoured: not while the user's own config
/// file sets anything to ask or deny (issue 26: a repository can set the
/// variable; only the user's file can take a decision back).
pub fn disable_honoured() -> bool {
    let primary = user_file();
    let user = match &primary {
        Some(p) => Source {
            read: read_file(p, true, &known).0,
            origin: PolicyOrigin::User(p.clone()),
        },
        None => Source {
            origin: PolicyOrigin::User(PathBuf::new()),
            read: Read::Absent,
        },
    };
    let none = || Source {
        origin: PolicyOrigin::Env,
        read: Read::Absent,
    };
    !Policy::from_sources(none(), user, none())
        .with_floors(floors(primary.as_deref()))
        .user_decides()
}

/// Where the audit's settings come from (docs/audit.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditFrom {
    /// The machine's managed file switches it on.
    Managed(PathBuf),
    /// The user's config file switches it on.
    User(PathBuf),
    /// Nothing switches it on.
    Off,
}

/// The audit's settings (docs/audit.md): the managed file's `[audit]`
/// table ([`crate::audit::managed`]) combined with the user's, the stricter
/// winning. The user's is the `[audit]` table of the user's config file,
/// or of one at its default place when a variable moved the one read (a
/// repository cannot switch the user's audit off by moving the config).
/// Only the machine's and the user's files count, never a project's. A
/// file the policy already read in this process is not read again; the
/// managed file is read once a process (one failed open when absent).
pub fn audit_settings() -> crate::audit::Settings {
    audit_source().0
}

/// [`audit_settings`], and which file switched the audit on.
pub fn audit_source() -> (crate::audit::Settings, AuditFrom) {
    use crate::audit::managed::{self, Managed};
    let user = user_audit();
    let m = match managed::get() {
        Managed::Read(s, _) if s.enabled => Some(*s),
        _ => None,
    };
    let s = managed::combine(m, user.as_ref().map(|u| u.0));
    let from = match (m, user) {
        (Some(_), _) => AuditFrom::Managed(managed::path().0),
        (None, Some((u, p))) if u.enabled => AuditFrom::User(p),
        _ => AuditFrom::Off,
    };
    (s, from)
}

/// The user's `[audit]` table: the first of the user's files that
/// switches it on, else the first that has one.
fn user_audit() -> Option<(crate::audit::Settings, PathBuf)> {
    let mut files: Vec<PathBuf> = user_file().into_iter().collect();
    for p in default_user_files() {
        if !files.contains(&p) {
            files.push(p);
        }
    }
    let mut first = None;
    for p in files {
        let s = match crate::audit::settings::remembered(&p) {
            Some(s) => s,
            None => {
                let _ = read_file(&p, true, &known);
                crate::audit::settings::remembered(&p).flatten()
            }
        };
        match s {
            Some(s) if s.enabled => return Some((s, p)),
            Some(s) => {
                first.get_or_insert((s, p));
            }
            None => {}
        }
    }
    first
}

/// A project's config file.
pub fn project_file(root: &Path) -> PathBuf {
    root.join(".cuecard").join("config.toml")
}

/// The project file's SHA-256 as `cuecard trust` pins it (`None`: no file).
pub fn project_file_sha(root: &Path) -> Option<String> {
    effective::read_file(&project_file(root), false, &|_| true).1
}

/// Reads every source for a call in `project_root`, with the trust store
/// under `state_root` (no store: the project file never counts). A source
/// that cannot be read counts for nothing, a line not understood counts
/// for nothing while the others apply; each is recorded as a failure.
pub fn load(project_root: &Path, state_root: Option<&Path>) -> Policy {
    let mut policy = load_early();
    policy.project = project_source(project_root, state_root);
    record_problems(&policy);
    policy
}

/// The sources known before a call's payload is read: `CUECARD_POLICY` and
/// the user's file (the project's is [`Read::Absent`] until
/// [`project_source`] gives it). Records nothing.
pub fn load_early() -> Policy {
    let env = Source {
        origin: PolicyOrigin::Env,
        read: match std::env::var(ENV) {
            Ok(v) if !v.trim().is_empty() => Read::Rules(Rules::from_env(&v, &known)),
            _ => Read::Absent,
        },
    };
    let primary = user_file();
    let user = match primary.clone() {
        // The user's own file may be a link into their dotfiles.
        Some(p) => Source {
            read: read_file(&p, true, &known).0,
            origin: PolicyOrigin::User(p),
        },
        None => Source {
            origin: PolicyOrigin::User(PathBuf::new()),
            read: Read::Absent,
        },
    };
    let mut policy = Policy::none().with_floors(floors(primary.as_deref()));
    policy.env = env;
    policy.user = user;
    policy
}

/// The project's source for a call in `project_root`: counts only when
/// `cuecard trust` pinned it in the store under `state_root`.
pub fn project_source(project_root: &Path, state_root: Option<&Path>) -> Source {
    let path = project_file(project_root);
    let (read, sha) = read_file(&path, false, &known);
    let read = match (read, sha) {
        (Read::Absent, _) => Read::Absent,
        (read, Some(sha)) => {
            let pinned = state_root.is_some_and(|s| {
                crate::trust::TrustStore::load(s).config_trusted(project_root, &sha)
            });
            if pinned { read } else { Read::Untrusted }
        }
        (read, None) => read,
    };
    Source {
        origin: PolicyOrigin::Project(path),
        read,
    }
}

/// Records each source that counts for nothing as a failure.
pub fn record_problems(policy: &Policy) {
    for p in policy.problems() {
        crate::diag::record(crate::diag::Kind::BadConfig, p);
    }
}

/// The note told at every session start while a policy source the user
/// set has a line cuecard did not understand, or cannot be read (issue 33:
/// until fixed, not once). `None` when every source reads cleanly (a new
/// or changed project file is told by `doctor` and `cuecard policy`).
pub fn session_note(policy: &Policy) -> Option<String> {
    let mut bad: Vec<String> = Vec::new();
    for s in policy.sources() {
        match &s.read {
            Read::Malformed(why) => bad.push(format!("{}: {why}", s.origin.label())),
            Read::Rules(r) => bad.extend(
                r.problems
                    .iter()
                    .map(|why| format!("{}: {why}", s.origin.label())),
            ),
            _ => {}
        }
    }
    let first = bad.first()?;
    let n = bad.len();
    Some(format!(
        "cuecard: your policy has {} it did not understand, which {} for nothing until fixed (the other lines apply): {first}{}. Run `cuecard doctor`.",
        crate::text::count(n, "line", "lines"),
        if n == 1 { "counts" } else { "count" },
        if n > 1 { " (and more)" } else { "" },
    ))
}

/// The policy ids a card's findings can have, with a line each: its
/// guard's name (every finding of the guard), then one per kind.
pub fn ids_of(guard: &str) -> Vec<(String, &'static str)> {
    let Some(g) = crate::guards::lookup(guard) else {
        return Vec::new();
    };
    let mut out = vec![(g.name().to_string(), "every finding of this guard")];
    out.extend(
        g.kinds()
            .iter()
            .map(|(k, line)| (format!("{}.{k}", g.name()), *line)),
    );
    out
}

/// The "Policy ids" lines of a card, for `cuecard cards show` and
/// generated/cards.md (empty for a card with neither a guard nor a
/// decision of its own).
pub fn card_lines(card: &crate::card::Card) -> String {
    let mut out = String::new();
    if let Some(l) = card.bindings.decision() {
        out.push_str(&format!("- this card's own decision: `{l}`\n"));
    }
    for (id, line) in card
        .bindings
        .guard
        .as_deref()
        .map(ids_of)
        .unwrap_or_default()
    {
        out.push_str(&format!("- `{id}`: {line}\n"));
    }
    out
}
