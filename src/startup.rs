//! What the process sets up before any command runs.
//!
//! On Linux with glibc the binary starts without the standard library's
//! start-up (`#![no_main]` in main.rs). That start-up locates the main
//! thread's stack to name a stack overflow in its message, and glibc finds
//! it by reading and parsing `/proc/self/maps`: about 70 µs of every hook
//! call on the bench machine, more than cuecard's own work on most calls.
//! Two things it does are part of cuecard's contract, so [`prepare`] does
//! them itself:
//!
//! - SIGPIPE is ignored, so that a harness that stops reading gets no
//!   answer rather than a process killed by a signal (exit 0, the hook's contract);
//!   so is SIGXFSZ, so that a file-size limit fails a state write rather
//!   than killing the hook, and SIGALRM is unblocked, so that a mask the
//!   harness left blocking it cannot disable the deadline ([`signals`]);
//! - file descriptors 0, 1 and 2 are open: one a harness left closed is
//!   opened on `/dev/null` (on `/`, path-only, where there is none), so
//!   that the first file cuecard opens (a state file) can never be taken
//!   for stdout and receive the answer. The standard library aborts when
//!   `/dev/null` cannot be opened; a hook must exit 0.
//!
//! Arguments still reach `std::env::args_os` (glibc hands them to the
//! standard library's initialiser). What is lost: a stack overflow ends the
//! process with SIGSEGV instead of a message and SIGABRT, neither of which
//! the hook path can reach (its inputs and recursion are bounded).

/// Ignores SIGPIPE and opens any of fds 0, 1, 2 that is closed, lowest
/// first (so each open lands on the closed one): on `/dev/null`, or, where
/// a sandbox has none, on the root directory as a path-only descriptor
/// (reads and writes on it fail). Either way the descriptor is taken, so no
/// file cuecard opens later can become stdout. With glibc it also keeps
/// every thread on the one malloc arena, a leftover of the deadline thread
/// the SIGALRM timer replaced: the hook starts no thread on Linux now.
///
/// # Safety
///
/// Call it first thing in `main`, before any other thread exists: it
/// places descriptors at 0, 1 and 2 (another thread's open could race it
/// for them) and changes process-wide signal and allocator settings.
pub unsafe fn prepare() {
    #[cfg(unix)]
    // SAFETY: fcntl, open and signal with valid arguments, before any other
    // thread exists (the caller's contract).
    unsafe {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        const NOTHING: libc::c_int = libc::O_PATH | libc::O_DIRECTORY;
        #[cfg(not(any(target_os = "linux", target_os = "android")))]
        const NOTHING: libc::c_int = libc::O_RDONLY | libc::O_DIRECTORY;
        for fd in 0..3 {
            if libc::fcntl(fd, libc::F_GETFD) == -1
                && std::io::Error::last_os_error().raw_os_error() == Some(libc::EBADF)
            {
                let mut opened = libc::open(c"/dev/null".as_ptr(), libc::O_RDWR);
                if opened == -1 {
                    // No /dev/null (an empty /dev in a container): leaving
                    // the descriptor free would hand it to the first state
                    // file, and the answer with it.
                    opened = libc::open(c"/".as_ptr(), NOTHING);
                }
                if opened != fd && opened >= 0 {
                    // Not the lowest free descriptor: put it where it belongs.
                    libc::dup2(opened, fd);
                    libc::close(opened);
                }
            }
        }
        libc::signal(libc::SIGPIPE, libc::SIG_IGN);
        signals();
        #[cfg(all(target_os = "linux", target_env = "gnu"))]
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// SIGXFSZ ignored (a file-size limit, `ulimit -f`, fails a state write
/// with EFBIG instead of killing the hook) and SIGALRM unblocked (the
/// signal mask is inherited: a harness that blocks SIGALRM would otherwise
/// disable the deadline). Done by [`prepare`], and by the deadline where
/// `prepare` does not run.
pub fn signals() {
    #[cfg(unix)]
    // SAFETY: signal and sigprocmask with a plain-data set.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigaddset(&mut set, libc::SIGALRM);
        libc::sigprocmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
    }
}
