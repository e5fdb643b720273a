//! Writes of files that no lock serialises (the parsed-card cache, written
//! by whichever dispatch sees a card change first; the trust store, written
//! by `cuecard trust`; the harness configs `cuecard install` writes). The
//! state store's own files are written under their session lock by
//! `state::atomic`, with a fixed temp name; here the temp is unique to the
//! process, so two writers never share one.

use std::io::Write;
use std::path::Path;

/// Opens `path` to read, and never waits doing so: it is opened
/// non-blocking (a FIFO put where a file was expected opens at once instead
/// of waiting for a writer, and reads from it answer at once). With
/// `follow` false, a link in the last place is refused. What is read from
/// it must be bounded by the caller, as it may be anything.
pub fn open_nonblocking(path: &Path, follow: bool) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        let nofollow = if follow { 0 } else { libc::O_NOFOLLOW };
        o.custom_flags(libc::O_NONBLOCK | nofollow);
    }
    #[cfg(not(unix))]
    let _ = follow;
    o.open(path)
}

/// [`open_nonblocking`], then anything that is not a regular file is
/// refused (`InvalidInput`). Returns the file and its metadata.
pub fn open_regular(
    path: &Path,
    follow: bool,
) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let f = open_nonblocking(path, follow)?;
    let meta = f.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    Ok((f, meta))
}

/// The one bounded read: at most `max` bytes of `r`, and whether that was
/// all of it (one byte more is read to tell). Every read of a file the
/// project, the user or a harness controls goes through here (or
/// [`read_regular`]), so no read is unbounded.
pub fn read_capped(r: impl std::io::Read, max: u64) -> std::io::Result<(Vec<u8>, bool)> {
    use std::io::Read;
    let mut buf = Vec::with_capacity(max.min(64 * 1024) as usize);
    r.take(max.saturating_add(1)).read_to_end(&mut buf)?;
    let whole = buf.len() as u64 <= max;
    buf.truncate(max as usize);
    Ok((buf, whole))
}

/// A regular file's first `max` bytes ([`open_regular`], then
/// [`read_capped`]): the bytes, whether they are the whole file, and its
/// metadata. A FIFO, a device or a directory is `InvalidInput`; with
/// `follow` false a link in the last place is refused.
pub fn read_regular(
    path: &Path,
    follow: bool,
    max: u64,
) -> std::io::Result<(Vec<u8>, bool, std::fs::Metadata)> {
    let (f, meta) = open_regular(path, follow)?;
    let (bytes, whole) = read_capped(f, max)?;
    Ok((bytes, whole, meta))
}

/// [`read_regular`] of a text file that must be read whole: `None` when it
/// is missing, not a regular file, over `max` bytes or not UTF-8.
pub fn read_text_whole(path: &Path, follow: bool, max: u64) -> Option<String> {
    match read_regular(path, follow, max) {
        Ok((bytes, true, _)) => String::from_utf8(bytes).ok(),
        _ => None,
    }
}

/// Whether an open file is what a private file of cuecard's must be: a
/// regular file of this user with one link (a hard link planted by someone
/// else would make a write land in another file too).
pub fn is_private(meta: &std::fs::Metadata) -> bool {
    if !meta.is_file() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.uid() == euid() && meta.nlink() == 1
    }
    #[cfg(not(unix))]
    true
}

/// This process's effective user id, asked of the kernel once.
#[cfg(unix)]
pub fn euid() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static EUID: AtomicU32 = AtomicU32::new(u32::MAX);
    match EUID.load(Ordering::Relaxed) {
        u32::MAX => {
            // SAFETY: geteuid has no preconditions and cannot fail.
            let id = unsafe { libc::geteuid() };
            EUID.store(id, Ordering::Relaxed);
            id
        }
        id => id,
    }
}

fn not_private() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        "not a private regular file (a link, a FIFO, a device, another user's file)",
    )
}

