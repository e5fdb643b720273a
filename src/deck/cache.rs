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
//! were given under, the directory's mtime when it was listed and when the
//! listing began. A summary line follows (see [`Summary`]): what the cards
//! say taken together, so that a tool call none of them concerns is
//! answered from the first few hundred bytes, whatever the number of
//! cards. Anything malformed is treated as no cache (the card is parsed
//! from its file again).
//!
//! ```text
//! cuecard-cards 7 <dir> <stamp> <dir-mtime-ns> <written-ns>
//! = <loose> ,<name>,...,<name>, <n> (<event> <bound> <k> <reach>{k}){n}
//! <0|1> err - - <file> <sha256> <size> <mtime-ns> <message>
//! <0|1> ok <events> <reach> <file> <sha256> <size> <mtime-ns> <matcher> <guard> <enabled> <order> <n> <key> <value>... <title> <advisory> <body> <origin-kind> <origin-path>
//! ```

use crate::card::{Bindings, Card, Origin};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::PathBuf;

const MAGIC: &str = "cuecard-cards 7";

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
/// under, the directory's mtime when it was listed, and when the listing
/// began (before any file was read, so that a file changed since has a
/// later mtime: see `sources::settled`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Header<'t> {
    pub stamp: Cow<'t, str>,
    pub dir_mtime_ns: u64,
    pub written_ns: u64,
}

/// The header line (with its newline).
pub fn header(out: &mut String, dir: &str, h: &Header) {
    out.push_str(MAGIC);
    field(out, dir);
    field(out, &h.stamp);
    field(out, &h.dir_mtime_ns.to_string());
    field(out, &h.written_ns.to_string());
    out.push('\n');
}

/// The header of a cache of `dir`, its summary line (without the newline)
/// and the lines after them; `None` when `text` is not a cache of `dir` in
/// this format.
pub fn split_header<'t>(text: &'t str, dir: &str) -> Option<(Header<'t>, &'t str, &'t str)> {
    let (head, rest) = text.split_once('\n')?;
    let (summary, rest) = rest.split_once('\n')?;
    let mut f = head.split('\t');
    if f.next()? != MAGIC || unescape(f.next()?) != dir || !summary.starts_with("=\t") {
        return None;
    }
    let stamp = unescape(f.next()?);
    let dir_mtime_ns = f.next()?.parse().ok()?;
    let written_ns = f.next()?.parse().ok()?;
    f.next().is_none().then_some((
        Header {
            stamp,
            dir_mtime_ns,
            written_ns,
        },
        summary,
        rest,
    ))
}

/// What a directory's cards say taken together: the summary line.
///
/// `loose` counts the lines it does not speak for (untrusted cards and
/// files in error); with any, every call looks at the lines. `names` are
/// the other cards' names. Per event, `bound` counts the cards bound to it,
/// and each `reach` is the union of the reaches (see `trigger::reach`) of
/// those among them with one tool list: the union of their path prefixes,
/// or none (any path) when one of them has none. A call none of an event's
/// reaches admits is one no card of the event could fire on, so [`quiet`]
/// can tell so without reading a card's line.
#[derive(Debug, Default)]
pub struct Summary {
    loose: usize,
    names: Vec<String>,
    /// Per event: the cards bound to it and their reaches.
    events: BTreeMap<String, (usize, Reaches)>,
}

/// Per tool list: the union of path prefixes, `None` for any path.
type Reaches = BTreeMap<String, Option<BTreeSet<String>>>;

impl Summary {
    /// Adds a line (without its newline).
    pub fn add(&mut self, line: &str, l: &Line) {
        if !Line::trusted(line) || !l.is_ok() {
            self.loose += 1;
            return;
        }
        let file = unescape(&line[l.file.clone()]);
        self.names
            .push(file.strip_suffix(".md").unwrap_or(&file).to_string());
        let reach = &line[l.reach.clone()];
        let (tools, prefixes) = reach.rsplit_once(';').unwrap_or(("", ""));
        for event in line[l.events.clone()].split(',').filter(|e| !e.is_empty()) {
            let (bound, groups) = self.events.entry(event.to_string()).or_default();
            *bound += 1;
            let group = groups
                .entry(tools.to_string())
                .or_insert_with(|| Some(BTreeSet::new()));
            match group {
                Some(set) if !prefixes.is_empty() => {
                    set.extend(prefixes.split(',').map(String::from));
                }
                _ => *group = None,
            }
        }
    }

    /// The summary line (with its newline).
    pub fn write(&self, out: &mut String) {
        out.push('=');
        field(out, &self.loose.to_string());
        field(out, &format!(",{},", self.names.join(",")));
        field(out, &self.events.len().to_string());
        for (event, (bound, groups)) in &self.events {
            field(out, event);
            field(out, &bound.to_string());
            field(out, &groups.len().to_string());
            for (tools, prefixes) in groups {
                let prefixes = prefixes
                    .iter()
                    .flatten()
                    .map(String::as_str)
                    .collect::<Vec<_>>()
                    .join(",");
                field(out, &format!("{tools};{prefixes}"));
            }
        }
        out.push('\n');
    }
}

