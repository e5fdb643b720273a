//! A bounded excerpt of project text, as the recovery quotes it: each line
//! behind `> ` (so the model tells the note from cuecard's words), control
//! characters and bidirectional overrides removed, runs of blank lines
//! folded, at most [`MAX_EXCERPT_CHARS`]. A longer text is cut at a line and
//! ends with a marker that names where the whole file is.

use crate::text::{clean_block, len16, prefix16, sanitize};

/// The most one excerpt carries (UTF-16 units, as the harnesses count),
/// its cut marker included.
pub const MAX_EXCERPT_CHARS: usize = 1_500;

/// A quoted excerpt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt {
    pub text: String,
    /// Whether lines were left out (the marker is the last line).
    pub cut: bool,
}

/// The marker line of a cut excerpt of the file shown as `whole`.
pub fn marker(whole: &str) -> String {
    format!(
        "> […cut by cuecard at {} characters: the whole file is `{}`]",
        crate::text::thousands(MAX_EXCERPT_CHARS as u64),
        sanitize(whole, 200)
    )
}

/// Quotes `lines` (project text) within [`MAX_EXCERPT_CHARS`].
pub fn quote<'a>(lines: impl IntoIterator<Item = &'a str>, whole: &str) -> Excerpt {
    let mut quoted: Vec<String> = Vec::new();
    for line in lines {
        let clean = clean_block(line);
        let clean = clean.trim_end();
        if clean.is_empty() {
            if quoted.last().is_none_or(|l| l == ">") {
                continue; // no leading blank, no run of blanks
            }
            quoted.push(">".into());
        } else {
            quoted.push(format!("> {clean}"));
        }
    }
    while quoted.last().is_some_and(|l| l == ">") {
        quoted.pop();
    }
    let total: usize = quoted.iter().map(|l| len16(l) + 1).sum::<usize>();
    if total.saturating_sub(1) <= MAX_EXCERPT_CHARS {
        return Excerpt {
            text: quoted.join("\n"),
            cut: false,
        };
    }
    let marker = marker(whole);
    let room = MAX_EXCERPT_CHARS - len16(&marker) - 1;
    let mut out = String::new();
    for l in &quoted {
        let sep = usize::from(!out.is_empty());
        if len16(&out) + sep + len16(l) > room {
            if out.is_empty() {
                // One line longer than the whole room: cut inside it.
                out.push_str(prefix16(l, room).trim_end());
            }
            break;
        }
        if sep == 1 {
            out.push('\n');
        }
        out.push_str(l);
    }
    while out.ends_with("\n>") {
        out.truncate(out.len() - 2);
    }
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(&marker);
    Excerpt {
        text: out,
        cut: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_quoted_whole() {
        let e = quote(["", "a", "", "", "b\u{202e}c\u{7}", "", ""], "N.md");
        assert_eq!(e.text, "> a\n>\n> bc");
        assert!(!e.cut);
    }

    #[test]
    fn long_text_is_cut_at_a_line_with_a_marker_naming_the_file() {
        let lines: Vec<String> = (0..200).map(|i| format!("line {i} é🙂")).collect();
        let e = quote(lines.iter().map(String::as_str), "HANDOFF.md");
        assert!(e.cut);
        assert!(len16(&e.text) <= MAX_EXCERPT_CHARS, "{}", len16(&e.text));
        assert!(len16(&e.text) > MAX_EXCERPT_CHARS - 40, "the room is used");
        let last = e.text.lines().last().unwrap();
        assert_eq!(last, marker("HANDOFF.md"));
        assert!(last.contains("`HANDOFF.md`"));
        for l in e.text.lines().filter(|l| *l != last) {
            assert!(
                lines.iter().any(|x| l == format!("> {x}")),
                "whole lines: {l}"
            );
        }
        // One line longer than the bound is cut inside, on a char boundary.
        let one = "🙂".repeat(MAX_EXCERPT_CHARS);
        let e = quote([one.as_str()], "P.md");
        assert!(e.cut && len16(&e.text) <= MAX_EXCERPT_CHARS);
        assert!(e.text.starts_with("> 🙂"));
    }
}
