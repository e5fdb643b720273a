//! The one way the recovery reads a file: [`crate::fsutil::open_regular`]
//! without following a link in the last place (O_NOFOLLOW), refusing
//! anything that is not a regular file or that has more than one hard link
//! (a `HANDOFF.md` hard-linked to `~/.ssh/id_rsa` is the key's own inode:
//! no symlink check sees it), at most [`MAX_READ_BYTES`].

use std::path::Path;

/// The most of a note or plan file that is read. The excerpt is far
/// smaller; the rest of a larger file is never looked at.
pub const MAX_READ_BYTES: u64 = 64 * 1024;

/// A file's head and when it was last modified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileHead {
    /// At most [`MAX_READ_BYTES`], invalid UTF-8 replaced.
    pub text: String,
    /// Unix milliseconds, when the file system tells.
    pub modified_ms: Option<u64>,
}

/// Reads the head of `path`: `None` when it is missing, a link, not a
/// regular file, a file with more than one hard link, or unreadable.
pub fn read(path: &Path) -> Option<FileHead> {
    let (f, meta) = crate::fsutil::open_regular(path, false).ok()?;
    if links(&meta) > 1 {
        return None;
    }
    let (buf, _) = crate::fsutil::read_capped(f, MAX_READ_BYTES).ok()?;
    let modified_ms = meta
        .modified()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    Some(FileHead {
        text: String::from_utf8_lossy(&buf).into_owned(),
        modified_ms,
    })
}

/// The hard links of an open file (the `fstat` of the file read, so no
/// swap between the check and the read).
fn links(meta: &std::fs::Metadata) -> u64 {
    #[cfg(unix)]
    {
        std::os::unix::fs::MetadataExt::nlink(meta)
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounded_regular_and_not_through_a_link() {
        let t = tempfile::tempdir().unwrap();
        let big = t.path().join("big.md");
        std::fs::write(&big, "x".repeat(MAX_READ_BYTES as usize * 2)).unwrap();
        let r = read(&big).unwrap();
        assert_eq!(r.text.len() as u64, MAX_READ_BYTES);
        assert!(r.modified_ms.is_some());
        assert_eq!(read(&t.path().join("missing.md")), None);
        assert_eq!(read(t.path()), None, "a directory is not read");
        #[cfg(unix)]
        {
            let link = t.path().join("link.md");
            std::os::unix::fs::symlink(&big, &link).unwrap();
            assert_eq!(read(&link), None, "a link is not followed");
            let hard = t.path().join("hard.md");
            std::fs::hard_link(&big, &hard).unwrap();
            assert_eq!(read(&hard), None, "a second hard link is refused");
            assert_eq!(read(&big), None, "and so is the first");
        }
    }
}
