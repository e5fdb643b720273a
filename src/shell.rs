//! A shell command reader for the guards: it turns a command line into the
//! simple commands it would run, without running anything.
//!
//! It reads POSIX-shell and bash syntax well enough to see what a command
//! does: quoting (`'…'`, `"…"`, `$'…'`, backslash escapes), the separators
//! `&&`, `||`, `;`, `|`, `|&`, `&` and newlines, subshells `( … )` and groups
//! `{ …; }`, command substitutions `$( … )` and backticks, process
//! substitutions `<( … )`/`>( … )`, heredocs (`<<EOF`, `<<-'EOF'`: the body is
//! data attached to its command) and here-strings, and redirections with
//! their targets. It then unwraps the programs that only run another one
//! (`sudo`, `doas`, `env`, `nice`, `ionice`, `timeout`, `nohup`, `time`,
//! `command`, `exec`, `stdbuf`, `xargs`, `busybox`, leading `VAR=val`
//! assignments) and parses the scripts handed to a shell (`bash -c`, `sh -c`,
//! `zsh -c`, `dash -c`, `su -c`, `pwsh -Command`, `powershell -Command`,
//! `cmd /c`, `eval`, a heredoc or here-string fed to a shell).
//!
//! Bounds: only the first [`MAX_INPUT`] bytes are read; nested scripts
//! (substitutions, backticks, `-c` scripts, `eval`, heredocs fed to a shell)
//! are parsed down to [`MAX_DEPTH`] levels, deeper ones are kept as literal
//! text in the word that holds them; at most [`MAX_COMMANDS`] commands are
//! returned. Syntax it cannot make sense of (an unclosed quote, a stray
//! parenthesis) is read as far as it goes: the result is what could be read,
//! never a panic.

/// Only this many bytes of a command are considered.
pub const MAX_INPUT: usize = 64 * 1024;
/// How many levels of nested scripts are parsed (`bash -c "sudo sh -c '…'"`
/// is two levels; `$(…)` inside it would be a third).
pub const MAX_DEPTH: usize = 4;
/// The most simple commands one call returns.
pub const MAX_COMMANDS: usize = 2048;

/// One command as it would run: its words after expansion of quotes (variables
/// and substitutions are kept as written, e.g. `$HOME`, `$(pwd)`), its
/// redirections, and the body of its heredoc, if any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    pub argv: Vec<String>,
    pub redirects: Vec<Redirect>,
    /// The heredoc body (several heredocs are concatenated), as data.
    pub heredoc: Option<String>,
    /// The wrappers peeled off to reach this command, outermost first, by
    /// program name (`sudo`, `env`, `bash` for `bash -c`, `eval`, ...).
    pub wrappers: Vec<String>,
    /// Whether this command's standard input is the output of the command
    /// before it in a pipeline (`curl … | sh`: true for `sh`).
    pub piped: bool,
}

/// A redirection: `op` as written with its file descriptor (`>`, `>>`, `2>`,
/// `&>`, `>|`, `<`, `<<<`, `2>&`, `<<` for a heredoc), `target` its word (for a
/// heredoc the delimiter; for a duplication such as `2>&1` the descriptor).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Redirect {
    pub op: String,
    pub target: String,
}

impl Redirect {
    /// Whether this redirection writes (creates, truncates or appends to)
    /// the file named by `target`.
    pub fn writes_file(&self) -> bool {
        let op = self.op.trim_start_matches(|c: char| c.is_ascii_digit());
        if !op.contains('>') {
            return false;
        }
        if op.ends_with('&') {
            // `>&file` is bash's `&>file`; `>&2` and `>&-` duplicate.
            return !(self.target == "-" || self.target.chars().all(|c| c.is_ascii_digit()));
        }
        true
    }
}

impl SimpleCommand {
    /// The program's base name (`/usr/bin/git` → `git`, `C:\x\pwsh.exe` →
    /// `pwsh.exe`).
    pub fn program(&self) -> Option<&str> {
        let first = self.argv.first()?;
        Some(first.rsplit(['/', '\\']).next().unwrap_or(first))
    }

    /// The arguments after the program.
    pub fn args(&self) -> &[String] {
        self.argv.get(1..).unwrap_or(&[])
    }
}

