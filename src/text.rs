//! Text that reaches a model: placeholder filling, sanitising of anything
//! taken from a payload, and the 10,000-character cap.
//!
//! Lengths are counted in UTF-16 code units, the way the harnesses (written in
//! JavaScript) count `string.length`; that is never less than the number of
//! Unicode characters, so the cap holds under either reading.

/// The most text any one answer carries to the model (Claude Code persists
/// anything longer to a file and shows a 2,000-character preview; Codex keeps
/// about 10,000; Copilot's postToolUse about 10,350).
pub const MAX_CHARS: usize = 10_000;

/// The longest value a placeholder takes from a payload.
pub const MAX_VALUE_CHARS: usize = 200;

/// Shown where a text was cut.
pub const CUT_MARKER: &str = "[… cut by cuecard: the text exceeded 10,000 characters …]";

/// The length of `s` as a JavaScript string (UTF-16 code units).
pub fn len16(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The longest prefix of `s` no longer than `max` UTF-16 units, cut at a
/// character boundary.
pub fn prefix16(s: &str, max: usize) -> &str {
    let mut used = 0;
    for (i, c) in s.char_indices() {
        used += c.len_utf16();
        if used > max {
            return &s[..i];
        }
    }
    s
}

/// `1 entry`, `2 entries`: a count with the right form of its noun.
pub fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The longest prefix of `s` no longer than `max` bytes, cut at a character
/// boundary.
pub fn prefix_bytes(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// `s` without `prefix`, compared without ASCII case; `None` when `s` does
/// not start with it. Safe on any text: a multi-byte character where the
/// prefix ends is a mismatch, never a slice inside a character.
pub fn strip_prefix_ignore_case<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    let head = s.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &s[prefix.len()..])
}

/// Whether `c` ends a line for some reader other than `str::lines`: the
/// Unicode line and paragraph separators (U+2028, U+2029), NEL (U+0085),
/// a carriage return (alone, or before a newline), vertical tab and form
/// feed. Quoted text must never open a line of its own, so every one of
/// them is neutralised before quoting ([`clean_block`], [`sanitize`]).
pub fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// Cleans a block of Markdown from a user or project card: control
/// characters other than newline and tab, and bidirectional overrides, are
/// removed, so a card cannot smuggle terminal escapes or reorder text;
/// every other line break ([`is_line_break`]) becomes a space, so the only
/// lines are those `\n` ends.
pub fn clean_block(s: &str) -> String {
    let mut chars = s.chars().peekable();
    std::iter::from_fn(|| {
        let c = chars.next()?;
        // A CRLF is one newline.
        Some(if c == '\r' && chars.peek() == Some(&'\n') {
            None
        } else {
            Some(c)
        })
    })
    .flatten()
        .filter_map(|c| {
            if c == '\n' || c == '\t' {
                Some(c)
            } else if is_line_break(c) {
                Some(' ')
            } else if c.is_control()
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}')
            {
                None
            } else {
                Some(c)
            }
        })
        .collect()
}

/// Makes a payload value safe to put into Markdown for a model: control
/// characters (newlines included) and bidirectional overrides become spaces,
/// backticks become quotes (values sit inside code spans), and the value is
/// cut to `max` characters with an ellipsis.
pub fn sanitize(value: &str, max: usize) -> String {
    let mut out = String::with_capacity(value.len().min(max * 4));
    let mut count = 0;
    let mut last_space = false;
    for c in value.chars() {
        let c = match c {
            '`' => '\'',
            c if c.is_control() || is_line_break(c) => ' ',
            '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}' => ' ',
            c => c,
        };
        if c == ' ' && last_space {
            continue;
        }
        last_space = c == ' ';
        if count == max {
            out.push('…');
            return out;
        }
        out.push(c);
        count += 1;
    }
    out
}

/// Fills `{name}` placeholders with sanitised values. A placeholder without
/// a value becomes `?` (card validation makes that unreachable for shipped
/// cards).
pub fn fill(template: &str, vars: &[(&str, String)]) -> String {
    fill_with(template, vars, &[])
}

/// [`fill`], with `trusted` values (text shipped inside the binary, never
/// taken from a payload or a project) inserted verbatim, newlines kept.
pub fn fill_with(template: &str, vars: &[(&str, String)], trusted: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len() + 64);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let name_len = after
            .bytes()
            .take_while(|b| b.is_ascii_lowercase() || *b == b'_')
            .count();
        if name_len > 0 && after.as_bytes().get(name_len) == Some(&b'}') {
            let name = &after[..name_len];
            if let Some((_, t)) = trusted.iter().find(|(k, _)| *k == name) {
                out.push_str(t);
            } else {
                match vars.iter().find(|(k, _)| *k == name) {
                    Some((_, v)) => out.push_str(&sanitize(v, MAX_VALUE_CHARS)),
                    None => out.push('?'),
                }
            }
            rest = &after[name_len + 1..];
        } else {
            out.push('{');
            rest = after;
        }
    }
    out.push_str(rest);
    out
}

