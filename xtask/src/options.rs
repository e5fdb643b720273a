//! The options each task takes. Anything else, `--help` among them, prints
//! the usage and runs nothing: `bench --help` never starts the benchmark (nor
//! its npm install), and a mistyped `gen --chek` never writes generated/.
//! `e2e` reads its own options (it refuses an unknown one) and is not
//! listed, but for `--help`.

/// What `cargo xtask` takes.
pub const USAGE: &str = "usage: cargo xtask <gen [--check] | gen-skill-index [--check] | bench [--quick] | bench-adversarial [--quick] [--bin <path>] | bench-audit [--quick] [--bin <path>] | bench-syscalls [--bin <path>] [--trace <dir>] | bench-judge [--quick] [--cards] | dist | e2e [--harness <id>]... [--all] [--scenario <name>]... [--keep] [--list]>";

/// Each task's flags, then its options that take a value.
const TAKES: &[(&str, &[&str], &[&str])] = &[
    ("gen", &["--check"], &[]),
    ("gen-skill-index", &["--check"], &[]),
    ("bench", &["--quick"], &[]),
    ("bench-adversarial", &["--quick"], &["--bin"]),
    ("bench-audit", &["--quick"], &["--bin"]),
    ("bench-syscalls", &[], &["--bin", "--trace"]),
    ("bench-judge", &["--quick", "--cards"], &[]),
    ("dist", &[], &[]),
];

/// What to do with `args` (the task, then its options).
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Run the task.
    Run,
    /// Print the usage on stdout, run nothing, exit 0.
    Help,
    /// Say why on stderr with the usage, run nothing, exit 2.
    Refused(String),
}

pub fn check(args: &[String]) -> Verdict {
    let Some(task) = args.first() else {
        return Verdict::Refused("no task given".into());
    };
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Verdict::Help;
    }
    if task == "e2e" {
        return Verdict::Run;
    }
    let Some((_, flags, valued)) = TAKES.iter().find(|(t, _, _)| t == task) else {
        return Verdict::Refused(format!("unknown task {task:?}"));
    };
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        if flags.contains(&a.as_str()) {
            continue;
        }
        if valued.contains(&a.as_str()) {
            if it.next().is_none() {
                return Verdict::Refused(format!("{a} needs a value"));
            }
            continue;
        }
        return Verdict::Refused(format!("`{task}` takes no option {a:?}"));
    }
    Verdict::Run
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn help_and_unknown_options_run_nothing() {
        assert_eq!(check(&words("bench --help")), Verdict::Help);
        assert_eq!(check(&words("dist -h")), Verdict::Help);
        assert_eq!(check(&words("e2e --help")), Verdict::Help);
        assert_eq!(check(&words("--help")), Verdict::Help);
        assert!(matches!(check(&words("gen --chek")), Verdict::Refused(_)));
        assert!(matches!(
            check(&words("bench --bin x")),
            Verdict::Refused(_)
        ));
        assert!(matches!(
            check(&words("bench-syscalls --trace")),
            Verdict::Refused(_)
        ));
        assert!(matches!(check(&words("benchh")), Verdict::Refused(_)));
        assert!(matches!(check(&[]), Verdict::Refused(_)));
    }

    #[test]
    fn each_task_takes_its_own_options() {
        for ok in [
            "gen",
            "gen --check",
            "gen-skill-index --check",
            "bench --quick",
            "bench-adversarial --quick --bin /x",
            "bench-audit --bin /x",
            "bench-syscalls --bin /x --trace /t",
            "dist",
            "e2e --harness codex --keep",
        ] {
            assert_eq!(check(&words(ok)), Verdict::Run, "{ok}");
        }
    }
}
