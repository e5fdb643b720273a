//! The parsed-card cache's text format: a header, then one line per card
//! file, fields separated by tabs (tab, newline, carriage return and
//! backslash escaped).
//!
//! Every dispatch in a project with cards of its own reads this text, so it
//! is read in place and only as far as a dispatch needs: a line starts with
//! what says whether it is current and trusted (file, SHA-256, size, mtime,
//! trust verdict), then the Bindings (events first), then the card's text
//! (title, Advisory, body, origin), which is decoded only for a card that is
//! used. The header names the directory, the trust store's stamp the
//! verdicts were given under, and the directory's mtime when it was listed. Anything malformed is treated as no cache
//! (the card is parsed from its file again).
//!
//! ```text
//! cuecard-cards 5 <dir> <stamp> <dir-mtime-ns>
//! <file> <sha256> <size> <mtime-ns> <0|1> err <message>
//! <file> <sha256> <size> <mtime-ns> <0|1> ok <events> <reach> <matcher> <guard> <enabled> <order> <n> <key> <value>... <title> <advisory> <body> <origin-kind> <origin-path>
//! ```

use super::{Bindings, Card, Origin};
use std::borrow::Cow;
use std::ops::Range;
use std::path::PathBuf;

const MAGIC: &str = "cuecard-cards 5";

fn escape(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            c => out.push(c),
        }
    }
}

/// A field's text; borrowed unless it holds an escape.
pub fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('\\') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    Cow::Owned(out)
}

fn field(out: &mut String, s: &str) {
    out.push('\t');
    escape(s, out);
}

fn opt_field(out: &mut String, v: Option<&str>) {
    out.push('\t');
    match v {
        Some(s) => {
            out.push('+');
            escape(s, out);
        }
        None => out.push('-'),
    }
}

fn unopt(s: &str) -> Option<Option<String>> {
    match s.as_bytes().first() {
        Some(b'+') => Some(Some(unescape(&s[1..]).into_owned())),
        Some(b'-') if s.len() == 1 => Some(None),
        _ => None,
    }
}

/// What the header says: the trust store's stamp the verdicts were given
/// under, and the directory's mtime when it was listed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header<'t> {
    pub stamp: Cow<'t, str>,
    pub dir_mtime_ns: u64,
}

/// The header line (with its newline).
pub fn header(out: &mut String, dir: &str, h: &Header) {
    out.push_str(MAGIC);
    field(out, dir);
    field(out, &h.stamp);
    field(out, &h.dir_mtime_ns.to_string());
    out.push('\n');
}

/// The header of a cache of `dir` and the text after it; `None` when `text`
/// is not a cache of `dir` in this format.
pub fn split_header<'t>(text: &'t str, dir: &str) -> Option<(Header<'t>, &'t str)> {
    let (head, rest) = text.split_once('\n')?;
    let mut f = head.split('\t');
    if f.next()? != MAGIC || unescape(f.next()?) != dir {
        return None;
    }
    let stamp = unescape(f.next()?);
    let dir_mtime_ns = f.next()?.parse().ok()?;
    f.next().is_none().then_some((
        Header {
            stamp,
            dir_mtime_ns,
        },
        rest,
    ))
}

/// What a line says about its file, before any of its card is decoded.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileFields {
    pub size: u64,
    pub mtime_ns: u64,
}

/// One card file's line (with its newline). With `slim`, the body of a
/// card that has an Advisory is left out: the hook path emits only the
/// Advisory, and a card's procedure is read from its file.
#[allow(clippy::too_many_arguments)]
pub fn line(
    out: &mut String,
    file: &str,
    sha256: &str,
    f: FileFields,
    trusted: bool,
    card: &Result<Card, String>,
    slim: bool,
) {
    escape(file, out);
    field(out, sha256);
    field(out, &f.size.to_string());
    field(out, &f.mtime_ns.to_string());
    field(out, if trusted { "1" } else { "0" });
    match card {
        Err(m) => {
            field(out, "err");
            field(out, m);
        }
        Ok(c) => {
            let b = &c.bindings;
            field(out, "ok");
            field(out, &b.events.join(","));
            field(out, &crate::trigger::reach(&b.triggers));
            field(out, &b.matcher);
            opt_field(out, b.guard.as_deref());
            field(out, if b.enabled { "1" } else { "0" });
            field(out, &b.order.to_string());
            field(out, &b.triggers.len().to_string());
            for (k, v) in &b.triggers {
                field(out, k);
                field(out, v);
            }
            field(out, &c.title);
            opt_field(out, c.advisory.as_deref());
            let body = if slim && c.advisory.is_some() {
                ""
            } else {
                &c.body
            };
            field(out, body);
            let (kind, path) = match &c.origin {
                Origin::Embedded => ("e", String::new()),
                Origin::User(p) => ("u", p.to_string_lossy().into_owned()),
                Origin::Project(p) => ("p", p.to_string_lossy().into_owned()),
            };
            field(out, kind);
            field(out, &path);
        }
    }
    out.push('\n');
}

