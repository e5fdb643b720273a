//! All output goes through here, so stdout discipline on the hook path cannot
//! be broken by accident: `dispatch` writes at most one JSON object and a
//! newline, once, and (where the deadline is a thread, not a signal) the
//! deadline can seal stdout so that nothing is written after it gave up.

use std::io::Write;
use std::sync::atomic::{AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// The hook's one answer: not yet written, being written, or written (or
/// sealed). An atomic, not a lock: the deadline's [`seal`] must never wait on
/// a writer that a full pipe has stopped.
static HOOK_STDOUT: AtomicU8 = AtomicU8::new(OPEN);
const OPEN: u8 = 0;
const WRITING: u8 = 1;
const DONE: u8 = 2;

/// How long [`seal`] lets an answer being written finish.
const SEAL_GRACE: Duration = Duration::from_millis(50);

/// Writes the hook's one answer: `line` must be a single JSON object (or, for
/// harnesses that read plain text, one text). Returns false when stdout was
/// already used or sealed.
pub fn hook_answer(line: &str) -> bool {
    write_once(|| Box::new(std::io::stdout().lock()), line)
}

/// Writes `text` and a newline through the writer `open` gives, once per
/// process: the first of the hook's answer or block claims the slot.
fn write_once(open: impl FnOnce() -> Box<dyn Write>, text: &str) -> bool {
    if HOOK_STDOUT
        .compare_exchange(OPEN, WRITING, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        return false;
    }
    let mut out = open();
    // A closed stream (the harness went away) is not an error worth raising.
    let _ = out.write_all(text.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
    HOOK_STDOUT.store(DONE, Ordering::SeqCst);
    true
}

/// Writes the reason of an exit-code-2 deny to stderr (stdout stays
/// empty), once, and only while stdout is still open (a call the deadline
/// already answered is not blocked after the fact). True when written:
/// the process then exits 2.
pub fn hook_block(reason: &str) -> bool {
    write_once(
        || Box::new(std::io::stderr().lock()),
        crate::text::prefix16(reason, crate::text::MAX_CHARS),
    )
}

/// Seals stdout: no hook answer will be written after this. An answer being
/// written is given a short grace to finish, so it is not cut in half by an
/// exit that follows; a writer that a full pipe holds longer is not waited
/// for. Never blocks beyond the grace.
pub fn seal() {
    if HOOK_STDOUT
        .compare_exchange(OPEN, DONE, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        return;
    }
    let start = Instant::now();
    while HOOK_STDOUT.load(Ordering::SeqCst) == WRITING && start.elapsed() < SEAL_GRACE {
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// The output of every command but the hook: made once by the command line
/// (`commands::main`) and handed to each command, which prints only through
/// it. Text for people goes to stdout, problems to stderr; both end in a
/// newline. (The hook writes through [`hook_answer`] and [`hook_block`],
/// once per process, never through a `Printer`.)
#[derive(Debug, Clone, Copy, Default)]
pub struct Printer {
    _private: (),
}

impl Printer {
    /// The one printer of a command-line run.
    pub fn new() -> Self {
        Self::default()
    }

    /// Text for the person who ran the command: stdout.
    pub fn out(&self, text: &str) {
        out(text)
    }

    /// A problem or a refusal: stderr.
    pub fn err(&self, text: &str) {
        err(text)
    }
}

/// Human-facing output of the other commands (through a [`Printer`]).
fn out(text: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = o.write_all(b"\n");
    }
    let _ = o.flush();
}

/// Diagnostics: stderr only (the library's own, from `diag` and `tokens`;
/// the commands print through a [`Printer`]).
pub fn err(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = e.write_all(b"\n");
    }
}
