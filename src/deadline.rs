//! The hook's deadline. A timer signal gives the dispatcher a fixed time;
//! when it runs out (stdin that never closes, a guard that hangs, a full
//! stdout pipe), its handler notes the deadline where the next session start
//! finds it and ends the process: with no output and exit code 0, or, where
//! a policy decides what cuecard cannot judge ([`crate::unjudged`]), with
//! the decision rendered before judging began ([`set_answer`]), in one
//! write; after an answer was written, with the exit code it called for
//! (2 after a block).

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
            // A harness may start the hook with SIGALRM blocked (the mask
            // is inherited), and a file-size limit would kill it with
            // SIGXFSZ: `startup::prepare` sees to both where it runs (the
            // glibc build), and this, elsewhere.
            #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
            {
                libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
                let mut set: libc::sigset_t = std::mem::zeroed();
                libc::sigemptyset(&mut set);
                libc::sigaddset(&mut set, libc::SIGALRM);
                libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
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

/// Debug builds stall at a named point for two budgets when
/// `CUECARD_TEST_STALL` names it, so that the integration tests can make
/// work after the answer run past the deadline. Release builds compile
/// this away.
pub fn test_stall(point: &str) {
    if cfg!(debug_assertions) && std::env::var("CUECARD_TEST_STALL").is_ok_and(|v| v == point) {
        std::thread::sleep(budget() * 2);
    }
}

/// What the hook answers when its deadline passes before it answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    /// This line on stdout, exit code 0.
    Stdout(String),
    /// This reason on stderr, exit code 2 (Kiro, Windsurf).
    Block(String),
}

/// The prepared answer, bytes and all, for the handler.
#[cfg(unix)]
struct Prepared {
    fd: libc::c_int,
    bytes: Vec<u8>,
    code: libc::c_int,
}

#[cfg(unix)]
static ANSWER: std::sync::atomic::AtomicPtr<Prepared> =
    std::sync::atomic::AtomicPtr::new(std::ptr::null_mut());

/// Sets (or, with `None`, clears) the answer the handler writes if the
/// deadline passes before the hook answered. Rendered beforehand, so that
/// the handler only writes bytes (one `write`, async-signal-safe).
pub fn set_answer(answer: Option<Answer>) {
    #[cfg(unix)]
    {
        let new = match answer {
            None => std::ptr::null_mut(),
            Some(a) => {
                let (fd, text, code) = match a {
                    Answer::Stdout(t) => (1, t, 0),
                    Answer::Block(t) => (2, t, 2),
                };
                let mut bytes = text.into_bytes();
                bytes.push(b'\n');
                Box::into_raw(Box::new(Prepared { fd, bytes, code }))
            }
        };
        // The previous value is leaked, not freed: the handler may be
        // reading it.
        ANSWER.swap(new, std::sync::atomic::Ordering::SeqCst);
    }
    #[cfg(not(unix))]
    let _ = answer;
}

/// Writes the prepared answer when judging has not finished (nothing was
/// answered and the answer was not settled): the deadline's handler, and
/// the hook when its judging panicked. Returns the exit code it calls for;
/// `None` when the hook had already answered (or settled on no answer).
/// Async-signal-safe.
pub fn answer_unjudged() -> Option<i32> {
    if !crate::printer::claim_for_deadline() {
        return None;
    }
    #[cfg(unix)]
    {
        let a = ANSWER.load(std::sync::atomic::Ordering::SeqCst);
        if !a.is_null() {
            // SAFETY: a leaked Prepared that is never freed.
            let a = unsafe { &*a };
            // SAFETY: the prepared bytes and their length.
            unsafe { crate::printer::write_whole(a.fd, a.bytes.as_ptr(), a.bytes.len()) };
            return Some(a.code);
        }
    }
    Some(0)
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

/// How many times the handler lets an answer being written finish (20 ms
/// each) before it ends the process anyway.
#[cfg(unix)]
static GRACE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(5);

#[cfg(unix)]
extern "C" fn on_alarm(_: libc::c_int) {
    // An answer being written is not cut: its write cannot block (its
    // room was checked) and finishes in moments; come back then.
    if crate::printer::writing() && GRACE.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) > 0 {
        let t = libc::itimerval {
            it_interval: libc::timeval {
                tv_sec: 0,
                tv_usec: 0,
            },
            it_value: libc::timeval {
                tv_sec: 0,
                tv_usec: 20_000,
            },
        };
        // SAFETY: setitimer with a plain struct; async-signal-safe.
        unsafe { libc::setitimer(libc::ITIMER_REAL, &t, std::ptr::null_mut()) };
        return;
    }
    let p = PENDING.load(std::sync::atomic::Ordering::SeqCst);
    // The answer: the prepared one when judging had not finished;
    // otherwise the exit code the answer called for. (The answer's own
    // write holds this signal off, so it is never cut in half.)
    let code = answer_unjudged().unwrap_or_else(crate::printer::exit_code);
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
        libc::_exit(code);
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
