//! The programs that only run another one, in a table: how each spells its
//! options, so that the command it runs can be found behind them.

use super::lexer::quote;
use super::options::skip_options;
use super::unwrap::Unwrapped;

/// How a wrapper's own words are read.
pub(super) enum Rule {
    /// getopt-style options (`short`: letters that take a value, `long`:
    /// names that take the next word), then `operands` words of its own
    /// (`timeout`'s duration) before the command.
    Options {
        short: &'static str,
        long: &'static [&'static str],
        operands: usize,
    },
    /// A reading of its own.
    Custom(fn(&[String]) -> Unwrapped),
}

impl Rule {
    pub(super) fn apply(&self, argv: &[String]) -> Unwrapped {
        match self {
            Rule::Options {
                short,
                long,
                operands,
            } => Unwrapped::At(skip_options(argv, 1, short, long) + operands),
            Rule::Custom(f) => f(argv),
        }
    }
}

const fn opts(short: &'static str, long: &'static [&'static str]) -> Rule {
    Rule::Options {
        short,
        long,
        operands: 0,
    }
}

/// Every wrapper, by program name.
const WRAPPERS: &[(&[&str], Rule)] = &[
    (&["sudo"], Rule::Custom(sudo)),
    (&["doas"], opts("uC", &[])),
    (&["env"], Rule::Custom(env)),
    (&["nice"], Rule::Custom(nice)),
    (
        &["ionice"],
        opts("cnpPu", &["class", "classdata", "pid", "pgid", "uid"]),
    ),
    (
        &["timeout"],
        Rule::Options {
            short: "sk",
            long: &["signal", "kill-after"],
            operands: 1,
        },
    ),
    (&["nohup", "busybox", "builtin"], opts("", &[])),
    (&["time"], opts("fo", &["format", "output"])),
    (&["command"], Rule::Custom(command)),
    (&["exec"], opts("a", &[])),
    (&["stdbuf"], opts("ioe", &["input", "output", "error"])),
    (&["xargs"], Rule::Custom(xargs)),
    (&["eval"], Rule::Custom(eval)),
    (&["su"], Rule::Custom(su)),
];

/// The rule of the wrapper `name`, if it is one.
pub(super) fn lookup(name: &str) -> Option<&'static Rule> {
    WRAPPERS
        .iter()
        .find(|(names, _)| names.contains(&name))
        .map(|(_, rule)| rule)
}

/// The value of a directory option (`-C dir`, `-Cdir`, `--chdir dir`,
/// `--chdir=dir`) among `argv[1..end]`.
fn chdir(argv: &[String], end: usize, short: &str) -> Option<String> {
    let words = argv.get(1..end)?;
    let mut it = words.iter();
    while let Some(a) = it.next() {
        if a == short || a == "--chdir" {
            return it.next().cloned();
        }
        if let Some(d) = a
            .strip_prefix("--chdir=")
            .or_else(|| a.strip_prefix(short).filter(|d| !d.is_empty()))
        {
            return Some(d.to_string());
        }
    }
    None
}

/// The command at `i`, in the directory its wrapper's `short` option (or
/// `--chdir`) names, if any.
fn at_in(argv: &[String], i: usize, short: &str) -> Unwrapped {
    match chdir(argv, i, short) {
        Some(dir) => Unwrapped::AtIn(i, dir),
        None => Unwrapped::At(i),
    }
}

/// `sudo [options] cmd`; `-D dir` runs it in `dir`.
fn sudo(argv: &[String]) -> Unwrapped {
    let i = skip_options(
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
    );
    at_in(argv, i, "-D")
}

/// `env [-i] [-u NAME] [-C dir] [NAME=value]… cmd`, and `env -S 'script'`.
fn env(argv: &[String]) -> Unwrapped {
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        // `-S 'script' args…`: the script, then the words after it, quoted.
        let split = if a == "-S" || a == "--split-string" {
            Some((argv.get(i + 1).map_or("", String::as_str), i + 2))
        } else {
            a.strip_prefix("--split-string=")
                .or_else(|| a.strip_prefix("-S").filter(|s| !s.is_empty()))
                .map(|s| (s, i + 1))
        };
        if let Some((first, rest)) = split {
            let mut script = first.to_string();
            for word in argv.iter().skip(rest) {
                script.push(' ');
                script.push_str(&quote(word));
            }
            return Unwrapped::Script(script);
        }
        if a == "-" {
            i += 1;
            continue;
        }
        // `-P dir` is BSD env's search path.
        let next = skip_options(argv, i, "uCP", &["unset", "chdir"]);
        if next == i {
            break;
        }
        i = next;
        if argv.get(i - 1).is_some_and(|a| a == "--") {
            break;
        }
    }
    at_in(argv, i, "-C")
}

/// `nice -n 10 cmd`, `nice -5 cmd`.
fn nice(argv: &[String]) -> Unwrapped {
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

/// `command cmd` runs it; `command -v cmd` only looks it up.
fn command(argv: &[String]) -> Unwrapped {
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

/// `xargs [options] cmd`: `-i`, `-l` and `-e` take an optional attached
/// value only. The command is fed the words of xargs' input.
fn xargs(argv: &[String]) -> Unwrapped {
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
    Unwrapped::Fed(i)
}

/// `eval word…`: the words joined are a script.
fn eval(argv: &[String]) -> Unwrapped {
    Unwrapped::Script(argv[1..].join(" "))
}

/// `su -c 'script' user`.
fn su(argv: &[String]) -> Unwrapped {
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
