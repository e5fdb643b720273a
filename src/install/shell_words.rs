//! Shell words: splitting a hook's command string the way its shell would
//! (`sh`, PowerShell, cmd; for the quoting forms a config holds), and
//! quoting the install path for the shell a harness runs commands through
//! on the host it is installed on.

use super::error::InstallError;
use crate::harness::config::Shell;

/// The words of a split so far: the finished ones and the one being read.
#[derive(Default)]
struct Words {
    done: Vec<String>,
    cur: String,
    /// Whether a word has started (an empty quoted word counts).
    open: bool,
}

impl Words {
    fn open(&mut self) {
        self.open = true;
    }
    fn push(&mut self, c: char) {
        self.open = true;
        self.cur.push(c);
    }
    fn push_str(&mut self, s: &str) {
        self.open = true;
        self.cur.push_str(s);
    }
    /// A blank: the word being read, if any, ends.
    fn end(&mut self) {
        if self.open {
            self.done.push(std::mem::take(&mut self.cur));
            self.open = false;
        }
    }
    fn finish(mut self) -> Vec<String> {
        self.end();
        self.done
    }
}

/// The plugin-root variable `rest` starts with (after its `$`), from the
/// harnesses' plugin formats (`harness::plugin::PluginFormat::root`): the
/// roots a plugin's entries start from, each expanded by its harness.
fn plugin_root(rest: &str) -> Option<&'static str> {
    crate::harness::HarnessId::ALL
        .iter()
        .filter_map(|h| h.config().and_then(|c| c.plugin))
        .map(|p| p.root)
        .find(|r| rest.starts_with(&r[1..]))
}

/// Splits `cmd` into words: blanks separate, single quotes are literal,
/// double quotes allow `\"` `\\` `\$` and `` \` ``, a backslash outside quotes
/// escapes the next character. `None` when the command uses anything a word
/// split cannot judge (unclosed quotes, `;`, `|`, `&`, redirections,
/// substitutions): such a command is never cuecard's.
pub fn split(cmd: &str) -> Option<Vec<String>> {
    let mut w = Words::default();
    let mut chars = cmd.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => w.end(),
            '\'' => {
                w.open();
                loop {
                    match chars.next()? {
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            '"' => {
                w.open();
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            c @ ('"' | '\\' | '$' | '`') => w.push(c),
                            '\n' => {}
                            c => {
                                w.push('\\');
                                w.push(c);
                            }
                        },
                        // A plugin's root, as `plugin build` writes it
                        // (`"${CLAUDE_PLUGIN_ROOT}/bin/cuecard"`): kept as
                        // written, so its entries are recognised; any other
                        // expansion cannot be judged.
                        '$' => {
                            let rest = chars.as_str();
                            let root = plugin_root(rest)?;
                            w.push_str(root);
                            chars = rest[root.len() - 1..].chars();
                        }
                        '`' => return None,
                        c => w.push(c),
                    }
                }
            }
            '\\' => {
                w.open();
                w.push(chars.next()?);
            }
            ';' | '|' | '&' | '<' | '>' | '(' | ')' | '$' | '`' | '\n' | '*' | '?' | '[' => {
                return None;
            }
            '#' | '~' if !w.open => return None,
            c => {
                w.open();
                w.push(c);
            }
        }
    }
    Some(w.finish())
}

/// Characters refused in an install path for a shell, because that shell
/// treats them specially inside the double quotes the program is written in
/// (and a `$` would be expanded by some harnesses before any shell runs):
/// POSIX `sh` (docs/design.md §9: `$`, backtick, `"`, `\\`); PowerShell (`$`,
/// backtick, `"` and the typographic double quotes it reads as `"`); cmd
/// (`"`, `%` and `!`, which expand variables even inside quotes, and `$`).
pub fn unsafe_chars(shell: Shell) -> &'static [char] {
    match shell {
        Shell::Posix => &['$', '`', '"', '\\'],
        Shell::PowerShell => &['$', '`', '"', '\u{201c}', '\u{201d}', '\u{201e}'],
        Shell::Cmd => &['"', '%', '!', '$'],
    }
}

pub fn shell_name(shell: Shell) -> &'static str {
    match shell {
        Shell::Posix => "sh",
        Shell::PowerShell => "PowerShell",
        Shell::Cmd => "cmd",
    }
}

