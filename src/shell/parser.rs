//! The command structure: a script read into simple commands: the
//! separators `&&`, `||`, `;`, `|`, `|&`, `&` and newlines, subshells
//! `( … )`, redirections with their targets, and heredoc bodies. Words are
//! read by the lexer ([`super::lexer`]); the commands found are handed to the
//! unwrapper ([`super::unwrap`]).

use super::lexer::is_blank;
use super::unwrap::{peeled, unwrap};
use super::{Cwd, MAX_COMMANDS, Redirect, SimpleCommand, cwd};

/// Reads `src` (nested `depth` levels deep, starting in the directory `cwd`)
/// and appends its simple commands to `out`.
pub(super) fn parse_at(src: &str, depth: usize, cwd: &Cwd, out: &mut Vec<SimpleCommand>) {
    let chars: Vec<char> = src.chars().collect();
    let mut p = Parser {
        s: &chars,
        i: 0,
        items: Vec::new(),
        heredocs: Vec::new(),
        expands: Vec::new(),
        pending: Vec::new(),
        cwd: cwd.clone(),
        dirs: Vec::new(),
        saved: Vec::new(),
        fresh: Vec::new(),
        follow_fresh: super::constants::followed(src),
    };
    p.seq(depth, false);
    let Parser {
        items,
        heredocs,
        expands,
        ..
    } = p;
    // What the last `echo`/`printf` printed: the script of a shell it is
    // piped into (`echo 'rm -rf /srv' | sh`).
    let mut echoed: Option<String> = None;
    // Aliases defined earlier on this line (`alias x='rm -rf'; x ~/w`).
    let mut aliases: Vec<(String, String)> = Vec::new();
    // Variables given a constant earlier on this line (`D=/srv; rm -rf $D`).
    let mut constants = super::constants::Constants::new(src);
    // git aliases defined earlier on this line (`git config alias.p push`).
    let mut git_aliases: Vec<(String, String)> = Vec::new();
    for item in items {
        if out.len() >= MAX_COMMANDS {
            return;
        }
        match item {
            Item::Done(cmds) => {
                let room = MAX_COMMANDS - out.len();
                out.extend(cmds.into_iter().take(room));
            }
            Item::Raw(mut raw, d, cwd) => {
                aliases.extend(alias_defs(&raw.argv));
                super::git_aliases::take(&mut raw.argv, &mut git_aliases);
                if constants.take(&mut raw.argv, raw.piped, raw.captured) {
                    // Assignments alone: kept as the command they are.
                } else {
                    for r in &mut raw.redirects {
                        r.target = constants.replaced(&r.target);
                    }
                }
                if let Some(script) = alias_use(&raw.argv, &aliases) {
                    let before = out.len();
                    if d < super::MAX_DEPTH {
                        parse_at(&script, d + 1, &cwd, out);
                    } else {
                        super::opacity::bound_hit();
                    }
                    super::unwrap::adopt(&mut out[before..], &["alias".to_string()], raw.captured);
                    echoed = None;
                    continue;
                }
                let mut printed = super::printed::echo_text(&raw.argv);
                let heredoc = if raw.heredoc_ids.is_empty() {
                    echoed.take().filter(|_| {
                        raw.piped
                            && (reads_script_from_stdin(&raw.argv)
                                || super::remote::reads_piped_script(&raw.argv))
                    })
                } else {
                    let mut body = String::new();
                    for id in &raw.heredoc_ids {
                        body.push_str(&heredocs[*id]);
                        // An unquoted delimiter: the body's substitutions
                        // run before the command (`cat <<EOF` with
                        // `$(rm -rf ~)` inside); their output is taken.
                        if expands[*id] {
                            for script in body_substitutions(&heredocs[*id]) {
                                let before = out.len();
                                if d < super::MAX_DEPTH {
                                    parse_at(&script, d + 1, &cwd, out);
                                } else {
                                    super::opacity::bound_hit();
                                }
                                super::unwrap::adopt(&mut out[before..], &[], true);
                            }
                        }
                    }
                    Some(body)
                };
                // `cat <<EOF | sh`, `cat <<< 'ls' | sh`: cat prints its
                // input, which the shell then runs.
                if printed.is_none() && plain_cat(&raw.argv) {
                    printed = heredoc.clone().or_else(|| {
                        raw.redirects
                            .iter()
                            .find(|r| r.op == "<<<")
                            .map(|r| r.target.clone())
                    });
                }
                let heredoc_expands = raw.heredoc_ids.iter().any(|id| expands[*id]);
                let cmd = SimpleCommand {
                    argv: raw.argv,
                    redirects: raw.redirects,
                    heredoc,
                    heredoc_expands,
                    wrappers: Vec::new(),
                    piped: raw.piped,
                    captured: raw.captured,
                    cwd,
                    fed: false,
                    opaque: None,
                };
                unwrap(cmd, d, out);
                echoed = printed;
            }
        }
    }
}

