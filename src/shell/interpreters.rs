//! Interpreters, in a table: the programs that run a script given on their
//! command line (`bash -c`, `pwsh -Command`, `cmd /c`, `python -c`,
//! `node -e`, `perl -e`, ...) or on their standard input (a heredoc or
//! here-string), and how each takes it. Shell scripts are parsed as commands;
//! the code of other languages is read for the calls it makes
//! ([`super::code`]).

use super::SimpleCommand;
use super::code::{self, Lang};
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
    (&["python", "py", "pypy", "pypy3"], python),
    (&["node", "nodejs"], node),
    (&["bun"], bun),
    (&["deno"], deno),
    (&["perl"], perl),
    (&["ruby"], ruby),
    (&["php"], php),
    (&["lua", "luajit", "lua5.4", "lua5.3", "lua5.1"], lua),
    (&["rscript", "Rscript"], rscript),
    (&["osascript"], osascript),
    (&["source", "."], source),
    (&["at", "batch"], at),
];

/// Whether the program `name` is an interpreter that runs a script read
/// from its standard input when it is given none.
pub(super) fn reads_stdin(name: &str) -> bool {
    let name = match name.strip_prefix("python") {
        Some(v) if v.bytes().all(|c| c.is_ascii_digit() || c == b'.') => "python",
        _ => name,
    };
    INTERPRETERS.iter().any(|(names, _)| names.contains(&name))
        && !matches!(
            name,
            "cmd" | "osascript" | "deno" | "source" | "." | "at" | "batch"
        )
}

/// The script `cmd` (run as `name`) is given, if it is an interpreter
/// given one.
pub(super) fn script(cmd: &SimpleCommand, name: &str) -> Unwrapped {
    // python3, python3.12, python2.7: python.
    let name = match name.strip_prefix("python") {
        Some(v) if v.bytes().all(|c| c.is_ascii_digit() || c == b'.') => "python",
        _ => name,
    };
    INTERPRETERS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map_or(Unwrapped::No, |(_, read)| read(cmd))
}

/// The code an interpreter is given: the value of one of its `code_flags`
/// (`-c`, `-e`; several are joined by newlines, a cluster such as `-pe`
/// counts when its last letter is one), else, when it runs no script file,
/// its heredoc or here-string. `with_value`: its options that take the next
/// word; `stop`: the options after which the rest is not code (`-m`).
fn code_of(
    cmd: &SimpleCommand,
    code_flags: &[&str],
    with_value: &[&str],
    stop: &[&str],
) -> Option<String> {
    let args = cmd.args();
    let mut code: Option<String> = None;
    let mut i = 0;
    let mut script_file = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if a == "--" || stop.contains(&a.as_str()) {
            break;
        }
        let is_code = code_flags.contains(&a.as_str())
            || (a.len() > 2
                && !a.starts_with("--")
                && a.starts_with('-')
                && a[1..].bytes().all(|c| c.is_ascii_alphabetic())
                && code_flags
                    .iter()
                    .any(|f| f.len() == 2 && a.ends_with(&f[1..])));
        if is_code {
            if let Some(v) = args.get(i) {
                let c = code.get_or_insert_with(String::new);
                if !c.is_empty() {
                    c.push('\n');
                }
                c.push_str(v);
            }
            i += 1;
        } else if with_value.contains(&a.as_str()) {
            i += 1;
        } else if !a.starts_with('-') {
            if code.is_none() {
                script_file = true;
            }
            break;
        }
    }
    if code.is_some() || script_file {
        return code;
    }
    cmd.heredoc.clone().or_else(|| {
        cmd.redirects
            .iter()
            .find(|r| r.op == "<<<")
            .map(|r| r.target.clone())
    })
}

/// The effects of `lang` code, if any was given.
fn read_code(lang: Lang, code: Option<String>) -> Unwrapped {
    match code {
        Some(c) => Unwrapped::Effects(code::effects(lang, &c)),
        None => Unwrapped::No,
    }
}