/// Refuses an install path that cannot be put safely in a command line for
/// `shell` (the shell the harness runs it through on this host).
pub fn check_safe(shell: Shell, path: &str) -> Result<(), InstallError> {
    let refused = unsafe_chars(shell);
    if let Some(found) = path.chars().find(|c| refused.contains(c) || c.is_control()) {
        return Err(InstallError::UnsafePath {
            path: path.to_string(),
            found,
            shell,
        });
    }
    Ok(())
}

/// Whether a word needs no quoting in `sh`.
fn bare(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./+,:@=%".contains(c))
}

/// Whether a word needs no quoting in PowerShell or cmd (no `,` `@` `%`
/// `=` `+`, which one of them reads specially).
fn bare_windows(word: &str) -> bool {
    !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-./:".contains(c))
}

/// Quotes one word for `sh`: as is when it holds only safe characters, else
/// in double quotes (the caller has refused the characters double quotes
/// cannot hold).
pub fn quote(word: &str) -> String {
    if bare(word) {
        word.to_string()
    } else {
        format!("\"{word}\"")
    }
}

/// The command line that starts `words` (program first) through `shell`:
/// `sh` words; PowerShell `& "<program>" <args>` (a quoted program needs
/// the call operator, or PowerShell reads it as a string); cmd
/// `"<program>" <args>` (exactly two quotes, which `cmd /C` keeps). Arguments
/// are event and card names; one that is not a plain word is quoted.
pub fn command(shell: Shell, words: &[String]) -> String {
    let Some((program, args)) = words.split_first() else {
        return String::new();
    };
    let args = args.iter().map(|a| match shell {
        Shell::Posix => quote(a),
        _ if bare_windows(a) => a.clone(),
        Shell::PowerShell => format!("'{}'", a.replace('\'', "''")),
        Shell::Cmd => format!("\"{a}\""),
    });
    let head = match shell {
        Shell::Posix => quote(program),
        Shell::PowerShell => format!("& \"{program}\""),
        Shell::Cmd => format!("\"{program}\""),
    };
    std::iter::once(head)
        .chain(args)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Splits a Windows shell's command line (PowerShell, with or without a
/// leading `& `, or cmd) into words: blanks separate, `"..."` holds its text
/// as is (no escapes), `'...'` too (PowerShell; `''` is one quote). `None`
/// for anything a word split cannot judge: operators, redirections,
/// variables (`$`, `%`), escapes (backtick, `^`), unclosed quotes.
pub fn split_windows(cmd: &str) -> Option<Vec<String>> {
    let cmd = cmd.trim_start();
    let cmd = match cmd.strip_prefix('&') {
        Some(rest) if rest.starts_with([' ', '\t']) => rest,
        _ => cmd,
    };
    let mut w = Words::default();
    let mut chars = cmd.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => w.end(),
            '"' => {
                w.open();
                loop {
                    match chars.next()? {
                        '"' => break,
                        '$' | '`' | '%' | '!' => return None,
                        c => w.push(c),
                    }
                }
            }
            '\'' => {
                w.open();
                loop {
                    match chars.next()? {
                        '\'' if chars.peek() == Some(&'\'') => {
                            chars.next();
                            w.push('\'');
                        }
                        '\'' => break,
                        c => w.push(c),
                    }
                }
            }
            ';' | '|' | '&' | '<' | '>' | '(' | ')' | '$' | '`' | '%' | '^' | '!' | '\n' | '\r'
            | '{' | '}' | '*' | '?' => return None,
            '#' | '@' if !w.open => return None,
            c => {
                w.open();
                w.push(c);
            }
        }
    }
    Some(w.finish())
}

