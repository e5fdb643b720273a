//! A light lexical pass for the content guards: which language family a file
//! belongs to (by its extension), and the same text with its comments and
//! the insides of its string literals blanked out, so that a guard looking
//! for `eval(` does not fire on a comment or a log message that only mentions
//! the word.
//!
//! Blanking replaces every byte of a comment or of a string's contents with a
//! space and keeps the quote characters, so byte offsets in the blanked text
//! are offsets in the original: a rule can find a call in the blanked text and
//! then read its literal arguments (`compile(src, 'f', 'exec')`) from the
//! original. It is a single forward pass with no allocation beyond the output;
//! it does not try to be a parser (regex literals, heredocs and `%q{}` stay
//! code), which costs at worst a rare extra or missed finding.

use std::path::Path;

/// The language families the content guards know.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Python,
    /// JavaScript and TypeScript (and the script parts of Vue/Svelte files).
    Js,
    Ruby,
    Php,
    /// POSIX shells (sh, bash, zsh, ksh).
    Shell,
    PowerShell,
}

impl Family {
    /// The family of a file, from its extension or well-known name.
    pub fn of_path(path: &str) -> Option<Family> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        match name {
            "Rakefile" | "Gemfile" | "Guardfile" | "Vagrantfile" | "Brewfile" => {
                return Some(Family::Ruby);
            }
            "SConstruct" | "SConscript" => return Some(Family::Python),
            ".bashrc" | ".bash_profile" | ".zshrc" | ".profile" | ".zprofile" => {
                return Some(Family::Shell);
            }
            _ => {}
        }
        let ext = Path::new(name).extension()?.to_str()?;
        Family::of_extension(ext)
    }

    fn of_extension(ext: &str) -> Option<Family> {
        let lower = ext.to_ascii_lowercase();
        Some(match lower.as_str() {
            "py" | "pyw" | "pyi" | "ipynb" => Family::Python,
            "js" | "mjs" | "cjs" | "jsx" | "ts" | "tsx" | "mts" | "cts" | "vue" | "svelte" => {
                Family::Js
            }
            "rb" | "rake" | "gemspec" | "ru" => Family::Ruby,
            "php" | "phtml" => Family::Php,
            "sh" | "bash" | "zsh" | "ksh" => Family::Shell,
            "ps1" | "psm1" => Family::PowerShell,
            _ => return None,
        })
    }
}

/// `src` with comments and string contents replaced by spaces (newlines are
/// kept so line structure survives). Same length in bytes as `src`.
pub fn blank(src: &str, family: Family) -> String {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    let n = b.len();
    let at_line_start = |i: usize| i == 0 || b[i - 1] == b'\n';
    while i < n {
        let c = b[i];
        // Comments.
        let line_comment = match family {
            Family::Python | Family::Ruby | Family::PowerShell => c == b'#',
            Family::Shell => {
                c == b'#' && (i == 0 || b[i - 1].is_ascii_whitespace() || b[i - 1] == b';')
            }
            Family::Js => c == b'/' && b.get(i + 1) == Some(&b'/'),
            Family::Php => c == b'#' || (c == b'/' && b.get(i + 1) == Some(&b'/')),
        };
        if family == Family::PowerShell && c == b'<' && b.get(i + 1) == Some(&b'#') {
            i = blank_until(&mut out, b, i, "#>");
            continue;
        }
        if line_comment {
            while i < n && b[i] != b'\n' {
                out[i] = b' ';
                i += 1;
            }
            continue;
        }
        if matches!(family, Family::Js | Family::Php) && c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = blank_until(&mut out, b, i, "*/");
            continue;
        }
        if family == Family::Ruby && at_line_start(i) && b[i..].starts_with(b"=begin") {
            i = blank_until(&mut out, b, i, "\n=end");
            continue;
        }
        // Strings.
        if family == Family::Python && (b[i..].starts_with(b"\"\"\"") || b[i..].starts_with(b"'''"))
        {
            let quote = &src[i..i + 3];
            i = blank_string(&mut out, b, i + 3, quote.as_bytes(), true, true);
            continue;
        }
        let is_quote = match family {
            Family::Js | Family::Ruby => matches!(c, b'\'' | b'"' | b'`'),
            _ => matches!(c, b'\'' | b'"'),
        };
        if is_quote {
            let escapes = match family {
                Family::Shell | Family::PowerShell => c == b'"',
                _ => true,
            };
            let multiline = !matches!(family, Family::Python) || c == b'`';
            i = blank_string(&mut out, b, i + 1, &[c], escapes, multiline);
            continue;
        }
        i += 1;
    }
    // Only ASCII bytes were written over whole characters (every byte of a
    // multi-byte character inside a blanked span is replaced), so the
    // output stays UTF-8; fall back to the input rather than panic.
    String::from_utf8(out).unwrap_or_else(|_| src.to_string())
}

/// Blanks from `start` through the end of `close` (or to the end of text).
fn blank_until(out: &mut [u8], b: &[u8], start: usize, close: &str) -> usize {
    let end = find(b, start + 2, close.as_bytes()).map_or(b.len(), |p| p + close.len());
    for o in &mut out[start..end] {
        if *o != b'\n' {
            *o = b' ';
        }
    }
    end
}

