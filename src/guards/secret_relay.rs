//! A secret kept in a shell variable, then printed: `S=$(op read
//! op://V/I/p); echo "$S"`, or the variable in a `cat <<EOF` body. The
//! substitution alone shows nothing (its output is captured), and `$S`
//! names no secret; together they print the secret. A variable used as
//! meant (`curl -H "Authorization: Bearer $S"`) is not printed.

use super::argv;
use super::secret_commands::substitution_prints;
use crate::shell::SimpleCommand;

/// The most assignments looked at in one command line.
const MAX_ASSIGNMENTS: usize = 32;
/// How far a substitution's text is read for its closing parenthesis.
const MAX_SUBSTITUTION: usize = 4096;

/// Variables assigned the output of a secret printer, with what it prints.
fn secret_variables(command: &str) -> Vec<(String, String)> {
    let b = command.as_bytes();
    let mut out = Vec::new();
    for (at, _) in command.match_indices("=$(").take(MAX_ASSIGNMENTS * 4) {
        let name_start = command[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &command[name_start..at];
        let starts_word = name_start == 0
            || matches!(
                b[name_start - 1],
                b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'('
            );
        if name.is_empty() || !starts_word || name.as_bytes()[0].is_ascii_digit() {
            continue;
        }
        let open = at + 1;
        let mut depth = 0usize;
        let mut end = None;
        for (k, c) in command[open..].bytes().enumerate().take(MAX_SUBSTITUTION) {
            match c {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(open + k + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { continue };
        if let Some(kind) = substitution_prints(&command[open..end]) {
            out.push((name.to_string(), kind));
        }
        if out.len() >= MAX_ASSIGNMENTS {
            break;
        }
    }
    out
}

/// Whether `text` uses the variable `name` (`$S`, `${S}`, `"$S"`).
fn uses(text: &str, name: &str) -> bool {
    text.match_indices('$').any(|(at, _)| {
        let rest = &text[at + 1..];
        let rest = rest.strip_prefix('{').unwrap_or(rest);
        rest.strip_prefix(name)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_'))
    })
}

/// The variable and what it holds, when a command shows a variable that
/// holds a printed secret: `echo`/`printf` of it, or a heredoc body that
/// expands it given to `cat`.
pub(super) fn relayed(command: &str, cmds: &[SimpleCommand]) -> Option<(String, String)> {
    if !command.contains("=$(") {
        return None;
    }
    let vars = secret_variables(command);
    if vars.is_empty() {
        return None;
    }
    // A quoted heredoc delimiter keeps `$S` as text.
    let literal_heredoc = ["<<'", "<<\"", "<<\\", "<<-'", "<<-\""]
        .iter()
        .any(|p| command.contains(p));
    cmds.iter().filter(|c| !c.captured).find_map(|c| {
        let prog = argv::program(c);
        let shown: Vec<&str> = match prog.as_str() {
            "echo" | "printf" => c.args().iter().map(String::as_str).collect(),
            "cat" if !literal_heredoc => c.heredoc.iter().map(String::as_str).collect(),
            _ => Vec::new(),
        };
        vars.iter()
            .find(|(name, _)| shown.iter().any(|t| uses(t, name)))
            .cloned()
    })
}

#[cfg(test)]
mod tests {
    use super::relayed;
    use crate::shell::parse;

    fn judge(line: &str) -> bool {
        relayed(line, &parse(line)).is_some()
    }

    #[test]
    fn a_printed_variable_that_holds_a_secret_is_shown() {
        for line in [
            "S=$(op read op://V/I/password); echo \"$S\"",
            "TOKEN=$(gh auth token)\nprintf '%s\\n' \"${TOKEN}\"",
            "V=$(vault kv get -field=pw secret/db)\ncat <<EOF\npw=$V\nEOF",
        ] {
            assert!(judge(line), "{line}");
        }
    }

    #[test]
    fn a_variable_used_or_not_printed_is_not() {
        for line in [
            "T=$(gh auth token); curl -H \"Authorization: Bearer $T\" https://api.github.com",
            "S=$(op read op://V/I/password); echo done",
            "R=$(aws configure get region); echo \"$R\"",
            "S=$(op read op://V/I/password)\ncat <<'EOF'\n$S\nEOF",
            "S=$(git rev-parse HEAD); echo $S",
            "S=$(op read op://V/I/password); echo \"$SS\"",
        ] {
            assert!(!judge(line), "{line}");
        }
    }
}
