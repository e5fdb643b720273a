//! Opacity: the ways of writing a command whose effect cannot be known by
//! reading it (issue 26). The reader sees through what it can (launchers in
//! `super::wrappers`, side channels in `super::channels`, same-line
//! aliases in `super::parser`, literal scripts fed to a shell); what is
//! left is named here, each with a plain reason, so that the guard that
//! would own the effect can say "nobody can read this" instead of nothing:
//!
//! - the program is computed at run time (`"$cmd" -r ~/x`, `$(echo rm) …`);
//! - a shell or interpreter runs a script that is the output of another
//!   program (`base64 -d <<< … | sh`, `bash <(curl …)`, `. /dev/stdin`), or
//!   a file the same command line wrote;
//! - a bound of the reader was hit (input length, nesting depth, command
//!   count): the rest was not read;
//! - PowerShell's computed calls, script blocks, encoded commands and .NET
//!   static calls, and a delete fed by the pipeline.
//!
//! What the commands do once read (a delete, a secret read) stays the
//! guards' business; this module only says where reading stops.

use super::{MAX_COMMANDS, MAX_INPUT, SimpleCommand, program_name};
use std::cell::Cell;

/// Whose effect an opaque command may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Anything: the program or script itself is unknown.
    Any,
    /// A delete whose target is unknown.
    Delete,
    /// A read whose file or variable is unknown.
    Secret,
}

/// One place where reading stops.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opaque {
    pub effect: Effect,
    /// A plain reason ("the program this runs is computed at run time").
    pub reason: &'static str,
    /// The command it is about, as written (words joined).
    pub shown: String,
}

/// Why a marker command was recorded for a bound hit.
pub(super) const BOUND: &str = "is longer or deeper than cuecard reads (its length, nesting or command count is over the reader's bound), so the rest is not judged";

thread_local! {
    static HIT: Cell<bool> = const { Cell::new(false) };
}

/// Records that a bound of the reader (depth) stopped it from reading a
/// nested script.
pub(super) fn bound_hit() {
    HIT.with(|h| h.set(true));
}

/// Clears the bound record before a parse; returns whether it was set.
pub(super) fn take_bound() -> bool {
    HIT.with(|h| h.replace(false))
}

/// The marker recorded when a bound was hit (no words, the reason).
pub(super) fn marker() -> SimpleCommand {
    SimpleCommand {
        opaque: Some(BOUND),
        ..SimpleCommand::default()
    }
}

const COMPUTED_PROGRAM: &str =
    "runs a program whose name is computed at run time, so cuecard cannot read what it does";
const GLOB_PROGRAM: &str =
    "runs a program named by a file-name pattern, so which program runs is known only at run time";
const HOOKS_DIR: &str =
    "points git at a hooks directory cuecard does not read: the hooks run as part of the command";
const PIPED_SCRIPT: &str = "runs a script that is the output of another program (a pipe, a decoder, a download or a process substitution), so cuecard cannot read it";
const WRITTEN_SCRIPT: &str =
    "runs a script file this same command line writes, so cuecard cannot read it";
const PS_COMPUTED: &str = "runs a computed PowerShell call, script block or encoded command, so cuecard cannot read what it does";
const PS_DOTNET: &str =
    "makes a .NET call cuecard does not read (a file, directory or environment API)";
const PS_FED_DELETE: &str =
    "deletes what the PowerShell pipeline feeds it: the paths are known only at run time";
const COMPUTED_DELETE: &str = "deletes a path computed at run time (a substitution or a variable), so cuecard cannot tell what it removes";

/// Shells and interpreters that run a script given as a file operand or on
/// their standard input.
const SHELLS: &[&str] = &[
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "ash",
    "mksh",
    "fish",
    "source",
    ".",
    "python",
    "python3",
    "python2",
    "node",
    "nodejs",
    "perl",
    "ruby",
    "php",
    "pwsh",
    "powershell",
    "bun",
    "deno",
    "at",
    "batch",
];

fn is_shell(name: &str) -> bool {
    SHELLS.contains(&name)
        || name
            .strip_prefix("python")
            .is_some_and(|v| v.bytes().all(|c| c.is_ascii_digit() || c == b'.'))
}

/// Whether a word's text is computed at run time: a substitution, a
/// backtick, a variable, an ANSI-C string already resolved does not count.
pub fn computed(word: &str) -> bool {
    word.contains('$') || word.contains('`') || word.starts_with("<(")
}

