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

/// Checks `text` for anything a parse-and-rewrite would lose or refuse.
/// Structural errors are left to the parser, which reports them precisely.
pub fn check(text: &str) -> Result<(), Lossy> {
    let b = text.as_bytes();
    let mut line = 1usize;
    let at = |line: usize, what: &str| Lossy {
        line,
        what: what.to_string(),
    };
    if text.starts_with('\u{feff}') {
        return Err(at(1, "starts with a byte-order mark"));
    }
    let mut stack: Vec<Frame> = Vec::new();
    // The last significant token, to catch trailing commas and keys.
    let mut last: u8 = 0;
    let mut expecting_key = false;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b' ' | b'\t' | b'\r' => i += 1,
            b'/' if matches!(b.get(i + 1), Some(b'/') | Some(b'*')) => {
                return Err(at(line, "has a comment (JSONC/JSON5)"));
            }
            b'#' => return Err(at(line, "has a `#` comment")),
            b'"' => {
                let start = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    if i < b.len() && b[i] == b'\n' {
                        line += 1;
                    }
                    i += 1;
                }
                i += 1;
                let raw = &text[start..i.min(text.len())];
                if expecting_key {
                    if let Some(Frame::Object(keys)) = stack.last_mut() {
                        // Keys are compared decoded: "a" and "\u0061" are the same key.
                        let key =
                            serde_json::from_str::<String>(raw).unwrap_or_else(|_| raw.to_string());
                        if !keys.insert(key.clone()) {
                            return Err(at(
                                line,
                                &format!(
                                    "repeats the key {raw} (only the last value would survive)"
                                ),
                            ));
                        }
                    }
                    expecting_key = false;
                }
                last = b'"';
            }
            b'\'' => return Err(at(line, "has a single-quoted string (JSON5)")),
            b'{' => {
                stack.push(Frame::Object(Default::default()));
                expecting_key = true;
                last = c;
                i += 1;
            }
            b'[' => {
                stack.push(Frame::Array);
                expecting_key = false;
                last = c;
                i += 1;
            }
            b'}' | b']' => {
                if last == b',' {
                    return Err(at(line, "has a trailing comma (JSON5)"));
                }
                stack.pop();
                expecting_key = false;
                last = c;
                i += 1;
            }
            b',' => {
                expecting_key = matches!(stack.last(), Some(Frame::Object(_)));
                last = c;
                i += 1;
            }
            b':' => {
                expecting_key = false;
                last = c;
                i += 1;
            }
            b'-' | b'0'..=b'9' | b'+' | b'.' => {
                let start = i;
                while i < b.len()
                    && matches!(b[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9' | b'x' | b'X' | b'a'..=b'd' | b'f' | b'A'..=b'D' | b'F')
                {
                    i += 1;
                }
                number(&text[start..i]).map_err(|w| at(line, &w))?;
                last = b'0';
            }
            _ => {
                // Literals (true, false, null) and anything else: the parser judges.
                let start = i;
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                if i == start {
                    i += 1;
                }
                if expecting_key {
                    return Err(at(line, "has an unquoted key (JSON5)"));
                }
                last = b'a';
            }
        }
    }
    Ok(())
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
