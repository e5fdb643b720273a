//! sed's own file and command verbs, read from its script: `w FILE` and the
//! `s///w FILE` flag write a file, `r FILE`/`R FILE` read one into the
//! output, `e COMMAND` runs a command. Each becomes the command it amounts
//! to (a write, a `cat`, a shell line), so the guards judge it as if
//! written plainly: `sed 'w /etc/passwd' x` writes outside the project.

use super::unwrap::{CodeEffect, Unwrapped};

/// At most this many effects from one script.
const MAX_EFFECTS: usize = 16;

/// What a `sed` command's script does beyond editing its input.
pub(super) fn effects(argv: &[String]) -> Option<Unwrapped> {
    let mut out = Vec::new();
    for script in scripts(argv) {
        read_script(&script, &mut out);
    }
    out.truncate(MAX_EFFECTS);
    (!out.is_empty()).then_some(Unwrapped::Effects(out))
}

/// The scripts: each `-e`/`--expression` value (also `-e'…'`, `-ne'…'`),
/// or else the first operand.
fn scripts(argv: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut first_operand = None;
    let mut it = argv.iter().skip(1);
    while let Some(a) = it.next() {
        if a == "--expression" || a == "-e" {
            out.extend(it.next().cloned());
        } else if let Some(v) = a.strip_prefix("--expression=") {
            out.push(v.to_string());
        } else if a == "-f" || a == "--file" || a == "-l" || a == "--line-length" {
            it.next();
        } else if a.starts_with("--") {
        } else if let Some(cluster) = a.strip_prefix('-').filter(|c| !c.is_empty()) {
            // `-ne'w x'`: options, then `e` with its value attached.
            if let Some(k) = cluster.find('e') {
                let v = &cluster[k + 1..];
                if v.is_empty() {
                    out.extend(it.next().cloned());
                } else {
                    out.push(v.to_string());
                }
            }
        } else if first_operand.is_none() {
            first_operand = Some(a.clone());
        }
    }
    if out.is_empty() {
        out.extend(first_operand);
    }
    out
}

/// Reads one script's commands into `out`.
fn read_script(s: &str, out: &mut Vec<CodeEffect>) {
    let c: Vec<char> = s.chars().collect();
    let mut i = 0;
    // Each round consumes at least one character.
    while i < c.len() {
        let start = i;
        while i < c.len() && (c[i].is_whitespace() || c[i] == ';' || c[i] == '}') {
            i += 1;
        }
        i = skip_address(&c, i);
        let Some(&cmd) = c.get(i) else { break };
        i += 1;
        match cmd {
            's' | 'y' => {
                let Some(&d) = c.get(i) else { break };
                i += 1;
                for _ in 0..2 {
                    i = skip_delimited(&c, i, d);
                }
                if cmd == 's' {
                    while i < c.len() && !matches!(c[i], ';' | '\n' | '}' | 'w' | 'W') {
                        i += 1;
                    }
                    if matches!(c.get(i), Some('w' | 'W')) {
                        let (file, next) = rest_of_line(&c, i + 1);
                        push_write(out, file);
                        i = next;
                    }
                }
            }
            'w' | 'W' => {
                let (file, next) = rest_of_line(&c, i);
                push_write(out, file);
                i = next;
            }
            'r' | 'R' => {
                let (file, next) = rest_of_line(&c, i);
                if !file.is_empty() && file != "/dev/stdin" {
                    out.push(CodeEffect::Argv(vec!["cat".into(), file]));
                }
                i = next;
            }
            'e' => {
                let (command, next) = rest_of_line(&c, i);
                if !command.is_empty() {
                    out.push(CodeEffect::Shell(command));
                }
                i = next;
            }
            // Text, labels and branches run to the end of the line (a
            // label or branch also to a `;`).
            'a' | 'i' | 'c' => i = rest_of_line(&c, i).1,
            ':' | 'b' | 't' | 'T' => {
                while i < c.len() && !matches!(c[i], ';' | '\n') {
                    i += 1;
                }
            }
            _ => {}
        }
        if i == start {
            i += 1;
        }
    }
}

/// A write to `file`, unless it is the output itself.
fn push_write(out: &mut Vec<CodeEffect>, file: String) {
    if !file.is_empty() && !matches!(file.as_str(), "/dev/stdout" | "/dev/stderr") {
        out.push(CodeEffect::Write(file));
    }
}

/// Skips an address (`1`, `$`, `/re/`, `\%re%`, `1,5`, `addr!`).
fn skip_address(c: &[char], mut i: usize) -> usize {
    for _ in 0..2 {
        match c.get(i) {
            Some('/') => i = skip_delimited(c, i + 1, '/'),
            Some('\\') => {
                let d = c.get(i + 1).copied().unwrap_or('/');
                i = skip_delimited(c, i + 2, d);
            }
            Some(ch) if ch.is_ascii_digit() || *ch == '$' => {
                while c
                    .get(i)
                    .is_some_and(|ch| ch.is_ascii_digit() || *ch == '$' || *ch == '~')
                {
                    i += 1;
                }
            }
            _ => {}
        }
        if c.get(i) == Some(&',') {
            i += 1;
        } else {
            break;
        }
    }
    while matches!(c.get(i), Some('!' | ' ')) {
        i += 1;
    }
    i
}

/// The index after the next unescaped `d` from `i`.
fn skip_delimited(c: &[char], mut i: usize, d: char) -> usize {
    while let Some(&ch) = c.get(i) {
        i += 1;
        if ch == '\\' {
            i += 1;
        } else if ch == d {
            break;
        }
    }
    i.min(c.len())
}

/// The text from `i` to the end of the line, leading blanks trimmed, and
/// the index after it.
fn rest_of_line(c: &[char], mut i: usize) -> (String, usize) {
    while c.get(i).is_some_and(|ch| *ch == ' ' || *ch == '\t') {
        i += 1;
    }
    let start = i;
    while i < c.len() && c[i] != '\n' {
        i += 1;
    }
    (
        c[start..i]
            .iter()
            .collect::<String>()
            .trim_end()
            .to_string(),
        i,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Vec<String> {
        let argv: Vec<String> = crate::shell::parse(line)[0].argv.clone();
        match effects(&argv) {
            Some(Unwrapped::Effects(e)) => e
                .into_iter()
                .map(|e| match e {
                    CodeEffect::Write(p) => format!("write {p}"),
                    CodeEffect::Argv(a) => a.join(" "),
                    CodeEffect::Shell(s) => format!("sh {s}"),
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn file_commands_in_a_script() {
        assert_eq!(read("sed 'w ~/.profile' in.txt"), ["write ~/.profile"]);
        assert_eq!(read("sed -n '/x/w /var/out' in.txt"), ["write /var/out"]);
        assert_eq!(read("sed 's|a|b|gw /srv/log' in"), ["write /srv/log"]);
        assert_eq!(read("sed -e'1r /etc/motd' in"), ["cat /etc/motd"]);
        assert_eq!(read("sed '$e date' in"), ["sh date"]);
        assert!(read("sed 's/w/r/g' in.txt").is_empty());
        assert!(read("sed -n 's/a/b/p;w' in").is_empty());
        assert!(read("sed 's/x/y/w /dev/stdout' in").is_empty());
        assert!(read("sed -i 's/old/new/' file.txt").is_empty());
    }
}
