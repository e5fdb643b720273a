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
    (&["sudo", "sudo-rs"], Rule::Custom(sudo)),
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
    (&["eval", "iex", "invoke-expression"], Rule::Custom(eval)),
    (&["su"], Rule::Custom(su)),
    // Launchers: they run their command with other limits, another user,
    // another scheduler or in another unit, and change nothing about what it
    // does.
    (&["chrt"], Rule::Custom(chrt)),
    (&["coproc"], opts("", &[])),
    // Commands stored to run later: judged now.
    (&["trap"], Rule::Custom(trap)),
    (&["complete"], Rule::Custom(complete)),
    (
        &["systemd-run"],
        opts(
            "pMEHuG",
            &[
                "unit",
                "property",
                "description",
                "slice",
                "setenv",
                "uid",
                "gid",
                "nice",
                "working-directory",
                "on-active",
                "on-boot",
                "on-startup",
                "on-unit-active",
                "on-unit-inactive",
                "on-calendar",
                "path-property",
                "socket-property",
                "timer-property",
                "machine",
                "host",
                "service-type",
            ],
        ),
    ),
    (&["daemonize"], opts("ceEoplu", &[])),
    (
        &["numactl"],
        opts(
            "imCNpPw",
            &[
                "interleave",
                "membind",
                "cpunodebind",
                "physcpubind",
                "preferred",
                "preferred-many",
                "weighted-interleave",
            ],
        ),
    ),
    (&["runuser"], Rule::Custom(runuser)),
    (&["sg", "newgrp"], Rule::Custom(sg)),
    (&["chpst"], opts("uUbe/nlLmdofpcrt", &[])),
    (
        &[
            "toybox",
            "setsid",
            "firejail",
            "valgrind",
            "unbuffer",
            "catchsegv",
            "dbus-launch",
            "proxychains",
            "proxychains4",
            "torsocks",
            "nocache",
            "eatmydata",
            "tsocks",
        ],
        opts("", &[]),
    ),
    (&["taskset"], Rule::Custom(taskset)),
    (&["flock"], Rule::Custom(flock)),
    (
        &["unshare"],
        opts(
            "SGRw",
            &[
                "setuid",
                "setgid",
                "root",
                "wd",
                "propagation",
                "setgroups",
                "map-user",
                "map-group",
            ],
        ),
    ),
    (&["prlimit"], opts("p", &["pid", "output"])),
    (&["cgexec"], opts("g", &[])),
    (&["pkexec"], opts("", &["user"])),
    (&["script"], Rule::Custom(script)),
    (&["watch"], Rule::Custom(watch)),
    (&["fakeroot"], opts("lsi", &["lib", "faked", "save-file"])),
    (
        &["chroot"],
        Rule::Options {
            short: "",
            long: &[],
            operands: 1,
        },
    ),
    (
        &["gosu", "su-exec"],
        Rule::Options {
            short: "",
            long: &[],
            operands: 1,
        },
    ),
    (
        &["setpriv"],
        opts(
            "",
            &[
                "reuid",
                "regid",
                "ruid",
                "rgid",
                "euid",
                "egid",
                "groups",
                "inh-caps",
                "ambient-caps",
                "bounding-set",
                "securebits",
                "selinux-label",
                "apparmor-profile",
            ],
        ),
    ),
    (
        &["nsenter"],
        opts("tSGwr", &["target", "setuid", "setgid", "wd", "root"]),
    ),
    (&["strace", "ltrace"], opts("oepsuEPbIaXSO", &["output"])),
    (
        &["xvfb-run"],
        opts(
            "nsfpe",
            &[
                "server-num",
                "server-args",
                "auth-file",
                "error-file",
                "xauth-protocol",
            ],
        ),
    ),
    (&["ssh-agent"], opts("aEPt", &[])),
    (&["caffeinate"], opts("tw", &[])),
    (
        &["systemd-inhibit"],
        opts("", &["what", "who", "why", "mode"]),
    ),
];

