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
    let create = || {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&tmp)
    };
    let result = (|| {
        // A temp left by an earlier process with this pid is stale.
        let mut f = create().or_else(|_| {
            let _ = std::fs::remove_file(&tmp);
            create()
        })?;
        f.write_all(bytes)?;
        if let Some(p) = perms {
            f.set_permissions(p)?;
        }
        if durable {
            f.sync_all()?;
        }
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    } else if durable && let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    result
}