/// Every simple command in `command`, wrappers unwrapped, nested `-c`
/// scripts, `$(...)`, backticks and subshells included (bounded depth), in
/// source order; the commands of a substitution come before the command whose
/// word holds it (they run first).
pub fn parse(command: &str) -> Vec<SimpleCommand> {
    let mut out = Vec::new();
    parse_at(crate::text::prefix_bytes(command, MAX_INPUT), 0, &mut out);
    out
}

/// [`parse`] for PowerShell (and `cmd.exe`) command lines: a backslash is a
/// path separator there, not an escape, and the escape character is the
/// backtick.
pub fn parse_powershell(command: &str) -> Vec<SimpleCommand> {
    parse(&powershell_as_sh(crate::text::prefix_bytes(
        command, MAX_INPUT,
    )))
}

/// Rewrites PowerShell quoting into the shell's: `\` stays literal, a
/// backtick escapes the next character.
fn powershell_as_sh(script: &str) -> String {
    let mut out = String::with_capacity(script.len() + 16);
    for c in script.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '`' => out.push('\\'),
            c => out.push(c),
        }
    }
    out
}

fn parse_at(src: &str, depth: usize, out: &mut Vec<SimpleCommand>) {
    let chars: Vec<char> = src.chars().collect();
    let mut p = Parser {
        s: &chars,
        i: 0,
        items: Vec::new(),
        heredocs: Vec::new(),
        pending: Vec::new(),
    };
    p.seq(depth, false);
    let Parser {
        items, heredocs, ..
    } = p;
    for item in items {
        if out.len() >= MAX_COMMANDS {
            return;
        }
        match item {
            Item::Done(cmds) => {
                let room = MAX_COMMANDS - out.len();
                out.extend(cmds.into_iter().take(room));
            }
            Item::Raw(raw, d) => {
                let heredoc = if raw.heredoc_ids.is_empty() {
                    None
                } else {
                    let mut body = String::new();
                    for id in &raw.heredoc_ids {
                        body.push_str(&heredocs[*id]);
                    }
                    Some(body)
                };
                let cmd = SimpleCommand {
                    argv: raw.argv,
                    redirects: raw.redirects,
                    heredoc,
                    wrappers: Vec::new(),
                    piped: raw.piped,
                };
                unwrap(cmd, d, out);
            }
        }
    }
}

#[derive(Default)]
struct RawCmd {
    argv: Vec<String>,
    redirects: Vec<Redirect>,
    heredoc_ids: Vec<usize>,
    piped: bool,
}

impl RawCmd {
    fn is_empty(&self) -> bool {
        self.argv.is_empty() && self.redirects.is_empty()
    }
}

enum Item {
    /// A command read from this text, at its nesting depth.
    Raw(RawCmd, usize),
    /// Commands read from a separate text (backticks), already unwrapped.
    Done(Vec<SimpleCommand>),
}

struct PendingHeredoc {
    id: usize,
    delimiter: String,
    strip_tabs: bool,
}

struct Parser<'a> {
    s: &'a [char],
    i: usize,
    items: Vec<Item>,
    /// Heredoc bodies by id.
    heredocs: Vec<String>,
    /// Heredocs whose body starts after the next newline.
    pending: Vec<PendingHeredoc>,
}

fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r'
}

fn is_meta(c: char) -> bool {
    matches!(c, ';' | '&' | '|' | '(' | ')' | '<' | '>' | '\n') || is_blank(c)
}