/// Every place in `cmds` (read from `raw`) where reading stops.
pub fn find(raw: &str, cmds: &[SimpleCommand], powershell: bool) -> Vec<Opaque> {
    let mut out = Vec::new();
    let shown = |c: &SimpleCommand| c.argv.join(" ");
    if raw.len() > MAX_INPUT || cmds.len() >= MAX_COMMANDS {
        out.push(Opaque {
            effect: Effect::Any,
            reason: BOUND,
            shown: "the command".into(),
        });
    }
    let mut written: Vec<&str> = Vec::new();
    for (k, c) in cmds.iter().enumerate() {
        if let Some(reason) = c.opaque {
            out.push(Opaque {
                effect: Effect::Any,
                reason,
                shown: if c.argv.is_empty() {
                    "the command".into()
                } else {
                    shown(c)
                },
            });
        }
        let Some(first) = c.argv.first() else {
            continue;
        };
        let name = program_name(first);
        let args = c.args();
        // In PowerShell a leading `[type]` is a cast or a static member
        // (`[bool]$env:X`, `[IO.File]::ReadAllText(…)`), not a program.
        // `[T]::Member(…)` is a .NET static call, never a glob program, also
        // in PowerShell code read through `pwsh -Command`.
        let ps_static = first.starts_with('[') && first.contains("]::");
        let ps_type = ps_static
            || powershell
                && (first.starts_with('[') && first.contains(']')
                    || ps_string_statement(raw, first));
        if ps_static && !powershell && !pure_dotnet(&shown(c).to_ascii_lowercase()) {
            out.push(Opaque {
                effect: Effect::Any,
                reason: PS_DOTNET,
                shown: shown(c),
            });
        }
        let glob_program =
            first != "[" && first != "[[" && first.contains(['*', '?', '[']) && !ps_type;
        if glob_program {
            out.push(Opaque {
                effect: Effect::Any,
                reason: GLOB_PROGRAM,
                shown: shown(c),
            });
        } else if name == "git"
            && args
                .iter()
                .any(|a| a.to_ascii_lowercase().starts_with("core.hookspath"))
        {
            out.push(Opaque {
                effect: Effect::Any,
                reason: HOOKS_DIR,
                shown: shown(c),
            });
        } else if computed(first)
            && !is_harmless_computed(first)
            && !(ps_type || powershell && powershell_assignment(c))
        {
            out.push(Opaque {
                effect: Effect::Any,
                reason: COMPUTED_PROGRAM,
                shown: shown(c),
            });
        } else if is_shell(&name) {
            let operand = args.iter().find(|a| !a.starts_with('-') || *a == "-");
            let from_stdin = operand.is_none_or(|o| o == "-" || o == "/dev/stdin");
            let opaque_file = operand.is_some_and(|o| {
                o.starts_with("<(")
                    || o.starts_with("/dev/fd/")
                    || o.starts_with("/proc/self/fd/")
                    || (o == "/dev/stdin" && c.heredoc.is_none() && !herestring(c))
                    || computed(o)
                    // A file named by the input (`xargs -I{} bash {}`, `find
                    // … -exec sh {} \;`).
                    || o.contains("{}")
                    || c.fed && o.contains('%')
            }) && !has_code_flag(args);
            let piped_unread = from_stdin && c.piped && c.heredoc.is_none() && !herestring(c);
            let written_file = operand.is_some_and(|o| written.contains(&o.as_str()));
            if opaque_file || piped_unread {
                out.push(Opaque {
                    effect: Effect::Any,
                    reason: PIPED_SCRIPT,
                    shown: shown(c),
                });
            } else if written_file && !has_code_flag(args) {
                out.push(Opaque {
                    effect: Effect::Any,
                    reason: WRITTEN_SCRIPT,
                    shown: shown(c),
                });
            }
        } else if is_deleter(&name, args) || powershell && c.piped && is_ps_remove(&name) {
            let paths: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
            if paths.iter().any(|p| computed_path(p)) {
                out.push(Opaque {
                    effect: Effect::Delete,
                    reason: COMPUTED_DELETE,
                    shown: shown(c),
                });
            } else if powershell
                && c.piped
                && paths.is_empty()
                && !k
                    .checked_sub(1)
                    .is_some_and(|j| ps_lister(&program_name(&cmds[j].argv[0])))
            {
                out.push(Opaque {
                    effect: Effect::Delete,
                    reason: PS_FED_DELETE,
                    shown: shown(c),
                });
            }
        }
        for r in &c.redirects {
            if matches!(
                r.op.trim_start_matches(|d: char| d.is_ascii_digit()),
                ">" | ">>" | ">|"
            ) {
                written.push(r.target.as_str());
            }
        }
    }
    if powershell {
        out.extend(powershell_opaque(raw));
    }
    out
}

/// Tools whose output is shell that only sets up the environment, run as
/// `eval "$(tool …)"` in ordinary sessions.
const ENV_SETUP: &[&str] = &[
    "ssh-agent",
    "gpg-agent",
    "keychain",
    "opam",
    "pyenv",
    "rbenv",
    "nodenv",
    "goenv",
    "jenv",
    "fnm",
    "direnv",
    "brew",
    "dircolors",
    "conda",
    "zoxide",
    "starship",
    "minikube",
    "docker-machine",
    "luarocks",
    "mise",
    "rtx",
    "asdf",
];

