//! Hooks that stopped running (issue 31): per installed harness and scope,
//! when cuecard last answered a call from it, against when it was
//! installed and when the harness's config file last changed.
//!
//! Nothing is written on the hook path for it. A session's record names
//! its harness (set by the session's first call, which writes the record
//! anyway) and its project; its call log (appended by every call that
//! loads state) has the time of its last call as its modification time. So
//! the last call from a harness is the newest log among its sessions (for
//! a project-scope install, the sessions of that project), found by a scan
//! of the state directory that `doctor`, `status` and, at most once a day,
//! a session start run. Install records the harness, scope, base and time
//! beside the config file's record (`<data>/install/record.json`).

use super::Store;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

/// Records and logs looked at, at most.
const MAX_SESSIONS: usize = 5_000;
/// The install record is read up to this size.
const MAX_RECORD_BYTES: u64 = 4 << 20;
/// A config file written this long after install counts as changed since
/// (install's own write lands within it).
const SLACK_SECS: u64 = 2;
/// A session start mentions a silent harness only once it has been silent
/// this long, and at most once per [`NOTE_EVERY`].
pub const GRACE_SECS: u64 = 3_600;
pub const NOTE_EVERY: Duration = Duration::from_secs(86_400);

/// One install of cuecard's entries, as install recorded it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    pub harness: String,
    /// `user`, `project` or `managed`.
    pub scope: String,
    pub config: PathBuf,
    /// The project root of a project-scope install.
    pub base: String,
    /// Unix seconds.
    pub installed: u64,
}

/// An install whose harness has not called since it was installed or
/// since its config changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Silent {
    pub install: Installed,
    /// The config file's modification time, when it is later than install.
    pub changed: Option<u64>,
    /// The last call from this harness (and project, for a project
    /// scope), if any.
    pub last_call: Option<u64>,
    /// Whether the config file is gone.
    pub config_missing: bool,
}

impl Silent {
    /// Since when the harness should have called.
    pub fn since(&self) -> u64 {
        self.changed.unwrap_or(self.install.installed)
    }

    /// "since it was installed" or "since its config changed".
    pub fn since_what(&self) -> &'static str {
        if self.config_missing {
            "and its config file is gone"
        } else if self.changed.is_some() {
            "since its config file changed"
        } else {
            "since it was installed"
        }
    }
}

/// The install record's path: `CUECARD_DATA_DIR`, else the platform's
/// data directory (the same resolution as `paths::data_dir`).
fn record_path() -> Option<PathBuf> {
    let data = match std::env::var_os("CUECARD_DATA_DIR").filter(|d| !d.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => crate::dirs::Dirs::current()?.data,
    };
    Some(data.join("install/record.json"))
}

/// Every install recorded with its harness and time.
pub fn installs() -> Vec<Installed> {
    let Some(path) = record_path() else {
        return Vec::new();
    };
    let Ok(Some((f, _))) = crate::fsutil::open_private_read(&path) else {
        return Vec::new();
    };
    let mut text = Vec::new();
    use std::io::Read;
    if f.take(MAX_RECORD_BYTES).read_to_end(&mut text).is_err() {
        return Vec::new();
    }
    let Ok(Value::Object(all)) = serde_json::from_slice::<Value>(&text) else {
        return Vec::new();
    };
    let mut out: Vec<Installed> = all
        .iter()
        .filter_map(|(config, e)| {
            Some(Installed {
                harness: e.get("harness")?.as_str()?.to_string(),
                scope: e.get("scope")?.as_str()?.to_string(),
                config: PathBuf::from(config),
                base: e.get("base").and_then(Value::as_str).unwrap_or("").into(),
                installed: e.get("installed")?.as_u64()?,
            })
        })
        .collect();
    out.sort_by(|a, b| (&a.harness, &a.scope, &a.config).cmp(&(&b.harness, &b.scope, &b.config)));
    out
}