/// The scripts of the command substitutions in an unquoted heredoc's body
/// (`$(…)` and `` `…` ``); `\$` and `` \` `` are literal. At most 16.
fn body_substitutions(body: &str) -> Vec<String> {
    let c: Vec<char> = body.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() && out.len() < 16 {
        match c[i] {
            '\\' => i += 2,
            '$' if c.get(i + 1) == Some(&'(') && c.get(i + 2) != Some(&'(') => {
                let start = i + 2;
                let mut depth = 1;
                let mut k = start;
                while k < c.len() && depth > 0 {
                    match c[k] {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    k += 1;
                }
                out.push(c[start..k.saturating_sub(1).max(start)].iter().collect());
                i = k;
            }
            '`' => {
                let start = i + 1;
                let end = c[start..]
                    .iter()
                    .position(|&x| x == '`')
                    .map_or(c.len(), |e| start + e);
                out.push(c[start..end].iter().collect());
                i = end + 1;
            }
            _ => i += 1,
        }
    }
    out
}

/// `cat` with no file to read (only its input).
fn plain_cat(argv: &[String]) -> bool {
    let args = peeled(argv);
    args.first()
        .is_some_and(|p| super::program_name(p) == "cat")
        && args[1..].iter().all(|a| a.starts_with('-'))
}

/// The aliases `alias name=value…` defines.
fn alias_defs(argv: &[String]) -> Vec<(String, String)> {
    if argv.first().is_none_or(|a| a != "alias") {
        return Vec::new();
    }
    argv[1..]
        .iter()
        .filter(|a| !matches!(a.as_str(), "--" | "-p"))
        .filter_map(|a| a.split_once('='))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// A command whose first word is an alias defined before it on the line:
/// the alias's text with the other words after it, as a script.
fn alias_use(argv: &[String], aliases: &[(String, String)]) -> Option<String> {
    let first = argv.first()?;
    let (_, value) = aliases.iter().rev().find(|(n, _)| n == first)?;
    let mut script = value.clone();
    for w in &argv[1..] {
        script.push(' ');
        script.push_str(&super::lexer::quote(w));
    }
    Some(script)
}

/// Whether a command is an interpreter that reads its script from its
/// standard input (a shell or `python` with no script named).
fn reads_script_from_stdin(argv: &[String]) -> bool {
    let args = peeled(argv);
    let Some(first) = args.first() else {
        return false;
    };
    let name = super::program_name(first);
    // `at now`, `batch`: the time is not a script file.
    if matches!(name.as_str(), "at" | "batch") {
        return !args[1..].iter().any(|a| a == "-f");
    }
    super::interpreters::reads_stdin(&name) && args[1..].iter().all(|a| a.starts_with('-'))
}

#[derive(Default)]
pub(super) struct RawCmd {
    argv: Vec<String>,
    redirects: Vec<Redirect>,
    heredoc_ids: Vec<usize>,
    piped: bool,
    captured: bool,
}

impl RawCmd {
    fn is_empty(&self) -> bool {
        self.argv.is_empty() && self.redirects.is_empty()
    }
}

pub(super) enum Item {
    /// A command read from this text, at its nesting depth, with the
    /// directory it runs in.
    Raw(RawCmd, usize, Cwd),
    /// Commands read from a separate text (backticks), already unwrapped.
    Done(Vec<SimpleCommand>),
}

/// The output of a substitution whose only command is `echo` or `printf`
/// (`%s` formats), `dirname` or `basename` of literal words: `$(echo /etc)` is
/// `/etc`. Anything else (a variable, a redirection, a pipe, another
/// program) is not known before it runs.
pub(super) fn constant_output(items: &[Item]) -> Option<String> {
    let argv: &[String] = match items {
        [Item::Raw(raw, _, _)]
            if raw.redirects.is_empty() && raw.heredoc_ids.is_empty() && !raw.piped =>
        {
            &raw.argv
        }
        [Item::Done(cmds)] => match cmds.as_slice() {
            [c] if c.redirects.is_empty() && c.heredoc.is_none() && c.wrappers.is_empty() => {
                &c.argv
            }
            _ => return None,
        },
        _ => return None,
    };
    let (prog, args) = argv.split_first()?;
    // A backslash is an escape only `echo`/`printf` read (and decode).
    let printer = matches!(prog.as_str(), "echo" | "printf");
    let literal =
        |a: &String| !a.contains(['$', '`', '*', '?', '[', '{']) && (printer || !a.contains('\\'));
    if !args.iter().all(literal) {
        return None;
    }
    match (prog.as_str(), args) {
        ("echo" | "printf", _) => super::printed::echo_text(argv),
        // Pure path arithmetic: `$(dirname /srv/x)` is `/srv`.
        ("dirname", [p]) if !p.starts_with('-') => {
            let t = p.trim_end_matches('/');
            Some(match t.rsplit_once('/') {
                Some(("", _)) => "/".into(),
                Some((d, _)) => d.to_string(),
                None if p.starts_with('/') => "/".into(),
                None => ".".into(),
            })
        }
        ("basename", [p, rest @ ..]) if !p.starts_with('-') && rest.len() <= 1 => {
            let name = p.trim_end_matches('/').rsplit('/').next().unwrap_or("");
            let name = rest
                .first()
                .and_then(|suffix| name.strip_suffix(suffix.as_str()))
                .filter(|n| !n.is_empty())
                .unwrap_or(name);
            Some(name.to_string())
        }
        _ => None,
    }
}

impl Item {
    /// Marks the commands as having their output captured (`$(…)`).
    pub(super) fn capture(&mut self) {
        match self {
            Item::Raw(raw, _, _) => raw.captured = true,
            Item::Done(cmds) => cmds.iter_mut().for_each(|c| c.captured = true),
        }
    }
}

struct PendingHeredoc {
    id: usize,
    delimiter: String,
    strip_tabs: bool,
}

pub(super) struct Parser<'a> {
    pub(super) s: &'a [char],
    pub(super) i: usize,
    pub(super) items: Vec<Item>,
    /// Heredoc bodies by id.
    heredocs: Vec<String>,
    /// Whether each heredoc's delimiter was unquoted (its body expands).
    expands: Vec<bool>,
    /// Heredocs whose body starts after the next newline.
    pending: Vec<PendingHeredoc>,
    /// The directory the next command runs in.
    pub(super) cwd: Cwd,
    /// The `pushd` stack.
    pub(super) dirs: Vec<Cwd>,
    /// The directories to return to when the open subshells close.
    pub(super) saved: Vec<(Cwd, Vec<Cwd>)>,
    /// Variables set earlier on the line to a fresh `mktemp` name (`cd
    /// "$d"` then runs in the temporary directory).
    fresh: Vec<String>,
    /// Whether the line sets variables only in ways followed (no `read`,
    /// loop or `IFS`).
    follow_fresh: bool,
}

impl Parser<'_> {
    fn finish(&mut self, cur: &mut RawCmd, depth: usize) {
        let cmd = std::mem::take(cur);
        if cmd.is_empty() && cmd.heredoc_ids.is_empty() {
            return;
        }
        let changes_dir = cmd
            .argv
            .iter()
            .any(|w| cwd::may_change(w.rsplit(['/', '\\']).next().unwrap_or(w)));
        if self.follow_fresh && !cmd.piped && !cmd.captured {
            super::constants::note_fresh(&cmd.argv, &mut self.fresh);
        }
        let next = changes_dir.then(|| {
            let argv = peeled(&cmd.argv);
            match argv {
                [cd, dir] if cd == "cd" && super::constants::is_fresh(dir, &self.fresh) => {
                    Some(Cwd::Dir(super::constants::FRESH_TEMP.into()))
                }
                [first, ..] if cwd::may_change(&super::program_name(first)) => {
                    Some(self.cwd.after(argv, &mut self.dirs))
                }
                _ => None,
            }
        });
        self.items.push(Item::Raw(cmd, depth, self.cwd.clone()));
        if let Some(Some(next)) = next {
            self.cwd = next;
        }
    }

    /// Reads a list of commands until the end, or (`in_subst`) until the `)`
    /// that closes a `$(` / `<(`, which it consumes.
    pub(super) fn seq(&mut self, depth: usize, in_subst: bool) {
        let mut cur = RawCmd::default();
        let mut parens = 0usize;
        // Open `case … esac`: a pattern's `)` closes no substitution.
        let mut cases = 0usize;
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
                self.skip_comment();
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
                    self.saved.push((self.cwd.clone(), self.dirs.clone()));
                    continue;
                }
                ')' => {
                    self.i += 1;
                    self.finish(&mut cur, depth);
                    if parens > 0 {
                        parens -= 1;
                        self.leave_subshell();
                    } else if in_subst && cases == 0 {
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
                self.redirect(op, &mut cur, depth);
                continue;
            }
            let before = self.i;
            let w = self.word(depth);
            if self.i == before {
                self.i += 1; // a character no rule takes: step over it
                continue;
            }
            if cur.argv.is_empty() {
                match w.as_str() {
                    "case" => cases += 1,
                    "esac" => cases = cases.saturating_sub(1),
                    _ => {}
                }
            }
            for field in w
                .split(super::lexer::FIELD_SPLIT)
                .filter(|f| !f.is_empty() || !w.contains(super::lexer::FIELD_SPLIT))
            {
                cur.argv.extend(super::lexer::expand_braces(field));
            }
        }
    }

    /// A `#` comment, up to (not including) the end of its line.
    fn skip_comment(&mut self) {
        while self.peek(0).is_some_and(|c| c != '\n') {
            self.i += 1;
        }
    }

    /// The `)` of a subshell: the directory is the one before its `(`.
    fn leave_subshell(&mut self) {
        if let Some((cwd, dirs)) = self.saved.pop() {
            self.cwd = cwd;
            self.dirs = dirs;
        }
    }

    /// A redirection's target onto `cur`; a here-document's delimiter is
    /// queued, its body read at the end of the line.
    fn redirect(&mut self, op: String, cur: &mut RawCmd, depth: usize) {
        self.skip_blanks();
        if op == "<<" || op == "<<-" {
            let from = self.i;
            let delimiter = super::lexer::restore(&self.word(depth));
            let quoted = self.s[from..self.i]
                .iter()
                .any(|c| matches!(c, '\'' | '"' | '\\'));
            let id = self.heredocs.len();
            self.heredocs.push(String::new());
            self.expands.push(!quoted);
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
            let target =
                super::lexer::restore(&self.word(depth)).replace(super::lexer::FIELD_SPLIT, " ");
            cur.redirects.push(Redirect { op, target });
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
}
