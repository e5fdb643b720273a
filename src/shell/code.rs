//! Interpreter one-liners read for what they do, never run: the calls of
//! Python, JavaScript (Node, Deno, Bun), Perl, Ruby, PHP and AppleScript
//! that run a shell command or a program, or delete, move or write files,
//! in one table per language. Each call found becomes the command it
//! amounts to (`shutil.rmtree('/srv')`: `rm -rf /srv`;
//! `os.system('git push -f')`: that command line), so the guards judge it
//! like any other.
//!
//! The reading is lexical: a call's name, then its arguments up to the
//! closing parenthesis (or, for `system "…"`, the end of the statement);
//! only string literals and lists of them are taken as values. Bounded: at
//! most [`MAX_CODE`] bytes of code and [`MAX_CALLS`] calls.

use super::unwrap::CodeEffect;

/// How much of a one-liner is read.
const MAX_CODE: usize = 16 * 1024;
/// The most calls taken from one one-liner.
const MAX_CALLS: usize = 32;
/// The most places a call's name is looked at, found or not.
const MAX_LOOKS: usize = 512;
/// How far a call's arguments are read.
const MAX_ARGS: usize = 2048;

/// The languages read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Lang {
    Python,
    JavaScript,
    Perl,
    Ruby,
    Php,
    AppleScript,
    Lua,
    R,
}

/// What a call does with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Does {
    /// Runs its first string as a shell command line.
    Shell,
    /// Runs a list of words as a program (or a string as a command line;
    /// several strings are the program and its arguments).
    Run,
    /// Runs the program named by its first string with the list after it.
    Spawn,
    /// Deletes a directory tree.
    DeleteTree,
    /// Deletes a tree when given `recursive: true`, else a file.
    Delete,
    /// Deletes a file.
    DeleteFile,
    /// Moves its first path to its second.
    Move,
    /// Copies its first path to its second.
    Copy,
    /// `Path('p')`: what the method called on it does (`.unlink()`,
    /// `.rmdir()`, `.write_text()`, `.touch()`).
    PathObject,
    /// Writes the file it names.
    Write,
    /// `open(path, mode)`: writes when the mode does.
    Open,
}

use Does::*;

const PYTHON: &[(&str, Does)] = &[
    ("os.system", Shell),
    ("os.popen", Shell),
    ("subprocess.getoutput", Shell),
    ("subprocess.getstatusoutput", Shell),
    ("subprocess.run", Run),
    ("subprocess.call", Run),
    ("subprocess.check_call", Run),
    ("subprocess.check_output", Run),
    ("subprocess.Popen", Run),
    ("os.execvp", Spawn),
    ("os.spawnlp", Spawn),
    ("shutil.rmtree", DeleteTree),
    ("rmtree", DeleteTree),
    ("os.remove", DeleteFile),
    ("os.unlink", DeleteFile),
    ("os.rmdir", DeleteFile),
    ("os.removedirs", DeleteFile),
    ("shutil.move", Move),
    ("shutil.copy", Copy),
    ("shutil.copy2", Copy),
    ("shutil.copyfile", Copy),
    ("shutil.copytree", Copy),
    ("Path", PathObject),
    ("os.rename", Move),
    ("os.replace", Move),
    ("open", Open),
];

const JAVASCRIPT: &[(&str, Does)] = &[
    ("execSync", Shell),
    ("exec", Shell),
    ("$`", Shell),
    ("execFileSync", Spawn),
    ("execFile", Spawn),
    ("spawnSync", Spawn),
    ("spawn", Spawn),
    ("Bun.spawn", Run),
    ("Bun.spawnSync", Run),
    ("rmSync", Delete),
    ("rm", Delete),
    ("rmdirSync", Delete),
    ("rmdir", Delete),
    ("Deno.remove", Delete),
    ("Deno.removeSync", Delete),
    ("unlinkSync", DeleteFile),
    ("unlink", DeleteFile),
    ("copyFileSync", Copy),
    ("copyFile", Copy),
    ("cpSync", Copy),
    ("cp", Copy),
    ("renameSync", Move),
    ("rename", Move),
    ("writeFileSync", Write),
    ("writeFile", Write),
    ("appendFileSync", Write),
    ("Deno.writeTextFile", Write),
    ("Deno.writeTextFileSync", Write),
    ("Bun.write", Write),
];

const PERL: &[(&str, Does)] = &[
    ("system", Run),
    ("exec", Run),
    ("qx", Shell),
    ("`", Shell),
    ("rmtree", DeleteTree),
    ("remove_tree", DeleteTree),
    ("unlink", DeleteFile),
    ("rename", Move),
    ("move", Move),
];

