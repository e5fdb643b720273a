//! Unwrapping: peels off the programs that only run another one (the
//! [`super::wrappers`] table) and hands the scripts given to an interpreter
//! (the [`super::interpreters`] table) back to the parser one level deeper.

pub(super) use super::effect::CodeEffect;
use super::parser::parse_at;
use super::{MAX_COMMANDS, MAX_DEPTH, Redirect, SimpleCommand, finders, interpreters, wrappers};

/// What a wrapper leaves to run.
pub(super) enum Unwrapped {
    /// The command starts at this index of argv.
    At(usize),
    /// The command starts at this index of argv and runs in this directory
    /// (`env -C dir cmd`, `sudo -D dir cmd`).
    AtIn(usize, String),
    /// The command starts at this index of argv and is given the lines of
    /// its input as more arguments (`xargs`).
    Fed(usize),
    /// A script to parse one level deeper.
    Script(String),
    /// What the command does, read from its own words (`find -exec`, an
    /// interpreter's one-liner): judged as commands one level deeper, after
    /// the command itself.
    Effects(Vec<CodeEffect>),
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
    if let Some(effects) = finders::effects(&cmd.argv, name) {
        return effects;
    }
    if let Some(effects) = super::channels::effects(&cmd.argv, name) {
        return effects;
    }
    interpreters::script(cmd, name)
}

/// `argv` without the words in front of the command it runs: assignments,
/// reserved words and the wrappers that only take options (`sudo`, `env`,
/// `builtin`, ...). Scripts are not parsed.
pub(super) fn peeled(argv: &[String]) -> &[String] {
    let mut rest = argv;
    // Each round removes at least one word.
    loop {
        let skip = rest
            .iter()
            .take_while(|w| RESERVED.contains(&w.as_str()) || is_assignment(w))
            .count();
        rest = &rest[skip..];
        let Some(first) = rest.first() else {
            return rest;
        };
        match wrappers::lookup(&super::program_name(first)).map(|r| r.apply(rest)) {
            Some(Unwrapped::At(i) | Unwrapped::Fed(i) | Unwrapped::AtIn(i, _))
                if i > 0 && i < rest.len() =>
            {
                rest = &rest[i..];
            }
            _ => return rest,
        }
    }
}

/// Records the commands `effects` stand for, one level deeper than `cmd`,
/// each with `cmd`'s wrappers and `name` in front of its own.
fn record_effects(
    cmd: &SimpleCommand,
    name: &str,
    effects: Vec<CodeEffect>,
    depth: usize,
    out: &mut Vec<SimpleCommand>,
) {
    if depth >= MAX_DEPTH {
        super::opacity::bound_hit();
        return;
    }
    let mut wrappers = cmd.wrappers.clone();
    wrappers.push(name.to_string());
    for effect in effects {
        if out.len() >= MAX_COMMANDS {
            return;
        }
        let before = out.len();
        match effect {
            CodeEffect::Shell(script) => parse_at(&script, depth + 1, &cmd.cwd, out),
            CodeEffect::Argv(argv) => {
                let inner = SimpleCommand {
                    argv,
                    cwd: cmd.cwd.clone(),
                    ..SimpleCommand::default()
                };
                unwrap(inner, depth + 1, out);
            }
            CodeEffect::Write(path) => out.push(SimpleCommand {
                argv: vec![":".into()],
                redirects: vec![Redirect {
                    op: ">".into(),
                    target: path,
                }],
                cwd: cmd.cwd.clone(),
                ..SimpleCommand::default()
            }),
        }
        adopt(&mut out[before..], &wrappers, cmd.captured);
    }
}

/// The commands read from inside a wrapper or interpreter get its wrappers
/// in front of their own, and its captured output.
pub(super) fn adopt(inner: &mut [SimpleCommand], wrappers: &[String], captured: bool) {
    for c in inner {
        let mut w = wrappers.to_vec();
        w.append(&mut c.wrappers);
        c.wrappers = w;
        c.captured |= captured;
    }
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
        // `GIT_SSH_COMMAND='…' git fetch`: a variable whose value the
        // program runs as a command.
        let channels: Vec<CodeEffect> = cmd.argv[..skip]
            .iter()
            .filter_map(|w| super::channels::env_command(w))
            .map(CodeEffect::Shell)
            .collect();
        if !channels.is_empty() && skip < cmd.argv.len() {
            let name = super::program_name(&cmd.argv[skip]);
            record_effects(&cmd, &name, channels, depth, out);
        }
        cmd.argv.drain(..skip);
        // `{rm,-rf,~/x}`: brace expansion makes the words of a command.
        if let Some(words) = cmd
            .argv
            .first()
            .and_then(|w| super::channels::brace_words(w))
        {
            cmd.argv.splice(..1, words);
        }
        // `function name { …`: the body's first command follows.
        if cmd.argv.first().is_some_and(|w| w == "function") {
            let n = cmd.argv.len().min(2);
            cmd.argv.drain(..n);
            continue;
        }
        let Some(first) = cmd.argv.first() else {
            if !cmd.redirects.is_empty() {
                out.push(cmd);
            }
            return;
        };
        let name = super::program_name(first);
        // `ssh host 'cmd'`: the command another machine runs.
        if let Some(scripts) = super::remote::scripts(&cmd, &name) {
            let marker = format!("{}{name}", super::remote::PREFIX);
            let effects = scripts.into_iter().map(CodeEffect::Shell).collect();
            record_effects(&cmd, &marker, effects, depth, out);
        }
        match unwrap_one(&cmd, &name) {
            Unwrapped::No => {
                out.push(cmd);
                return;
            }
            Unwrapped::At(i) | Unwrapped::Fed(i) | Unwrapped::AtIn(i, _) if i >= cmd.argv.len() => {
                // A wrapper with nothing to run (`sudo -v`, `env`), unless it
                // starts a shell that reads a heredoc or here-string
                // (`sudo -i <<< 'script'`).
                let stdin_script = cmd.heredoc.clone().or_else(|| {
                    cmd.redirects
                        .iter()
                        .find(|r| r.op == "<<<")
                        .map(|r| r.target.clone())
                });
                if let Some(script) = stdin_script.filter(|_| {
                    matches!(name.as_str(), "sudo" | "su" | "doas" | "runuser" | "pkexec")
                }) {
                    record_effects(&cmd, &name, vec![CodeEffect::Shell(script)], depth, out);
                }
                out.push(cmd);
                return;
            }
            Unwrapped::At(i) => {
                cmd.argv.drain(..i);
                cmd.wrappers.push(name);
            }
            Unwrapped::AtIn(i, dir) => {
                cmd.argv.drain(..i);
                cmd.wrappers.push(name);
                cmd.cwd = cmd.cwd.join(&dir);
            }
            Unwrapped::Fed(i) => {
                cmd.argv.drain(..i);
                cmd.wrappers.push(name);
                cmd.fed = true;
            }
            Unwrapped::Effects(effects) => {
                out.push(cmd.clone());
                record_effects(&cmd, &name, effects, depth, out);
                return;
            }
            Unwrapped::Script(script) => {
                let before = out.len();
                if depth < MAX_DEPTH {
                    parse_at(&script, depth + 1, &cmd.cwd, out);
                } else {
                    super::opacity::bound_hit();
                }
                let mut wrappers = cmd.wrappers.clone();
                wrappers.push(name);
                adopt(&mut out[before..], &wrappers, cmd.captured);
                // `xargs sh -c '…{}…'`: the script's commands get xargs' input.
                if cmd.fed {
                    out[before..].iter_mut().for_each(|c| c.fed = true);
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