/// A computed program that is one of a few fixed idioms: `eval "$(ssh-agent
/// -s)"` and the other [`ENV_SETUP`] tools.
fn is_harmless_computed(word: &str) -> bool {
    word.strip_prefix("$(")
        .and_then(|w| w.strip_suffix(')'))
        .and_then(|w| w.split_whitespace().next())
        .is_some_and(|p| {
            ENV_SETUP.contains(&program_name(p).as_str())
                && !word[2..].contains(['$', '`', ';', '|', '&'])
        })
}

/// A PowerShell assignment (`$env:X = 'v'`, `$x=1`) or an expression that
/// starts with a variable (`$env:PATH`, `$env:Path -split ';'`,
/// `$PSVersionTable.PSVersion`): it only computes a value. PowerShell runs a
/// program named by a variable only through `&` or `.`, so none of these is
/// a program.
fn powershell_assignment(c: &SimpleCommand) -> bool {
    let first = c.argv.first().map_or("", String::as_str);
    first.starts_with('$')
        && (first.contains('=')
            || first[1..]
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'{')
            || c.argv
                .get(1)
                .is_some_and(|w| w.starts_with('=') || w.ends_with('=')))
}

/// A PowerShell statement that is a double-quoted string (`"present:
/// $([bool]$env:X)"`): an expression whose value is printed, not a program
/// (a string names a program only after the call operator `&` or `.`).
fn ps_string_statement(raw: &str, first: &str) -> bool {
    let quoted = format!("\"{first}\"");
    raw.match_indices(&quoted)
        .any(|(at, _)| !raw[..at].trim_end().ends_with(['&', '.']))
}

fn herestring(c: &SimpleCommand) -> bool {
    c.redirects.iter().any(|r| r.op == "<<<")
}

/// An interpreter given its code on the command line (`-c`, `-e`), not a
/// file: the code was read by the reader already.
fn has_code_flag(args: &[String]) -> bool {
    args.iter().any(|a| {
        a.starts_with('-')
            && !a.starts_with("--")
            && (a.ends_with('c') || a.ends_with('e') || a.ends_with('E'))
            || a == "--command"
            || a == "--eval"
    })
}

/// A recursive delete (`rm -r`, `rmdir`, `Remove-Item -Recurse` and its
/// aliases).
fn is_deleter(name: &str, args: &[String]) -> bool {
    let recursive = args.iter().any(|a| {
        let l = a.to_ascii_lowercase();
        (l.starts_with('-') && !l.starts_with("--") && (l.contains('r')))
            || l == "--recursive"
            || l.starts_with("-rec")
            || l == "/s"
    });
    match name {
        "rm" | "rmdir" | "remove-item" | "ri" | "del" | "erase" | "rd" => recursive,
        _ => false,
    }
}

/// PowerShell's `Remove-Item` and its aliases.
/// PowerShell's directory listers: what they feed a `Remove-Item` is the
/// files under the path they are given, as `find` feeds `xargs rm`.
pub fn ps_lister(name: &str) -> bool {
    matches!(name, "get-childitem" | "gci" | "ls" | "dir")
}

/// PowerShell's deleters (and their aliases).
pub fn is_ps_remove(name: &str) -> bool {
    matches!(
        name,
        "remove-item" | "ri" | "rm" | "del" | "erase" | "rd" | "rmdir"
    )
}

/// A path the command line does not spell: a substitution or a variable
/// (`$HOME` alone is read by the guards; `${HOME:?}`, `$(…)`, `$x` are not).
fn computed_path(p: &str) -> bool {
    if !computed(p) {
        return false;
    }
    let known = ["$HOME", "${HOME}", "$TMPDIR", "${TMPDIR}"];
    let mut rest = p.to_string();
    for k in known {
        rest = rest.replace(k, "");
    }
    // Where the command runs (`$PWD`, `$(pwd)`, the repository's top).
    for (k, _) in super::cwd::HERE {
        rest = rest.replace(k, "");
    }
    // A fresh temporary directory (`"$(mktemp -d)"`) holds nothing yet.
    if let Some(at) = rest.find("$(mktemp")
        && let Some(end) = rest[at..].find(')')
    {
        rest.replace_range(at..at + end + 1, "");
    }
    computed(&rest) && !computed_in_temp(p)
}