const RUBY: &[(&str, Does)] = &[
    ("system", Run),
    ("exec", Run),
    ("spawn", Run),
    ("%x", Shell),
    ("`", Shell),
    ("Open3.capture2", Run),
    ("Open3.capture3", Run),
    ("Open3.popen3", Run),
    ("FileUtils.rm_rf", DeleteTree),
    ("FileUtils.rm_r", DeleteTree),
    ("FileUtils.remove_dir", DeleteTree),
    ("FileUtils.remove_entry", DeleteTree),
    ("FileUtils.rmtree", DeleteTree),
    ("FileUtils.rm", DeleteFile),
    ("FileUtils.rm_f", DeleteFile),
    ("File.delete", DeleteFile),
    ("File.unlink", DeleteFile),
    ("FileUtils.mv", Move),
    ("FileUtils.cp", Copy),
    ("FileUtils.cp_r", Copy),
    ("FileUtils.install", Copy),
    ("File.rename", Move),
    ("File.write", Write),
];

const PHP: &[(&str, Does)] = &[
    ("system", Shell),
    ("exec", Shell),
    ("shell_exec", Shell),
    ("passthru", Shell),
    ("popen", Shell),
    ("proc_open", Shell),
    ("`", Shell),
    ("unlink", DeleteFile),
    ("rmdir", DeleteFile),
    ("rename", Move),
    ("copy", Copy),
    ("file_put_contents", Write),
];

const APPLESCRIPT: &[(&str, Does)] = &[("do shell script", Shell)];

fn table(lang: Lang) -> &'static [(&'static str, Does)] {
    match lang {
        Lang::Python => PYTHON,
        Lang::JavaScript => JAVASCRIPT,
        Lang::Perl => PERL,
        Lang::Ruby => RUBY,
        Lang::Php => PHP,
        Lang::AppleScript => APPLESCRIPT,
        Lang::Lua => super::code_lua_r::LUA,
        Lang::R => super::code_lua_r::R,
    }
}

/// A value in a call's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Arg {
    Str(String),
    List(Vec<String>),
    /// Anything else (a name, a number, an object), as written.
    Other(String),
}

/// Whether a byte can be part of an identifier.
fn ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// What the code does, call by call, in the order written.
pub(super) fn effects(lang: Lang, code: &str) -> Vec<CodeEffect> {
    let code = crate::text::prefix_bytes(code, MAX_CODE);
    // Cheap test first: most one-liners name none of the calls.
    let calls = table(lang);
    if !calls.iter().any(|(name, _)| code.contains(name)) {
        return Vec::new();
    }
    let b = code.as_bytes();
    // (start, end, effect) of each call found.
    let mut found: Vec<(usize, usize, CodeEffect)> = Vec::new();
    let mut looks = 0usize;
    for (name, does) in calls {
        for (at, _) in code.match_indices(name) {
            looks += 1;
            if found.len() >= MAX_CALLS || looks > MAX_LOOKS {
                break;
            }
            let first = name.as_bytes()[0];
            if ident(first) && at > 0 && ident(b[at - 1]) {
                continue;
            }
            // `execSync` is not `exec`.
            let end = at + name.len();
            if name.as_bytes().last().is_some_and(|c| ident(*c))
                && b.get(end).is_some_and(|c| ident(*c))
            {
                continue;
            }
            // Inside a call already read (`rmtree` of `shutil.rmtree`, the
            // closing backtick of a command).
            if found.iter().any(|(s, e, _)| *s <= at && at < *e) {
                continue;
            }
            // The arguments are read within a window after the name.
            let window = crate::text::prefix_bytes(code, end + MAX_ARGS);
            let read = if name.ends_with('`') {
                read_until(window, end, b'`').map(|(s, e)| (vec![Arg::Str(s)], e))
            } else if *name == "qx" || *name == "%x" {
                read_delimited(window, end).map(|(s, e)| (vec![Arg::Str(s)], e))
            } else {
                arguments(lang, window, end)
            };
            let Some((args, stop)) = read else { continue };
            let after = window.get(stop..).unwrap_or("");
            if let Some(effect) = effect_of(*does, &args, after) {
                found.push((at, stop, effect));
            }
        }
    }
    found.sort_by_key(|(at, _, _)| *at);
    found.into_iter().map(|(_, _, e)| e).collect()
}

