//! All output goes through here, so stdout discipline on the hook path cannot
//! be broken by accident: `dispatch` writes at most one JSON object and a
//! newline, once, and (where the deadline is a thread, not a signal) the
//! deadline can seal stdout so that nothing is written after it gave up.

use std::io::Write;
use std::sync::atomic::{AtomicI32, AtomicU8, Ordering};
use std::time::{Duration, Instant};

/// The hook's one answer: not yet written, being written, or written (or
/// sealed). An atomic, not a lock: the deadline's [`seal`] must never wait on
/// a writer that a full pipe has stopped.
static HOOK_STDOUT: AtomicU8 = AtomicU8::new(OPEN);
const OPEN: u8 = 0;
const WRITING: u8 = 1;
const DONE: u8 = 2;

/// The process's exit code once an answer was written: 2 after a block
/// (the exit-code-2 deny of Kiro and Windsurf), else 0. The deadline's
/// handler exits with it, so work after the answer that runs past the
/// deadline cannot turn a block into an allow.
static EXIT_CODE: AtomicI32 = AtomicI32::new(0);

/// Whether the answer was dropped because it did not fit where it goes at
/// once (nothing was written rather than part of it).
static DROPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the hook's answer was dropped rather than written in part (for
/// the failure record).
pub fn dropped() -> bool {
    DROPPED.load(Ordering::SeqCst)
}

/// The exit code the answer written so far calls for.
pub fn exit_code() -> i32 {
    EXIT_CODE.load(Ordering::SeqCst)
}

