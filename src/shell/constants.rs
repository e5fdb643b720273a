//! Variables given a constant earlier on the same line (`D=/srv/data; rm
//! -rf $D`, `F=notes.txt; cat "$F"`): their later uses are read as the
//! value, as the shell will expand them, instead of as a computed word.
//! Only plain assignments that stand alone and whose value is one word with
//! nothing to expand; a name a loop, `read` or `getopts` may set, or that
//! is assigned something else later, is left as written.

/// Constants known at a point of the line: (name, value), newest last.
#[derive(Default)]
pub(super) struct Constants {
    known: Vec<(String, String)>,
    /// False when the line sets variables in ways not followed (`read`,
    /// `for NAME in`, `getopts`) or names `IFS` (an unquoted use is then
    /// split where this reader cannot see: `IFS=,; c=rm,-rf,/x; $c` runs
    /// `rm`): then no use is replaced.
    enabled: bool,
}

/// The most constants remembered.
const MAX_CONSTANTS: usize = 32;

impl Constants {
    pub(super) fn new(src: &str) -> Self {
        Constants {
            known: Vec::new(),
            enabled: followed(src),
        }
    }

    /// Takes in a command: a command of assignments alone records them
    /// (true: nothing else to do with it); any other command's words get the
    /// known constants replaced.
    pub(super) fn take(&mut self, argv: &mut [String], piped: bool, captured: bool) -> bool {
        if !self.enabled {
            return false;
        }
        let all_assignments = !argv.is_empty() && argv.iter().all(|w| assignment(w).is_some());
        if all_assignments {
            for w in argv.iter() {
                let Some((name, value)) = assignment(w) else {
                    continue;
                };
                self.known.retain(|(n, _)| n != name);
                // In a pipeline or a substitution the assignment is a
                // subshell's: it does not last.
                if !piped && !captured && self.known.len() < MAX_CONSTANTS {
                    if constant(value) {
                        self.known.push((name.to_string(), value.to_string()));
                    } else if fresh_temp(value) {
                        // `d=$(mktemp -d)`: a new name in the temporary
                        // directory, whatever it turns out to be.
                        self.known.push((name.to_string(), FRESH_TEMP.to_string()));
                    }
                }
            }
            return true;
        }
        if self.known.is_empty() {
            return false;
        }
        for w in argv.iter_mut() {
            if w.contains('$') {
                *w = self.replaced(w);
            }
        }
        false
    }

    /// A word with `$NAME` and `${NAME}` of known constants replaced.
    pub(super) fn replaced(&self, word: &str) -> String {
        let mut out = word.to_string();
        for (name, value) in &self.known {
            out = out.replace(&format!("${{{name}}}"), value);
            let plain = format!("${name}");
            let mut next = String::with_capacity(out.len());
            let mut rest = out.as_str();
            while let Some(at) = rest.find(&plain) {
                let after = &rest[at + plain.len()..];
                next.push_str(&rest[..at]);
                if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
                    next.push_str(&plain);
                } else {
                    next.push_str(value);
                }
                rest = after;
            }
            next.push_str(rest);
            out = next;
        }
        out
    }
}

/// `NAME=value` (not `NAME+=`): the name and the value.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let mut chars = name.chars();
    (chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_'))
    .then_some((name, value))
}

/// Whether the line sets variables only in ways this reader follows (no
/// `read`, loop, `getopts`, `mapfile` or `IFS`).
pub(super) fn followed(src: &str) -> bool {
    ![
        "read ",
        "getopts",
        "for ",
        "select ",
        "mapfile",
        "readarray",
        "IFS",
    ]
    .iter()
    .any(|w| src.contains(w))
}

/// Records the names a command of assignments alone sets to a fresh
/// `mktemp` name, and forgets the names it sets to anything else.
pub(super) fn note_fresh(argv: &[String], fresh: &mut Vec<String>) {
    if argv.is_empty() || !argv.iter().all(|w| assignment(w).is_some()) {
        return;
    }
    for (name, value) in argv.iter().filter_map(|w| assignment(w)) {
        fresh.retain(|n| n != name);
        if fresh_temp(value) && fresh.len() < MAX_CONSTANTS {
            fresh.push(name.to_string());
        }
    }
}

/// Whether `word` is `$NAME` or `${NAME}` of a name [`note_fresh`] kept.
pub(super) fn is_fresh(word: &str, fresh: &[String]) -> bool {
    let name = word
        .strip_prefix("${")
        .and_then(|w| w.strip_suffix('}'))
        .or_else(|| word.strip_prefix('$'));
    name.is_some_and(|n| fresh.iter().any(|f| f == n))
}

