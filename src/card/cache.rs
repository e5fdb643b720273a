//! The parsed-card cache's text format: a header, then one line per card
//! file, fields separated by tabs (tab, newline, carriage return and
//! backslash escaped).
//!
//! Every dispatch in a project with cards of its own reads this text, so it
//! is read in place and only as far as a dispatch needs: a line starts with
//! the short fields that decide whether a card concerns a call (trust
//! verdict, events, reach, file name), then what tells whether it is current
//! (SHA-256, size, mtime), then the rest of its Bindings and its text
//! (title, Advisory, body, origin), decoded only for a card that is used.
//! The header names the directory, the trust store's stamp the verdicts
//! were given under, and the directory's mtime when it was listed. Anything
//! malformed is treated as no cache (the card is parsed from its file
//! again).
//!
//! ```text
//! cuecard-cards 6 <dir> <stamp> <dir-mtime-ns>
//! <0|1> err - - <file> <sha256> <size> <mtime-ns> <message>
//! <0|1> ok <events> <reach> <file> <sha256> <size> <mtime-ns> <matcher> <guard> <enabled> <order> <n> <key> <value>... <title> <advisory> <body> <origin-kind> <origin-path>
//! ```

use super::{Bindings, Card, Origin};
use std::borrow::Cow;
use std::ops::Range;
use std::path::PathBuf;

const MAGIC: &str = "cuecard-cards 6";

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

/// The lines of the text after a header (each without its newline), with
/// where each starts in it. A cache line is long and holds no raw newline
/// or carriage return (both are escaped), so the split is a vectorised
/// search for `\n` alone.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    let mut ends = memchr::memchr_iter(b'\n', text.as_bytes());
    std::iter::from_fn(move || {
        let end = match ends.next() {
            Some(end) => end,
            None if start < text.len() => text.len(),
            None => return None,
        };
        let line = (start, &text[start..end]);
        start = end + 1;
        Some(line)
    })
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
    out.push(if trusted { '1' } else { '0' });
    let b = card.as_ref().ok().map(|c| &c.bindings);
    field(out, if b.is_some() { "ok" } else { "err" });
    field(out, &b.map(|b| b.events.join(",")).unwrap_or_default());
    field(
        out,
        &b.map(|b| crate::trigger::reach(&b.triggers))
            .unwrap_or_default(),
    );
    field(out, file);
    field(out, sha256);
    field(out, &f.size.to_string());
    field(out, &f.mtime_ns.to_string());
    match card {
        Err(m) => field(out, m),
        Ok(c) => {
            let b = &c.bindings;
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

/// The next tab-separated field of `line` at or after byte `start`, and
/// where the one after it starts (`None` at the end of the line).
fn next_field(line: &str, start: usize) -> (Range<usize>, Option<usize>) {
    match memchr::memchr(b'\t', &line.as_bytes()[start..]) {
        Some(i) => (start..start + i, Some(start + i + 1)),
        None => (start..line.len(), None),
    }
}

/// A line as the hook path reads it: the short fields that decide whether
/// a card concerns a call, found once; the rest is found on demand, and
/// only for the cards that need it. Ranges are into the line.
#[derive(Debug, Clone)]
pub struct Line {
    ok: bool,
    /// Events (comma-separated), reach (see `trigger::reach`), file name.
    pub events: Range<usize>,
    pub reach: Range<usize>,
    pub file: Range<usize>,
    /// Where the SHA-256 starts (then size, mtime, and the rest).
    tail: usize,
}

/// The byte of a line's trust verdict (`0` or `1`).
pub const VERDICT_AT: usize = 0;

impl Line {
    /// The verdict on the file as it was cached.
    pub fn trusted(line: &str) -> bool {
        line.as_bytes()[VERDICT_AT] == b'1'
    }

    /// Whether the file parsed as a card.
    pub fn is_ok(&self) -> bool {
        self.ok
    }

    pub fn sha256<'l>(&self, line: &'l str) -> &'l str {
        &line[next_field(line, self.tail).0]
    }

    /// The size and mtime the line records for its file; `None` when they
    /// are malformed (which makes the line a miss).
    pub fn file_fields(&self, line: &str) -> Option<FileFields> {
        let (_, at) = next_field(line, self.tail);
        let (size, at) = next_field(line, at?);
        let (mtime, _) = next_field(line, at?);
        Some(FileFields {
            size: line[size].parse().ok()?,
            mtime_ns: line[mtime].parse().ok()?,
        })
    }

    /// What follows the mtime: the message of an `err` line; the rest of
    /// the Bindings and the card's text of an `ok` one.
    pub fn body<'l>(&self, line: &'l str) -> Option<&'l str> {
        let mut at = self.tail;
        for _ in 0..3 {
            at = next_field(line, at).1?; // sha256, size, mtime
        }
        Some(&line[at..])
    }
}