/// Opens one of cuecard's own files under a checked directory of the state
/// root to read: never through a link, never waiting on a FIFO, and only a
/// regular file of this user with one link ([`is_private`]; anything else is
/// `InvalidInput`, for the caller to record as corrupt state and replace).
/// `Ok(None)`: there is no such file. The file comes with its metadata.
pub fn open_private_read(
    path: &Path,
) -> std::io::Result<Option<(std::fs::File, std::fs::Metadata)>> {
    let f = match open_nonblocking(path, false) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if is_link_refusal(&e) => return Err(not_private()),
        Err(e) => return Err(e),
    };
    let meta = f.metadata()?;
    if !is_private(&meta) {
        return Err(not_private());
    }
    Ok(Some((f, meta)))
}

/// Opens (creating, 0600) one of cuecard's own files under a checked
/// directory of the state root to read and write in place (a lock, a
/// marker). Never through a link and never waiting on a FIFO; whatever is
/// at the path that is not [`is_private`] is removed and the file created
/// anew (the directory is this user's own, so its entries are too).
/// Returns the file and whether something else had to be replaced.
pub fn open_private_rw(path: &Path) -> std::io::Result<(std::fs::File, bool)> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true).write(true).create(true).truncate(false);
    open_replacing(path, o).map(|(f, _, replaced)| (f, replaced))
}

/// Opens (creating, 0600) one of cuecard's own append-only files to add to
/// it, as [`open_private_rw`] does. Returns the file and its metadata (its
/// size tells when to fold it).
pub fn open_private_append(path: &Path) -> std::io::Result<(std::fs::File, std::fs::Metadata)> {
    let mut o = std::fs::OpenOptions::new();
    o.append(true).create(true);
    open_replacing(path, o).map(|(f, meta, _)| (f, meta))
}

/// Opens `path` with `o` (which creates), 0600, never through a link and
/// never waiting on a FIFO (O_NONBLOCK stays set: it changes nothing for a
/// regular file). Whatever is at the path that is not [`is_private`] (a
/// link, a FIFO, someone else's file) is removed and the file created anew:
/// the directory is this user's own, so its entries are too. Returns the
/// file, its metadata, and whether something had to be replaced.
fn open_replacing(
    path: &Path,
    mut o: std::fs::OpenOptions,
) -> std::io::Result<(std::fs::File, std::fs::Metadata, bool)> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        o.mode(0o600)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC);
    }
    let mut replaced = false;
    for _ in 0..3 {
        match o.open(path) {
            Ok(f) => {
                let meta = f.metadata()?;
                if is_private(&meta) {
                    return Ok((f, meta, replaced));
                }
            }
            Err(e) if is_link_refusal(&e) => {}
            Err(e) => return Err(e),
        }
        remove_entry(path)?;
        replaced = true;
    }
    Err(not_private())
}

/// Creates `path` anew for writing (0600): what was there (a stale temp, or
/// a link or FIFO planted in its place) is removed first, and the open is
/// exclusive, so it never writes through anything that was at the path.
pub fn create_private(path: &Path) -> std::io::Result<std::fs::File> {
    let create = || {
        let mut o = std::fs::OpenOptions::new();
        o.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            o.mode(0o600)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC);
        }
        o.open(path)
    };
    let f = match create() {
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            remove_entry(path)?;
            create()?
        }
        r => r?,
    };
    if !is_private(&f.metadata()?) {
        return Err(not_private());
    }
    Ok(f)
}

/// Removes a directory entry that is not a directory (a link is removed
/// itself, never what it points at); a missing one is fine.
fn remove_entry(path: &Path) -> std::io::Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}

