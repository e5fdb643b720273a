//! Parsing a card's Markdown with pulldown-cmark.
//!
//! The parser finds the structure (the license comment, the H1 title, the H2
//! sections and the Bindings list) and slices the original text by offset, so
//! the Markdown that reaches a model is what the author wrote, with one
//! change to the Advisory: a paragraph's lines are joined (`join_lines`).

use super::{Bindings, Card, CardError, Origin};
use pulldown_cmark::{Event, HeadingLevel, Parser, Tag, TagEnd};
use std::ops::Range;

struct Section {
    title: String,
    /// The heading line itself.
    heading: Range<usize>,
    /// The text below the heading up to the next H1/H2.
    body: Range<usize>,
}

/// Parses one card. `name` is the file name without `.md`.
pub fn parse_card(name: &str, src: &str, origin: Origin) -> Result<Card, CardError> {
    let err = |message: String| CardError {
        card: name.to_string(),
        message,
    };
    if !is_valid_name(name) {
        return Err(err(format!(
            "card name {name:?} must be lower-case letters, digits and dashes"
        )));
    }
    let Outline {
        title,
        title_end,
        sections,
    } = outline(src).map_err(err)?;
    let title = title.ok_or_else(|| err("no `# Title` heading".into()))?;
    if title.is_empty() {
        return Err(err("empty title".into()));
    }
    let section = |t: &str| sections.iter().find(|s| s.title.eq_ignore_ascii_case(t));
    for (i, s) in sections.iter().enumerate() {
        if sections[..i]
            .iter()
            .any(|p| p.title.eq_ignore_ascii_case(&s.title))
        {
            return Err(err(format!("section `## {}` appears twice", s.title)));
        }
    }

    let bindings_section =
        section("Bindings").ok_or_else(|| err("no `## Bindings` section".into()))?;
    let bindings = Bindings::from_pairs(parse_list_pairs(&src[bindings_section.body.clone()]))
        .map_err(|m| err(format!("Bindings: {m}")))?;

    let advisory = section("Advisory").map(|s| {
        join_lines(&strip_comments(&src[s.body.clone()]))
            .trim()
            .to_string()
    });
    if let Some(a) = &advisory
        && a.is_empty()
    {
        return Err(err("`## Advisory` is empty".into()));
    }

    let body = stripped_body(src, &title, title_end, &sections);
    let card = Card {
        name: name.to_string(),
        title,
        advisory,
        body,
        bindings,
        origin,
    };
    card.validate().map_err(err)?;
    Ok(card)
}

/// The raw parts of a card a validator reads before the card parses: the
/// Bindings' `key: value` items (`None`: no Bindings section) and the
/// Advisory's text, so that `cards check` names every problem in one run.
pub fn raw_parts(src: &str) -> (Option<Vec<(String, String)>>, Option<String>) {
    let Ok(o) = outline(src) else {
        return (None, None);
    };
    let section = |t: &str| o.sections.iter().find(|s| s.title.eq_ignore_ascii_case(t));
    (
        section("Bindings").map(|s| parse_list_pairs(&src[s.body.clone()])),
        section("Advisory").map(|s| strip_comments(&src[s.body.clone()])),
    )
}

/// A card's headings: the H1 title (and where its line ends) and the H2
/// sections, in order.
struct Outline {
    title: Option<String>,
    title_end: usize,
    sections: Vec<Section>,
}

/// The headings of `src`; more than one H1, or an H1 after a section, is
/// refused.
fn outline(src: &str) -> Result<Outline, String> {
    let mut o = Outline {
        title: None,
        title_end: 0,
        sections: Vec::new(),
    };
    let mut in_heading: Option<(HeadingLevel, usize)> = None;
    let mut heading_text = String::new();
    for (event, range) in Parser::new(src).into_offset_iter() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                in_heading = Some((level, range.start));
                heading_text.clear();
            }
            Event::End(TagEnd::Heading(level)) => {
                let start = in_heading.take().map(|(_, s)| s).unwrap_or(range.start);
                let end = range.end;
                let text = heading_text.trim().to_string();
                match level {
                    HeadingLevel::H1 => {
                        if o.title.is_some() || !o.sections.is_empty() {
                            return Err("more than one `# Title` heading".into());
                        }
                        o.title = Some(text);
                        o.title_end = end;
                    }
                    HeadingLevel::H2 => {
                        if let Some(prev) = o.sections.last_mut() {
                            prev.body.end = start;
                        }
                        o.sections.push(Section {
                            title: text,
                            heading: start..end,
                            body: end..src.len(),
                        });
                    }
                    _ => {}
                }
            }
            Event::Text(t) | Event::Code(t) if in_heading.is_some() => heading_text.push_str(&t),
            _ => {}
        }
    }
    Ok(o)
}