impl Parser<'_> {
    fn peek(&self, off: usize) -> Option<char> {
        self.s.get(self.i + off).copied()
    }

    fn finish(&mut self, cur: &mut RawCmd, depth: usize) {
        let cmd = std::mem::take(cur);
        if !cmd.is_empty() || !cmd.heredoc_ids.is_empty() {
            self.items.push(Item::Raw(cmd, depth));
        }
    }

    /// Reads a list of commands until the end, or (`in_subst`) until the `)`
    /// that closes a `$(` / `<(`, which it consumes.
    fn seq(&mut self, depth: usize, in_subst: bool) {
        let mut cur = RawCmd::default();
        let mut parens = 0usize;
        let mut next_piped = false;
        loop {
            let Some(c) = self.peek(0) else {
                self.finish(&mut cur, depth);
                return;
            };
            if is_blank(c) {
                self.i += 1;
                continue;
            }
            if c == '\\' && self.peek(1) == Some('\n') {
                self.i += 2;
                continue;
            }
            if c == '#' {
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                continue;
            }
            match c {
                '\n' => {
                    self.i += 1;
                    self.finish(&mut cur, depth);
                    next_piped = false;
                    self.read_heredoc_bodies();
                    continue;
                }
                ';' => {
                    self.i += if self.peek(1) == Some(';') { 2 } else { 1 };
                    self.finish(&mut cur, depth);
                    next_piped = false;
                    continue;
                }
                '|' => {
                    let two = matches!(self.peek(1), Some('|'));
                    let amp = matches!(self.peek(1), Some('&'));
                    self.i += if two || amp { 2 } else { 1 };
                    self.finish(&mut cur, depth);
                    next_piped = !two;
                    continue;
                }
                '&' if self.peek(1) != Some('>') => {
                    self.i += if self.peek(1) == Some('&') { 2 } else { 1 };
                    self.finish(&mut cur, depth);
                    next_piped = false;
                    continue;
                }
                '(' => {
                    self.i += 1;
                    self.finish(&mut cur, depth);
                    parens += 1;
                    continue;
                }
                ')' => {
                    self.i += 1;
                    self.finish(&mut cur, depth);
                    if parens > 0 {
                        parens -= 1;
                    } else if in_subst {
                        return;
                    }
                    continue;
                }
                _ => {}
            }
            if cur.is_empty() {
                cur.piped = next_piped;
            }
            if let Some(op) = self.redirect_op() {
                self.skip_blanks();
                if op == "<<" || op == "<<-" {
                    let delimiter = self.word(depth);
                    let id = self.heredocs.len();
                    self.heredocs.push(String::new());
                    self.pending.push(PendingHeredoc {
                        id,
                        delimiter: delimiter.clone(),
                        strip_tabs: op == "<<-",
                    });
                    cur.heredoc_ids.push(id);
                    cur.redirects.push(Redirect {
                        op: "<<".into(),
                        target: delimiter,
                    });
                } else {
                    let target = self.word(depth);
                    cur.redirects.push(Redirect { op, target });
                }
                continue;
            }
            let before = self.i;
            let w = self.word(depth);
            if self.i == before {
                self.i += 1; // a character no rule takes: step over it
                continue;
            }
            cur.argv.push(w);
        }
    }

    fn skip_blanks(&mut self) {
        while let Some(c) = self.peek(0) {
            if is_blank(c) {
                self.i += 1;
            } else if c == '\\' && self.peek(1) == Some('\n') {
                self.i += 2;
            } else {
                break;
            }
        }
    }

    /// A redirection operator at the cursor (with its descriptor number), or
    /// `None`. Process substitutions `<(`/`>(` are words, not redirections.
    fn redirect_op(&mut self) -> Option<String> {
        let start = self.i;
        let mut k = self.i;
        while self.s.get(k).is_some_and(char::is_ascii_digit) {
            k += 1;
        }
        let fd: String = self.s[start..k].iter().collect();
        let rest = |n: usize| self.s.get(k + n).copied();
        let op: &str = match (rest(0), rest(1), rest(2)) {
            (Some('&'), Some('>'), Some('>')) if fd.is_empty() => "&>>",
            (Some('&'), Some('>'), _) if fd.is_empty() => "&>",
            (Some('<'), Some('('), _) | (Some('>'), Some('('), _) if fd.is_empty() => return None,
            (Some('<'), Some('<'), Some('<')) => "<<<",
            (Some('<'), Some('<'), Some('-')) => "<<-",
            (Some('<'), Some('<'), _) => "<<",
            (Some('<'), Some('>'), _) => "<>",
            (Some('<'), Some('&'), _) => "<&",
            (Some('<'), _, _) => "<",
            (Some('>'), Some('>'), _) => ">>",
            (Some('>'), Some('|'), _) => ">|",
            (Some('>'), Some('&'), _) => ">&",
            (Some('>'), _, _) => ">",
            _ => return None,
        };
        self.i = k + op.chars().count();
        Some(format!("{fd}{op}"))
    }

    /// After a newline: the bodies of the heredocs started on the line.
    fn read_heredoc_bodies(&mut self) {
        for h in std::mem::take(&mut self.pending) {
            let mut body = String::new();
            while self.i < self.s.len() {
                let start = self.i;
                while self.peek(0).is_some_and(|c| c != '\n') {
                    self.i += 1;
                }
                let line: String = self.s[start..self.i].iter().collect();
                if self.i < self.s.len() {
                    self.i += 1; // the newline
                }
                let line = if h.strip_tabs {
                    line.trim_start_matches('\t')
                } else {
                    &line
                };
                if line.trim_end_matches('\r') == h.delimiter {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            self.heredocs[h.id] = body;
        }
    }

    /// One word, quotes removed; substitutions are parsed (their commands
    /// recorded) and kept as written in the word.
    fn word(&mut self, depth: usize) -> String {
        let mut w = String::new();
        // A process substitution is a word of its own.
        if matches!(self.peek(0), Some('<' | '>')) && self.peek(1) == Some('(') {
            let start = self.i;
            self.i += 2;
            self.subst(depth);
            w.extend(&self.s[start..self.i]);
            return w;
        }
        while let Some(c) = self.peek(0) {
            if is_meta(c) {
                break;
            }
            match c {
                '\\' => {
                    if let Some(n) = self.peek(1).filter(|n| *n != '\n') {
                        w.push(n);
                    }
                    self.i = (self.i + 2).min(self.s.len());
                }
                '\'' => {
                    self.i += 1;
                    while let Some(c) = self.peek(0) {
                        self.i += 1;
                        if c == '\'' {
                            break;
                        }
                        w.push(c);
                    }
                }
                '"' => {
                    self.i += 1;
                    self.double_quoted(depth, &mut w);
                }
                '$' => self.dollar(depth, &mut w),
                '`' => self.backticks(depth, &mut w),
                c => {
                    w.push(c);
                    self.i += 1;
                }
            }
        }
        w
    }

    fn double_quoted(&mut self, depth: usize, w: &mut String) {
        while let Some(c) = self.peek(0) {
            match c {
                '"' => {
                    self.i += 1;
                    return;
                }
                '\\' => {
                    match self.peek(1) {
                        Some('\n') => {}
                        Some(n @ ('$' | '`' | '"' | '\\')) => w.push(n),
                        Some(n) => {
                            w.push('\\');
                            w.push(n);
                        }
                        None => w.push('\\'),
                    }
                    self.i = (self.i + 2).min(self.s.len());
                }
                '$' if self.peek(1) != Some('\'') => self.dollar(depth, w),
                '`' => self.backticks(depth, w),
                c => {
                    w.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// `$…` at the cursor: `$(…)`, `$((…))`, `${…}`, `$'…'`, or a plain `$`.
    fn dollar(&mut self, depth: usize, w: &mut String) {
        let start = self.i;
        match self.peek(1) {
            Some('(') if self.peek(2) == Some('(') => {
                self.i += 3;
                self.skip_balanced('(', ')', 2);
            }
            Some('(') => {
                self.i += 2;
                self.subst(depth);
            }
            Some('{') => {
                self.i += 2;
                self.skip_balanced('{', '}', 1);
            }
            Some('\'') => {
                self.i += 2;
                self.ansi_c(w);
                return;
            }
            _ => self.i += 1,
        }
        self.i = self.i.min(self.s.len());
        w.extend(&self.s[start..self.i]);
    }

    /// The body of `$(` or `<(` (cursor just after the opening parenthesis):
    /// parsed as commands one level deeper, or skipped beyond the bound.
    fn subst(&mut self, depth: usize) {
        if depth < MAX_DEPTH {
            self.seq(depth + 1, true);
        } else {
            self.skip_balanced('(', ')', 1);
        }
    }

    /// Skips to the `close` that balances `open` (`level` already open),
    /// stepping over quoted text. Iterative: no recursion on hostile input.
    fn skip_balanced(&mut self, open: char, close: char, mut level: usize) {
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '\\' => self.i += 1,
                '\'' => {
                    while self.peek(0).is_some_and(|c| c != '\'') {
                        self.i += 1;
                    }
                    self.i += 1;
                }
                c if c == open => level += 1,
                c if c == close => {
                    level -= 1;
                    if level == 0 {
                        break;
                    }
                }
                _ => {}
            }
        }
        self.i = self.i.min(self.s.len());
    }

    /// Backticks at the cursor: the text up to the closing backtick is
    /// unescaped and parsed as its own script one level deeper.
    fn backticks(&mut self, depth: usize, w: &mut String) {
        let start = self.i;
        self.i += 1;
        let mut inner = String::new();
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '`' => break,
                '\\' => match self.peek(0) {
                    Some(n @ ('`' | '\\' | '$')) => {
                        inner.push(n);
                        self.i += 1;
                    }
                    _ => inner.push('\\'),
                },
                c => inner.push(c),
            }
        }
        self.i = self.i.min(self.s.len());
        w.extend(&self.s[start..self.i]);
        if depth < MAX_DEPTH {
            let mut cmds = Vec::new();
            parse_at(&inner, depth + 1, &mut cmds);
            self.items.push(Item::Done(cmds));
        }
    }

    /// `$'…'` (cursor after the opening quote): ANSI-C escapes.
    fn ansi_c(&mut self, w: &mut String) {
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match c {
                '\'' => return,
                '\\' => {
                    let Some(n) = self.peek(0) else { return };
                    self.i += 1;
                    match n {
                        'n' => w.push('\n'),
                        't' => w.push('\t'),
                        'r' => w.push('\r'),
                        'a' => w.push('\u{7}'),
                        'b' => w.push('\u{8}'),
                        'e' | 'E' => w.push('\u{1b}'),
                        'f' => w.push('\u{c}'),
                        'v' => w.push('\u{b}'),
                        'x' => {
                            let v = self.hex_digits(2);
                            w.push(char::from_u32(v).unwrap_or('?'));
                        }
                        'u' => {
                            let v = self.hex_digits(4);
                            w.push(char::from_u32(v).unwrap_or('?'));
                        }
                        'U' => {
                            let v = self.hex_digits(8);
                            w.push(char::from_u32(v).unwrap_or('?'));
                        }
                        '0'..='7' => {
                            let mut v = n.to_digit(8).unwrap_or(0);
                            for _ in 0..2 {
                                match self.peek(0).and_then(|c| c.to_digit(8)) {
                                    Some(d) => {
                                        v = v * 8 + d;
                                        self.i += 1;
                                    }
                                    None => break,
                                }
                            }
                            w.push(char::from_u32(v).unwrap_or('?'));
                        }
                        n => w.push(n),
                    }
                }
                c => w.push(c),
            }
        }
    }

    fn hex_digits(&mut self, max: usize) -> u32 {
        let mut v = 0u32;
        for _ in 0..max {
            match self.peek(0).and_then(|c| c.to_digit(16)) {
                Some(d) => {
                    v = v * 16 + d;
                    self.i += 1;
                }
                None => break,
            }
        }
        v
    }
}

