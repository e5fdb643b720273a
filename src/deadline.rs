//! The hook's deadline. A timer signal gives the dispatcher a fixed time;
//! when it runs out (stdin that never closes, a guard that hangs, a full
//! stdout pipe), its handler notes the deadline where the next session start
//! finds it and ends the process with exit code 0 and no further output.

use std::time::Duration;

/// The default budget for one dispatch, well under a second.
pub const DEFAULT: Duration = Duration::from_millis(700);

/// `CUECARD_DEADLINE_MS` overrides the budget (50..=5000 ms).
pub fn budget() -> Duration {
    std::env::var("CUECARD_DEADLINE_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|ms| Duration::from_millis(ms.clamp(50, 5000)))
        .unwrap_or(DEFAULT)
}

/// Arms the deadline: a one-shot real-time timer whose signal (SIGALRM)
/// ends the process with exit code 0 from its handler. No thread: the
/// handler does only async-signal-safe work (an `open` without following
/// links or waiting on a FIFO, an `fstat`, one `write` of a line prepared
/// beforehand, `_exit`), so nothing it does can block or keep the process
/// alive — not a stdin that never closes, a stdout nobody reads, a FIFO at
/// a state path or a lock another process holds. What it writes is the
/// pending deadline line set by [`record_to`], folded into the failure
/// record by the next session start or `cuecard status`.
pub fn arm(budget: Duration) {
    #[cfg(unix)]
    {
        // SAFETY: sigaction/setitimer with zeroed, then filled plain-data
        // structs; the handler only calls async-signal-safe functions.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_alarm as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            if libc::sigaction(libc::SIGALRM, &sa, std::ptr::null_mut()) != 0 {
                crate::diag::record(
                    crate::diag::Kind::Deadline,
                    "the deadline could not be armed (sigaction failed)",
                );
                return;
            }
            let t = libc::itimerval {
                it_interval: libc::timeval {
                    tv_sec: 0,
                    tv_usec: 0,
                },
                it_value: libc::timeval {
                    tv_sec: budget.as_secs() as libc::time_t,
                    tv_usec: budget.subsec_micros() as libc::suseconds_t,
                },
            };
            if libc::setitimer(libc::ITIMER_REAL, &t, std::ptr::null_mut()) != 0 {
                crate::diag::record(
                    crate::diag::Kind::Deadline,
                    "the deadline could not be armed (setitimer failed)",
                );
            }
        }
    }
    #[cfg(not(unix))]
    {
        // Elsewhere a thread ends the process (no timer signal there).
        let started = std::thread::Builder::new()
            .name("cuecard-deadline".into())
            .spawn(move || {
                std::thread::sleep(budget);
                crate::printer::seal();
                std::process::exit(0);
            });
        if started.is_err() {
            crate::diag::record(
                crate::diag::Kind::Deadline,
                "the deadline could not be armed (no watchdog thread)",
            );
        }
    }
}

/// Where the signal handler writes the deadline line, and the line: set
/// once the state root and then the session are known. A pointer to a
/// leaked, immutable value, swapped whole, so the handler never sees half
/// of one.
#[cfg(unix)]
static PENDING: std::sync::atomic::AtomicPtr<Pending> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

#[cfg(unix)]
struct Pending {
    path: std::ffi::CString,
    /// `\t<event>\t<session>\n`, after the time the handler puts first.
    tail: Vec<u8>,
}

/// The name of the pending deadline record beside the failure record.
pub const PENDING_FILE: &str = "failures.pending";

/// Prepares the line the handler appends to `<root>/failures.pending` if
/// the deadline passes: the call's event and session, sanitised.
pub fn record_to(root: &std::path::Path, event: &str, session: &str) {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let Ok(path) = std::ffi::CString::new(root.join(PENDING_FILE).as_os_str().as_bytes())
        else {
            return;
        };
        let clean = |s: &str, max| crate::text::sanitize(s, max).replace(['\t', '\n'], " ");
        let tail = format!("\t{}\t{}\n", clean(event, 40), clean(session, 80)).into_bytes();
        let new = Box::into_raw(Box::new(Pending { path, tail }));
        // The previous value is leaked, not freed: the handler may be
        // reading it (a few bytes, twice per hook call; once per call replayed).
        PENDING.swap(new, std::sync::atomic::Ordering::SeqCst);
    }
    #[cfg(not(unix))]
    let _ = (root, event, session);
}

#[cfg(unix)]
extern "C" fn on_alarm(_: libc::c_int) {
    let p = PENDING.load(std::sync::atomic::Ordering::SeqCst);
    // SAFETY: `p` is null or a leaked Pending that is never freed; every
    // call below is async-signal-safe, and the buffers are on the stack.
    unsafe {
        if !p.is_null() {
            let pending = &*p;
            let fd = libc::open(
                pending.path.as_ptr(),
                libc::O_WRONLY
                    | libc::O_APPEND
                    | libc::O_CREAT
                    | libc::O_NOFOLLOW
                    | libc::O_NONBLOCK
                    | libc::O_CLOEXEC,
                0o600 as libc::c_uint,
            );
            if fd >= 0 {
                let mut st: libc::stat = std::mem::zeroed();
                let ok = libc::fstat(fd, &mut st) == 0
                    && (st.st_mode & libc::S_IFMT) == libc::S_IFREG
                    && st.st_uid == libc::geteuid()
                    && st.st_nlink == 1;
                if ok {
                    let mut ts: libc::timespec = std::mem::zeroed();
                    libc::clock_gettime(libc::CLOCK_REALTIME, &mut ts);
                    let mut line = [0u8; 256];
                    let mut n = digits(ts.tv_sec.max(0) as u64, &mut line);
                    let tail = &pending.tail[..pending.tail.len().min(line.len() - n)];
                    line[n..n + tail.len()].copy_from_slice(tail);
                    n += tail.len();
                    libc::write(fd, line.as_ptr().cast(), n);
                }
                libc::close(fd);
            }
        }
        libc::_exit(0);
    }
}

/// Writes `v` in decimal at the start of `out`; returns the length.
#[cfg(unix)]
fn digits(mut v: u64, out: &mut [u8]) -> usize {
    let mut tmp = [0u8; 20];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    let len = tmp.len() - i;
    out[..len].copy_from_slice(&tmp[i..]);
    len
}

#[cfg(all(test, unix))]
mod tests {
    #[test]
    fn digits_are_decimal() {
        let mut b = [0u8; 32];
        for v in [0u64, 7, 10, 1_733_000_000, u64::MAX] {
            let n = super::digits(v, &mut b);
            assert_eq!(std::str::from_utf8(&b[..n]).unwrap(), v.to_string());
        }
    }
}