/// The rule of the wrapper `name`, if it is one.
pub(super) fn lookup(name: &str) -> Option<&'static Rule> {
    WRAPPERS
        .iter()
        .chain(super::launchers::LAUNCHERS)
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
    // Only assignments after the options: nothing to run, so `env` prints
    // the environment (`env FOO=bar`); it stays the command.
    let assignment = |a: &String| {
        a.split_once('=').is_some_and(|(n, _)| {
            !n.is_empty() && n.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        })
    };
    if argv[i.min(argv.len())..].iter().all(assignment) {
        return Unwrapped::At(argv.len());
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

/// `chrt [options] priority cmd`; `chrt -p` only changes a running process.
fn chrt(argv: &[String]) -> Unwrapped {
    if argv
        .iter()
        .skip(1)
        .take_while(|a| a.starts_with('-'))
        .any(|a| a == "-p" || a == "--pid")
    {
        return Unwrapped::No;
    }
    Unwrapped::At(
        skip_options(
            argv,
            1,
            "TPD",
            &["sched-runtime", "sched-period", "sched-deadline"],
        ) + 1,
    )
}

/// `taskset [-c] mask cmd`; `taskset -p` only changes a running process.
fn taskset(argv: &[String]) -> Unwrapped {
    if argv
        .iter()
        .skip(1)
        .take_while(|a| a.starts_with('-'))
        .any(|a| a.contains('p') && !a.starts_with("--") || a == "--pid")
    {
        return Unwrapped::No;
    }
    Unwrapped::At(skip_options(argv, 1, "", &[]) + 1)
}

/// `flock [options] file cmd…`, `flock [options] file -c 'script'`.
fn flock(argv: &[String]) -> Unwrapped {
    let i = skip_options(argv, 1, "wE", &["timeout", "conflict-exit-code"]) + 1;
    match argv.get(i).map(String::as_str) {
        Some("-c" | "--command") => argv
            .get(i + 1)
            .map_or(Unwrapped::No, |s| Unwrapped::Script(s.clone())),
        _ => Unwrapped::At(i),
    }
}

/// `runuser -u user [--] cmd…`, `runuser [-l] user -c 'script'`.
fn runuser(argv: &[String]) -> Unwrapped {
    if let Some(k) = argv.iter().position(|a| a == "-c" || a == "--command") {
        return argv
            .get(k + 1)
            .map_or(Unwrapped::No, |s| Unwrapped::Script(s.clone()));
    }
    Unwrapped::At(skip_options(
        argv,
        1,
        "ugGws",
        &[
            "user",
            "group",
            "supp-group",
            "shell",
            "whitelist-environment",
        ],
    ))
}

/// `sg group -c 'script'`, `sg group cmd…` (run by `sh -c`).
fn sg(argv: &[String]) -> Unwrapped {
    let rest = argv.get(2..).unwrap_or(&[]);
    match rest.first().map(String::as_str) {
        Some("-c") => rest
            .get(1)
            .map_or(Unwrapped::No, |s| Unwrapped::Script(s.clone())),
        Some(_) => Unwrapped::Script(rest.join(" ")),
        None => Unwrapped::No,
    }
}

/// `script [options] -c 'script' [file]` (also `-qc`).
fn script(argv: &[String]) -> Unwrapped {
    let mut it = argv.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "--command" || (a.starts_with('-') && !a.starts_with("--") && a.ends_with('c')) {
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

/// `watch [options] cmd…`: the words joined are run by `sh -c`, or exec'd
/// with `-x`.
fn watch(argv: &[String]) -> Unwrapped {
    let i = skip_options(argv, 1, "nqd", &["interval", "differences", "equexit"]);
    let exec = argv[1..i.min(argv.len())]
        .iter()
        .any(|a| a == "--exec" || (a.starts_with('-') && !a.starts_with("--") && a.contains('x')));
    if exec {
        Unwrapped::At(i)
    } else if i < argv.len() {
        Unwrapped::Script(argv[i..].join(" "))
    } else {
        Unwrapped::No
    }
}

/// `trap 'script' SIGNAL…`: the script runs when a signal arrives.
fn trap(argv: &[String]) -> Unwrapped {
    let args: Vec<&String> = argv[1..].iter().filter(|a| *a != "--").collect();
    match args.as_slice() {
        [script, _, ..] if !script.starts_with('-') => Unwrapped::Script((*script).clone()),
        _ => Unwrapped::No,
    }
}

/// `complete -C 'command' name`: the command runs at each completion.
fn complete(argv: &[String]) -> Unwrapped {
    let mut it = argv.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "-C" {
            return it
                .next()
                .map_or(Unwrapped::No, |s| Unwrapped::Script(s.clone()));
        }
    }
    Unwrapped::No
}
