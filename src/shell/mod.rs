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
//! The reader is split along what it does: `lexer` reads words and
//! quoting, `parser` the command structure (separators, subshells,
//! redirections, heredocs), `unwrap` peels wrappers off with the knowledge
//! of `wrappers` and hands interpreters' scripts back to the parser with
//! the knowledge of `interpreters`.
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

mod channels;
mod code;
mod code_lua_r;
mod command;
mod constants;
mod cwd;
mod destinations;
mod effect;
mod finders;
mod git_aliases;
mod interpreters;
mod launchers;
mod lexer;
pub mod opacity;
mod options;
mod outputs;
mod parser;
mod printed;
mod redirect;
pub mod remote;
mod sed;
mod unwrap;
pub mod words;
mod wrappers;
mod writes;

pub use command::SimpleCommand;
pub use constants::fed_words;
pub use cwd::Cwd;
pub use finders::found_paths;
pub use launchers::{InContainer, container_command, container_tool};
pub use redirect::Redirect;
pub use writes::write_paths;

/// Every simple command in `command`, wrappers unwrapped, nested `-c`
/// scripts, `$(...)`, backticks and subshells included (bounded depth), in
/// source order; the commands of a substitution come before the command whose
/// word holds it (they run first).
///
/// Where a bound stops the reader (a nesting deeper than [`MAX_DEPTH`], more
/// than [`MAX_INPUT`] bytes), a last command with no words carries the reason
/// in [`SimpleCommand::opaque`] (see [`opacity`]).
pub fn parse(command: &str) -> Vec<SimpleCommand> {
    let mut out = Vec::new();
    opacity::take_bound();
    parser::parse_at(
        crate::text::prefix_bytes(command, MAX_INPUT),
        0,
        &Cwd::Start,
        &mut out,
    );
    if opacity::take_bound() || command.len() > MAX_INPUT {
        out.push(opacity::marker());
    }
    out
}

/// [`parse`] for PowerShell (and `cmd.exe`) command lines: a backslash is a
/// path separator there, not an escape, and the escape character is the
/// backtick.
pub fn parse_powershell(command: &str) -> Vec<SimpleCommand> {
    let mut out = parse(&lexer::powershell_as_sh(crate::text::prefix_bytes(
        command, MAX_INPUT,
    )));
    if command.len() > MAX_INPUT && out.last().is_none_or(|c| c.opaque.is_none()) {
        out.push(opacity::marker());
    }
    out
}

/// What an `echo`/`printf` command prints, read from its constant words
/// (printf's `%s` filled, escapes such as `\x2e` decoded); None for any
/// other command, or a format the reader does not fill.
pub fn echoed(argv: &[String]) -> Option<String> {
    printed::echo_text(argv)
}

/// The lower-case program name without directory or `.exe`
/// (`/usr/bin/Git` → `git`, `C:\x\PWSH.EXE` → `pwsh`).
pub fn program_name(word: &str) -> String {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let lower = base.to_ascii_lowercase();
    let name = lower.strip_suffix(".exe").unwrap_or(&lower);
    unversioned(name).unwrap_or(name).to_string()
}

/// Interpreters and installers installed under a versioned name: any such
/// spelling is the tool itself (`pip3.12`, `python3.12`, `python-3.11`,
/// `ruby3.2`, `node20` → `pip3`, `python3`, `python`, `ruby`, `node`). A
/// Python or pip of major version 3 keeps its `3`, the spelling the tables
/// know.
fn unversioned(name: &str) -> Option<&'static str> {
    const TOOLS: &[&str] = &[
        "python", "pip", "pypy", "node", "nodejs", "ruby", "gem", "perl", "php", "lua", "irb",
        "bundle", "bundler",
    ];
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
    let version = name[stem.len()..].trim_start_matches('-');
    if version.is_empty() || !version.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let tool = TOOLS.iter().find(|t| **t == stem)?;
    Some(match (*tool, version.starts_with('3')) {
        ("python", true) if version != "3" => "python3",
        ("pip", true) if version != "3" => "pip3",
        ("python" | "pip", true) => return None,
        _ => tool,
    })
}

#[cfg(test)]
mod tests;
