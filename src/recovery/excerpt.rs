//! A bounded excerpt of project text, as the recovery quotes it: each line
//! behind `> ` (so the model tells the note from cuecard's words), control
//! characters and bidirectional overrides removed, runs of blank lines
//! folded, at most a given number of bytes. A longer text is cut at a line
//! and ends with a marker that names where the whole file is.
//!
//! The bounds are in UTF-8 bytes, not characters: a token is at least one
//! byte, so a byte bound is a token bound whatever the script (1,500
//! characters of English are 1,500 bytes; of Chinese, 500).

use crate::text::{clean_block, prefix_bytes, sanitize};

/// The most one excerpt carries (UTF-8 bytes), its cut marker included.
pub const MAX_EXCERPT_BYTES: usize = 1_500;

/// The most the note's and the plan's excerpts carry together: the plan
/// gets what the note leaves of it, at most [`MAX_EXCERPT_BYTES`]. Keeps
/// the whole SessionStart within its 2,000-token budget whatever the text.
pub const MAX_CARRIED_BYTES: usize = 2_200;

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
        "> […cut by cuecard: the whole file is `{}`]",
        sanitize(whole, 200)
    )
}

/// Quotes `lines` (project text) within `max` bytes.
pub fn quote<'a>(lines: impl IntoIterator<Item = &'a str>, whole: &str, max: usize) -> Excerpt {
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
    let whole_text = quoted.join("\n");
    if whole_text.len() <= max {
        return Excerpt {
            text: whole_text,
            cut: false,
        };
    }
    let marker = marker(whole);
    let room = max.saturating_sub(marker.len() + 1);
    let mut out = String::new();
    for l in &quoted {
        let sep = usize::from(!out.is_empty());
        if out.len() + sep + l.len() > room {
            if out.is_empty() {
                // One line longer than the whole room: cut inside it.
                out.push_str(prefix_bytes(l, room).trim_end());
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
        let e = quote(
            ["", "a", "", "", "b\u{202e}c\u{7}", "", ""],
            "N.md",
            MAX_EXCERPT_BYTES,
        );
        assert_eq!(e.text, "> a\n>\n> bc");
        assert!(!e.cut);
    }

    #[test]
    fn long_text_is_cut_at_a_line_with_a_marker_naming_the_file() {
        let lines: Vec<String> = (0..200).map(|i| format!("line {i} é🙂")).collect();
        let e = quote(
            lines.iter().map(String::as_str),
            "HANDOFF.md",
            MAX_EXCERPT_BYTES,
        );
        assert!(e.cut);
        assert!(e.text.len() <= MAX_EXCERPT_BYTES, "{}", e.text.len());
        assert!(e.text.len() > MAX_EXCERPT_BYTES - 40, "the room is used");
        let last = e.text.lines().last().unwrap();
        assert_eq!(last, marker("HANDOFF.md"));
        assert!(last.contains("`HANDOFF.md`"));
        for l in e.text.lines().filter(|l| *l != last) {
            assert!(
                lines.iter().any(|x| l == format!("> {x}")),
                "whole lines: {l}"
            );
        }
        // A smaller bound is kept too.
        let e = quote(lines.iter().map(String::as_str), "HANDOFF.md", 300);
        assert!(e.cut && e.text.len() <= 300);
        // One line longer than the bound is cut inside, on a char boundary.
        let one = "🙂".repeat(MAX_EXCERPT_BYTES);
        let e = quote([one.as_str()], "P.md", MAX_EXCERPT_BYTES);
        assert!(e.cut && e.text.len() <= MAX_EXCERPT_BYTES);
        assert!(e.text.starts_with("> 🙂"));
    }
}