/// Words the shell reads as syntax at the start of a command.
const RESERVED: &[&str] = &[
    "!", "{", "}", "if", "then", "else", "elif", "fi", "while", "until", "do", "done", "esac",
];

fn is_assignment(word: &str) -> bool {
    let Some(eq) = word.find('=') else {
        return false;
    };
    let name = word[..eq].strip_suffix('+').unwrap_or(&word[..eq]);
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The lower-case program name without directory or `.exe`
/// (`/usr/bin/Git` → `git`, `C:\x\PWSH.EXE` → `pwsh`).
pub fn program_name(word: &str) -> String {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let lower = base.to_ascii_lowercase();
    lower.strip_suffix(".exe").unwrap_or(&lower).to_string()
}

/// What a wrapper leaves to run.
enum Unwrapped {
    /// The command starts at this index of argv.
    At(usize),
    /// A script to parse one level deeper.
    Script(String),
    /// Not a wrapper (or nothing left to unwrap).
    No,
}

/// Skips options starting at `i`: short options in `with_arg` take a value
/// (attached or the next word), long options in `long_with_arg` take the next
/// word unless written `--opt=value`. `--` ends the options.
fn skip_options(argv: &[String], mut i: usize, with_arg: &str, long_with_arg: &[&str]) -> usize {
    while let Some(a) = argv.get(i) {
        if a == "--" {
            return i + 1;
        }
        if !a.starts_with('-') || a == "-" {
            return i;
        }
        if let Some(long) = a.strip_prefix("--") {
            i += if !long.contains('=') && long_with_arg.contains(&long) {
                2
            } else {
                1
            };
            continue;
        }
        let cluster = &a[1..];
        let mut step = 1;
        for (k, c) in cluster.char_indices() {
            if with_arg.contains(c) {
                if k + c.len_utf8() == cluster.len() {
                    step = 2;
                }
                break;
            }
        }
        i += step;
    }
    i
}

const SHELLS: &[&str] = &["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish"];

fn unwrap_one(cmd: &SimpleCommand, name: &str) -> Unwrapped {
    let argv = &cmd.argv;
    match name {
        "sudo" => Unwrapped::At(skip_options(
            argv,
            1,
            "ugpCDrtTUR",
            &[
                "user",
                "group",
                "prompt",
                "close-from",
                "chdir",
                "host",
                "role",
                "type",
                "other-user",
                "command-timeout",
                "chroot",
            ],
        )),
        "doas" => Unwrapped::At(skip_options(argv, 1, "uC", &[])),
        "env" => {
            let mut i = 1;
            while let Some(a) = argv.get(i) {
                if a == "-S" || a == "--split-string" {
                    let mut script = argv.get(i + 1).cloned().unwrap_or_default();
                    for rest in argv.iter().skip(i + 2) {
                        script.push(' ');
                        script.push_str(&quote(rest));
                    }
                    return Unwrapped::Script(script);
                }
                if let Some(s) = a
                    .strip_prefix("--split-string=")
                    .or_else(|| a.strip_prefix("-S").filter(|s| !s.is_empty()))
                {
                    let mut script = s.to_string();
                    for rest in argv.iter().skip(i + 1) {
                        script.push(' ');
                        script.push_str(&quote(rest));
                    }
                    return Unwrapped::Script(script);
                }
                if a == "-" {
                    i += 1;
                    continue;
                }
                let next = skip_options(argv, i, "uC", &["unset", "chdir"]);
                if next == i {
                    break;
                }
                i = next;
                if argv.get(i - 1).is_some_and(|a| a == "--") {
                    break;
                }
            }
            Unwrapped::At(i)
        }
        "nice" => {
            let mut i = 1;
            while let Some(a) = argv.get(i) {
                if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| c.is_ascii_digit()) {
                    i += 1;
                } else {
                    let next = skip_options(argv, i, "n", &["adjustment"]);
                    if next == i {
                        break;
                    }
                    i = next;
                }
            }
            Unwrapped::At(i)
        }
        "ionice" => Unwrapped::At(skip_options(
            argv,
            1,
            "cnpPu",
            &["class", "classdata", "pid", "pgid", "uid"],
        )),
        "timeout" => {
            let i = skip_options(argv, 1, "sk", &["signal", "kill-after"]);
            Unwrapped::At(i + 1) // the duration
        }
        "nohup" | "busybox" => Unwrapped::At(skip_options(argv, 1, "", &[])),
        "time" => Unwrapped::At(skip_options(argv, 1, "fo", &["format", "output"])),
        "command" => {
            if argv
                .iter()
                .skip(1)
                .take_while(|a| a.starts_with('-'))
                .any(|a| a.contains('v') || a.contains('V'))
            {
                return Unwrapped::No;
            }
            Unwrapped::At(skip_options(argv, 1, "", &[]))
        }
        "exec" => Unwrapped::At(skip_options(argv, 1, "a", &[])),
        "stdbuf" => Unwrapped::At(skip_options(argv, 1, "ioe", &["input", "output", "error"])),
        "xargs" => {
            // -i, -l and -e take an optional attached value only.
            let mut i = 1;
            while let Some(a) = argv.get(i) {
                if a.starts_with("-i") || a.starts_with("-l") || a.starts_with("-e") {
                    i += 1;
                    continue;
                }
                let next = skip_options(
                    argv,
                    i,
                    "ILnPsdEa",
                    &[
                        "arg-file",
                        "delimiter",
                        "eof",
                        "max-lines",
                        "max-args",
                        "max-procs",
                        "max-chars",
                        "process-slot-var",
                    ],
                );
                if next == i {
                    break;
                }
                i = next;
                if argv.get(i - 1).is_some_and(|a| a == "--") {
                    break;
                }
            }
            Unwrapped::At(i)
        }
        "eval" => Unwrapped::Script(argv[1..].join(" ")),
        "su" => {
            let mut it = argv.iter().skip(1);
            while let Some(a) = it.next() {
                if a == "-c" || a == "--command" {
                    return it
                        .next()
                        .map_or(Unwrapped::No, |s| Unwrapped::Script(s.clone()));
                }
                if let Some(s) = a.strip_prefix("--command=") {
                    return Unwrapped::Script(s.to_string());
                }
            }
            Unwrapped::No
        }
        "pwsh" | "powershell" => {
            for (k, a) in argv.iter().enumerate().skip(1) {
                let lower = a.to_ascii_lowercase();
                if lower.len() >= 2
                    && (lower.starts_with('-') || lower.starts_with('/'))
                    && "-command".starts_with(&lower.replacen('/', "-", 1))
                {
                    return Unwrapped::Script(powershell_as_sh(&argv[k + 1..].join(" ")));
                }
            }
            Unwrapped::No
        }
        "cmd" => {
            for (k, a) in argv.iter().enumerate().skip(1) {
                if a.eq_ignore_ascii_case("/c") || a.eq_ignore_ascii_case("/k") {
                    return Unwrapped::Script(powershell_as_sh(&argv[k + 1..].join(" ")));
                }
            }
            Unwrapped::No
        }
        s if SHELLS.contains(&s) => shell_script(cmd),
        _ => Unwrapped::No,
    }
}