/// Blanks a string's contents from `start` up to its closing `quote`, which
/// is kept; returns the index after the closing quote.
fn blank_string(
    out: &mut [u8],
    b: &[u8],
    start: usize,
    quote: &[u8],
    escapes: bool,
    multiline: bool,
) -> usize {
    let mut i = start;
    while i < b.len() {
        if escapes && b[i] == b'\\' && i + 1 < b.len() {
            out[i] = b' ';
            if b[i + 1] != b'\n' {
                out[i + 1] = b' ';
            }
            i += 2;
            continue;
        }
        if b[i..].starts_with(quote) {
            return i + quote.len();
        }
        if b[i] == b'\n' {
            if !multiline {
                return i;
            }
        } else {
            out[i] = b' ';
        }
        i += 1;
    }
    i
}

fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    if from >= hay.len() {
        return None;
    }
    hay[from..]
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Whether `b` may be part of an identifier in the C-like families (`$` is
/// one in JavaScript and PHP).
pub fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Every position where `word` occurs in `code` as a whole word: not
/// preceded or followed by an identifier character.
pub fn word_positions<'a>(code: &'a str, word: &'a str) -> impl Iterator<Item = usize> + 'a {
    let b = code.as_bytes();
    code.match_indices(word).filter_map(move |(i, _)| {
        let before_ok = i == 0 || !is_ident(b[i - 1]);
        let after_ok = b.get(i + word.len()).is_none_or(|c| !is_ident(*c));
        (before_ok && after_ok).then_some(i)
    })
}

/// The byte before `i` that is not a space or tab, if any.
pub fn prev_non_blank(code: &str, i: usize) -> Option<u8> {
    code.as_bytes()[..i]
        .iter()
        .rev()
        .copied()
        .find(|c| *c != b' ' && *c != b'\t')
}

/// The argument text of a call whose `(` is at `open`: up to the matching
/// `)` (parentheses counted in the blanked `code`), as a range usable on the
/// original too. Unbalanced: to the end of the text, at most 2,000 bytes.
pub fn call_args(code: &str, open: usize) -> std::ops::Range<usize> {
    let b = code.as_bytes();
    let mut depth = 0usize;
    let limit = (open + 2_000).min(b.len());
    for (i, &c) in b.iter().enumerate().take(limit).skip(open) {
        match c {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return open + 1..i;
                }
            }
            _ => {}
        }
    }
    (open + 1).min(limit)..limit
}

/// Index of the first non-blank byte at or after `i` (spaces and tabs only).
pub fn skip_blanks(code: &str, mut i: usize) -> usize {
    let b = code.as_bytes();
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// The 1-based line number of byte offset `i`.
pub fn line_of(text: &str, i: usize) -> usize {
    text.as_bytes()[..i.min(text.len())]
        .iter()
        .filter(|c| **c == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_by_extension_and_name() {
        assert_eq!(Family::of_path("src/app.py"), Some(Family::Python));
        assert_eq!(Family::of_path("C:\\x\\y.TSX"), Some(Family::Js));
        assert_eq!(Family::of_path("Rakefile"), Some(Family::Ruby));
        assert_eq!(Family::of_path("deploy.sh"), Some(Family::Shell));
        assert_eq!(Family::of_path("README.md"), None);
        assert_eq!(Family::of_path("Makefile"), None);
    }

    #[test]
    fn comments_and_strings_are_blanked_offsets_kept() {
        let src = "x = eval(a)  # eval(b)\nprint('eval(c)')\n";
        let out = blank(src, Family::Python);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.matches("eval(").count(), 1);
        assert!(out.contains("print('       ')"));

        let js = "/* eval(x) */ const s = `eval(${y})`; // eval(z)\nfoo(\"a\\\"eval(\")";
        let out = blank(js, Family::Js);
        assert!(!out.contains("eval"), "{out}");
        assert!(out.contains("foo(\""));

        let py = "'''\neval(doc)\n'''\nexec(code)";
        let out = blank(py, Family::Python);
        assert_eq!(out.matches("exec(").count(), 1);
        assert!(!out.contains("eval"));
        assert_eq!(out.lines().count(), py.lines().count());
    }

    #[test]
    fn ruby_block_comments_and_shell_hashes() {
        let rb = "=begin\neval(x)\n=end\nputs 1";
        assert!(!blank(rb, Family::Ruby).contains("eval"));
        let sh = "echo a#b # eval \"$x\"";
        let out = blank(sh, Family::Shell);
        assert!(out.contains("a#b"));
        assert!(!out.contains("eval"));
    }

    #[test]
    fn multibyte_text_inside_strings_stays_valid() {
        let src = "s = 'héllo wörld 😀'; eval(x)";
        let out = blank(src, Family::Python);
        assert_eq!(out.len(), src.len());
        assert!(out.contains("eval(x)"));
    }

    #[test]
    fn word_positions_need_boundaries() {
        let code = "evaluate(x); eval(y); literal_eval(z); $eval(w)";
        let hits: Vec<usize> = word_positions(code, "eval").collect();
        assert_eq!(hits, vec![13]);
    }

    #[test]
    fn call_args_balances_parentheses() {
        let code = "compile(f(a), 'x', mode)";
        let r = call_args(code, 7);
        assert_eq!(&code[r], "f(a), 'x', mode");
    }
}
