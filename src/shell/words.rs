//! Word-level helpers for reading a simple command: its program, git's
//! subcommand behind its global options, flag tests, operands. Plain
//! string logic; nothing here allocates beyond what it returns. The guards
//! read them through `guards::argv`.

use super::SimpleCommand;

/// The lower-case program name without directory or `.exe`.
pub fn program(cmd: &SimpleCommand) -> String {
    super::program_name(cmd.argv.first().map_or("", String::as_str))
}

/// For a `git` command: its subcommand and the words after it, git's global
/// options (`-C dir`, `-c k=v`, `--git-dir=…`, `--no-pager`, ...) skipped.
pub fn git_subcommand(cmd: &SimpleCommand) -> Option<(&str, &[String])> {
    // `hub` is git with GitHub's commands added.
    if !matches!(program(cmd).as_str(), "git" | "hub") {
        return None;
    }
    let args = cmd.args();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if matches!(
            a.as_str(),
            "-C" | "-c"
                | "--git-dir"
                | "--work-tree"
                | "--namespace"
                | "--exec-path"
                | "--config-env"
        ) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return Some((a.as_str(), &args[i + 1..]));
        }
    }
    None
}

/// Whether `args` carry the short flag `c` (alone or in a cluster such as
/// `-rf`) or one of the long spellings. Words after `--` are not options.
pub fn has_flag(args: &[String], c: char, long: &[&str]) -> bool {
    has_flag_with(args, c, long, "")
}

/// Long options that take the next word as their value (`git clean -e
/// --dry-run` excludes a file named `--dry-run`; `git push --push-option
/// --dry-run` sends it as a push option).
const LONG_WITH_VALUE: &[&str] = &["exclude", "push-option", "repo", "receive-pack", "exec"];

/// [`has_flag`] for a program whose short options in `with_value` take a
/// value: the rest of a cluster after one of them is that value, not more
/// flags (`git checkout -bfeature` is `-b feature`, not `-f`), and so is the
/// next word after a cluster ending in one. The last word wins: `--no-<long>`
/// or `--<long>=false` after a flag turns it off again (`--dry-run
/// --no-dry-run`).
pub fn has_flag_with(args: &[String], c: char, long: &[&str], with_value: &str) -> bool {
    let mut skip = false;
    let mut on = false;
    for a in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if a == "--" {
            break;
        }
        if let Some(l) = a.strip_prefix("--") {
            let (name, value) = match l.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (l, None),
            };
            // `--force=false` turns the option off.
            let off = value.is_some_and(|v| {
                matches!(
                    v.to_ascii_lowercase().as_str(),
                    "false" | "no" | "0" | "off"
                )
            });
            if long.contains(&name) {
                on = !off;
            } else if name.strip_prefix("no-").is_some_and(|n| long.contains(&n)) {
                on = false;
            } else if value.is_none() && LONG_WITH_VALUE.contains(&name) {
                skip = true;
            }
        } else if let Some(cluster) = a.strip_prefix('-')
            && !cluster.is_empty()
            && cluster.chars().all(|x| x.is_ascii_alphanumeric())
        {
            for (k, x) in cluster.char_indices() {
                if x == c {
                    on = true;
                    break;
                }
                if with_value.contains(x) {
                    skip = k + 1 == cluster.len();
                    break;
                }
            }
        }
    }
    on
}

/// The words of `args` that are not options (everything after `--` counts).
pub fn operands(args: &[String]) -> Vec<&str> {
    let mut out = Vec::new();
    let mut done = false;
    for a in args {
        if !done && a == "--" {
            done = true;
        } else if done || !a.starts_with('-') || a == "-" {
            out.push(a.as_str());
        }
    }
    out
}

/// Operands, skipping the values of the options named.
pub fn operands_skipping<'a>(args: &'a [String], with_value: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut done = false;
    while let Some(a) = args.get(i) {
        i += 1;
        if done {
            out.push(a.as_str());
        } else if a == "--" {
            done = true;
        } else if with_value.contains(&a.as_str()) {
            i += 1;
        } else if !a.starts_with('-') || a == "-" {
            out.push(a.as_str());
        }
    }
    out
}

/// The value of the first of `names` given, as the next word (`-t DIR`,
/// `-X PATCH`) or after `=` (`--target=DIR`, `--request=PATCH`).
pub fn option_value<'a>(args: &'a [String], names: &[&str]) -> Option<&'a str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if names.contains(&a.as_str()) {
            return it.next().map(String::as_str);
        }
        if let Some(v) = names
            .iter()
            .find_map(|n| a.strip_prefix(n).and_then(|r| r.strip_prefix('=')))
        {
            return Some(v);
        }
    }
    None
}
