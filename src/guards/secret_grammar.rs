//! How the programs that read files read their command line, for the
//! secrets guard: each reader's own option grammar (which options take a
//! value), instead of one list of "options with a value" for every program.
//! `-m` is a count for `grep`, a message for `git commit`, and a flag for
//! `less` (`less -m secrets.pem` reads `secrets.pem`); `-e` is a pattern
//! for `grep` and a flag for `cat` (`cat -e .env` prints `.env`).
//!
//! A reader's operands are files, so a word with a space is a file name
//! there (`cat "my secrets.pem"`), where for an unknown program it may be a
//! sentence. And some forms of a reader print nothing of the content:
//! `diff -q`, `cmp -s` (and a `cmp` without `-l`/`-b`, which prints only
//! where two files differ).

/// One reader's grammar.
struct Reader {
    /// The program names.
    names: &'static [&'static str],
    /// Short options that take a value (attached, or the next word).
    short: &'static str,
    /// Long options that take the next word as their value (unless written
    /// `--name=value`).
    long: &'static [&'static str],
    /// Options whose value is the program's pattern or script, not a file
    /// operand (`grep -e`, `grep -f`, `awk -f`, `sed -e`): the first operand
    /// is then a file.
    pattern: &'static [&'static str],
    /// Options that make the program print nothing of what it reads.
    silent: &'static [&'static str],
}

const fn r(
    names: &'static [&'static str],
    short: &'static str,
    long: &'static [&'static str],
) -> Reader {
    Reader {
        names,
        short,
        long,
        pattern: &[],
        silent: &[],
    }
}

const GREP_PATTERN: &[&str] = &["-e", "-f", "--regexp", "--file"];

/// The readers, from their manuals (GNU coreutils, diffutils, grep, less,
/// util-linux, bat, ripgrep).
const READERS: &[Reader] = &[
    r(&["cat"], "", &[]),
    r(&["tac"], "s", &["separator"]),
    r(&["nl"], "bdfhilnsvw", &[]),
    r(&["head"], "nc", &["lines", "bytes"]),
    r(
        &["tail"],
        "ncs",
        &[
            "lines",
            "bytes",
            "pid",
            "sleep-interval",
            "max-unchanged-stats",
        ],
    ),
    r(
        &["less"],
        "bhjkoOpPtTxyz#",
        &[
            "log-file",
            "LOG-FILE",
            "tag",
            "pattern",
            "prompt",
            "tabs",
            "window",
            "shift",
            "jump-target",
            "buffers",
            "lesskey-file",
            "tag-file",
            "header",
        ],
    ),
    r(&["more"], "n", &["lines"]),
    r(&["most", "pg"], "", &[]),
    r(
        &["bat", "batcat"],
        "lHmr",
        &[
            "language",
            "line-range",
            "highlight-line",
            "style",
            "theme",
            "map-syntax",
            "tabs",
            "wrap",
            "terminal-width",
            "decorations",
            "color",
            "paging",
            "pager",
            "file-name",
        ],
    ),
    r(
        &["xxd"],
        "cglosn",
        &["cols", "groupsize", "len", "name", "seek"],
    ),
    r(&["hexdump", "hd"], "efns", &[]),
    r(
        &["od"],
        "AjNStw",
        &[
            "address-radix",
            "skip-bytes",
            "read-bytes",
            "strings",
            "format",
            "width",
        ],
    ),
    r(
        &["strings"],
        "ntTe",
        &["bytes", "radix", "encoding", "target", "output-separator"],
    ),
    r(&["base64", "base32", "basenc"], "w", &["wrap"]),
    r(&["fold"], "w", &["width"]),
    r(
        &["cut"],
        "bcdf",
        &[
            "bytes",
            "characters",
            "delimiter",
            "fields",
            "output-delimiter",
        ],
    ),
    r(&["column"], "csoNRTEHWOrln", &[]),
    r(&["pr"], "hlwoNDS", &[]),
    r(&["expand", "unexpand"], "t", &["tabs"]),
    r(&["paste"], "d", &["delimiters"]),
    r(
        &["sort"],
        "kotST",
        &[
            "key",
            "output",
            "field-separator",
            "buffer-size",
            "temporary-directory",
            "compress-program",
            "batch-size",
            "parallel",
        ],
    ),
    r(
        &["uniq"],
        "fsw",
        &["skip-fields", "skip-chars", "check-chars"],
    ),
    Reader {
        silent: &["-q", "--brief"],
        ..r(
            &["diff", "colordiff"],
            "ICFLxXDUW",
            &[
                "ignore-matching-lines",
                "show-function-line",
                "label",
                "exclude",
                "exclude-from",
                "ifdef",
                "context",
                "unified",
                "width",
                "tabsize",
                "from-file",
                "to-file",
                "color",
                "palette",
            ],
        )
    },
    r(
        &["sdiff"],
        "oIwF",
        &["output", "width", "ignore-matching-lines"],
    ),
    Reader {
        silent: &["-s", "--quiet", "--silent"],
        ..r(&["cmp"], "in", &["ignore-initial", "bytes"])
    },
    Reader {
        pattern: GREP_PATTERN,
        ..r(
            &["grep", "egrep", "fgrep"],
            "efmABCdD",
            &[
                "regexp",
                "file",
                "max-count",
                "after-context",
                "before-context",
                "context",
                "devices",
                "directories",
                "include",
                "exclude",
                "exclude-dir",
                "exclude-from",
                "label",
                "binary-files",
            ],
        )
    },
    Reader {
        pattern: GREP_PATTERN,
        ..r(
            &["rg"],
            "efgtTmABCMjEr",
            &[
                "regexp",
                "file",
                "glob",
                "iglob",
                "type",
                "type-not",
                "max-count",
                "after-context",
                "before-context",
                "context",
                "max-columns",
                "threads",
                "encoding",
                "type-add",
                "replace",
                "pre",
                "pre-glob",
                "sort",
                "sortr",
                "max-depth",
                "max-filesize",
                "colors",
                "ignore-file",
                "engine",
            ],
        )
    },
    Reader {
        pattern: &["-f", "--file"],
        ..r(
            &["awk", "gawk", "mawk"],
            "Fvf",
            &["field-separator", "assign", "file"],
        )
    },
    Reader {
        pattern: &["-e", "-f", "--expression", "--file"],
        ..r(
            &["sed", "gsed"],
            "efl",
            &["expression", "file", "line-length"],
        )
    },
    // PowerShell's reader: `-Quiet` answers only whether a line matches.
    Reader {
        silent: &["-Quiet", "-quiet", "-q"],
        ..r(&["select-string", "sls"], "", &[])
    },
    r(&["cp"], "tS", &["target-directory", "suffix"]),
    r(
        &["install"],
        "mogtS",
        &[
            "mode",
            "owner",
            "group",
            "target-directory",
            "suffix",
            "strip-program",
        ],
    ),
    r(&["gzip", "pigz"], "Sbp", &["suffix"]),
    r(&["bzip2", "lz4", "lzma"], "", &[]),
    r(&["xz"], "FCTM", &["format", "check", "threads", "memlimit"]),
    r(&["zstd"], "oDT", &[]),
];

