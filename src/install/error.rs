//! What can stop install, uninstall and `plugin build`: one variant per
//! case, carrying what the message names, and one message per variant. The
//! command line maps them to an exit code (`commands::exit`).

use super::lossless::Lossy;
use super::shape::BadShape;
use crate::harness::HarnessId;
use crate::harness::config::{Scope, Shell};
use std::ffi::OsString;
use std::fmt;
use std::io;
use std::path::PathBuf;

#[derive(Debug)]
pub enum InstallError {
    /// No home directory: neither `HOME` nor the platform's own.
    NoHome,
    /// `HOME` names no existing directory.
    HomeMissing(PathBuf),
    /// The config is read-only (no write bit for its owner): the user's
    /// signal that it is not to be changed.
    ReadOnly(PathBuf),
    /// `install --self`: a program at ~/.local/bin/cuecard that is not
    /// cuecard.
    SelfCopyForeign(PathBuf),
    /// An XDG directory variable names a missing folder outside the home.
    XdgMissing { var: &'static str, path: PathBuf },
    /// The working directory cannot be read.
    WorkingDir(io::Error),
    /// The running binary cannot find its own path.
    OwnPath(io::Error),
    /// `CUECARD_BIN` names a relative path.
    RelativeBin(PathBuf),
    /// The binary's path is not UTF-8 (hook configs are JSON text).
    BinNotUtf8(OsString),
    /// The install path holds a character the harness's shell would read.
    UnsafePath {
        path: String,
        found: char,
        shell: Shell,
    },
    /// The harness has no such scope.
    NoScope { harness: HarnessId, scope: Scope },
    /// A harness installed into only for decisions, with no policy set.
    NeedsPolicy {
        harness: HarnessId,
        policy_file: String,
    },
    /// `install --sandbox` with no policy for it to render.
    SandboxNeedsPolicy { policy_file: String },
    /// `install --sandbox` for a harness with no sandbox cuecard renders into.
    SandboxUnsupported(HarnessId),
    /// The config file is a symlink.
    Symlink(PathBuf),
    /// A directory on the way to the config file is a symlink.
    SymlinkedDir(PathBuf),
    /// The config file is there but not a regular file.
    NotRegularFile(PathBuf),
    /// The config file is larger than [`super::fsio::MAX_CONFIG_BYTES`].
    TooLarge(PathBuf),
    /// The config file is not UTF-8 text.
    NotUtf8(PathBuf),
    /// A path to write has no parent directory.
    NoDirectory(PathBuf),
    /// Reading, or making a directory at, `path` failed.
    Io { path: PathBuf, error: io::Error },
    /// Writing `path` failed.
    Writing { path: PathBuf, error: io::Error },
    /// Removing `path` failed.
    Removing { path: PathBuf, error: io::Error },
    /// Copying the binary into a plugin failed.
    Copying {
        from: PathBuf,
        to: PathBuf,
        error: io::Error,
    },
    /// The file holds what a rewrite would lose (nothing was written).
    /// `dry_run`: the command that shows the entries to add by hand
    /// ([`super::document::ConfigFile::dry_run_command`]).
    Lossy {
        path: PathBuf,
        why: Lossy,
        dry_run: String,
    },
    /// Install (or its dry run) on a file it refuses to rewrite: the
    /// refusal, with what to merge by hand (`keys`: the keys the harness
    /// also needs).
    ByHand {
        refused: Box<InstallError>,
        keys: String,
        entries: String,
    },
    /// The file is not JSON (nothing was written).
    InvalidJson {
        path: PathBuf,
        error: serde_json::Error,
        dry_run: String,
    },
    /// The file's shape leaves no place for cuecard's entries (nothing was
    /// written).
    Unmergeable { path: PathBuf, why: BadShape },
    /// The file install was about to write does not read as the
    /// harness's documented schema (a harness that drops a whole file it
    /// cannot parse: Antigravity CLI); nothing was written.
    Unparseable {
        path: PathBuf,
        harness: HarnessId,
        why: String,
        dry_run: String,
    },
    /// A document of cuecard's own making has no place for its entries.
    Shape(BadShape),
    /// A file at the path of a file cuecard owns that is not cuecard's (it
    /// has no marker line): a `what` of the user's own.
    ForeignOwned { path: PathBuf, what: &'static str },
    /// Install would write over such a file (nothing was written).
    WouldOverwriteForeign { path: PathBuf, what: &'static str },
    /// Install would write over a file of cuecard's edited by hand since
    /// (nothing was written).
    WouldOverwriteEdited(PathBuf),
    /// The harness has no plugin format cuecard builds.
    NoPluginFormat(HarnessId),
    /// The plugin directory is a symlink.
    PluginDirSymlink(PathBuf),
    /// The plugin directory is a file.
    NotADirectory(PathBuf),
    /// The plugin directory holds something already.
    NotEmpty(PathBuf),
}

impl InstallError {
    /// The file is fine to read but install refuses to rewrite it (the
    /// entries can still be added by hand: `install --dry-run` shows them).
    pub fn refuses_rewrite(&self) -> bool {
        matches!(
            self,
            InstallError::Lossy { .. }
                | InstallError::InvalidJson { .. }
                | InstallError::Symlink(_)
                | InstallError::SymlinkedDir(_)
                | InstallError::ReadOnly(_)
                | InstallError::Unmergeable { .. }
                | InstallError::Unparseable { .. }
                | InstallError::WouldOverwriteForeign { .. }
                | InstallError::WouldOverwriteEdited(_)
        )
    }
}

/// Where a link leads, for a refusal's message.
fn link_target(p: &std::path::Path) -> String {
    std::fs::read_link(p)
        .map(|t| t.display().to_string())
        .unwrap_or_else(|_| "somewhere cuecard cannot read".into())
}

fn refuse(
    f: &mut fmt::Formatter<'_>,
    path: &std::path::Path,
    why: &dyn fmt::Display,
    dry_run: &str,
) -> fmt::Result {
    write!(
        f,
        "{} cannot be rewritten without loss: {why}. Nothing was written. \
         Fix that line (or add cuecard's entries by hand: `{dry_run}` shows them) and run again.",
        path.display()
    )
}

fn foreign(f: &mut fmt::Formatter<'_>, path: &std::path::Path, what: &str) -> fmt::Result {
    write!(
        f,
        "{} is not cuecard's (its first line has no `{}` marker): it is a {what} of your own, \
         and cuecard never writes over it",
        path.display(),
        super::owned::MARKER
    )
}

impl fmt::Display for InstallError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use InstallError as E;
        match self {
            E::NoHome => f.write_str(
                "HOME is not set; cuecard needs it to find the harnesses' user configuration \
                 (set HOME to your home folder); nothing was written",
            ),
            E::SelfCopyForeign(p) => write!(
                f,
                "{} is there and is not a cuecard binary (`--version` does not say cuecard): it is \
                 yours, and `install --self` never writes over it; move it away, or install without \
                 --self. Nothing was written",
                p.display()
            ),
            E::ReadOnly(p) => write!(
                f,
                "{} is read-only: cuecard does not write over a file you made read-only; nothing was \
                 written (make it writable and run again, or merge the entries below by hand)",
                p.display()
            ),
            E::HomeMissing(p) => write!(
                f,
                "HOME is {}, which is not an existing folder; cuecard creates nothing outside an \
                 existing home: set HOME to your home folder; nothing was written",
                p.display()
            ),
            E::XdgMissing { var, path } => write!(
                f,
                "{var} is {}, which does not exist and is outside your home; create it or unset \
                 {var}; nothing was written",
                path.display()
            ),
            E::WorkingDir(e) => write!(f, "the working directory: {e}"),
            E::OwnPath(e) => write!(f, "cannot find the cuecard binary's own path: {e}"),
            E::RelativeBin(p) => write!(
                f,
                "CUECARD_BIN must be an absolute path, not {}",
                p.display()
            ),
            E::BinNotUtf8(p) => write!(
                f,
                "the binary's path {p:?} is not UTF-8; hook configs are JSON text"
            ),
            E::UnsafePath { path, found, shell } => {
                let list: Vec<String> = super::shell_words::unsafe_chars(*shell)
                    .iter()
                    .map(|c| c.to_string())
                    .collect();
                write!(
                    f,
                    "the install path {path:?} contains {found:?}, which {} (the shell this harness runs hooks \
                     through here) would interpret; move the cuecard binary to a path without {} and install again",
                    super::shell_words::shell_name(*shell),
                    list.join(" ")
                )
            }
            E::NoScope { harness, scope } => {
                write!(f, "{} has no {} scope", harness.name(), scope.id())
            }
            E::NeedsPolicy {
                harness,
                policy_file,
            } => write!(
                f,
                "{} is installed into only with a policy set: nothing its hooks print reaches the \
                 model, so cuecard's entries there can only deny a call (exit 2, the reason on stderr), \
                 and with no policy they would never do anything. Set one in {policy_file} (a `[policy]` table, \
                 e.g. `destructive = \"deny\"`; the hook reads it on every call, CUECARD_POLICY only \
                 where the harness's environment has it), then run install again; nothing was written",
                harness.name()
            ),
            E::SandboxNeedsPolicy { policy_file } => write!(
                f,
                "--sandbox renders your policy into the harness's sandbox, and your policy sets \
                 neither outside-project nor destructive to ask or deny: there is nothing to confine. \
                 Set one in {policy_file} (`[policy]`, e.g. `outside-project = \"deny\"`), then run \
                 install again; nothing was written"
            ),
            E::SandboxUnsupported(h) => write!(
                f,
                "--sandbox renders into Claude Code's and Codex's own sandboxes; {} has none cuecard \
                 writes (docs/policy.md); nothing was written",
                h.name()
            ),
            E::Symlink(p) => write!(
                f,
                "{} is a symlink to {}: cuecard writes through a link only to a regular file of yours \
                 inside HOME; nothing was written (edit its target yourself: `cuecard install --harness \
                 <id> --dry-run` prints the entries to merge, or replace the link with a file)",
                p.display(),
                link_target(p)
            ),
            E::SymlinkedDir(p) => write!(
                f,
                "{} is a symlinked directory leading to {}: cuecard writes through a link only to a \
                 place of yours inside HOME; nothing was written (`cuecard install --harness <id> \
                 --dry-run` prints the entries to merge by hand)",
                p.display(),
                link_target(p)
            ),
            E::NotRegularFile(p) => write!(f, "{} is not a regular file", p.display()),
            E::TooLarge(p) => write!(
                f,
                "{} is larger than {} bytes; not a config cuecard will rewrite",
                p.display(),
                super::fsio::MAX_CONFIG_BYTES
            ),
            E::NotUtf8(p) => write!(f, "{} is not UTF-8 text", p.display()),
            E::NoDirectory(p) => write!(f, "{} has no directory", p.display()),
            E::Io { path, error } => write!(f, "{}: {error}", path.display()),
            E::Writing { path, error } => write!(f, "writing {}: {error}", path.display()),
            E::Removing { path, error } => write!(f, "removing {}: {error}", path.display()),
            E::Copying { from, to, error } => {
                write!(f, "copying {} to {}: {error}", from.display(), to.display())
            }
            E::Lossy { path, why, dry_run } => refuse(f, path, why, dry_run),
            E::ByHand {
                refused,
                keys,
                entries,
            } => write!(
                f,
                "{refused}\n--- what cuecard would add, for you to merge by hand \
                 (its `hooks`{keys}):\n{entries}"
            ),
            E::InvalidJson {
                path,
                error,
                dry_run,
            } => refuse(
                f,
                path,
                &format_args!("it is not valid JSON ({error})"),
                dry_run,
            ),
            E::Unmergeable { path, why } => {
                write!(f, "{}: {why}; nothing was written", path.display())
            }
            E::Unparseable {
                path,
                harness,
                why,
                dry_run,
            } => write!(
                f,
                "{}: the file install would write does not read as {}'s hook file ({why}), and {} \
                 drops a hook file it cannot parse whole, hooks of yours included. Nothing was \
                 written. Fix the file (or add cuecard's entries by hand: `{dry_run}` shows them) \
                 and run again",
                path.display(),
                harness.name(),
                harness.name()
            ),
            E::Shape(why) => write!(f, "{why}"),
            E::ForeignOwned { path, what } => foreign(f, path, what),
            E::WouldOverwriteForeign { path, what } => {
                foreign(f, path, what)?;
                f.write_str(
                    ". Nothing was written. Rename yours (or move it to the other scope's folder) and \
                     run install again",
                )
            }
            E::WouldOverwriteEdited(p) => write!(
                f,
                "{} was edited since cuecard wrote it (it no longer matches the hash on its first line), \
                 so it is yours now and cuecard does not write over it. Nothing was written. Delete it \
                 (keep your changes in a file of your own) and run install again",
                p.display()
            ),
            E::NoPluginFormat(h) => {
                let builds: Vec<&str> = HarnessId::ALL
                    .iter()
                    .filter(|h| h.config().is_some_and(|c| c.plugin.is_some()))
                    .map(|h| h.id())
                    .collect();
                write!(
                    f,
                    "{} has no plugin format cuecard builds (it builds one for: {})",
                    h.name(),
                    builds.join(", ")
                )
            }
            E::PluginDirSymlink(p) => write!(
                f,
                "{} is a symlink (refused); give a plain directory",
                p.display()
            ),
            E::NotADirectory(p) => write!(f, "{} is not a directory", p.display()),
            E::NotEmpty(p) => write!(
                f,
                "{} is not empty; a plugin is built into an empty directory (nothing was written)",
                p.display()
            ),
        }
    }
}

impl From<BadShape> for InstallError {
    fn from(why: BadShape) -> Self {
        InstallError::Shape(why)
    }
}

/// The message is whole on its own (it names the underlying failure), and
/// the underlying error stays reachable for a caller that walks the chain.
impl std::error::Error for InstallError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        use InstallError as E;
        match self {
            E::WorkingDir(e) | E::OwnPath(e) => Some(e),
            E::Io { error, .. }
            | E::Writing { error, .. }
            | E::Removing { error, .. }
            | E::Copying { error, .. } => Some(error),
            E::InvalidJson { error, .. } => Some(error),
            E::Lossy { why, .. } => Some(why),
            E::ByHand { refused, .. } => Some(refused.as_ref()),
            E::Unmergeable { why, .. } | E::Shape(why) => Some(why),
            _ => None,
        }
    }
}