/// What a variable set to a fresh temporary name (`$(mktemp -d)`) is read
/// as: a path in the system's temporary directory.
pub(super) const FRESH_TEMP: &str = "/tmp/mktemp.XXXXXXXXXX";

/// `$(mktemp …)` or `` `mktemp …` `` alone, with no directory named
/// (`-p DIR`, `--tmpdir=DIR` or a template with a `/` may put it anywhere):
/// a name the command makes fresh in the temporary directory.
fn fresh_temp(value: &str) -> bool {
    let value = value.trim_matches('"');
    let inner = value
        .strip_prefix("$(")
        .and_then(|v| v.strip_suffix(')'))
        .or_else(|| value.strip_prefix('`').and_then(|v| v.strip_suffix('`')));
    let Some(inner) = inner else {
        return false;
    };
    let mut words = inner.split_whitespace();
    words.next() == Some("mktemp")
        && words.all(|w| {
            let places = w.starts_with("--tmpdir=")
                || (w.starts_with('-') && !w.starts_with("--") && w.contains('p'));
            !places && !w.contains(['/', '$', '`', '(', ';', '|', '&', '<', '>'])
        })
}

/// A value that expands to itself: one non-empty word with no variable,
/// substitution, glob or brace.
fn constant(value: &str) -> bool {
    !value.is_empty()
        && !value.contains(['$', '`', '*', '?', '[', '{', '(', '\\'])
        && !value.contains(char::is_whitespace)
}

/// The words a literal `echo` or `printf` hands to the command its output
/// feeds as arguments (`echo /etc/shadow | xargs cat`): what it prints,
/// escapes decoded and formats filled (`printf '\x2e\x65\x6e\x76'` is
/// `.env`), split at blanks; for a format the reader does not fill, its
/// plain operands. None when the feeder is another program.
pub fn fed_words(feeder: &[String]) -> Option<Vec<String>> {
    let argv = super::unwrap::peeled(feeder);
    let prog = super::program_name(argv.first()?);
    if !matches!(prog.as_str(), "echo" | "printf") {
        return None;
    }
    Some(match super::printed::echo_text(feeder) {
        Some(text) => text.split_whitespace().map(str::to_string).collect(),
        None => argv
            .iter()
            .skip(1)
            .filter(|a| !a.starts_with('-') && !a.contains('%'))
            .cloned()
            .collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::Constants;

    #[test]
    fn an_echo_feeds_its_words() {
        let v = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            super::fed_words(&v(&["echo", "/etc/shadow", "b"])).unwrap(),
            ["/etc/shadow", "b"]
        );
        assert_eq!(
            super::fed_words(&v(&["printf", r"\x2e\x65\x6e\x76"])).unwrap(),
            [".env"]
        );
        assert!(super::fed_words(&v(&["cat", "list"])).is_none());
    }

    fn run(src: &str, commands: &[&[&str]]) -> Vec<Vec<String>> {
        let mut c = Constants::new(src);
        let mut out = Vec::new();
        for argv in commands {
            let mut argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
            if !c.take(&mut argv, false, false) {
                out.push(argv);
            }
        }
        out
    }

    #[test]
    fn a_constant_is_read_at_its_use() {
        let got = run(
            "D=/srv; rm -rf $D/x",
            &[&["D=/srv"], &["rm", "-rf", "$D/x"]],
        );
        assert_eq!(got, vec![vec!["rm", "-rf", "/srv/x"]]);
        let got = run("", &[&["F=a", "G=b"], &["cat", "${F}", "$G", "$GH"]]);
        assert_eq!(got, vec![vec!["cat", "a", "b", "$GH"]]);
    }

    #[test]
    fn loops_reads_and_computed_values_are_left() {
        let src = "F=a; for F in b c; do rm $F; done";
        assert_eq!(run(src, &[&["F=a"], &["rm", "$F"]])[1], vec!["rm", "$F"]);
        let got = run("", &[&["F=$(pwd)"], &["rm", "$F"]]);
        assert_eq!(got[0], vec!["rm", "$F"]);
        let got = run("", &[&["F=a"], &["F=$X"], &["rm", "$F"]]);
        assert_eq!(got[0], vec!["rm", "$F"]);
    }

    #[test]
    fn a_line_that_names_ifs_is_left_as_written() {
        // With IFS set, `$c` splits into `rm -rf /home/user`: read as one
        // word it would be a program nothing knows, and the call silent.
        let src = "IFS=,; c=rm,-rf,/home/user; $c";
        let got = run(src, &[&["IFS=,"], &["c=rm,-rf,/home/user"], &["$c"]]);
        assert_eq!(got.last().unwrap(), &vec!["$c"]);
    }
}