/// Whether an open failed because `O_NOFOLLOW` met a link (ELOOP), or the
/// path is a socket or a FIFO without a reader (ENXIO).
fn is_link_refusal(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        matches!(e.raw_os_error(), Some(libc::ELOOP) | Some(libc::ENXIO))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Puts `tmp` in the place of `path`, atomically: a reader sees the old file
/// or the new one. On Linux the two are exchanged (`renameat2` with
/// `RENAME_EXCHANGE`) and the old one, now at `tmp`, is removed: a plain
/// rename over an existing file makes ext4 start writing the new file's
/// data out at once (its `auto_da_alloc` safeguard for applications that do
/// not sync), which costs the hook call a third of a millisecond to several
/// milliseconds; the exchange does not. Where the exchange is not available
/// (another system or file system, or no file at `path` yet) it is a
/// rename.
pub fn replace(tmp: &Path, path: &Path) -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::ffi::OsStrExt;
        if let (Ok(a), Ok(b)) = (
            std::ffi::CString::new(tmp.as_os_str().as_bytes()),
            std::ffi::CString::new(path.as_os_str().as_bytes()),
        ) {
            // SAFETY: two valid C strings; renameat2 has no other
            // preconditions.
            let r = unsafe {
                libc::renameat2(
                    libc::AT_FDCWD,
                    a.as_ptr(),
                    libc::AT_FDCWD,
                    b.as_ptr(),
                    libc::RENAME_EXCHANGE,
                )
            };
            if r == 0 {
                // `tmp` now names the old file (or whatever was at `path`:
                // a planted link or FIFO is removed, never followed).
                let _ = std::fs::remove_file(tmp);
                return Ok(());
            }
        }
    }
    std::fs::rename(tmp, path)
}

/// Owner-only permissions (0600) for state files, where the platform has
/// them; the state directory is 0700 already, this keeps a file private
/// wherever it is copied or linked.
pub fn private() -> Option<std::fs::Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(std::fs::Permissions::from_mode(0o600))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Writes `bytes` to `path` atomically: a temporary file in the same
/// directory, then rename. `durable` adds an fsync of the file before the
/// rename and of the directory after it (a cache that is rebuilt from its
/// sources needs neither, and an fsync can cost milliseconds on the hook
/// path). `perms`, when given, are set on the new file (a config file keeps
/// its mode). No temporary file is left behind on failure.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    durable: bool,
    perms: Option<std::fs::Permissions>,
) -> std::io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        // Created 0600, exclusively: a temp left by an earlier process with
        // this pid (stale), or anything planted at its name, is removed
        // first, never written through. The file's own mode, when given,
        // is set once it holds the new text.
        let mut f = create_private(&tmp)?;
        f.write_all(bytes)?;
        if let Some(p) = perms {
            f.set_permissions(p)?;
        }
        if durable {
            f.sync_all()?;
        }
        drop(f);
        replace(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else if durable && let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bounded_read_says_whether_it_read_everything() {
        let (b, whole) = read_capped(&b"abcdef"[..], 6).unwrap();
        assert_eq!((b.as_slice(), whole), (&b"abcdef"[..], true));
        let (b, whole) = read_capped(&b"abcdefg"[..], 6).unwrap();
        assert_eq!((b.as_slice(), whole), (&b"abcdef"[..], false));
        // An endless source is read no further than the bound.
        let (b, whole) = read_capped(std::io::repeat(b'x'), 1000).unwrap();
        assert_eq!((b.len(), whole), (1000, false));
    }

    #[cfg(unix)]
    #[test]
    fn links_fifos_and_large_files_are_not_read_as_text() {
        let dir = std::env::temp_dir().join(format!("cuecard-fsutil-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("f.txt");
        std::fs::write(&file, "hello").unwrap();
        assert_eq!(read_text_whole(&file, false, 5).as_deref(), Some("hello"));
        assert_eq!(read_text_whole(&file, false, 4), None, "over the bound");
        let link = dir.join("link");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        assert_eq!(read_text_whole(&link, false, 100), None, "a link refused");
        assert_eq!(read_text_whole(&link, true, 100).as_deref(), Some("hello"));
        let fifo = dir.join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid C string naming a path in our own directory.
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let err = read_regular(&fifo, false, 100).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        std::fs::write(dir.join("bin"), [0xff, 0xfe]).unwrap();
        assert_eq!(read_text_whole(&dir.join("bin"), false, 100), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
