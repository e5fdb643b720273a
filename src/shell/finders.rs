//! Programs that run other commands on what they find or are given, in a
//! table: `find -exec`/`-execdir`/`-ok`/`-delete`, `fd -x`/`-X`, and
//! `parallel … ::: args`. Each is read into the commands it would run, with
//! `{}` standing for what it found: the start directory (or the name it
//! looks for under it, when that is a plain name).

use super::unwrap::{CodeEffect, Unwrapped};

/// The most commands one finder stands for (one per start directory or
/// input).
const MAX_EFFECTS: usize = 16;

/// How a finder's words are read.
type Reader = fn(&[String]) -> Unwrapped;

/// Every finder, by program name.
const FINDERS: &[(&[&str], Reader)] = &[
    (&["find", "gfind"], find),
    (&["fd", "fdfind"], fd),
    (&["parallel"], parallel),
];

/// What the finder `name` would run, if it is one.
pub(super) fn effects(argv: &[String], name: &str) -> Option<Unwrapped> {
    let (_, read) = FINDERS.iter().find(|(names, _)| names.contains(&name))?;
    Some(read(argv))
}

/// The tests of `find` that narrow what it finds by name or path: what it
/// finds is then `start/<the pattern's last part>` (`./*.o`), not all of
/// `start`.
const NARROWING: &[&str] = &[
    "-name",
    "-iname",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
];

/// `words` with `{}` (alone or inside a word) replaced by `what`; `what`
/// appended when no word holds `{}` and `append` is set.
fn fill(words: &[String], what: &str, append: bool) -> Vec<String> {
    let mut any = false;
    let mut out: Vec<String> = words
        .iter()
        .map(|w| {
            if w.contains("{}") {
                any = true;
                w.replace("{}", what)
            } else {
                w.clone()
            }
        })
        .collect();
    if !any && append {
        out.push(what.to_string());
    }
    out
}

/// Where `find`'s expression starts in `argv`, and its start directories.
fn find_starts(argv: &[String]) -> (usize, Vec<&str>) {
    let mut i = 1;
    while argv
        .get(i)
        .is_some_and(|a| matches!(a.as_str(), "-H" | "-L" | "-P") || a.starts_with("-O"))
    {
        i += 1;
    }
    if argv.get(i).is_some_and(|a| a == "-D") {
        i += 2;
    }
    let mut starts: Vec<&str> = Vec::new();
    while let Some(a) = argv.get(i) {
        if a.starts_with('-') || a == "(" || a == "!" || a == "," {
            break;
        }
        starts.push(a);
        i += 1;
    }
    if starts.is_empty() {
        starts.push(".");
    }
    (i, starts)
}

/// The last name or path pattern a `find` expression tests, from `i` on.
fn narrowing(argv: &[String], i: usize) -> Option<&str> {
    let mut found = None;
    let mut k = i;
    while let Some(a) = argv.get(k) {
        if matches!(a.as_str(), "-exec" | "-execdir" | "-ok" | "-okdir") {
            break;
        }
        if NARROWING.contains(&a.as_str()) {
            found = argv
                .get(k + 1)
                .map(|p| p.trim_end_matches('/').rsplit('/').next().unwrap_or(p))
                .filter(|p| !p.is_empty());
            k += 1;
        }
        k += 1;
    }
    found
}

/// What a `find` command line finds: under each start directory, the name
/// pattern it tests (`./*.o`), else the start directory itself.
pub fn found_paths(argv: &[String]) -> Vec<String> {
    let (i, starts) = find_starts(argv);
    let narrow = narrowing(argv, i);
    starts.iter().map(|s| found(s, narrow)).collect()
}

/// `find [-H|-L|-P] [start…] [expression]`.
fn find(argv: &[String]) -> Unwrapped {
    let (mut i, _) = find_starts(argv);
    let found = found_paths(argv);
    let mut effects = Vec::new();
    while let Some(a) = argv.get(i) {
        i += 1;
        match a.as_str() {
            "-delete" => {
                let mut rm = vec!["rm".to_string(), "-r".to_string()];
                rm.extend(found.iter().cloned());
                effects.push(CodeEffect::Argv(rm));
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                let from = i;
                while argv.get(i).is_some_and(|w| w != ";" && w != "+") {
                    i += 1;
                }
                let words = &argv[from..i.min(argv.len())];
                i += 1;
                if words.is_empty() {
                    continue;
                }
                for f in found.iter().take(MAX_EFFECTS) {
                    effects.push(CodeEffect::Argv(fill(words, f, false)));
                }
            }
            _ => {}
        }
        if effects.len() >= MAX_EFFECTS {
            break;
        }
    }
    effects.truncate(MAX_EFFECTS);
    Unwrapped::Effects(effects)
}