/// `bash -c 'script'`, `sh -euxc 'script'`, or a heredoc / here-string fed
/// to a shell that runs no script file.
fn shell_script(cmd: &SimpleCommand) -> Unwrapped {
    let argv = &cmd.argv;
    let mut has_c = false;
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        if a == "--" {
            i += 1;
            break;
        }
        if let Some(long) = a.strip_prefix("--") {
            i += if matches!(long, "rcfile" | "init-file") {
                2
            } else {
                1
            };
            if long == "command" {
                has_c = true;
            }
            continue;
        }
        if (a.starts_with('-') || a.starts_with('+')) && a.len() > 1 {
            let cluster = &a[1..];
            if cluster.contains('c') {
                has_c = true;
            }
            i += if cluster.ends_with('o') || cluster.ends_with('O') {
                2
            } else {
                1
            };
            continue;
        }
        break;
    }
    if has_c {
        return argv
            .get(i)
            .map_or(Unwrapped::No, |s| Unwrapped::Script(s.clone()));
    }
    if argv.get(i).is_some_and(|a| a != "-") {
        return Unwrapped::No; // runs a script file
    }
    if let Some(body) = &cmd.heredoc {
        return Unwrapped::Script(body.clone());
    }
    if let Some(r) = cmd.redirects.iter().find(|r| r.op == "<<<") {
        return Unwrapped::Script(r.target.clone());
    }
    Unwrapped::No
}