fn reader(program: &str) -> Option<&'static Reader> {
    READERS.iter().find(|r| r.names.contains(&program))
}

/// Whether `program` is a reader this module knows: its operands are files.
pub fn is_reader(program: &str) -> bool {
    reader(program).is_some()
}

/// For a known reader, whether the option word `a` takes the next word as
/// its value (`head -n 5`, `less -x 4`, `grep -m 1`; not `less -m`, `cat
/// -e`); `None` for a program whose grammar is not known.
pub fn value_next(program: &str, a: &str) -> Option<bool> {
    let r = reader(program)?;
    if let Some(long) = a.strip_prefix("--") {
        return Some(!long.contains('=') && r.long.contains(&long));
    }
    let cluster = a.strip_prefix('-')?;
    // The first valued option of a cluster takes the rest, or the next
    // word when it ends the cluster (`-qn 3`, `-n3`).
    Some(
        cluster
            .char_indices()
            .find(|(_, c)| r.short.contains(*c))
            .is_some_and(|(k, c)| k + c.len_utf8() == cluster.len()),
    )
}

/// Whether the option word `a` gives a reader its pattern or script (the
/// first operand is then a file): `grep -e KEY .env`, `awk -f prog.awk
/// .env`, attached or not.
pub fn gives_pattern(program: &str, a: &str) -> bool {
    reader(program).is_some_and(|r| {
        r.pattern.iter().any(|p| {
            a == *p
                || a.strip_prefix(p).is_some_and(|rest| {
                    if p.starts_with("--") {
                        rest.starts_with('=')
                    } else {
                        !rest.is_empty()
                    }
                })
        })
    })
}

/// Whether a search counts, tests or names the files that match and so
/// prints no line of them (`grep -c '^API_KEY=' .env`, `grep -l K .env*`).
pub fn search_prints_no_line(program: &str, args: &[String]) -> bool {
    use super::argv;
    let grep = matches!(program, "grep" | "egrep" | "fgrep");
    (grep || matches!(program, "rg" | "ag" | "ack"))
        && (argv::has_flag(args, 'c', &["count"])
            || argv::has_flag(args, 'q', &["quiet", "silent"])
            || argv::has_flag(args, 'l', &["files-with-matches", "files-without-match"])
            || grep && argv::has_flag(args, 'L', &[]))
}