/// A line's fields as byte ranges into it (nothing decoded or copied).
#[derive(Debug, Clone)]
pub struct Line {
    pub file: Range<usize>,
    pub sha256: Range<usize>,
    /// Size and mtime, decoded by [`Line::file_fields`] only for the lines
    /// that are checked against their file.
    size: Range<usize>,
    mtime_ns: Range<usize>,
    /// The byte of the trust verdict (`0` or `1`).
    pub verdict_at: usize,
    /// `Ok(bindings and text)` or `Err(message)`.
    pub rest: Result<Range<usize>, Range<usize>>,
    /// Of an `ok` line: its events (comma-separated), its reach (see
    /// `trigger::reach`) and where its trigger count starts, found while the
    /// line is read (the hook path asks for them on every card).
    pub events: Range<usize>,
    pub reach: Range<usize>,
    pub triggers_at: usize,
}

impl Line {
    /// The size and mtime the line records for its file; `None` when they
    /// are malformed (which makes the line a miss).
    pub fn file_fields(&self, line: &str) -> Option<FileFields> {
        Some(FileFields {
            size: line[self.size.clone()].parse().ok()?,
            mtime_ns: line[self.mtime_ns.clone()].parse().ok()?,
        })
    }
}

/// Reads the leading fields of a line (without its newline).
pub fn parse_line(line: &str) -> Option<Line> {
    let b = line.as_bytes();
    let mut at = Some(0);
    let mut next = || {
        let start = at?;
        let tab = memchr::memchr(b'\t', &b[start..]);
        at = tab.map(|i| start + i + 1);
        Some(start..tab.map_or(b.len(), |i| start + i))
    };
    let file = next()?;
    let sha256 = next()?;
    let size = next()?;
    let mtime_ns = next()?;
    let verdict = next()?;
    if !matches!(&line[verdict.clone()], "0" | "1") {
        return None;
    }
    let kind = next()?;
    let first = next()?; // the message, or the events
    let rest = first.start..line.len();
    let (rest, events, reach, triggers_at) = match &line[kind] {
        "ok" => {
            let reach = next()?;
            let mut last = reach.clone();
            for _ in 0..4 {
                last = next()?; // matcher, guard, enabled, order
            }
            if last.end >= line.len() {
                return None;
            }
            (Ok(rest), first, reach, last.end + 1)
        }
        "err" => (Err(rest), 0..0, 0..0, 0),
        _ => return None,
    };
    Some(Line {
        file,
        sha256,
        size,
        mtime_ns,
        verdict_at: verdict.start,
        rest,
        events,
        reach,
        triggers_at,
    })
}

/// The trigger keys and values of an `ok` line, from its trigger count on.
pub fn triggers(from: &str) -> Option<Vec<(Cow<'_, str>, Cow<'_, str>)>> {
    let mut f = from.split('\t');
    let n: usize = f.next()?.parse().ok()?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push((unescape(f.next()?), unescape(f.next()?)));
    }
    Some(out)
}