/// For the deadline's handler (async-signal-safe): claims the one answer
/// when none was written yet. True: the handler may write its own.
pub fn claim_for_deadline() -> bool {
    HOOK_STDOUT
        .compare_exchange(OPEN, DONE, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
}

/// How long [`seal`] lets an answer being written finish.
const SEAL_GRACE: Duration = Duration::from_millis(50);

/// Writes the hook's one answer: `line` must be a single JSON object (or, for
/// harnesses that read plain text, one text). Returns false when stdout was
/// already used or sealed.
pub fn hook_answer(line: &str) -> bool {
    write_once(1, line, 0)
}

/// Writes `text` and a newline to `fd` once per process (the first of the
/// hook's answer or block claims the slot), whole or not at all: in one
/// buffer, only where it fits at once ([`write_whole`]), so that neither a
/// full pipe nor the deadline can leave a reader half an object. (The
/// deadline's handler lets an answer being written finish: see
/// [`writing`].)
fn write_once(fd: i32, text: &str, code: i32) -> bool {
    if HOOK_STDOUT
        .compare_exchange(OPEN, WRITING, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        return false;
    }
    EXIT_CODE.store(code, Ordering::SeqCst);
    let mut buf = Vec::with_capacity(text.len() + 1);
    buf.extend_from_slice(text.as_bytes());
    buf.push(b'\n');
    #[cfg(unix)]
    {
        // SAFETY: a valid buffer and its length.
        if !unsafe { write_whole(fd, buf.as_ptr(), buf.len()) } {
            DROPPED.store(true, Ordering::SeqCst);
        }
    }
    #[cfg(not(unix))]
    {
        let mut out: Box<dyn Write> = if fd == 2 {
            Box::new(std::io::stderr().lock())
        } else {
            Box::new(std::io::stdout().lock())
        };
        // A closed stream (the harness went away) is not an error worth raising.
        let _ = out.write_all(&buf);
        let _ = out.flush();
    }
    HOOK_STDOUT.store(DONE, Ordering::SeqCst);
    true
}

/// Whether the answer is being written right now (for the deadline's
/// handler, which then gives that write a moment to finish rather than
/// cut it: the write cannot block, [`write_whole`] made sure).
pub fn writing() -> bool {
    HOOK_STDOUT.load(Ordering::SeqCst) == WRITING
}

/// Bytes a pipe takes all at once or not at all (POSIX `PIPE_BUF`), and
/// that a stream socket takes as one segment.
const ATOMIC_WRITE: usize = 4096;

/// Writes `len` bytes at `buf` to `fd` whole, or nothing. Up to
/// `ATOMIC_WRITE` (4096) bytes, one plain write (atomic on a pipe). Beyond it,
/// to a pipe only when its free space holds them all (the pipe is grown to
/// fit when it can), to a socket only when its send buffer does (sent
/// without waiting), elsewhere (a file, /dev/null, a terminal) as is. True
/// when the bytes were handed over whole, or the reader is gone.
/// Async-signal-safe (system calls on the stack only): the deadline's
/// handler writes through it too.
///
/// # Safety
///
/// `buf` must hold `len` readable bytes.
#[cfg(unix)]
pub unsafe fn write_whole(fd: i32, buf: *const u8, len: usize) -> bool {
    // SAFETY: system calls on plain data; `buf` is the caller's.
    unsafe {
        let mut sock = false;
        if len > ATOMIC_WRITE {
            match pipe_fits(fd, len) {
                Some(true) => {}
                Some(false) => return false,
                None => {
                    sock = is_socket(fd);
                    if sock && !socket_fits(fd, len) {
                        return false;
                    }
                }
            }
        }
        let mut done = 0;
        while done < len {
            let rest = buf.add(done).cast();
            let n = if sock {
                libc::send(
                    fd,
                    rest,
                    len - done,
                    libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
                )
            } else {
                libc::write(fd, rest, len - done)
            };
            if n > 0 {
                done += n as usize;
                continue;
            }
            let e = std::io::Error::last_os_error().raw_os_error().unwrap_or(0);
            if n < 0 && e == libc::EINTR {
                continue;
            }
            // EPIPE: the reader is gone (nothing to protect); anything
            // else: stop here.
            return e == libc::EPIPE;
        }
        true
    }
}

/// Whether `fd` is a socket.
#[cfg(unix)]
unsafe fn is_socket(fd: i32) -> bool {
    // SAFETY: fstat into a zeroed plain struct.
    unsafe {
        let mut st: libc::stat = std::mem::zeroed();
        libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFSOCK
    }
}

/// Whether `len` bytes fit in the pipe at `fd` at once (grown to fit when
/// the kernel allows); `None` when `fd` is not a pipe.
#[cfg(unix)]
unsafe fn pipe_fits(fd: i32, len: usize) -> Option<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    // SAFETY: fcntl and ioctl on a descriptor, plain integers.
    unsafe {
        let mut cap = libc::fcntl(fd, libc::F_GETPIPE_SZ);
        if cap < 0 {
            return None;
        }
        let mut queued: libc::c_int = 0;
        if libc::ioctl(fd, libc::FIONREAD, &mut queued) != 0 {
            queued = 0;
        }
        let need = len + queued.max(0) as usize;
        if (cap as usize) < need {
            cap = libc::fcntl(fd, libc::F_SETPIPE_SZ, need as libc::c_int);
        }
        Some(cap >= 0 && cap as usize >= need)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    // SAFETY: fstat into a zeroed plain struct.
    unsafe {
        // Elsewhere the free space of a pipe is not known: only what
        // POSIX writes atomically goes.
        let mut st: libc::stat = std::mem::zeroed();
        let pipe = libc::fstat(fd, &mut st) == 0 && (st.st_mode & libc::S_IFMT) == libc::S_IFIFO;
        pipe.then_some(len <= ATOMIC_WRITE)
    }
}

/// Whether `len` bytes fit in the socket's send buffer at `fd` at once
/// (grown to fit when the kernel allows).
#[cfg(unix)]
unsafe fn socket_fits(fd: i32, len: usize) -> bool {
    // SAFETY: getsockopt/setsockopt with a plain integer.
    unsafe {
        let mut size: libc::c_int = 0;
        let mut sl = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
        let opt = libc::SO_SNDBUF;
        if libc::getsockopt(fd, libc::SOL_SOCKET, opt, (&raw mut size).cast(), &mut sl) != 0 {
            return true;
        }
        // Half the buffer is bookkeeping; leave room for it.
        let need = (2 * len + 64 * 1024) as libc::c_int;
        if size < need {
            libc::setsockopt(
                fd,
                libc::SOL_SOCKET,
                opt,
                (&raw const need).cast(),
                std::mem::size_of::<libc::c_int>() as libc::socklen_t,
            );
            sl = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
            libc::getsockopt(fd, libc::SOL_SOCKET, opt, (&raw mut size).cast(), &mut sl);
        }
        size >= need.min(2 * len as libc::c_int + 4096)
    }
}

/// Writes the reason of an exit-code-2 deny to stderr (stdout stays
/// empty), once, and only while stdout is still open (a call the deadline
/// already answered is not blocked after the fact). True when written:
/// the process then exits 2 (and so does the deadline's handler, should
/// it fire after).
pub fn hook_block(reason: &str) -> bool {
    write_once(2, crate::text::prefix16(reason, crate::text::MAX_CHARS), 2)
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

/// When the commands colour their output (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set (`CLICOLOR_FORCE` forces it
    /// in a pipe too); never in a pipe otherwise.
    #[default]
    Auto,
    Always,
    Never,
}

/// What a word of output says about the state of things: green, yellow,
/// red on a terminal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    Ok,
    Warn,
    Fail,
}