/// What a summary line says about a call of `event` that lists `names`:
/// `Some(bound)` when no card of its directory concerns the call (none is
/// listed, and none of the event's reaches `admits` the call), with the
/// number of the event's cards so passed over; `None` when the lines must
/// be looked at, or the summary is malformed.
pub fn quiet<S: AsRef<str>>(
    summary: &str,
    names: impl IntoIterator<Item = S>,
    event: &str,
    admits: &dyn Fn(&str) -> bool,
) -> Option<usize> {
    let (loose, all, mut f) = summary_head(summary)?;
    if loose != 0 {
        return None;
    }
    // A name with a comma names no card (card names are letters, digits
    // and dashes).
    let listed = |n: &str| {
        let b = all.as_bytes();
        !n.contains(',')
            && all
                .match_indices(n)
                .any(|(i, _)| i > 0 && b[i - 1] == b',' && b.get(i + n.len()) == Some(&b','))
    };
    if names.into_iter().any(|n| listed(n.as_ref())) {
        return None;
    }
    let n: usize = f.next()?.parse().ok()?;
    let mut passed = 0;
    for _ in 0..n {
        let e = f.next()?;
        let bound: usize = f.next()?.parse().ok()?;
        let k: usize = f.next()?.parse().ok()?;
        for _ in 0..k {
            let reach = f.next()?;
            if e == event && admits(reach) {
                return None;
            }
        }
        if e == event {
            passed = bound;
        }
    }
    f.next().is_none().then_some(passed)
}

/// How many lines a summary line speaks of (its loose lines and its
/// names), so that a cache cut short after it is told from a whole one;
/// `None` when it is malformed.
pub fn summary_lines(summary: &str) -> Option<usize> {
    let (loose, names, _) = summary_head(summary)?;
    loose.checked_add(names.split(',').filter(|n| !n.is_empty()).count())
}

/// A summary line's loose count and names, and its fields after them.
fn summary_head(summary: &str) -> Option<(usize, &str, std::str::Split<'_, char>)> {
    let mut f = summary.split('\t');
    if f.next()? != "=" {
        return None;
    }
    let loose = f.next()?.parse().ok()?;
    let names = f.next()?;
    Some((loose, names, f))
}