fn mtime(meta: &std::fs::Metadata) -> Option<u64> {
    meta.modified()
        .ok()?
        .duration_since(UNIX_EPOCH)
        .ok()
        .map(|d| d.as_secs())
}

/// What a session record says of its harness and project.
#[derive(serde::Deserialize)]
struct Owner {
    #[serde(default)]
    harness: Option<String>,
    #[serde(default)]
    project: String,
}

/// The last call per (harness, project) among sessions whose log changed
/// at or after `after` (older ones cannot be later than an install).
fn last_calls(store: &Store, after: u64) -> Vec<(String, String, u64)> {
    let Ok(dir) = store.dir("sessions") else {
        return Vec::new();
    };
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in rd.flatten().take(MAX_SESSIONS) {
        let p = e.path();
        if p.extension().is_none_or(|x| x != "log") {
            continue;
        }
        let Some(t) = e.metadata().ok().as_ref().and_then(mtime) else {
            continue;
        };
        if t < after {
            continue;
        }
        let record = p.with_extension("json");
        let Ok(Some(bytes)) = super::store::read_bounded(&record) else {
            continue;
        };
        if let Ok(o) = serde_json::from_slice::<Owner>(&bytes) {
            out.push((
                o.harness.unwrap_or_else(|| "claude-code".into()),
                o.project,
                t,
            ));
        }
    }
    out
}

/// The installs whose harness has not called since `since` (install, or
/// the config's change), with what is known of why.
pub fn silent(store: Option<&Store>) -> Vec<Silent> {
    let all = installs();
    let Some(oldest) = all.iter().map(|i| i.installed).min() else {
        return Vec::new();
    };
    let calls = store.map(|s| last_calls(s, oldest)).unwrap_or_default();
    all.into_iter()
        .filter_map(|install| {
            // The path install recorded is the file itself (a link to it
            // was resolved at install): its own time, never a link's target.
            let meta = std::fs::symlink_metadata(&install.config);
            let config_missing = meta.is_err();
            let changed = meta
                .ok()
                .as_ref()
                .and_then(mtime)
                .filter(|m| *m > install.installed + SLACK_SECS);
            let project_scope = install.scope == "project";
            let last_call = calls
                .iter()
                .filter(|(h, p, _)| {
                    *h == install.harness
                        && (!project_scope || Path::new(p) == Path::new(&install.base))
                })
                .map(|(_, _, t)| *t)
                .max();
            let s = Silent {
                install,
                changed,
                last_call,
                config_missing,
            };
            let since = s.since();
            // A config file gone runs nothing, whatever ran before.
            (s.config_missing || s.last_call.is_none_or(|t| t < since)).then_some(s)
        })
        .collect()
}

/// The session start's note about harnesses other than `harness` that
/// have been silent for [`GRACE_SECS`]: at most once per [`NOTE_EVERY`]
/// (a marker in the state directory), `None` otherwise.
pub fn daily_note(store: &Store, harness: &str, now: u64) -> Option<String> {
    // The marker is checked before anything else is read: the scan runs at
    // most once a day.
    if !super::first_within(store, "liveness:daily-note", NOTE_EVERY) {
        return None;
    }
    let quiet: Vec<String> = silent(Some(store))
        .into_iter()
        .filter(|s| s.install.harness != harness && now >= s.since() + GRACE_SECS)
        .map(|s| {
            format!(
                "{} ({}) has not called cuecard {}",
                s.install.harness,
                s.install.scope,
                s.since_what()
            )
        })
        .collect();
    if quiet.is_empty() {
        return None;
    }
    let more = quiet.len().saturating_sub(2);
    let mut named = quiet[..quiet.len().min(2)].join("; ");
    if more > 0 {
        named.push_str(&format!(" (and {more} more)"));
    }
    Some(format!(
        "cuecard: {named}; its hooks may be untrusted, disabled, or run a program that is missing, or the harness was updated. Run `cuecard doctor` (said at most once a day).",
    ))
}