impl Tone {
    /// The tone of a state word the commands print (`verify`'s labels,
    /// `doctor`'s verdicts, `cards check`'s and `install`'s kinds), `None`
    /// for a word that says nothing about state. The one table of them.
    pub fn of(word: &str) -> Option<Tone> {
        match word.trim().trim_end_matches(':') {
            "ok" | "trusted" | "installed" => Some(Tone::Ok),
            "WAIT" | "STALE" | "UNTRUSTED" | "NOT-ON-PATH" | "YOURS" | "note" | "warning"
            | "changed" | "new" | "skipped" => Some(Tone::Warn),
            "FAIL" | "MISSING" | "NOT-RUN" | "UNREADABLE" | "UNENFORCED" | "HOOKS-OFF"
            | "DOUBLE" | "INVALID" | "error" | "failed" => Some(Tone::Fail),
            _ => None,
        }
    }

    fn sgr(self) -> &'static str {
        match self {
            Tone::Ok => "\x1b[32m",
            Tone::Warn => "\x1b[33m",
            Tone::Fail => "\x1b[31m",
        }
    }
}

/// The output of every command but the hook: made once by the command line
/// (`commands::main`) and handed to each command, which prints only through
/// it. Text for people goes to stdout, problems to stderr; both end in a
/// newline. It owns every decision about the terminal: whether to colour
/// (a terminal, `NO_COLOR`, `CLICOLOR_FORCE`, `--color`), how wide it is,
/// and whether a question may be asked. (The hook writes through
/// [`hook_answer`] and [`hook_block`], once per process, never through a
/// `Printer`.)
#[derive(Debug, Clone, Copy, Default)]
pub struct Printer {
    color: bool,
    /// Whether stdout is a terminal.
    terminal: bool,
    /// Whether stdin and stdout are both a terminal: a person can answer.
    interactive: bool,
    /// The terminal's width in columns, when stdout is one.
    width: Option<usize>,
}

impl Printer {
    /// The one printer of a command-line run, as `--color` (default: auto)
    /// and the environment decide.
    pub fn new(choice: ColorChoice) -> Self {
        let terminal = is_terminal(1);
        let set = |k: &str| std::env::var_os(k).is_some_and(|v| !v.is_empty());
        let color = match choice {
            ColorChoice::Always => true,
            ColorChoice::Never => false,
            ColorChoice::Auto if set("NO_COLOR") => false,
            ColorChoice::Auto
                if std::env::var_os("CLICOLOR_FORCE")
                    .is_some_and(|v| !v.is_empty() && v != "0") =>
            {
                true
            }
            ColorChoice::Auto => terminal && std::env::var_os("TERM").is_none_or(|t| t != "dumb"),
        };
        Printer {
            color,
            terminal,
            interactive: terminal && is_terminal(0),
            width: if terminal { terminal_width(1) } else { None },
        }
    }