/// The lines of the text after a header (each without its newline), with
/// where each starts in it. A cache line holds no raw newline or carriage
/// return (both are escaped), so the split is a search for `\n` alone.
///
/// The card path searches with the standard library's own routines, not
/// the `memchr` crate's: that one picks its vector code at run time, and
/// the CPU feature probe behind the pick (CPUID) traps to the hypervisor in
/// a virtual machine, which cost more than the whole card path.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    std::iter::from_fn(move || {
        let end = match text.get(start..)?.find('\n') {
            Some(i) => start + i,
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
    match line.as_bytes()[start..].iter().position(|&b| b == b'\t') {
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

/// The most trigger pairs made room for at once: the count is read from the
/// cache file, so it must not size an allocation by itself.
const MAX_PREALLOC: usize = 16;

/// The trigger keys and values of an `ok` line's body.
pub fn triggers(body: &str) -> Option<Vec<(Cow<'_, str>, Cow<'_, str>)>> {
    let mut f = body.split('\t').skip(4); // matcher, guard, enabled, order
    let n: usize = f.next()?.parse().ok()?;
    let mut out = Vec::with_capacity(n.min(MAX_PREALLOC));
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
    let mut triggers = Vec::with_capacity(n.min(MAX_PREALLOC));
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
            written_ns: 9,
        };
        header(&mut text, "/p/.cuecard/cards", &h);
        Summary::default().write(&mut text);
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

        let (back, summary, body) = split_header(&text, "/p/.cuecard/cards").unwrap();
        assert_eq!(back, h);
        assert_eq!(summary, "=\t0\t,,\t0");
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
        let old = text.replacen(MAGIC, "cuecard-cards 6", 1);
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

    #[test]
    fn a_damaged_trigger_count_is_a_miss_not_a_panic() {
        // The count comes from the cache file: it must not size an
        // allocation (usize::MAX overflows the capacity; a mere 2^40 would
        // abort the process on the allocation).
        for n in [u64::MAX, 1 << 40] {
            let body = format!("*\t-\t1\t50\t{n}\tk\tv");
            assert!(triggers(&body).is_none(), "{n}");
            assert!(super::card("t", "PreToolUse", &body).is_none(), "{n}");
        }
    }

    #[test]
    fn lines_split_at_newlines_only() {
        let t = "a\tb\nc\n\nd";
        let got: Vec<(usize, &str)> = lines(t).collect();
        assert_eq!(got, vec![(0, "a\tb"), (4, "c"), (6, ""), (7, "d")]);
        assert_eq!(lines("x\n").collect::<Vec<_>>(), vec![(0, "x")]);
        assert_eq!(lines("").count(), 0);
    }

    /// A cache line for a card named `name` with these Bindings lines.
    fn card_line(name: &str, bindings: &str, trusted: bool) -> String {
        let src = format!("# T\n\n## Advisory\nSeen.\n\n## Bindings\n{bindings}");
        let card = parse_card(name, &src, Origin::Embedded);
        let card = card.map_err(|e| e.message);
        let mut out = String::new();
        let f = FileFields::default();
        line(
            &mut out,
            &format!("{name}.md"),
            "ab",
            f,
            trusted,
            &card,
            true,
        );
        out
    }

    fn summary_of(lines: &[String]) -> String {
        let mut s = Summary::default();
        for l in lines {
            let l = l.trim_end();
            s.add(l, &parse_line(l).unwrap());
        }
        let mut out = String::new();
        s.write(&mut out);
        out.trim_end().to_string()
    }

    #[test]
    fn the_summary_gathers_names_and_reaches_per_event() {
        let cards = [
            card_line("mig", "- event: PreToolUse\n- paths: migrations/**\n", true),
            card_line(
                "ven",
                "- event: PreToolUse\n- paths: vendor/**, third/**\n",
                true,
            ),
            card_line("mk", "- event: PreToolUse\n- command: ^make\n", true),
        ];
        let s = summary_of(&cards);
        assert!(
            s.starts_with("=\t0\t,mig,ven,mk,\t1\tPreToolUse\t3\t2\t"),
            "{s}"
        );
        // The two path cards share their tool list: one reach, with the
        // union of their prefixes.
        assert!(
            s.contains(";migrations/,third/,vendor/"),
            "one reach for one tool list: {s}"
        );
        fn calls<'a>(tool: &'a str, path: &'a str) -> impl Fn(&str) -> bool + 'a {
            move |reach: &str| {
                let paths = vec![path.to_string()];
                crate::trigger::reach_admits(reach, Some(tool), || &paths)
            }
        }
        let none: Vec<String> = Vec::new();
        let q = |names: &[String], event: &str, tool: &str, path: &str| {
            quiet(&s, names, event, &calls(tool, path))
        };
        assert_eq!(summary_lines(&s), Some(3));
        assert_eq!(summary_lines("=\t0\t,,\t0"), Some(0));
        assert_eq!(summary_lines("=\tx\t,,\t0"), None);
        assert_eq!(q(&none, "PreToolUse", "Write", "src/lib.rs"), Some(3));
        assert_eq!(q(&none, "PreToolUse", "Write", "vendor/x.go"), None);
        assert_eq!(q(&none, "PreToolUse", "Write", "third/x.go"), None);
        assert_eq!(q(&none, "PreToolUse", "Bash", ""), None, "mk could fire");
        assert_eq!(q(&none, "PreToolUse", "Read", "vendor/x.go"), Some(3));
        assert_eq!(q(&none, "Stop", "Write", "vendor/x.go"), Some(0));
        let listed = |n: &str| vec![n.to_string()];
        assert_eq!(
            q(&listed("ven"), "PreToolUse", "Read", "x"),
            None,
            "a listed name"
        );
        assert_eq!(q(&listed("ve"), "PreToolUse", "Read", "x"), Some(3));
        assert_eq!(q(&listed("mig,ven"), "PreToolUse", "Read", "x"), Some(3));

        // A card with no path prefix makes its tool list's reach any path.
        let any = card_line("all", "- event: PreToolUse\n- paths: **/*.lock\n", true);
        let s2 = summary_of(&[cards[0].clone(), any]);
        assert!(quiet(&s2, &none, "PreToolUse", &calls("Write", "src/x")).is_none());

        // Untrusted cards and files in error are loose: always look.
        for loose in [
            card_line("new", "- event: PreToolUse\n- paths: new/**\n", false),
            card_line("bad", "- event: Nope\n", true),
        ] {
            let s3 = summary_of(&[cards[0].clone(), loose]);
            assert!(s3.starts_with("=\t1\t"), "{s3}");
            assert_eq!(summary_lines(&s3), Some(2), "one loose, one named");
            assert!(quiet(&s3, &none, "PreToolUse", &calls("Read", "x")).is_none());
        }
        assert!(
            quiet("=\t0\t,,\t2\tE", &none, "E", &|_| false).is_none(),
            "malformed"
        );
        assert!(quiet("=\t0\t,,\t0\textra", &none, "E", &|_| false).is_none());
    }
}