/// The stripped body: the title and every section but Bindings, with HTML
/// comments (the license line among them) removed.
fn stripped_body(src: &str, title: &str, title_end: usize, sections: &[Section]) -> String {
    let mut body = format!("# {title}\n");
    let preamble =
        strip_comments(&src[title_end..sections.first().map_or(src.len(), |s| s.heading.start)]);
    if !preamble.trim().is_empty() {
        body.push('\n');
        body.push_str(preamble.trim());
        body.push('\n');
    }
    for s in sections
        .iter()
        .filter(|s| !s.title.eq_ignore_ascii_case("Bindings"))
    {
        let text = strip_comments(&src[s.body.clone()]);
        body.push('\n');
        body.push_str(src[s.heading.clone()].trim_end());
        body.push_str("\n\n");
        body.push_str(text.trim());
        body.push('\n');
    }
    body.trim_end().to_string()
}

/// Card names are file-name safe and shell safe: `[a-z0-9-]`, 1..=64.
pub fn is_valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
}

/// The Advisory as a model reads it best: each paragraph on one line. A
/// line break inside a paragraph (a soft break, which Markdown renders as
/// a space; the source wraps at about 72 columns) becomes one space; blank
/// lines between paragraphs, list items, code blocks, hard breaks and
/// block quotes stay as written.
fn join_lines(md: &str) -> String {
    let mut breaks: Vec<usize> = Vec::new();
    let mut quoted = 0usize;
    for (event, range) in Parser::new(md).into_offset_iter() {
        match event {
            Event::Start(Tag::BlockQuote(_)) => quoted += 1,
            Event::End(TagEnd::BlockQuote(_)) => quoted = quoted.saturating_sub(1),
            Event::SoftBreak if quoted == 0 => {
                if let Some(nl) = md[range.start..].find('\n') {
                    let nl = range.start + nl;
                    if !lone_placeholder(line_at(md, nl + 1))
                        && !lone_placeholder(line_before(md, nl))
                    {
                        breaks.push(nl);
                    }
                }
            }
            _ => {}
        }
    }
    let mut out = String::with_capacity(md.len());
    let mut from = 0;
    for nl in breaks {
        if nl < from {
            continue;
        }
        out.push_str(md[from..nl].trim_end_matches([' ', '\t', '\r']));
        out.push(' ');
        from = nl + 1;
        from += md[from..].len() - md[from..].trim_start_matches([' ', '\t']).len();
    }
    out.push_str(&md[from..]);
    out
}

/// The line that starts at `at`.
fn line_at(md: &str, at: usize) -> &str {
    md[at..].split('\n').next().unwrap_or("")
}

/// The line that ends at the newline at `nl`.
fn line_before(md: &str, nl: usize) -> &str {
    md[..nl].rsplit('\n').next().unwrap_or("")
}

/// A line that is one placeholder alone (`{index}`): its value may be a
/// block of lines, so the line stays a line of its own.
fn lone_placeholder(line: &str) -> bool {
    let t = line.trim();
    t.len() > 2 && t.starts_with('{') && t.ends_with('}') && !t[1..t.len() - 1].contains(['{', '}'])
}

/// Removes every `<!-- ... -->` comment (an unterminated one runs to the end).
fn strip_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("<!--") {
        out.push_str(&rest[..i]);
        match rest[i + 4..].find("-->") {
            Some(j) => rest = &rest[i + 4 + j + 3..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    // Collapse the blank lines left where a comment stood on its own line.
    let mut collapsed = String::with_capacity(out.len());
    let mut blank_run = 0;
    for line in out.lines() {
        if line.trim().is_empty() {
            blank_run += 1;
            if blank_run > 1 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        collapsed.push_str(line);
        collapsed.push('\n');
    }
    collapsed
}

/// Reads a Markdown list of `key: value` items. pulldown-cmark finds the
/// items; each item's raw source text is used, so that backslashes in
/// regular expressions (`content: console\.log\(`) are not taken as
/// Markdown escapes. A value wrapped in backticks is unwrapped.
fn parse_list_pairs(src: &str) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    let mut depth = 0usize;
    for (event, range) in Parser::new(src).into_offset_iter() {
        match event {
            Event::Start(Tag::Item) => {
                depth += 1;
                if depth == 1 {
                    let raw = src[range].trim();
                    let raw = raw.strip_prefix(['-', '*', '+']).unwrap_or(raw);
                    let raw = strip_comments(raw);
                    let item: String = raw
                        .lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ");
                    let (k, v) = match item.split_once(':') {
                        Some((k, v)) => (k.trim().to_string(), v.trim().to_string()),
                        None => (item.trim().to_string(), String::new()),
                    };
                    let v = match v.strip_prefix('`').and_then(|x| x.strip_suffix('`')) {
                        Some(inner) => inner.to_string(),
                        None => v,
                    };
                    pairs.push((k, v));
                }
            }
            Event::End(TagEnd::Item) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    pairs
}

/// The `{placeholder}` names used in a text, in order of first use.
pub fn placeholders(text: &str) -> Vec<&str> {
    let mut out: Vec<&str> = Vec::new();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'{' {
            let start = i + 1;
            let mut j = start;
            while j < bytes.len() && (bytes[j].is_ascii_lowercase() || bytes[j] == b'_') {
                j += 1;
            }
            if j > start && j < bytes.len() && bytes[j] == b'}' {
                let name = &text[start..j];
                if !out.contains(&name) {
                    out.push(name);
                }
                i = j + 1;
                continue;
            }
        }
        i += 1;
    }
    out
}