    /// A printer for a pipe: no colour, no terminal (tests, tools).
    pub fn plain() -> Self {
        Self::default()
    }

    /// Text for the person who ran the command: stdout.
    pub fn out(&self, text: &str) {
        out(text)
    }

    /// A report for a person (install's, uninstall's): stdout, with the
    /// first word of each line coloured when it is a state word such as
    /// `warning:` or `note:` ([`Tone::of`]).
    pub fn report(&self, text: &str) {
        if !self.color {
            return out(text);
        }
        let mut coloured = String::with_capacity(text.len() + 64);
        for line in text.split_inclusive('\n') {
            let body = line.trim_start();
            let indent = &line[..line.len() - body.len()];
            let word = body.split(' ').next().unwrap_or("");
            match Tone::of(word).filter(|_| word.ends_with(':')) {
                Some(t) => {
                    coloured.push_str(indent);
                    coloured.push_str(&self.paint(t, word));
                    coloured.push_str(&body[word.len()..]);
                }
                None => coloured.push_str(line),
            }
        }
        out(&coloured)
    }

    /// A problem or a refusal: stderr.
    pub fn err(&self, text: &str) {
        err(text)
    }

    /// Whether stdout is a terminal (tables rendered for it rather than
    /// Markdown).
    pub fn terminal(&self) -> bool {
        self.terminal
    }

    /// Whether a person can be asked (stdin and stdout are a terminal).
    pub fn interactive(&self) -> bool {
        self.interactive
    }

    /// The width to lay text out in: the terminal's, else 100.
    pub fn width(&self) -> usize {
        self.width.unwrap_or(100).max(20)
    }

    /// `text` in the tone's colour when colouring, else as it is.
    pub fn paint(&self, tone: Tone, text: &str) -> String {
        if self.color && !text.is_empty() {
            format!("{}{text}\x1b[0m", tone.sgr())
        } else {
            text.to_string()
        }
    }

    /// A state word padded to `width` columns, coloured by its tone
    /// ([`Tone::of`]); the padding stays outside the colour.
    pub fn state(&self, word: &str, width: usize) -> String {
        let pad = " ".repeat(width.saturating_sub(word.chars().count()));
        match Tone::of(word) {
            Some(t) => format!("{}{pad}", self.paint(t, word)),
            None => format!("{word}{pad}"),
        }
    }

    /// Asks a yes/no question on the terminal (`[y/N]`: no unless the
    /// answer starts with `y`). `None` when no person can answer (stdin or
    /// stdout is not a terminal): the caller decides without asking.
    pub fn confirm(&self, question: &str) -> Option<bool> {
        if !self.interactive {
            return None;
        }
        {
            let mut o = std::io::stdout().lock();
            let _ = write!(o, "{question} [y/N] ");
            let _ = o.flush();
        }
        let mut line = String::new();
        // A bounded read: one line, at most 1 KiB.
        use std::io::{BufRead, Read};
        let _ = std::io::stdin().lock().take(1024).read_line(&mut line);
        Some(matches!(
            line.trim().to_ascii_lowercase().as_str(),
            "y" | "yes"
        ))
    }
}

/// Whether `fd` is a terminal.
fn is_terminal(fd: i32) -> bool {
    use std::io::IsTerminal;
    match fd {
        0 => std::io::stdin().is_terminal(),
        1 => std::io::stdout().is_terminal(),
        _ => std::io::stderr().is_terminal(),
    }
}

/// The width of the terminal at `fd`; `COLUMNS` when the size is not known.
fn terminal_width(fd: i32) -> Option<usize> {
    #[cfg(unix)]
    // SAFETY: TIOCGWINSZ fills a zeroed plain struct.
    unsafe {
        let mut ws: libc::winsize = std::mem::zeroed();
        if libc::ioctl(fd, libc::TIOCGWINSZ, &mut ws) == 0 && ws.ws_col > 0 {
            return Some(ws.ws_col as usize);
        }
    }
    let _ = fd;
    std::env::var("COLUMNS").ok()?.trim().parse().ok()
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
