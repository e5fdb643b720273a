//! Whether a config file can be rewritten without loss.
//!
//! serde_json silently drops what it cannot represent: a duplicate key keeps
//! only its last value, an integer beyond 64 bits becomes a float, a decimal
//! with more digits than a double holds is rounded. Comments, trailing commas
//! and other JSON5 are refused by the parser, but with a message that does not
//! say why cuecard cannot just fix them. This scanner walks the text once,
//! string-aware, and names the first thing that would be lost, with its line.

/// Why a file cannot be rewritten without loss.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lossy {
    pub line: usize,
    pub what: String,
}

impl std::fmt::Display for Lossy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// Significant decimal digits an f64 keeps exactly (17 round-trips any double).
const MAX_FLOAT_DIGITS: usize = 17;

enum Frame {
    Object(std::collections::HashSet<String>),
    Array,
}

/// `text` as plain JSON for reading only: a byte-order mark, `//`, `/* */`
/// and `#` comments (outside strings) and trailing commas taken out, as
/// the harnesses that accept JSONC read it. `None` when nothing needed
/// taking out. Never written back: a file like this is rewritten by hand.
pub fn tolerant(text: &str) -> Option<String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let b = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(b.len());
    let mut changed = text.len() != b.len();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i = (i + 1).min(b.len());
                out.extend_from_slice(&b[start..i]);
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                changed = true;
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'#' => {
                changed = true;
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                changed = true;
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                    i += 1;
                }
                i = (i + 2).min(b.len());
            }
            b',' => {
                let next = b[i + 1..]
                    .iter()
                    .position(|c| !c.is_ascii_whitespace())
                    .map(|k| b[i + 1 + k]);
                if matches!(next, Some(b'}') | Some(b']')) {
                    changed = true;
                } else {
                    out.push(b',');
                }
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    // A trailing comma before a comment before `}` is caught on a second
    // pass over the comment-free text.
    let mut s = String::from_utf8(out).ok()?;
    if changed && let Some(again) = tolerant(&s) {
        s = again;
    }
    changed.then_some(s)
}

/// Checks `text` for anything a parse-and-rewrite would lose or refuse.
/// Structural errors are left to the parser, which reports them precisely.
pub fn check(text: &str) -> Result<(), Lossy> {
    if text.starts_with('\u{feff}') {
        return Err(lossy(1, "starts with a byte-order mark"));
    }
    let b = text.as_bytes();
    let mut s = Scan {
        line: 1,
        stack: Vec::new(),
        last: 0,
        expecting_key: false,
    };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        i = match c {
            b'\n' => {
                s.line += 1;
                i + 1
            }
            b' ' | b'\t' | b'\r' => i + 1,
            b'/' if matches!(b.get(i + 1), Some(b'/') | Some(b'*')) => {
                return Err(lossy(s.line, "has a comment (JSONC/JSON5)"));
            }
            b'#' => return Err(lossy(s.line, "has a `#` comment")),
            b'"' => s.string(text, i)?,
            b'\'' => return Err(lossy(s.line, "has a single-quoted string (JSON5)")),
            b'{' | b'[' | b'}' | b']' | b',' | b':' => {
                s.punctuation(c)?;
                i + 1
            }
            b'-' | b'0'..=b'9' | b'+' | b'.' => s.number(text, i)?,
            _ => s.word(b, i)?,
        };
    }
    Ok(())
}

fn lossy(line: usize, what: &str) -> Lossy {
    Lossy {
        line,
        what: what.to_string(),
    }
}

/// Where the scan stands: the line, the open objects (with their keys) and
/// arrays, the last significant token (to catch trailing commas and keys),
/// and whether a key comes next.
struct Scan {
    line: usize,
    stack: Vec<Frame>,
    last: u8,
    expecting_key: bool,
}