/// Reads the short leading fields of a line (without its newline).
pub fn parse_line(line: &str) -> Option<Line> {
    if !matches!(
        line.as_bytes().get(VERDICT_AT..VERDICT_AT + 2),
        Some(b"0\t" | b"1\t")
    ) {
        return None;
    }
    let (kind, at) = next_field(line, 2);
    let ok = match &line[kind] {
        "ok" => true,
        "err" => false,
        _ => return None,
    };
    let (events, at) = next_field(line, at?);
    let (reach, at) = next_field(line, at?);
    let (file, at) = next_field(line, at?);
    Some(Line {
        ok,
        events,
        reach,
        file,
        tail: at?,
    })
}

/// The trigger keys and values of an `ok` line's body.
pub fn triggers(body: &str) -> Option<Vec<(Cow<'_, str>, Cow<'_, str>)>> {
    let mut f = body.split('\t').skip(4); // matcher, guard, enabled, order
    let n: usize = f.next()?.parse().ok()?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        out.push((unescape(f.next()?), unescape(f.next()?)));
    }
    Some(out)
}

/// The `order` of an `ok` line's body.
pub fn order(body: &str) -> Option<u8> {
    body.split('\t').nth(3)?.parse().ok()
}

/// Decodes an `ok` line (its events and body) into a card named `name`.
pub fn card(name: &str, events: &str, body: &str) -> Option<Card> {
    let mut f = body.split('\t');
    let events = unescape(events)
        .split(',')
        .filter(|e| !e.is_empty())
        .map(String::from)
        .collect();
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
        assert!(!Line::trusted(lines[0]) && !bad.is_ok());
        assert_eq!(unescape(bad.body(lines[0]).unwrap()), "no\tgood\nat all");

        let t = parse_line(lines[1]).unwrap();
        assert!(Line::trusted(lines[1]) && t.is_ok());
        assert_eq!(t.sha256(lines[1]), "ab");
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
        let body = t.body(lines[1]).unwrap();
        let trig = triggers(body).unwrap();
        assert_eq!(trig[1].1, "^x\\s+y", "a backslash survives");
        assert_eq!(order(body), Some(50));
        let back = super::card("t", &lines[1][t.events.clone()], body).unwrap();
        assert_eq!(
            serde_json::to_value(&back).unwrap(),
            serde_json::to_value(&card).unwrap()
        );

        let mut slim = String::new();
        line(&mut slim, "t.md", "ab", f, true, &Ok(card.clone()), true);
        let l = slim.trim_end();
        let s = parse_line(l).unwrap();
        let slimmed = super::card("t", &l[s.events.clone()], s.body(l).unwrap()).unwrap();
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
        let old = text.replacen(MAGIC, "cuecard-cards 5", 1);
        assert!(
            split_header(&old, "/p/.cuecard/cards").is_none(),
            "another version"
        );
        assert!(
            parse_line("1\tok\tE").is_none(),
            "a line with missing fields"
        );
        assert!(parse_line("1\tok\tE\t;\tx.md\tab\t1\t2\t*\t-\t1\t50\t0").is_some());
        assert!(parse_line("1\terr\t\t\tx.md\tab\t1\t2\tbroken").is_some());
        assert!(
            parse_line("1\tok\tE\t;\tx.md").is_none(),
            "no SHA-256 and after"
        );
        assert!(
            parse_line("7\tok\tE\t;\tx.md\tab").is_none(),
            "a verdict is 0 or 1"
        );
        assert!(
            parse_line("1\tmaybe\tE\t;\tx.md\tab").is_none(),
            "ok or err"
        );
        assert!(
            super::card("t", "PreToolUse", "*\t-").is_none(),
            "a truncated card"
        );
    }
}