/// The command a call amounts to (`after`: the code after the call, for
/// the method called on what it returns).
fn effect_of(does: Does, args: &[Arg], after: &str) -> Option<CodeEffect> {
    let strs: Vec<&str> = args
        .iter()
        .filter_map(|a| match a {
            Arg::Str(s) => Some(s.as_str()),
            _ => None,
        })
        .collect();
    let first_str = match args.first()? {
        Arg::Str(s) => Some(s.as_str()),
        _ => None,
    };
    let recursive = args.iter().any(|a| match a {
        Arg::Other(o) => {
            let o: String = o.chars().filter(|c| !c.is_whitespace()).collect();
            // JavaScript's option, Python's keyword, R's (`recursive = TRUE`).
            o.contains("recursive:true")
                || o.contains("recursive=True")
                || o.contains("recursive=TRUE")
        }
        _ => false,
    });
    let argv = |words: &[&str]| CodeEffect::Argv(words.iter().map(|w| w.to_string()).collect());
    match does {
        Shell => first_str.map(|s| CodeEffect::Shell(s.to_string())),
        Run => match args.first()? {
            Arg::List(words) if !words.is_empty() => Some(CodeEffect::Argv(words.clone())),
            Arg::Str(_) if matches!(args.get(1), Some(Arg::Str(_))) => Some(argv(&strs)),
            Arg::Str(s) => Some(CodeEffect::Shell(s.clone())),
            _ => None,
        },
        Spawn => {
            let program = first_str?;
            let mut words = vec![program.to_string()];
            for a in &args[1..] {
                match a {
                    Arg::List(l) => words.extend(l.iter().cloned()),
                    Arg::Str(s) => words.push(s.clone()),
                    Arg::Other(_) => {}
                }
            }
            Some(CodeEffect::Argv(words))
        }
        // shelljs: `rm('-rf', path)`.
        Delete | DeleteFile if first_str.is_some_and(|f| f.starts_with('-')) && strs.len() > 1 => {
            let mut words = vec!["rm"];
            words.extend(&strs);
            Some(argv(&words))
        }
        DeleteTree => first_str.map(|p| argv(&["rm", "-rf", p])),
        Delete if recursive => first_str.map(|p| argv(&["rm", "-rf", p])),
        Delete | DeleteFile => first_str.map(|p| argv(&["rm", "-f", p])),
        Move => match (first_str, args.get(1)) {
            (Some(from), Some(Arg::Str(to))) => Some(argv(&["mv", from, to])),
            _ => None,
        },
        Copy => match (first_str, strs.get(1)) {
            (Some(from), Some(to)) if !from.starts_with('-') => Some(argv(&["cp", "-r", from, to])),
            _ => None,
        },
        PathObject => {
            let p = first_str?;
            let method = after.strip_prefix('.')?;
            let name_end = method
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(method.len());
            match &method[..name_end] {
                "unlink" | "rmdir" => Some(argv(&["rm", "-f", p])),
                "write_text" | "write_bytes" | "touch" => Some(CodeEffect::Write(p.to_string())),
                "rename" | "replace" => literal_after(method).map(|to| argv(&["mv", p, &to])),
                _ => None,
            }
        }
        Write => first_str.map(|p| CodeEffect::Write(p.to_string())),
        Open => match (first_str, args.get(1)) {
            (Some(p), Some(Arg::Str(mode))) if mode.contains(['w', 'a', 'x', '+']) => {
                Some(CodeEffect::Write(p.to_string()))
            }
            _ => None,
        },
    }
}