/// Quotes a word for re-parsing (used when re-joining `env -S` arguments).
fn quote(word: &str) -> String {
    if !word.is_empty() && !word.chars().any(|c| is_meta(c) || "'\"\\$`".contains(c)) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// Peels wrappers off `cmd` and records what it really runs.
fn unwrap(mut cmd: SimpleCommand, depth: usize, out: &mut Vec<SimpleCommand>) {
    // Each round removes at least one word, so argv's length bounds it.
    loop {
        let skip = cmd
            .argv
            .iter()
            .take_while(|w| RESERVED.contains(&w.as_str()) || is_assignment(w))
            .count();
        cmd.argv.drain(..skip);
        let Some(first) = cmd.argv.first() else {
            if !cmd.redirects.is_empty() {
                out.push(cmd);
            }
            return;
        };
        let name = program_name(first);
        match unwrap_one(&cmd, &name) {
            Unwrapped::No => {
                out.push(cmd);
                return;
            }
            Unwrapped::At(i) => {
                if i >= cmd.argv.len() {
                    // A wrapper with nothing to run (`sudo -v`, `env`).
                    out.push(cmd);
                    return;
                }
                cmd.argv.drain(..i);
                cmd.wrappers.push(name);
            }
            Unwrapped::Script(script) => {
                let before = out.len();
                if depth < MAX_DEPTH {
                    parse_at(&script, depth + 1, out);
                }
                let mut wrappers = cmd.wrappers.clone();
                wrappers.push(name);
                for inner in &mut out[before..] {
                    let mut w = wrappers.clone();
                    w.append(&mut inner.wrappers);
                    inner.wrappers = w;
                }
                // The wrapper's own redirections still apply.
                if cmd.redirects.iter().any(|r| r.op != "<<" && r.op != "<<<")
                    || out.len() == before
                {
                    out.push(cmd);
                }
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests;
