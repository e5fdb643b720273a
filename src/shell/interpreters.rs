//! Interpreters, in a table: the programs that run a script given on their
//! command line (`bash -c`, `pwsh -Command`, `cmd /c`) or on their standard
//! input (a heredoc or here-string fed to a shell), and how each takes it.

use super::SimpleCommand;
use super::lexer::powershell_as_sh;
use super::unwrap::Unwrapped;

/// How an interpreter's script is found in its command.
type Reader = fn(&SimpleCommand) -> Unwrapped;

/// Every interpreter whose script is read, by program name.
const INTERPRETERS: &[(&[&str], Reader)] = &[
    (
        &["sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "fish"],
        shell_script,
    ),
    (&["pwsh", "powershell"], powershell),
    (&["cmd"], cmd_exe),
];

/// The script `cmd` (run as `name`) is given, if it is an interpreter
/// given one.
pub(super) fn script(cmd: &SimpleCommand, name: &str) -> Unwrapped {
    INTERPRETERS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map_or(Unwrapped::No, |(_, read)| read(cmd))
}

/// `pwsh -Command …` (any prefix of `-Command`, `/` or `-`): the rest of the
/// line, in PowerShell's quoting.
fn powershell(cmd: &SimpleCommand) -> Unwrapped {
    let argv = &cmd.argv;
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

/// `cmd /c …` and `cmd /k …`.
fn cmd_exe(cmd: &SimpleCommand) -> Unwrapped {
    let argv = &cmd.argv;
    for (k, a) in argv.iter().enumerate().skip(1) {
        if a.eq_ignore_ascii_case("/c") || a.eq_ignore_ascii_case("/k") {
            return Unwrapped::Script(powershell_as_sh(&argv[k + 1..].join(" ")));
        }
    }
    Unwrapped::No
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
