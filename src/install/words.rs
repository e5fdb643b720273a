//! Shell words: splitting a hook's command string the way `sh` would (for
//! the quoting forms a config holds), and quoting the install path for the
//! harnesses that run commands through a shell.

/// Splits `cmd` into words: blanks separate, single quotes are literal,
/// double quotes allow `\"` `\\` `\$` and `` \` ``, a backslash outside quotes
/// escapes the next character. `None` when the command uses anything a word
/// split cannot judge (unclosed quotes, `;`, `|`, `&`, redirections,
/// substitutions): such a command is never cuecard's.
pub fn split(cmd: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => cur.push(c),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => cur.push(c),
                            '\n' => {}
                            c => {
                                cur.push('\\');
                                cur.push(c);
                            }
                        },
                        '$' | '`' => return None,
                        c => cur.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                cur.push(chars.next()?);
            }
            ';' | '|' | '&' | '<' | '>' | '(' | ')' | '$' | '`' | '\n' | '*' | '?' | '[' => {
                return None;
            }
            '#' | '~' if !in_word => return None,
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Some(words)
}

/// Characters a shell treats specially inside double quotes: an install
/// path holding one cannot be quoted safely for every harness's shell
/// (and a `$` would be expanded by some harnesses before the shell runs).
pub const SHELL_UNSAFE: &[char] = &['$', '`', '"', '\\'];

/// Refuses an install path that cannot be put in a shell command safely.
pub fn check_shell_safe(path: &str) -> Result<(), String> {
    if let Some(c) = path
        .chars()
        .find(|c| SHELL_UNSAFE.contains(c) || c.is_control())
    {
        return Err(format!(
            "the install path {path:?} contains {c:?}, which a harness that runs hooks through a shell would interpret; \
             move the cuecard binary to a path without $, `, \" or \\ and install again"
        ));
    }
    Ok(())
}

/// Quotes one word for `sh`: as is when it holds only safe characters, else
/// in double quotes (the caller has refused the characters double quotes
/// cannot hold).
pub fn quote(word: &str) -> String {
    let safe = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+,:@=%".contains(c));
    if safe {
        word.to_string()
    } else {
        format!("\"{word}\"")
    }
}

/// A command line from words.
pub fn join(words: &[String]) -> String {
    words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_like_sh() {
        let w = |s: &str| split(s).map(|v| v.join("|"));
        assert_eq!(
            w("/a/cuecard dispatch X"),
            Some("/a/cuecard|dispatch|X".into())
        );
        assert_eq!(
            w("\"/a b/cuecard\"  dispatch"),
            Some("/a b/cuecard|dispatch".into())
        );
        assert_eq!(
            w("'/a b/cuecard' dispatch"),
            Some("/a b/cuecard|dispatch".into())
        );
        assert_eq!(
            w("/a\\ b/cuecard dispatch"),
            Some("/a b/cuecard|dispatch".into())
        );
        assert_eq!(w("a=b"), Some("a=b".into()));
        for bad in [
            "cuecard dispatch; rm -rf x",
            "cuecard dispatch | tee",
            "\"unclosed",
            "$HOME/cuecard dispatch",
            "cuecard dispatch > log",
        ] {
            assert_eq!(split(bad), None, "{bad}");
        }
    }

    #[test]
    fn quoting_round_trips() {
        for path in [
            "/usr/local/bin/cuecard",
            "/home/u/my tools/cuecard",
            "/o'k/cuecard",
        ] {
            let words = vec![path.to_string(), "dispatch".into(), "SessionStart".into()];
            assert_eq!(split(&join(&words)).unwrap(), words);
        }
        assert!(check_shell_safe("/a$b/cuecard").is_err());
        assert!(check_shell_safe("/a`b`/cuecard").is_err());
        assert!(check_shell_safe("/a\"b/cuecard").is_err());
        assert!(check_shell_safe("/a\\b/cuecard").is_err());
        assert!(check_shell_safe("/a b/cuecard").is_ok());
    }
}
