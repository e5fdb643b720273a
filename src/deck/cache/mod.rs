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
//! cuecard-cards 8 <dir> <stamp> <dir-mtime-ns> <written-ns>
//! = <loose> ,<name>,...,<name>, <n> (<event> <bound> <k> <reach>{k}){n}
//! <0|1> err - - <file> <sha256> <size> <mtime-ns> <message>
//! <0|1> ok <events> <reach> <file> <sha256> <size> <mtime-ns> <matcher> <guard> <enabled> <order> <n> <key> <value>... <title> <advisory> <body> <origin-kind> <origin-path>
//! ```

use crate::card::{Bindings, Card, Origin};
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::PathBuf;

const MAGIC: &str = "cuecard-cards 8";

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
mod tests;
