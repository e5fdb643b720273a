//! One simple command as it would run.

use super::{Cwd, Redirect};

/// One command as it would run: its words after expansion of quotes (variables
/// and substitutions are kept as written, e.g. `$HOME`, `$(pwd)`), its
/// redirections, and the body of its heredoc, if any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SimpleCommand {
    pub argv: Vec<String>,
    pub redirects: Vec<Redirect>,
    /// The heredoc body (several heredocs are concatenated), as data.
    pub heredoc: Option<String>,
    /// Whether a heredoc's delimiter was unquoted, so its body's variables
    /// and substitutions expand before the command reads it.
    pub heredoc_expands: bool,
    /// The wrappers peeled off to reach this command, outermost first, by
    /// program name (`sudo`, `env`, `bash` for `bash -c`, `eval`, ...).
    pub wrappers: Vec<String>,
    /// Whether this command's standard input is the output of the command
    /// before it in a pipeline (`curl … | sh`: true for `sh`).
    pub piped: bool,
    /// Whether its standard output is captured by a substitution (`$(…)`,
    /// backticks, `<(…)`) instead of being shown.
    pub captured: bool,
    /// The directory it runs in, as the command line moved it (`cd .. &&
    /// rm -rf build`: `..` for `rm`).
    pub cwd: Cwd,
    /// Whether it receives more arguments at run time than it shows: the
    /// command of `xargs` or `parallel`, given the lines of its input.
    pub fed: bool,
    /// Why the reader could not see what runs here (a bound hit, a script it
    /// could not read): see [`super::opacity`]. `None` for an ordinary command.
    pub opaque: Option<&'static str>,
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
