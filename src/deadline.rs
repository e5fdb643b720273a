//! The hook's deadline. A watchdog thread gives the dispatcher a fixed time;
//! when it runs out (stdin that never closes, a guard that hangs), the
//! watchdog seals stdout, records the failure and ends the process with exit
//! code 0 and no output.

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

/// How long after the deadline the timer signal ends the process, whatever
/// the watchdog thread is doing (recording the failure can meet a busy
/// disk).
pub const BACKSTOP: Duration = Duration::from_millis(250);

/// Arms the watchdog. `on_expiry` runs on the watchdog thread after stdout
/// was sealed and before the process exits (it records the failure; it must
/// not print to stdout). Nothing here can keep the process alive: the
/// watchdog seals stdout without waiting on its writer, exits with `_exit`
/// (no flush, no exit handlers), and a timer signal armed for the deadline
/// plus [`BACKSTOP`] `_exit`s with code 0 even if the watchdog thread could
/// not start or is itself stuck in `on_expiry`.
pub fn arm(budget: Duration, on_expiry: impl FnOnce() + Send + 'static) {
    arm_backstop(budget + BACKSTOP);
    let spawned = std::thread::Builder::new()
        .name("cuecard-deadline".into())
        .spawn(move || {
            std::thread::sleep(budget);
            crate::printer::seal();
            test_hang("deadline:on-expiry");
            on_expiry();
            exit_now();
        });
    if spawned.is_err() {
        crate::diag::record(
            crate::diag::Kind::Deadline,
            "the deadline watchdog could not start: the timer signal alone ends the call",
        );
    }
}

/// Ends the process at once with code 0: no unwinding, no flush of buffers,
/// no exit handlers, nothing that could wait.
pub fn exit_now() -> ! {
    #[cfg(unix)]
    // SAFETY: _exit is async-signal-safe and has no preconditions.
    unsafe {
        libc::_exit(0)
    }
    #[cfg(not(unix))]
    std::process::exit(0)
}

/// A one-shot real-time timer whose signal (SIGALRM) ends the process with
/// code 0 from its handler.
fn arm_backstop(after: Duration) {
    #[cfg(unix)]
    {
        extern "C" fn on_alarm(_: libc::c_int) {
            // SAFETY: _exit is async-signal-safe.
            unsafe { libc::_exit(0) }
        }
        // SAFETY: sigaction/setitimer with zeroed, then filled plain-data
        // structs; the handler only calls an async-signal-safe function.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_alarm as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut sa.sa_mask);
            if libc::sigaction(libc::SIGALRM, &sa, std::ptr::null_mut()) != 0 {
                return;
            }
            let t = libc::itimerval {
                it_interval: libc::timeval {
                    tv_sec: 0,
                    tv_usec: 0,
                },
                it_value: libc::timeval {
                    tv_sec: after.as_secs() as libc::time_t,
                    tv_usec: after.subsec_micros() as libc::suseconds_t,
                },
            };
            libc::setitimer(libc::ITIMER_REAL, &t, std::ptr::null_mut());
        }
    }
    #[cfg(not(unix))]
    let _ = after;
}

/// Debug builds hang for ever at a named point when `CUECARD_TEST_HANG`
/// names it, so that the integration tests can prove the timer signal ends
/// a process whose watchdog is stuck. Release builds compile this away.
fn test_hang(point: &str) {
    if cfg!(debug_assertions) && std::env::var("CUECARD_TEST_HANG").is_ok_and(|v| v == point) {
        loop {
            std::thread::sleep(Duration::from_secs(3600));
        }
    }
}
