//! Unwrapping: peels off the programs that only run another one (the
//! [`super::wrappers`] table) and hands the scripts given to an interpreter
//! (the [`super::interpreters`] table) back to the parser one level deeper.

use super::parser::parse_at;
use super::{MAX_DEPTH, SimpleCommand, interpreters, wrappers};

/// What a wrapper leaves to run.
pub(super) enum Unwrapped {
    /// The command starts at this index of argv.
    At(usize),
    /// A script to parse one level deeper.
    Script(String),
    /// Not a wrapper (or nothing left to unwrap).
    No,
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

/// What the program `name` of `cmd` leaves to run: a wrapper's command, an
/// interpreter's script, or nothing.
fn unwrap_one(cmd: &SimpleCommand, name: &str) -> Unwrapped {
    if let Some(rule) = wrappers::lookup(name) {
        return rule.apply(&cmd.argv);
    }
    interpreters::script(cmd, name)
}

/// Peels wrappers off `cmd` and records what it really runs.
pub(super) fn unwrap(mut cmd: SimpleCommand, depth: usize, out: &mut Vec<SimpleCommand>) {
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
        let name = super::program_name(first);
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