/// Decodes an `ok` line's rest into a card named `name`.
pub fn card(name: &str, rest: &str) -> Option<Card> {
    let mut f = rest.split('\t');
    let events = unescape(f.next()?)
        .split(',')
        .filter(|e| !e.is_empty())
        .map(String::from)
        .collect();
    f.next()?; // the reach, derived from the triggers
    let matcher = unescape(f.next()?).into_owned();
    let guard = unopt(f.next()?)?;
    let enabled = f.next()? == "1";
    let order: u8 = f.next()?.parse().ok()?;
    let n: usize = f.next()?.parse().ok()?;
    let mut triggers = Vec::with_capacity(n);
    for _ in 0..n {
        triggers.push((
            unescape(f.next()?).into_owned(),
            unescape(f.next()?).into_owned(),
        ));
    }
    let title = unescape(f.next()?).into_owned();
    let advisory = unopt(f.next()?)?;
    let body = unescape(f.next()?).into_owned();
    let origin = match f.next()? {
        "u" => Origin::User(PathBuf::from(unescape(f.next()?).as_ref())),
        "p" => Origin::Project(PathBuf::from(unescape(f.next()?).as_ref())),
        "e" => Origin::Embedded,
        _ => return None,
    };
    Some(Card {
        name: name.to_string(),
        title,
        advisory,
        body,
        bindings: Bindings {
            events,
            matcher,
            guard,
            enabled,
            order,
            triggers,
        },
        origin,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_card;

    #[test]
    fn round_trips_cards_and_errors() {
        let src = "# T\twith tab\n\n## Advisory\n`{path}` seen;\nline two \\ back\\slash\n\n## Procedure\nSteps.\n\n## Bindings\n- event: PreToolUse\n- paths: a/**\n- command: ^x\\s+y\n- once: session\n";
        let card = parse_card(
            "t",
            src,
            Origin::Project(PathBuf::from("/p/.cuecard/cards/t\tx.md")),
        )
        .unwrap();
        let mut text = String::new();
        let h = Header {
            stamp: "stamp\t1".into(),
            dir_mtime_ns: 7,
        };
        header(&mut text, "/p/.cuecard/cards", &h);
        let f = FileFields {
            size: 10,
            mtime_ns: 20,
        };
        line(
            &mut text,
            "bad\t.md",
            "cd",
            f,
            false,
            &Err("no\tgood\nat all".into()),
            true,
        );
        line(&mut text, "t.md", "ab", f, true, &Ok(card.clone()), false);

        let (back, body) = split_header(&text, "/p/.cuecard/cards").unwrap();
        assert_eq!(back, h);
        let lines: Vec<&str> = body.lines().collect();
        assert_eq!(
            lines.len(),
            2,
            "escaped tabs and newlines stay in their line"
        );

        let bad = parse_line(lines[0]).unwrap();
        assert_eq!(unescape(&lines[0][bad.file.clone()]), "bad\t.md");
        assert_eq!(&lines[0][bad.verdict_at..=bad.verdict_at], "0");
        assert_eq!(
            unescape(&lines[0][bad.rest.unwrap_err()]),
            "no\tgood\nat all"
        );

        let t = parse_line(lines[1]).unwrap();
        assert_eq!(&lines[1][t.sha256.clone()], "ab");
        let ff = t.file_fields(lines[1]).unwrap();
        assert_eq!((ff.size, ff.mtime_ns), (10, 20));
        let bad_size = lines[1].replacen("\t10\t", "\tten\t", 1);
        let b = parse_line(&bad_size).unwrap();
        assert!(
            b.file_fields(&bad_size).is_none(),
            "a malformed size is a miss"
        );
        assert_eq!(&lines[1][t.events.clone()], "PreToolUse");
        assert_eq!(
            &lines[1][t.reach.clone()],
            "Bash,PowerShell,Write,Edit,MultiEdit,NotebookEdit,apply_patch;a/",
            "the paths' literal start and the tools they imply"
        );
        let trig = triggers(&lines[1][t.triggers_at..]).unwrap();
        let rest = &lines[1][t.rest.unwrap()];
        assert_eq!(trig[1].1, "^x\\s+y", "a backslash survives");
        let back = super::card("t", rest).unwrap();
        assert_eq!(
            serde_json::to_value(&back).unwrap(),
            serde_json::to_value(&card).unwrap()
        );

        let mut slim = String::new();
        line(&mut slim, "t.md", "ab", f, true, &Ok(card.clone()), true);
        let s = parse_line(slim.trim_end()).unwrap();
        let slimmed = super::card("t", &slim.trim_end()[s.rest.unwrap()]).unwrap();
        assert_eq!(
            slimmed.body, "",
            "slim drops the body of a card with an Advisory"
        );
        assert_eq!(slimmed.advisory, card.advisory);

        assert!(
            split_header(&text, "/elsewhere").is_none(),
            "a cache of another directory"
        );
        assert!(split_header("garbage\n", "/p/.cuecard/cards").is_none());
        let old = text.replacen(MAGIC, "cuecard-cards 4", 1);
        assert!(
            split_header(&old, "/p/.cuecard/cards").is_none(),
            "another version"
        );
        assert!(
            parse_line("x.md\tx").is_none(),
            "a line with missing fields"
        );
        assert!(parse_line("x.md\tab\t1\t2\t1\tok\tE\t;\t*\t-\t1\t50\t0").is_some());
        assert!(
            parse_line("x.md\tab\t1\t2\t1\tok\t").is_none(),
            "no Bindings"
        );
        assert!(parse_line("x.md\tab\t1\t2\t1\terr\t").is_some());
        assert!(parse_line("x.md\tab\t1\t2\t1\tok").is_none(), "no rest");
        assert!(
            parse_line("x.md\tab\t1\t2\t7\tok\t").is_none(),
            "a verdict is 0 or 1"
        );
        assert!(
            super::card("t", "PreToolUse\t*").is_none(),
            "a truncated card"
        );
    }
}
