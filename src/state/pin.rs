//! A session's project root, fixed at its first call (issue 26): what is
//! "inside the project" cannot be moved in the middle of a session by
//! creating a repository above it (`git init ..`) or anywhere else. One
//! small file per session under `<root>/roots/`, named by the session part
//! of the key (a payload's id or transcript, never the project: that is
//! what is being fixed), holding the root the first call found. A session
//! with no id and no transcript (the shared `n-anon` key) is not pinned.
//! Any trouble reading or writing falls back to the root found now.

use super::Store;
use super::key::SessionPart;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The most of a pin file that is read.
const MAX_PIN_BYTES: u64 = 4096;

/// A pin read longer ago than this is touched, so the sweep (which removes
/// pins idle longer than the session age) keeps it while the session runs.
const TOUCH_AFTER: Duration = Duration::from_secs(3600);

/// The project root of the session `part` names: the one its first call
/// recorded, else `found` (recorded now when `record` is set).
pub fn project_root(store: &Store, part: &SessionPart, found: &Path, record: bool) -> PathBuf {
    if part.is_anonymous() && part.as_str() == "n-anon" {
        return found.to_path_buf();
    }
    let Ok(dir) = store.dir("roots") else {
        return found.to_path_buf();
    };
    let path = dir.join(part.as_str());
    match read(&path) {
        Some(root) => root,
        None => {
            if record {
                let _ = super::atomic::write_with(&path, found.to_string_lossy().as_bytes(), false);
            }
            found.to_path_buf()
        }
    }
}

/// The root a session's first call recorded under `state_root`, read
/// only (nothing is created: `cuecard explain`).
pub fn recorded(state_root: &Path, part: &SessionPart) -> Option<PathBuf> {
    if part.is_anonymous() && part.as_str() == "n-anon" {
        return None;
    }
    read(&state_root.join("roots").join(part.as_str()))
}

/// A pin: a private regular file (not through a link) holding an absolute
/// path.
fn read(path: &Path) -> Option<PathBuf> {
    let (f, meta) = crate::fsutil::open_regular(path, false).ok()?;
    if !crate::fsutil::is_private(&meta) {
        return None;
    }
    let mut buf = String::new();
    (&f).take(MAX_PIN_BYTES).read_to_string(&mut buf).ok()?;
    let root = PathBuf::from(buf.trim_end_matches('\n'));
    if !root.is_absolute() {
        return None;
    }
    if meta
        .modified()
        .ok()
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .is_some_and(|age| age > TOUCH_AFTER)
    {
        let _ = f.set_modified(SystemTime::now());
    }
    Some(root)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_root_stays() {
        let t = tempfile::tempdir().unwrap();
        let s = Store::at(&t.path().join("state")).unwrap();
        let part = SessionPart::Named("s-abc".into());
        let a = Path::new("/w/project");
        let b = Path::new("/w");
        assert_eq!(project_root(&s, &part, a, true), a);
        assert_eq!(project_root(&s, &part, b, true), a, "pinned");
        let anon = SessionPart::Anonymous("n-anon".into());
        assert_eq!(project_root(&s, &anon, a, true), a);
        assert_eq!(project_root(&s, &anon, b, true), b, "never pinned");
        let other = SessionPart::Named("s-other".into());
        assert_eq!(project_root(&s, &other, b, false), b);
        assert_eq!(project_root(&s, &other, a, false), a, "not recorded");
    }
}