/// The arguments of a call whose name ends at `at`, and where they end: in
/// parentheses, or (Perl, Ruby, PHP, AppleScript) a string after blanks, to
/// the end of the statement.
fn arguments(lang: Lang, code: &str, at: usize) -> Option<(Vec<Arg>, usize)> {
    let b = code.as_bytes();
    let mut i = at;
    while b.get(i).is_some_and(|c| *c == b' ' || *c == b'\t') {
        i += 1;
    }
    let close = match b.get(i)? {
        b'(' => {
            i += 1;
            Some(b')')
        }
        b'\'' | b'"' if i > at && lang != Lang::Python && lang != Lang::JavaScript => None,
        // Perl and Ruby call without parentheses on any expression:
        // `unlink glob "/etc/*.conf"`, `FileUtils.rm_rf Dir.glob("/srv/*")`.
        c if i > at
            && matches!(lang, Lang::Perl | Lang::Ruby)
            && (c.is_ascii_alphabetic() || *c == b'$') =>
        {
            None
        }
        _ => return None,
    };
    let mut args = Vec::new();
    let mut other = String::new();
    let mut depth = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'\'' | b'"' | b'`' => {
                let (s, next) = literal(code, i)?;
                args.push(Arg::Str(s));
                i = next;
                continue;
            }
            b'[' if depth == 0 => {
                let mut words = Vec::new();
                i += 1;
                while let Some(&d) = b.get(i) {
                    match d {
                        b']' => {
                            i += 1;
                            break;
                        }
                        b'\'' | b'"' | b'`' => {
                            let (s, next) = literal(code, i)?;
                            words.push(s);
                            i = next;
                        }
                        _ => i += 1,
                    }
                }
                args.push(Arg::List(words));
                continue;
            }
            b'(' | b'{' | b'[' => depth += 1,
            b')' | b'}' | b']' if depth > 0 => depth -= 1,
            b')' if close == Some(b')') => break,
            b';' | b'\n' if close.is_none() && depth == 0 => break,
            b',' if depth == 0 => {
                if !other.trim().is_empty() {
                    args.push(home_or_other(std::mem::take(&mut other)));
                }
                other.clear();
                i += 1;
                continue;
            }
            _ => {}
        }
        // Python's string prefixes (r'', f'', b'') are read with the string.
        let prefix = lang == Lang::Python
            && matches!(c, b'r' | b'f' | b'b' | b'u' | b'R' | b'F' | b'B' | b'U')
            && matches!(b.get(i + 1), Some(b'\'' | b'"'));
        match code.get(i..).and_then(|r| r.chars().next()) {
            Some(ch) if !prefix => {
                other.push(ch);
                i += ch.len_utf8();
            }
            _ => i += 1,
        }
    }
    if !other.trim().is_empty() {
        args.push(home_or_other(other));
    }
    Some((args, (i + 1).min(b.len())))
}

/// An argument that is not a literal, unless it is the language's plain
/// spelling of the home folder (`process.env.HOME`, `os.homedir()`,
/// `Path.home()`, `Dir.home`, `$ENV{HOME}`): that is `$HOME`, which the
/// guards read.
fn home_or_other(other: String) -> Arg {
    const HOME: &[&str] = &[
        "process.env.HOME",
        "os.homedir()",
        "Path.home()",
        "pathlib.Path.home()",
        "Dir.home",
        "$ENV{HOME}",
    ];
    if HOME.contains(&other.trim()) {
        Arg::Str("$HOME".to_string())
    } else {
        Arg::Other(other)
    }
}

/// A string literal starting at `at` (its quote): its text with the common
/// escapes read, and where it ends. Python's triple quotes are read too.
fn literal(code: &str, at: usize) -> Option<(String, usize)> {
    let b = code.as_bytes();
    let q = *b.get(at)?;
    let triple = b.get(at + 1) == Some(&q) && b.get(at + 2) == Some(&q);
    let mut i = at + if triple { 3 } else { 1 };
    let mut s = String::new();
    while i < b.len() {
        let c = b[i];
        if c == q && (!triple || (b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q))) {
            return Some((s, i + if triple { 3 } else { 1 }));
        }
        if c == b'\\' && i + 1 < b.len() {
            let n = b[i + 1];
            match n {
                b'n' => s.push('\n'),
                b't' => s.push('\t'),
                b'\\' | b'\'' | b'"' | b'`' | b'$' => s.push(n as char),
                _ => {
                    s.push('\\');
                    i += 1;
                    continue;
                }
            }
            i += 2;
            continue;
        }
        let ch = code.get(i..)?.chars().next()?;
        s.push(ch);
        i += ch.len_utf8();
    }
    None
}

/// The first string literal in the parentheses of `method(…)`.
fn literal_after(method: &str) -> Option<String> {
    let open = method.find('(')?;
    let inner = &method[open + 1..];
    let q = inner.find(['\'', '"'])?;
    if inner[..q].contains(')') {
        return None;
    }
    literal(inner, q).map(|(s, _)| s)
}

/// The text from `at` to the next `end` byte, and where it ends (after
/// that byte).
fn read_until(code: &str, at: usize, end: u8) -> Option<(String, usize)> {
    let rest = code.get(at..)?;
    let stop = rest.bytes().position(|c| c == end)?;
    Some((rest[..stop].to_string(), at + stop + 1))
}

