//! Lexing: one word at a time, with the shell's quoting (`'…'`, `"…"`,
//! `$'…'`, backslash escapes), parameter and arithmetic expansions kept as
//! written, and command substitutions (`$( … )`, backticks, `<( … )`) parsed
//! one level deeper as they are met.

use super::MAX_DEPTH;
use super::parser::{Item, Parser, parse_at};

pub(super) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t' || c == '\r'
}

pub(super) fn is_meta(c: char) -> bool {
    matches!(c, ';' | '&' | '|' | '(' | ')' | '<' | '>' | '\n') || is_blank(c)
}

/// Quotes a word for re-parsing (used when re-joining `env -S` arguments).
pub(super) fn quote(word: &str) -> String {
    if !word.is_empty() && !word.chars().any(|c| is_meta(c) || "'\"\\$`".contains(c)) {
        return word.to_string();
    }
    format!("'{}'", word.replace('\'', "'\\''"))
}

/// Rewrites PowerShell quoting into the shell's: `\` stays literal, a
/// backtick escapes the next character.
pub(super) fn powershell_as_sh(script: &str) -> String {
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

impl Parser<'_> {
    pub(super) fn peek(&self, off: usize) -> Option<char> {
        self.s.get(self.i + off).copied()
    }

    /// One word, quotes removed; substitutions are parsed (their commands
    /// recorded) and kept as written in the word.
    pub(super) fn word(&mut self, depth: usize) -> String {
        let mut w = String::new();
        // A process substitution is a word of its own.
        if matches!(self.peek(0), Some('<' | '>')) && self.peek(1) == Some('(') {
            let start = self.i;
            // `<(cmd)`: its output is read by the command; `>(cmd)` prints.
            let captured = self.peek(0) == Some('<');
            self.i += 2;
            self.subst(depth, captured);
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
                '$' => self.dollar(depth, &mut w, false),
                '`' => self.backticks(depth, &mut w, false),
                // Unquoted braces and commas, marked for brace expansion
                // ([`expand_braces`]).
                c => {
                    w.push(match c {
                        '{' => BRACE_OPEN,
                        '}' => BRACE_CLOSE,
                        ',' => BRACE_COMMA,
                        c => c,
                    });
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
                '$' if self.peek(1) != Some('\'') => self.dollar(depth, w, true),
                '`' => self.backticks(depth, w, true),
                c => {
                    w.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// `$…` at the cursor: `$(…)`, `$((…))`, `${…}`, `$'…'`, or a plain `$`.
    /// A `$(echo …)` of literal words is its output ([`constant`]).
    fn dollar(&mut self, depth: usize, w: &mut String, quoted: bool) {
        let start = self.i;
        match self.peek(1) {
            Some('(') if self.peek(2) == Some('(') => {
                self.i += 3;
                self.expansion_body(depth, '(', ')', 2);
            }
            Some('(') => {
                self.i += 2;
                let from = self.items.len();
                self.subst(depth, true);
                if let Some(out) = super::parser::constant_output(&self.items[from..]) {
                    w.push_str(&constant(&out, quoted));
                    return;
                }
            }
            Some('{') => {
                self.i += 2;
                self.expansion_body(depth, '{', '}', 1);
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
    /// `captured`: their output is taken by the command, not shown.
    fn subst(&mut self, depth: usize, captured: bool) {
        if depth < MAX_DEPTH {
            // A substitution runs in a subshell: its moves stay inside.
            let (cwd, dirs, saved) = (self.cwd.clone(), self.dirs.clone(), self.saved.len());
            let from = self.items.len();
            self.seq(depth + 1, true);
            self.cwd = cwd;
            self.dirs = dirs;
            self.saved.truncate(saved);
            if captured {
                for item in &mut self.items[from..] {
                    item.capture();
                }
            }
        } else {
            super::opacity::bound_hit();
            self.skip_balanced('(', ')', 1);
        }
    }

    /// The body of an expansion up to the `close` that balances `open`
    /// (`level` already open, the cursor after them): `$((` … `))`, whose
    /// substitutions are commands too (`$(( $(cmd) + 1 ))`), and `${` … `}`,
    /// where a substitution in a default or alternative value
    /// (`${X:-$(cmd)}`, `${X:=`cmd`}`) runs when the value is used. The
    /// commands inside are read; quoted and escaped text is stepped over.
    fn expansion_body(&mut self, depth: usize, open: char, close: char, mut level: usize) {
        let mut scratch = String::new();
        while let Some(c) = self.peek(0) {
            match c {
                '$' if self.peek(1) == Some('(') && self.peek(2) != Some('(') => {
                    self.i += 2;
                    self.subst(depth, true);
                    continue;
                }
                '`' => {
                    self.backticks(depth, &mut scratch, true);
                    continue;
                }
                '\\' => self.i += 1,
                '\'' => {
                    self.i += 1;
                    while self.peek(0).is_some_and(|c| c != '\'') {
                        self.i += 1;
                    }
                }
                c if c == open => level += 1,
                c if c == close => {
                    level -= 1;
                    if level == 0 {
                        self.i += 1;
                        return;
                    }
                }
                _ => {}
            }
            self.i += 1;
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
    fn backticks(&mut self, depth: usize, w: &mut String, quoted: bool) {
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
        if depth < MAX_DEPTH {
            let mut cmds = Vec::new();
            parse_at(&inner, depth + 1, &self.cwd, &mut cmds);
            let item = [Item::Done(cmds)];
            match super::parser::constant_output(&item) {
                Some(out) => w.push_str(&constant(&out, quoted)),
                None => w.extend(&self.s[start..self.i]),
            }
            let [mut item] = item;
            item.capture();
            self.items.push(item);
        } else {
            w.extend(&self.s[start..self.i]);
            super::opacity::bound_hit();
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

/// Splits a word where an unquoted constant substitution's output had
/// blanks (the parser splits the word there).
pub(super) const FIELD_SPLIT: char = '\u{1f}';

/// A constant substitution's output as it lands in a word: quoted, as is;
/// unquoted, split into fields at blanks ([`FIELD_SPLIT`]).
fn constant(out: &str, quoted: bool) -> String {
    if quoted {
        out.to_string()
    } else {
        out.split_whitespace()
            .collect::<Vec<_>>()
            .join(&FIELD_SPLIT.to_string())
    }
}

/// An unquoted `{`, `}` and `,` in a word, until brace expansion.
const BRACE_OPEN: char = '\u{2}';
const BRACE_CLOSE: char = '\u{3}';
const BRACE_COMMA: char = '\u{4}';

/// At most this many words from one word's brace expansion.
const MAX_BRACE_WORDS: usize = 32;

/// A word with its brace marks put back as the characters they were.
pub(super) fn restore(w: &str) -> String {
    w.chars()
        .map(|c| match c {
            BRACE_OPEN => '{',
            BRACE_CLOSE => '}',
            BRACE_COMMA => ',',
            c => c,
        })
        .collect()
}

/// Bash's brace expansion of one word: `a{b,c}d` is `abd acd`, nested
/// groups too; a group with no comma (`{}`, `@{u}`) stays as written.
pub(super) fn expand_braces(w: &str) -> Vec<String> {
    if !w.contains(BRACE_OPEN) {
        return vec![restore(w)];
    }
    let mut out = Vec::new();
    expand_into(w, &mut out);
    out
}

fn expand_into(w: &str, out: &mut Vec<String>) {
    if out.len() >= MAX_BRACE_WORDS {
        return;
    }
    let chars: Vec<char> = w.chars().collect();
    for (start, c) in chars.iter().enumerate() {
        if *c != BRACE_OPEN {
            continue;
        }
        // The matching close, and the commas at this group's level.
        let mut depth = 0usize;
        let mut commas = Vec::new();
        let mut end = None;
        for (k, c) in chars.iter().enumerate().skip(start) {
            match *c {
                BRACE_OPEN => depth += 1,
                BRACE_CLOSE => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(k);
                        break;
                    }
                }
                BRACE_COMMA if depth == 1 => commas.push(k),
                _ => {}
            }
        }
        let Some(end) = end else { break };
        if commas.is_empty() {
            continue;
        }
        let prefix: String = chars[..start].iter().collect();
        let suffix: String = chars[end + 1..].iter().collect();
        let mut from = start + 1;
        for k in commas.into_iter().chain(std::iter::once(end)) {
            let alt: String = chars[from..k].iter().collect();
            expand_into(&format!("{prefix}{alt}{suffix}"), out);
            from = k + 1;
        }
        return;
    }
    out.push(restore(w));
}
