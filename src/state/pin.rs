//! A session's project root, fixed at its first call (issue 26): what is
//! "inside the project" cannot be moved in the middle of a session by
//! creating a repository above it (`git init ..`) or anywhere else.
//!
//! One entry per session under `<root>/roots/`, named by the session part
//! of the key (a payload's id or transcript, never the project: that is
//! what is being fixed). The entry is a symbolic link whose target is the
//! root the first call found: it is read with one `readlink` (never
//! followed), so a call pays one system call for it. A session with no id
//! and no transcript (the shared `n-anon` key) is not pinned. Any trouble
//! reading or writing falls back to the root found now. The sweep removes
//! the pins of sessions whose state is gone.

use super::Store;
use super::key::SessionPart;
use std::path::{Path, PathBuf};

/// The folder of the pins, under the state root.
pub const DIR: &str = "roots";

/// Whether a session part is pinned at all.
fn pinned(part: &SessionPart) -> bool {
    !(part.is_anonymous() && part.as_str() == "n-anon")
}

/// The project root of the session `part` names: the one its first call
/// recorded, else `found`, recorded now.
pub fn project_root(store: &Store, part: &SessionPart, found: &Path) -> PathBuf {
    if !pinned(part) {
        return found.to_path_buf();
    }
    if let Some(root) = read(&store.root().join(DIR).join(part.as_str())) {
        return root;
    }
    #[cfg(unix)]
    if let Ok(dir) = store.dir(DIR) {
        let _ = std::os::unix::fs::symlink(found, dir.join(part.as_str()));
    }
    found.to_path_buf()
}

/// The root a session's first call recorded under `state_root`, read
/// only (nothing is created: `cuecard explain`).
pub fn recorded(state_root: &Path, part: &SessionPart) -> Option<PathBuf> {
    if !pinned(part) {
        return None;
    }
    read(&state_root.join(DIR).join(part.as_str()))
}

/// A pin: a link's target (never followed), an absolute path.
fn read(path: &Path) -> Option<PathBuf> {
    std::fs::read_link(path).ok().filter(|p| p.is_absolute())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn the_first_root_stays() {
        let t = tempfile::tempdir().unwrap();
        let s = Store::at(&t.path().join("state")).unwrap();
        let part = SessionPart::Named("s-abc".into());
        let a = Path::new("/w/project");
        let b = Path::new("/w");
        assert_eq!(recorded(s.root(), &part), None);
        assert_eq!(project_root(&s, &part, a), a);
        assert_eq!(project_root(&s, &part, b), a, "pinned");
        assert_eq!(recorded(s.root(), &part).as_deref(), Some(a));
        let anon = SessionPart::Anonymous("n-anon".into());
        assert_eq!(project_root(&s, &anon, a), a);
        assert_eq!(project_root(&s, &anon, b), b, "never pinned");
        // A file planted in a pin's place is no pin.
        let other = SessionPart::Named("s-other".into());
        std::fs::write(s.root().join(DIR).join("s-other"), "/").unwrap();
        assert_eq!(project_root(&s, &other, b), b);
    }
}