/// What find finds under `start`: the pattern looked for, else `start`.
fn found(start: &str, pattern: Option<&str>) -> String {
    match pattern {
        Some(n) => format!("{}/{n}", start.trim_end_matches('/')),
        None => start.to_string(),
    }
}

/// `fd [options] [pattern] [path…] (-x|-X) command…`.
fn fd(argv: &[String]) -> Unwrapped {
    const WITH_VALUE: &[&str] = &[
        "-e",
        "--extension",
        "-t",
        "--type",
        "-E",
        "--exclude",
        "-d",
        "--max-depth",
        "--min-depth",
        "--exact-depth",
        "-S",
        "--size",
        "--changed-within",
        "--changed-before",
        "-o",
        "--owner",
        "-j",
        "--threads",
        "-c",
        "--color",
        "--base-directory",
        "--path-separator",
        "--max-results",
        "--ignore-file",
        "--batch-size",
    ];
    let mut positional: Vec<&str> = Vec::new();
    let mut search: Vec<&str> = Vec::new();
    let mut command: Option<&[String]> = None;
    let mut extension: Option<&str> = None;
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        i += 1;
        match a.as_str() {
            "-e" | "--extension" => {
                extension = argv.get(i).map(String::as_str);
                i += 1;
            }
            "-x" | "--exec" | "-X" | "--exec-batch" => {
                let rest = &argv[i..];
                let end = rest.iter().position(|w| w == ";").unwrap_or(rest.len());
                command = Some(&rest[..end]);
                i += end + 1;
            }
            "--search-path" => {
                search.extend(argv.get(i).map(String::as_str));
                i += 1;
            }
            s if WITH_VALUE.contains(&s) => i += 1,
            s if s.starts_with('-') && s.len() > 1 => {}
            s => positional.push(s),
        }
    }
    let Some(words) = command.filter(|w| !w.is_empty()) else {
        return Unwrapped::No;
    };
    search.extend(positional.iter().skip(1));
    if search.is_empty() {
        search.push(".");
    }
    // A pattern or an extension narrows what it finds, as `-name` does.
    let narrow = match (extension, positional.first()) {
        (Some(ext), _) => Some(format!("*.{ext}")),
        (None, Some(p)) if !matches!(*p, "." | "" | "^" | ".*") => Some(format!("*{p}*")),
        _ => None,
    };
    Unwrapped::Effects(
        search
            .iter()
            .take(MAX_EFFECTS)
            .map(|s| CodeEffect::Argv(fill(words, &found(s, narrow.as_deref()), true)))
            .collect(),
    )
}

/// `parallel [options] command … ::: input…`: one command per input; without
/// `:::` the inputs are its standard input's lines.
fn parallel(argv: &[String]) -> Unwrapped {
    const WITH_VALUE: &[&str] = &[
        "-j",
        "--jobs",
        "-S",
        "--sshlogin",
        "--colsep",
        "-C",
        "--delay",
        "--timeout",
        "-N",
        "-n",
        "--max-args",
        "-I",
        "--results",
        "--joblog",
        "--tmpdir",
        "--halt",
        "--retries",
        "--memfree",
        "--load",
    ];
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        if a == "--dry-run" {
            return Unwrapped::No;
        }
        if matches!(a.as_str(), "-a" | "--arg-file" | "::::") {
            break;
        }
        if WITH_VALUE.contains(&a.as_str()) {
            i += 2;
        } else if a.starts_with('-') && a.len() > 1 {
            i += 1;
        } else {
            break;
        }
    }
    let rest = argv.get(i..).unwrap_or(&[]);
    let sep = rest.iter().position(|w| w.starts_with(":::"));
    match sep {
        Some(k) if rest[k] == ":::" || rest[k] == ":::+" => {
            let words = &rest[..k];
            if words.is_empty() {
                return Unwrapped::No;
            }
            Unwrapped::Effects(
                rest[k + 1..]
                    .iter()
                    .filter(|w| !w.starts_with(":::"))
                    .take(MAX_EFFECTS)
                    .map(|input| {
                        let argv = fill(words, input, true);
                        // parallel runs its words through a shell: a lone
                        // word with spaces (`'kubectl delete ns {}'`) is a
                        // script.
                        if words.len() == 1 && words[0].contains(char::is_whitespace) {
                            CodeEffect::Shell(argv.join(" "))
                        } else {
                            CodeEffect::Argv(argv)
                        }
                    })
                    .collect(),
            )
        }
        _ if i < argv.len() && !argv[i].starts_with('-') && !argv[i].starts_with(":::") => {
            Unwrapped::Fed(i)
        }
        _ => Unwrapped::No,
    }
}
