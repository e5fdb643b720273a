//! A session's project root, fixed at its first call (issue 26): what is
//! "inside the project" cannot be moved in the middle of a session by
//! creating a repository above it (`git init ..`) or anywhere else.
//!
//! One file per session under `<root>/roots/`, named by the session part
//! of the key (a payload's id or transcript, never the project: that is
//! what is being fixed), holding the root the first call found, written
//! when that call is committed (an effect of the call, like the rest of
//! the state it changes). Read with
//! three system calls (open without following a link and without blocking
//! on a FIFO, one read, close), which replace the `.git` search of a
//! pinned session; written atomically (a planted link or FIFO is replaced,
//! never followed). A session with no id and no transcript (the shared
//! `n-anon` key) is not pinned. Any trouble reading or writing falls back
//! to the root found now. The sweep removes the pins of sessions whose
//! state is gone.

use super::Store;
use super::key::SessionPart;
use std::path::{Path, PathBuf};

/// The folder of the pins, under the state root.
pub const DIR: &str = "roots";

/// Whether a session part is pinned at all.
pub fn pinned(part: &SessionPart) -> bool {
    !(part.is_anonymous() && part.as_str() == "n-anon")
}

/// Records `root` as the project root of the session `part` names, unless
/// a call of it already did (the hook's commit of a session's first call).
pub fn record(store: &Store, part: &SessionPart, root: &Path) {
    if pinned(part) && read(&store.root().join(DIR).join(part.as_str())).is_none() {
        write(store, part, root);
    }
}

/// Writes a pin, atomically (a planted link or FIFO is replaced).
fn write(store: &Store, part: &SessionPart, root: &Path) {
    if let Ok(dir) = store.dir(DIR) {
        let _ = super::atomic::write_with(
            &dir.join(part.as_str()),
            root.to_string_lossy().as_bytes(),
            false,
        );
    }
}

/// The root a session's first call recorded under `state_root`, read
/// only (nothing is created: `cuecard explain`).
pub fn recorded(state_root: &Path, part: &SessionPart) -> Option<PathBuf> {
    if !pinned(part) {
        return None;
    }
    read(&state_root.join(DIR).join(part.as_str()))
}

/// The most of a pin that is read (one `read`).
const MAX_PIN_BYTES: usize = 4096;

/// A pin: a file (not through a link; a FIFO reads empty) holding an
/// absolute path.
fn read(path: &Path) -> Option<PathBuf> {
    use std::io::Read as _;
    let mut f = crate::fsutil::open_nonblocking(path, false).ok()?;
    let mut buf = [0u8; MAX_PIN_BYTES];
    let n = f.read(&mut buf).ok()?;
    if n == 0 || n == MAX_PIN_BYTES {
        return None;
    }
    let text = std::str::from_utf8(&buf[..n]).ok()?;
    Some(PathBuf::from(text)).filter(|p| p.is_absolute())
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
        assert_eq!(recorded(s.root(), &part), None);
        record(&s, &part, a);
        record(&s, &part, b);
        assert_eq!(recorded(s.root(), &part).as_deref(), Some(a), "pinned");
        let anon = SessionPart::Anonymous("n-anon".into());
        record(&s, &anon, a);
        assert_eq!(recorded(s.root(), &anon), None, "never pinned");
        // A directory or a link in a pin's place is no pin.
        let other = SessionPart::Named("s-other".into());
        std::fs::create_dir(s.root().join(DIR).join("s-other")).unwrap();
        assert_eq!(recorded(s.root(), &other), None);
        #[cfg(unix)]
        {
            let link = SessionPart::Named("s-link".into());
            let target = s.root().join("elsewhere");
            std::fs::write(&target, "/").unwrap();
            std::os::unix::fs::symlink(&target, s.root().join(DIR).join("s-link")).unwrap();
            assert_eq!(recorded(s.root(), &link), None, "not followed");
            record(&s, &link, b);
            assert_eq!(
                recorded(s.root(), &link).as_deref(),
                Some(b),
                "replaced by a pin"
            );
            record(&s, &link, a);
            assert_eq!(recorded(s.root(), &link).as_deref(), Some(b));
            assert_eq!(
                std::fs::read_to_string(&target).unwrap(),
                "/",
                "the link's target untouched"
            );
        }
    }
}