/// One card's contribution to an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fragment {
    pub card: String,
    pub text: String,
    /// Where the full procedure is (shown as `Full procedure: …`).
    pub pointer: Option<String>,
}

impl Fragment {
    fn pointer_line(&self) -> String {
        match &self.pointer {
            Some(p) => format!("\n\nFull procedure: {p}"),
            None => String::new(),
        }
    }
}

const SEP: &str = "\n\n";

/// Joins fragments into one text of at most `max` UTF-16 units. A fragment
/// that does not fit is cut at a character boundary, marked, and keeps its
/// `Full procedure` pointer; fragments after it are left out.
pub fn join_capped(fragments: &[Fragment], max: usize) -> String {
    let mut out = String::new();
    for f in fragments {
        let sep = if out.is_empty() { "" } else { SEP };
        let pointer = f.pointer_line();
        let whole = len16(sep) + len16(&f.text) + len16(&pointer);
        let room = max.saturating_sub(len16(&out));
        if whole <= room {
            out.push_str(sep);
            out.push_str(&f.text);
            out.push_str(&pointer);
            continue;
        }
        let tail = format!("\n{CUT_MARKER}{pointer}");
        let fixed = len16(sep) + len16(&tail);
        if fixed < room {
            out.push_str(sep);
            out.push_str(prefix16(&f.text, room - fixed).trim_end());
            out.push_str(&tail);
        } else if out.is_empty() {
            // Not even the pointer fits: a hard cut is all that is left.
            out.push_str(prefix16(&format!("{}{tail}", f.text), max));
        }
        break;
    }
    debug_assert!(len16(&out) <= max);
    out
}

/// How long ago `then` was, in seconds since the epoch as `now` is: "12s
/// ago", "5m ago", "3h ago", "2d ago".
pub fn ago(now: u64, then: u64) -> String {
    let d = now.saturating_sub(then);
    match d {
        0..60 => format!("{d}s ago"),
        60..3600 => format!("{}m ago", d / 60),
        3600..86_400 => format!("{}h ago", d / 3600),
        _ => format!("{}d ago", d / 86_400),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frag(text: &str, pointer: Option<&str>) -> Fragment {
        Fragment {
            card: "c".into(),
            text: text.into(),
            pointer: pointer.map(String::from),
        }
    }

    #[test]
    fn sanitize_strips_controls_and_bounds_length() {
        assert_eq!(sanitize("a\nb\u{1b}[31mc`d", 100), "a b [31mc'd");
        assert_eq!(sanitize("abcdef", 3), "abc…");
        assert_eq!(sanitize("x\u{202e}y", 10), "x y");
    }

    #[test]
    fn no_line_break_survives_either_sanitiser() {
        for sep in ["\u{2028}", "\u{2029}", "\u{85}", "\r", "\u{0b}", "\u{0c}"] {
            let v = format!("a{sep}## Do this");
            assert_eq!(sanitize(&v, 100), "a ## Do this", "{sep:?}");
            assert_eq!(clean_block(&v), "a ## Do this", "{sep:?}");
        }
        assert_eq!(clean_block("a\r\nb\n"), "a\nb\n", "a CRLF is one newline");
    }

    #[test]
    fn fill_replaces_known_placeholders_only() {
        let vars = [("path", "Cargo.toml".to_string())];
        assert_eq!(
            fill("`{path}` in {eco}; {not a placeholder} {", &vars),
            "`Cargo.toml` in ?; {not a placeholder} {"
        );
    }

    #[test]
    fn trusted_values_keep_their_lines_and_others_do_not() {
        let vars = [("path", "a\nb".to_string())];
        assert_eq!(
            fill_with("{index}\n{path}", &vars, &[("index", "- x\n- y")]),
            "- x\n- y\na b"
        );
    }

    #[test]
    fn cap_keeps_pointer_and_marker_at_char_boundary() {
        let big = "é😀".repeat(6000); // 3 UTF-16 units per repeat
        let out = join_capped(&[frag(&big, Some("/data/cards/x.md"))], MAX_CHARS);
        assert!(len16(&out) <= MAX_CHARS);
        assert!(out.ends_with("Full procedure: /data/cards/x.md"));
        assert!(out.contains(CUT_MARKER));
    }

    #[test]
    fn small_fragments_join_untouched() {
        let out = join_capped(&[frag("a", Some("p")), frag("b", None)], MAX_CHARS);
        assert_eq!(out, "a\n\nFull procedure: p\n\nb");
    }

    #[test]
    fn later_fragments_are_dropped_once_the_cap_is_hit() {
        let out = join_capped(
            &[
                frag(&"x".repeat(9_990), None),
                frag(&"y".repeat(50), Some("p")),
            ],
            MAX_CHARS,
        );
        assert!(len16(&out) <= MAX_CHARS);
        assert!(!out.contains('y'));
    }
}