/// The words of a hook's command line as the shell behind `key` would run
/// them: the `powershell` key (Copilot) as PowerShell; any other as `sh`
/// or as a Windows shell, whichever reads it as a plain word list (a line
/// with a backslash is read the Windows way first: `sh` would take its
/// backslashes for escapes).
pub fn split_for(key: &str, cmd: &str) -> Option<Vec<String>> {
    if key == "powershell" {
        return split_windows(cmd);
    }
    if cmd.contains('\\') {
        split_windows(cmd).or_else(|| split(cmd))
    } else {
        split(cmd).or_else(|| split_windows(cmd))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plugin_root_is_a_literal_and_no_other_expansion_is() {
        let w = |s: &str| split(s).map(|v| v.join("|"));
        assert_eq!(
            w("\"${extensionPath}/bin/cuecard\" dispatch X"),
            Some("${extensionPath}/bin/cuecard|dispatch|X".into())
        );
        assert_eq!(
            w("\"${CLAUDE_PLUGIN_ROOT}/bin/cuecard\" dispatch"),
            Some("${CLAUDE_PLUGIN_ROOT}/bin/cuecard|dispatch".into())
        );
        assert_eq!(
            w("\"${COPILOT_PLUGIN_ROOT}/bin/cuecard\" dispatch"),
            Some("${COPILOT_PLUGIN_ROOT}/bin/cuecard|dispatch".into())
        );
        assert_eq!(w("\"${HOME}/bin/cuecard\" dispatch"), None);
        assert_eq!(w("\"$extensionPath/bin/cuecard\" dispatch"), None);
        assert_eq!(w("\"${extensionPath\" dispatch"), None);
    }

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
            assert_eq!(split(&command(Shell::Posix, &words)).unwrap(), words);
        }
        let posix = |p: &str| check_safe(Shell::Posix, p);
        assert!(posix("/a$b/cuecard").is_err());
        assert!(posix("/a`b`/cuecard").is_err());
        assert!(posix("/a\"b/cuecard").is_err());
        assert!(posix("/a\\b/cuecard").is_err());
        assert!(posix("/a b/cuecard").is_ok());
    }

    const WIN: &str = r"C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe";

    #[test]
    fn windows_shells_quote_and_split_back() {
        let words: Vec<String> = [
            WIN,
            "dispatch",
            "--contract",
            "cursor",
            "postToolUse",
            "kb-drift",
        ]
        .map(String::from)
        .to_vec();
        let ps = command(Shell::PowerShell, &words);
        assert_eq!(
            ps,
            r#"& "C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe" dispatch --contract cursor postToolUse kb-drift"#
        );
        let cmd = command(Shell::Cmd, &words);
        assert_eq!(
            cmd,
            r#""C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe" dispatch --contract cursor postToolUse kb-drift"#
        );
        for line in [&ps, &cmd] {
            assert_eq!(split_windows(line).unwrap(), words, "{line}");
            assert_eq!(split_for("command", line).unwrap(), words, "{line}");
        }
        assert_eq!(split_for("powershell", &ps).unwrap(), words);
        // An argument that is not a plain word is quoted for each shell.
        let odd = vec![
            WIN.to_string(),
            "dispatch".into(),
            "a b".into(),
            "it's".into(),
        ];
        assert_eq!(
            split_windows(&command(Shell::PowerShell, &odd)).unwrap(),
            odd
        );
        // PowerShell's single quotes are literal, a doubled one is a quote.
        assert_eq!(
            split_windows("& 'C:\\a b\\cuecard.exe' dispatch 'it''s'").unwrap(),
            vec!["C:\\a b\\cuecard.exe", "dispatch", "it's"]
        );
        for bad in [
            r#"& "C:\x\cuecard.exe" dispatch; Remove-Item x"#,
            r#"& "C:\x\cuecard.exe" dispatch | Out-File x"#,
            r#"& "$env:USERPROFILE\cuecard.exe" dispatch"#,
            r#""%USERPROFILE%\cuecard.exe" dispatch"#,
            r#"& "C:\x\cuecard.exe" dispatch `"#,
            r#"& "unclosed"#,
            r#"cmd /c "C:\x\cuecard.exe" dispatch ^& del x"#,
            r#"& { cuecard dispatch }"#,
        ] {
            assert_eq!(split_windows(bad), None, "{bad}");
        }
    }

    #[test]
    fn refusal_follows_the_shell() {
        // A Windows path's backslashes and non-ASCII letters are fine for
        // the Windows shells, refused for sh.
        assert!(check_safe(Shell::PowerShell, WIN).is_ok());
        assert!(check_safe(Shell::Cmd, WIN).is_ok());
        assert!(check_safe(Shell::Posix, WIN).is_err());
        for (shell, path) in [
            (Shell::PowerShell, r"C:\a$b\cuecard.exe"),
            (Shell::PowerShell, r"C:\a`b\cuecard.exe"),
            (Shell::PowerShell, "C:\\a\u{201c}b\\cuecard.exe"),
            (Shell::Cmd, r"C:\100%\cuecard.exe"),
            (Shell::Cmd, r"C:\wow!\cuecard.exe"),
            (Shell::Cmd, r"C:\a$b\cuecard.exe"),
        ] {
            assert!(check_safe(shell, path).is_err(), "{shell:?} {path}");
        }
        // What cmd refuses PowerShell takes, and the other way round.
        assert!(check_safe(Shell::PowerShell, r"C:\100%\cuecard.exe").is_ok());
        assert!(check_safe(Shell::Cmd, r"C:\a`b\cuecard.exe").is_ok());
    }
}
