//! All output goes through here, so stdout discipline on the hook path cannot
//! be broken by accident: `dispatch` writes at most one JSON object and a
//! newline, once, and the deadline watchdog can seal stdout so that nothing
//! is written after it gave up.

use std::io::Write;
use std::sync::Mutex;

/// `true` once the hook's one answer was written (or stdout was sealed).
static HOOK_STDOUT: Mutex<bool> = Mutex::new(false);

/// Writes the hook's one answer: `line` must be a single JSON object (or, for
/// harnesses that read plain text, one text). Returns false when stdout was
/// already used or sealed.
pub fn hook_answer(line: &str) -> bool {
    let mut done = HOOK_STDOUT.lock().unwrap_or_else(|e| e.into_inner());
    if *done {
        return false;
    }
    *done = true;
    let mut out = std::io::stdout().lock();
    // A closed stdout (the harness went away) is not an error worth raising.
    let _ = out.write_all(line.as_bytes());
    let _ = out.write_all(b"\n");
    let _ = out.flush();
    true
}

/// Seals stdout: no hook answer will be written after this. Blocks while an
/// answer is being written, so an answer is never cut in half.
pub fn seal() {
    let mut done = HOOK_STDOUT.lock().unwrap_or_else(|e| e.into_inner());
    *done = true;
}

/// Human-facing output of the other commands.
pub fn out(text: &str) {
    let mut o = std::io::stdout().lock();
    let _ = o.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = o.write_all(b"\n");
    }
    let _ = o.flush();
}

/// Diagnostics: stderr only.
pub fn err(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes());
    if !text.ends_with('\n') {
        let _ = e.write_all(b"\n");
    }
}