/// Whether a reader's options make it print nothing of what it reads
/// (`diff -q`, `cmp -s`; `cmp` alone prints only where the files differ,
/// `-l`/`-b`/`--verbose` print the bytes).
pub fn silent(program: &str, args: &[String]) -> bool {
    let Some(r) = reader(program) else {
        return false;
    };
    let has = |o: &str| {
        args.iter().take_while(|a| *a != "--").any(|a| {
            a == o
                || o.len() == 2
                    && a.starts_with('-')
                    && !a.starts_with("--")
                    && a[1..].contains(&o[1..])
        })
    };
    if r.names.contains(&"cmp") {
        return !["-l", "-b", "--verbose", "--print-bytes"]
            .iter()
            .any(|o| has(o));
    }
    r.silent.iter().any(|o| has(o))
}

/// Whether a vi-family editor run without a screen prints its files: ex
/// mode (`ex`, `-e`, `-es`, `-E`) with a command that prints lines (`vim
/// -es -c '%p' -c q .env`, `ex -sc '%print|q' f`, `+'1,$p'`). An editor
/// with a screen shows the agent nothing.
pub fn editor_prints(program: &str, args: &[String]) -> bool {
    if !matches!(program, "vim" | "vi" | "nvim" | "ex" | "view") {
        return false;
    }
    let ex_mode = program == "ex"
        || args.iter().any(|a| {
            a.strip_prefix('-')
                .is_some_and(|f| !f.starts_with('-') && (f.contains('e') || f.contains('E')))
        });
    let commands = args.iter().enumerate().filter_map(|(i, a)| {
        if let Some(c) = a.strip_prefix('+') {
            Some(c)
        } else if a == "-c" || a.ends_with('c') && a.starts_with('-') && !a.starts_with("--") {
            args.get(i + 1).map(String::as_str)
        } else {
            None
        }
    });
    let prints = |cmd: &str| {
        cmd.split('|').any(|c| {
            let c = c
                .trim()
                .trim_start_matches(':')
                .trim_start_matches(|ch: char| {
                    ch.is_ascii_digit() || matches!(ch, '%' | '$' | ',' | '.')
                });
            matches!(
                c,
                "p" | "pr" | "print" | "P" | "nu" | "number" | "#" | "l" | "list" | "z"
            ) || c.starts_with("w !")
                || c.starts_with("w /dev/stdout")
                || c.starts_with("g/") && c.ends_with("/p")
        })
    };
    ex_mode && commands.into_iter().any(prints)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn each_reader_has_its_own_valued_options() {
        assert_eq!(value_next("less", "-m"), Some(false));
        assert_eq!(value_next("less", "-x"), Some(true));
        assert_eq!(value_next("cat", "-e"), Some(false));
        assert_eq!(value_next("cat", "-vET"), Some(false));
        assert_eq!(value_next("grep", "-m"), Some(true));
        assert_eq!(value_next("head", "-qn"), Some(true));
        assert_eq!(value_next("head", "-n3"), Some(false));
        assert_eq!(value_next("tail", "--lines"), Some(true));
        assert_eq!(value_next("tail", "--lines=3"), Some(false));
        assert_eq!(value_next("git", "-m"), None);
    }

    #[test]
    fn patterns_given_by_option() {
        assert!(gives_pattern("grep", "-e"));
        assert!(gives_pattern("grep", "-eKEY"));
        assert!(gives_pattern("grep", "--regexp=KEY"));
        assert!(gives_pattern("awk", "-f"));
        assert!(!gives_pattern("grep", "-i"));
        assert!(!gives_pattern("cat", "-e"));
    }

    #[test]
    fn editors_print_only_in_ex_mode_with_a_print_command() {
        assert!(editor_prints(
            "vim",
            &v(&["-es", "-c", "%p", "-c", "q", ".env"])
        ));
        assert!(editor_prints("ex", &v(&["-sc", "%print|q", ".env"])));
        assert!(editor_prints("vim", &v(&["-e", "+1,$p", "+q", ".env"])));
        assert!(!editor_prints("vim", &v(&[".env"])));
        assert!(!editor_prints(
            "vim",
            &v(&["-es", "-c", "%s/a/b/|wq", ".env"])
        ));
        assert!(!editor_prints("nano", &v(&["-v", ".env"])));
    }

    #[test]
    fn silent_forms() {
        assert!(silent("diff", &v(&["-q", ".env", ".env.bak"])));
        assert!(silent("diff", &v(&["--brief", "a", "b"])));
        assert!(!silent("diff", &v(&["-u", "a", "b"])));
        assert!(silent("cmp", &v(&["-s", "a", "b"])));
        assert!(silent("cmp", &v(&["a", "b"])));
        assert!(!silent("cmp", &v(&["-l", "a", "b"])));
        assert!(!silent("cat", &v(&["-s", "a"])));
    }
}