/// `python -c 'code'` (not `-m module`).
fn python(cmd: &SimpleCommand) -> Unwrapped {
    read_code(
        Lang::Python,
        code_of(
            cmd,
            &["-c"],
            &["-W", "-X", "--check-hash-based-pycs"],
            &["-m"],
        ),
    )
}

/// `node -e`/`-p`/`--eval`/`--print`.
fn node(cmd: &SimpleCommand) -> Unwrapped {
    read_code(
        Lang::JavaScript,
        code_of(
            cmd,
            &["-e", "-p", "--eval", "--print"],
            &["-r", "--require", "--import", "--loader"],
            &[],
        ),
    )
}

/// `bun -e`/`--eval`/`-p`/`--print`.
fn bun(cmd: &SimpleCommand) -> Unwrapped {
    read_code(
        Lang::JavaScript,
        code_of(cmd, &["-e", "-p", "--eval", "--print"], &[], &[]),
    )
}

/// `deno eval 'code'`.
fn deno(cmd: &SimpleCommand) -> Unwrapped {
    let args = cmd.args();
    if args.first().is_none_or(|a| a != "eval") {
        return Unwrapped::No;
    }
    let code = args[1..].iter().find(|a| !a.starts_with('-')).cloned();
    read_code(Lang::JavaScript, code)
}

/// `perl -e`/`-E` (also in clusters: `-pe`, `-lne`).
fn perl(cmd: &SimpleCommand) -> Unwrapped {
    read_code(
        Lang::Perl,
        code_of(cmd, &["-e", "-E"], &["-I", "-M", "-m"], &[]),
    )
}

/// `ruby -e`.
fn ruby(cmd: &SimpleCommand) -> Unwrapped {
    read_code(Lang::Ruby, code_of(cmd, &["-e"], &["-I", "-r"], &[]))
}

/// `php -r`.
fn php(cmd: &SimpleCommand) -> Unwrapped {
    read_code(Lang::Php, code_of(cmd, &["-r"], &["-d", "-c"], &[]))
}

/// `lua -e`.
fn lua(cmd: &SimpleCommand) -> Unwrapped {
    read_code(Lang::Lua, code_of(cmd, &["-e"], &["-l"], &[]))
}

/// `Rscript -e`.
fn rscript(cmd: &SimpleCommand) -> Unwrapped {
    read_code(Lang::R, code_of(cmd, &["-e"], &[], &[]))
}

/// `osascript -e`.
fn osascript(cmd: &SimpleCommand) -> Unwrapped {
    read_code(Lang::AppleScript, code_of(cmd, &["-e"], &["-l"], &[]))
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

/// `. /dev/stdin <<< 'script'`, `source /dev/stdin <<EOF`: the heredoc or
/// here-string is the script.
fn source(cmd: &SimpleCommand) -> Unwrapped {
    match cmd.args().first().map(String::as_str) {
        Some("/dev/stdin" | "-" | "/dev/fd/0" | "/proc/self/fd/0") => {}
        _ => return Unwrapped::No,
    }
    if let Some(body) = &cmd.heredoc {
        return Unwrapped::Script(body.clone());
    }
    cmd.redirects
        .iter()
        .find(|r| r.op == "<<<")
        .map_or(Unwrapped::No, |r| Unwrapped::Script(r.target.clone()))
}

/// `at now <<< 'script'`, `echo 'script' | at now`, `batch <<EOF`: the
/// script runs later (`-f file` names a file instead).
fn at(cmd: &SimpleCommand) -> Unwrapped {
    if cmd
        .args()
        .iter()
        .any(|a| a == "-f" || a.starts_with("-l") || a == "-r" || a == "-d")
    {
        return Unwrapped::No;
    }
    if let Some(body) = &cmd.heredoc {
        return Unwrapped::Script(body.clone());
    }
    cmd.redirects
        .iter()
        .find(|r| r.op == "<<<")
        .map_or(Unwrapped::No, |r| Unwrapped::Script(r.target.clone()))
}