/// `qx(…)`, `qx{…}`, `%x(…)`, `qx/…/`: the text between the delimiters.
fn read_delimited(code: &str, at: usize) -> Option<(String, usize)> {
    let open = *code.as_bytes().get(at)?;
    let close = match open {
        b'(' => b')',
        b'{' => b'}',
        b'[' => b']',
        b'<' => b'>',
        c if c.is_ascii_punctuation() => c,
        _ => return None,
    };
    read_until(code, at + 1, close)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> CodeEffect {
        CodeEffect::Argv(words.iter().map(|w| w.to_string()).collect())
    }

    #[test]
    fn calls_become_commands() {
        let cases: &[(Lang, &str, Vec<CodeEffect>)] = &[
            (
                Lang::Python,
                "import shutil; shutil.rmtree('/srv/data')",
                vec![argv(&["rm", "-rf", "/srv/data"])],
            ),
            (
                Lang::Python,
                "import os; os.system('rm -rf ~/x')",
                vec![CodeEffect::Shell("rm -rf ~/x".into())],
            ),
            (
                Lang::Python,
                "import subprocess; subprocess.run(['git', 'push', '-f'], check=True)",
                vec![argv(&["git", "push", "-f"])],
            ),
            (
                Lang::Python,
                "open(r'/etc/hosts', 'a').write('x')",
                vec![CodeEffect::Write("/etc/hosts".into())],
            ),
            (Lang::Python, "print(open('README').read())", vec![]),
            (
                Lang::JavaScript,
                "require('fs').rmSync('/etc/x',{recursive:true})",
                vec![argv(&["rm", "-rf", "/etc/x"])],
            ),
            (
                Lang::JavaScript,
                "require('child_process').execSync('git push -f origin main')",
                vec![CodeEffect::Shell("git push -f origin main".into())],
            ),
            (
                Lang::JavaScript,
                "require('child_process').spawnSync('rm', ['-rf', '/x'])",
                vec![argv(&["rm", "-rf", "/x"])],
            ),
            (Lang::JavaScript, "console.log(/a/.exec(s))", vec![]),
            (
                Lang::Python,
                "import pathlib; pathlib.Path('/srv/x').unlink(missing_ok=True)",
                vec![argv(&["rm", "-f", "/srv/x"])],
            ),
            (
                Lang::Python,
                "from pathlib import Path; Path('/etc/motd').write_text('hi'); Path('a').exists()",
                vec![CodeEffect::Write("/etc/motd".into())],
            ),
            (
                Lang::Python,
                "import shutil; shutil.copy('x', '/etc/x')",
                vec![argv(&["cp", "-r", "x", "/etc/x"])],
            ),
            (
                Lang::JavaScript,
                "require('shelljs').rm('-rf', '/srv')",
                vec![argv(&["rm", "-rf", "/srv"])],
            ),
            (
                Lang::Perl,
                "system(\"rm -rf /opt/app\")",
                vec![CodeEffect::Shell("rm -rf /opt/app".into())],
            ),
            (
                Lang::Perl,
                "unlink \"/etc/passwd\"; print `ls`",
                vec![
                    argv(&["rm", "-f", "/etc/passwd"]),
                    CodeEffect::Shell("ls".into()),
                ],
            ),
            (
                Lang::Ruby,
                "require 'fileutils'; FileUtils.rm_rf(\"/srv\")",
                vec![argv(&["rm", "-rf", "/srv"])],
            ),
            (
                Lang::Ruby,
                "FileUtils.rm_rf Dir.glob(\"/srv/*\")",
                vec![argv(&["rm", "-rf", "/srv/*"])],
            ),
            (
                Lang::Perl,
                "unlink glob \"/etc/*.conf\"",
                vec![argv(&["rm", "-f", "/etc/*.conf"])],
            ),
            (Lang::Perl, "print system $cmd", vec![]),
            (
                Lang::Ruby,
                "system 'git', 'push', '--force'",
                vec![argv(&["git", "push", "--force"])],
            ),
            (
                Lang::Php,
                "shell_exec('rm -rf /var/www');",
                vec![CodeEffect::Shell("rm -rf /var/www".into())],
            ),
            (
                Lang::AppleScript,
                "do shell script \"rm -rf ~/Library\"",
                vec![CodeEffect::Shell("rm -rf ~/Library".into())],
            ),
        ];
        for (lang, code, want) in cases {
            assert_eq!(&effects(*lang, code), want, "{code}");
        }
    }

    #[test]
    fn hostile_code_is_read_without_panic() {
        for code in [
            "os.system(",
            "os.system('",
            "rmtree(\"\\",
            "`",
            "qx",
            "qx(",
            "open(",
            "é os.system('é')",
            "subprocess.run([",
            "exec(`",
            "system \"",
            "spawn('x', [",
        ] {
            for lang in [
                Lang::Python,
                Lang::JavaScript,
                Lang::Perl,
                Lang::Ruby,
                Lang::Php,
            ] {
                let _ = effects(lang, code);
            }
        }
    }
}