impl Scan {
    /// The string starting at `i` (a key is checked against its object's
    /// keys); returns where it ends.
    fn string(&mut self, text: &str, start: usize) -> Result<usize, Lossy> {
        let b = text.as_bytes();
        let mut i = start + 1;
        while i < b.len() && b[i] != b'"' {
            if b[i] == b'\\' {
                i += 1;
            }
            if i < b.len() && b[i] == b'\n' {
                self.line += 1;
            }
            i += 1;
        }
        i += 1;
        let raw = &text[start..i.min(text.len())];
        if self.expecting_key {
            if let Some(Frame::Object(keys)) = self.stack.last_mut() {
                // Keys are compared decoded: "a" and "\u0061" are the same key.
                let key = serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_string());
                if !keys.insert(key.clone()) {
                    return Err(lossy(
                        self.line,
                        &format!("repeats the key {raw} (only the last value would survive)"),
                    ));
                }
            }
            self.expecting_key = false;
        }
        self.last = b'"';
        Ok(i)
    }

    /// `{ [ } ] , :`: the nesting and whether a key comes next.
    fn punctuation(&mut self, c: u8) -> Result<(), Lossy> {
        match c {
            b'{' => {
                self.stack.push(Frame::Object(Default::default()));
                self.expecting_key = true;
            }
            b'[' => {
                self.stack.push(Frame::Array);
                self.expecting_key = false;
            }
            b'}' | b']' => {
                if self.last == b',' {
                    return Err(lossy(self.line, "has a trailing comma (JSON5)"));
                }
                self.stack.pop();
                self.expecting_key = false;
            }
            b',' => self.expecting_key = matches!(self.stack.last(), Some(Frame::Object(_))),
            _ => self.expecting_key = false,
        }
        self.last = c;
        Ok(())
    }

    /// The number literal starting at `i`; returns where it ends.
    fn number(&mut self, text: &str, start: usize) -> Result<usize, Lossy> {
        let b = text.as_bytes();
        let mut i = start;
        while i < b.len()
            && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9' | b'x' | b'X' | b'a'..=b'd' | b'f' | b'A'..=b'D' | b'F')
        {
            i += 1;
        }
        number(&text[start..i]).map_err(|w| lossy(self.line, &w))?;
        self.last = b'0';
        Ok(i)
    }

    /// Literals (true, false, null) and anything else: the parser judges,
    /// but not as a key. Returns where it ends.
    fn word(&mut self, b: &[u8], start: usize) -> Result<usize, Lossy> {
        let mut i = start;
        while i < b.len() && b[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i == start {
            i += 1;
        }
        if self.expecting_key {
            return Err(lossy(self.line, "has an unquoted key (JSON5)"));
        }
        self.last = b'a';
        Ok(i)
    }
}

/// A number literal that a double cannot carry exactly is refused.
fn number(lit: &str) -> Result<(), String> {
    if lit.starts_with('+') || lit.starts_with('.') || lit.contains(['x', 'X']) {
        return Err(format!("has the number `{lit}`, which is not JSON (JSON5)"));
    }
    let is_integer = !lit.contains(['.', 'e', 'E']);
    if is_integer {
        if lit.parse::<i64>().is_err() && lit.parse::<u64>().is_err() {
            return Err(format!("has the integer {lit}, too large to keep exactly"));
        }
        return Ok(());
    }
    let mantissa = lit.split(['e', 'E']).next().unwrap_or("");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let significant = digits.trim_start_matches('0').trim_end_matches('0');
    if significant.len() > MAX_FLOAT_DIGITS {
        return Err(format!(
            "has the number {lit}, more precise than can be kept exactly"
        ));
    }
    Ok(())
}

impl std::error::Error for Lossy {}

#[cfg(test)]
mod tolerant_tests {
    use super::tolerant;

    #[test]
    fn comments_and_trailing_commas_are_read_past() {
        let t = "{\n  // mine\n  \"a\": \"x // not a comment\", /* b */\n  \"b\": [1, 2,],\n  # hash\n}\n";
        let plain = tolerant(t).unwrap();
        let v: serde_json::Value = serde_json::from_str(&plain).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"a": "x // not a comment", "b": [1, 2]})
        );
        assert_eq!(tolerant("{\"a\": 1}"), None);
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn plain_json_passes() {
        check(r#"{"a": [1, 2.5, -3e4, true, null, "x // not a comment, ]"], "b": {"c": "\"}"}}"#)
            .unwrap();
    }

    #[test]
    fn each_loss_is_named_with_its_line() {
        for (text, want) in [
            ("{\n  // hi\n  \"a\": 1\n}", "line 2: has a comment"),
            ("{\"a\": 1 /* x */}", "comment"),
            ("{\"a\": [1, 2,]}", "trailing comma"),
            ("{\"a\": 1,\n}", "line 2: has a trailing comma"),
            ("{\"a\": 1, \"a\": 2}", "repeats the key \"a\""),
            ("{\"a\": 1, \"\\u0061\": 2}", "repeats the key"),
            ("{a: 1}", "unquoted key"),
            ("{'a': 1}", "single-quoted"),
            ("{\"a\": 123456789012345678901234}", "too large"),
            ("{\"a\": 0.12345678901234567891}", "more precise"),
            ("{\"a\": +1}", "not JSON"),
            ("\u{feff}{}", "byte-order mark"),
        ] {
            let e = check(text).expect_err(text).to_string();
            assert!(e.contains(want), "{text:?}: {e}");
        }
    }

    #[test]
    fn same_key_in_different_objects_is_fine() {
        check(r#"{"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]}"#).unwrap();
    }
}

#[cfg(test)]
mod float_tests {
    /// Found by the config_merge fuzz target: without correctly rounded
    /// parsing, `6e88` came back as `5.999999999999999e88`.
    #[test]
    fn numbers_survive_a_rewrite() {
        for lit in [
            "6e88",
            "0.1",
            "1e-7",
            "123456789.12345678",
            "-0.0",
            "1.7976931348623157e308",
        ] {
            super::check(lit).unwrap();
            let v: serde_json::Value = serde_json::from_str(lit).unwrap();
            let again: serde_json::Value = serde_json::from_str(&v.to_string()).unwrap();
            assert_eq!(v, again, "{lit}");
        }
    }
}