/// The temporary directory as other shells and runners spell it, whether
/// or not the hook's own environment sets it: PowerShell's `$env:TEMP`,
/// cmd's `%TEMP%`, a CI runner's `$RUNNER_TEMP`, and a default that is
/// one (`${TMPDIR:-/tmp}`). A POSIX `$TEMP` is not here: unset, it is
/// empty and `$TEMP/x` is `/x`.
pub const TEMP_VARS: &[&str] = &[
    "$env:temp",
    "${env:temp}",
    "$env:tmp",
    "${env:tmp}",
    "%temp%",
    "%tmp%",
    "$runner_temp",
    "${runner_temp}",
    "$env:runner_temp",
    "${tmpdir:-/tmp}",
    "${tmpdir:-/var/tmp}",
];

/// A path whose spelled part names a directory inside the temporary
/// directory and whose computed part comes after it (`$TMPDIR/pytest-of-$USER`,
/// `/tmp/build-$ID/out`): whatever the variable holds, what goes is in the
/// temporary directory (a `..` spelled in the path leaves it).
fn computed_in_temp(p: &str) -> bool {
    let p = p.trim_matches('"').replace('\\', "/");
    let lower = p.to_ascii_lowercase();
    let other = TEMP_VARS
        .iter()
        .find(|v| lower.starts_with(**v) && p[v.len()..].starts_with('/'))
        .map(|v| &p[v.len() + 1..]);
    let tail = ["$TMPDIR/", "${TMPDIR}/", "/tmp/", "/var/tmp/"]
        .iter()
        .find_map(|root| p.strip_prefix(root))
        .or(other);
    tail.is_some_and(|t| {
        !t.is_empty()
            && !t.starts_with(['$', '`', '/'])
            && !t.split('/').any(|seg| seg == ".." || seg == ".")
    })
}

/// PowerShell's own abbreviations of `-EncodedCommand` (`-enc`, `-ec`, `-e`),
/// which mean that only after a `pwsh` or `powershell` program word:
/// `node -e "1+1"` is Node's readable code.
fn encoded_abbreviation(lower: &str) -> bool {
    [" -enc ", " -ec ", " -e "].iter().any(|flag| {
        lower
            .match_indices(flag)
            .any(|(at, _)| lower[..at].contains("pwsh") || lower[..at].contains("powershell"))
    })
}

/// PowerShell spellings the reader cannot follow.
fn powershell_opaque(raw: &str) -> Vec<Opaque> {
    let lower = raw.to_ascii_lowercase();
    let mut out = Vec::new();
    let first_line = raw.lines().next().unwrap_or_default();
    let shown: String = first_line.chars().take(120).collect();
    let computed_call = [
        "& $", "&$", "& (", "&(", ". (", ". {", "& {", ".{", "&{", ". $",
    ]
    .iter()
    .any(|p| lower.contains(p))
        || [
            "-scriptblock",
            "invoke-command",
            "start-process",
            "start-job",
            "-encodedcommand",
            "[scriptblock]",
            "invoke-expression",
            "iex ",
            "iex(",
            "new-object",
            "add-type",
        ]
        .iter()
        .any(|p| lower.contains(p))
        || encoded_abbreviation(&lower);
    if computed_call {
        out.push(Opaque {
            effect: Effect::Any,
            reason: PS_COMPUTED,
            shown: shown.clone(),
        });
    }
    if lower.contains("]::") && !pure_dotnet(&lower) {
        let secret = [
            "environment]::",
            "::read",
            "::open",
            "::copy",
            "getenvironment",
        ]
        .iter()
        .any(|p| lower.contains(p));
        out.push(Opaque {
            effect: if secret { Effect::Secret } else { Effect::Any },
            reason: PS_DOTNET,
            shown,
        });
    }
    out
}

/// .NET types whose static members compute a value and touch no file,
/// directory, process, network or environment (`[string]::IsNullOrEmpty`,
/// `[math]::Round`, `[datetime]::UtcNow`, `[guid]::NewGuid()`).
const PURE_DOTNET: &[&str] = &[
    "string",
    "math",
    "int",
    "int16",
    "int32",
    "int64",
    "uint16",
    "uint32",
    "uint64",
    "long",
    "double",
    "float",
    "single",
    "decimal",
    "bool",
    "boolean",
    "char",
    "byte",
    "datetime",
    "datetimeoffset",
    "timespan",
    "guid",
    "version",
    "regex",
    "uri",
    "bitconverter",
    "convert",
    "text.encoding",
    "text.regularexpressions.regex",
    "timezoneinfo",
    "enum",
];

/// Whether every `[T]::` static call in `lower` (lower-case code) is on a
/// type of [`PURE_DOTNET`] (with or without `System.`).
fn pure_dotnet(lower: &str) -> bool {
    lower.match_indices("]::").all(|(at, _)| {
        let head = &lower[..at];
        head.rfind('[').is_some_and(|open| {
            let ty = &head[open + 1..];
            let ty = ty.strip_prefix("system.").unwrap_or(ty);
            PURE_DOTNET.contains(&ty)
        })
    })
}
