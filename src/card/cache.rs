//! The parsed-card cache's file format: one line per card file, fields
//! separated by tabs (tab, newline, carriage return and backslash escaped).
//!
//! Every dispatch in a project with cards of its own reads this file, so it
//! is made to be read fast: no JSON, one pass, a handful of allocations per
//! card. Anything it cannot read is treated as no cache (the cards are then
//! parsed from their files and the cache rewritten).

use super::sources::FileCard;
use super::{Bindings, Card, Origin};
use std::collections::BTreeMap;
use std::path::PathBuf;

const MAGIC: &str = "cuecard-cards 1";

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

fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
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
    out
}

fn opt(v: Option<&str>, out: &mut String) {
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
        Some(b'+') => Some(Some(unescape(&s[1..]))),
        Some(b'-') if s.len() == 1 => Some(None),
        _ => None,
    }
}

fn esc(s: &str) -> String {
    let mut e = String::with_capacity(s.len());
    escape(s, &mut e);
    e
}

fn esc_opt(v: Option<&str>) -> String {
    let mut e = String::new();
    opt(v, &mut e);
    e
}

/// Writes the cache for `dir`.
pub fn encode(dir: &str, entries: &BTreeMap<String, FileCard>) -> String {
    let mut out = String::from(MAGIC);
    out.push('\t');
    escape(dir, &mut out);
    out.push('\n');
    for fc in entries.values() {
        let mut f: Vec<String> = vec![
            esc(&fc.file),
            esc(&fc.name),
            esc(&fc.sha256),
            fc.size.to_string(),
            fc.mtime_ns.to_string(),
        ];
        match &fc.card {
            Err(m) => {
                f.push("err".into());
                f.push(esc(m));
            }
            Ok(c) => {
                let (kind, path) = match &c.origin {
                    Origin::Embedded => ("e", String::new()),
                    Origin::User(p) => ("u", p.to_string_lossy().into_owned()),
                    Origin::Project(p) => ("p", p.to_string_lossy().into_owned()),
                };
                f.extend([
                    "ok".to_string(),
                    esc(&c.title),
                    esc_opt(c.advisory.as_deref()),
                    esc(&c.body),
                    kind.to_string(),
                    esc(&path),
                    esc(&c.bindings.events.join(",")),
                    esc(&c.bindings.matcher),
                    esc_opt(c.bindings.guard.as_deref()),
                    if c.bindings.enabled { "1" } else { "0" }.to_string(),
                    c.bindings.order.to_string(),
                    c.bindings.triggers.len().to_string(),
                ]);
                for (k, v) in &c.bindings.triggers {
                    f.push(esc(k));
                    f.push(esc(v));
                }
            }
        }
        out.push_str(&f.join("\t"));
        out.push('\n');
    }
    out
}

/// Reads the cache for `dir`; `None` when it is not a cache of `dir` or is
/// malformed anywhere.
pub fn decode(text: &str, dir: &str) -> Option<BTreeMap<String, FileCard>> {
    let mut lines = text.lines();
    let header = lines.next()?;
    let (magic, for_dir) = header.split_once('\t')?;
    if magic != MAGIC || unescape(for_dir) != dir {
        return None;
    }
    let mut out = BTreeMap::new();
    for line in lines {
        let mut f: Vec<&str> = Vec::with_capacity(24);
        f.extend(line.split('\t'));
        let get = |i: usize| f.get(i).copied();
        let file = unescape(get(0)?);
        let name = unescape(get(1)?);
        let sha256 = unescape(get(2)?);
        let size: u64 = get(3)?.parse().ok()?;
        let mtime_ns: u128 = get(4)?.parse().ok()?;
        let card = match get(5)? {
            "err" => Err(unescape(get(6)?)),
            "ok" => {
                let origin = match get(9)? {
                    "u" => Origin::User(PathBuf::from(unescape(get(10)?))),
                    "p" => Origin::Project(PathBuf::from(unescape(get(10)?))),
                    "e" => Origin::Embedded,
                    _ => return None,
                };
                let n: usize = get(16)?.parse().ok()?;
                if f.len() != 17 + 2 * n {
                    return None;
                }
                let triggers = (0..n)
                    .map(|i| (unescape(f[17 + 2 * i]), unescape(f[18 + 2 * i])))
                    .collect();
                let events = unescape(get(11)?);
                Ok(Card {
                    name: name.clone(),
                    title: unescape(get(6)?),
                    advisory: unopt(get(7)?)?,
                    body: unescape(get(8)?),
                    bindings: Bindings {
                        events: events
                            .split(',')
                            .filter(|e| !e.is_empty())
                            .map(String::from)
                            .collect(),
                        matcher: unescape(get(12)?),
                        guard: unopt(get(13)?)?,
                        enabled: get(14)? == "1",
                        order: get(15)?.parse().ok()?,
                        triggers,
                    },
                    origin,
                })
            }
            _ => return None,
        };
        out.insert(
            file.clone(),
            FileCard::from_parts(file, name, sha256, size, mtime_ns, card),
        );
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::card::parse_card;

    #[test]
    fn round_trips_cards_and_errors() {
        let src = "# T\twith tab\n\n## Advisory\n`{path}` seen;\nline two \\ back\\slash\n\n## Bindings\n- event: PreToolUse\n- paths: a/**\n- command: ^x\\s+y\n- once: session\n";
        let card = parse_card(
            "t",
            src,
            Origin::Project(PathBuf::from("/p/.cuecard/cards/t.md")),
        )
        .unwrap();
        let mut m = BTreeMap::new();
        m.insert(
            "t.md".to_string(),
            FileCard::from_parts(
                "t.md".into(),
                "t".into(),
                "ab".into(),
                10,
                20,
                Ok(card.clone()),
            ),
        );
        m.insert(
            "bad.md".to_string(),
            FileCard::from_parts(
                "bad.md".into(),
                "bad".into(),
                "cd".into(),
                1,
                2,
                Err("no\tgood\nat all".into()),
            ),
        );
        let text = encode("/p/.cuecard/cards", &m);
        let back = decode(&text, "/p/.cuecard/cards").unwrap();
        let t = back["t.md"].card.as_ref().unwrap();
        assert_eq!(
            serde_json::to_value(t).unwrap(),
            serde_json::to_value(&card).unwrap()
        );
        assert_eq!(
            back["bad.md"].card.as_ref().unwrap_err(),
            "no\tgood\nat all"
        );
        assert!(
            decode(&text, "/elsewhere").is_none(),
            "a cache of another directory"
        );
        assert!(decode("garbage", "/p/.cuecard/cards").is_none());
        let short_line = format!("{MAGIC}\t/d\nx.md\tx\n");
        assert!(
            decode(&short_line, "/d").is_none(),
            "a line with missing fields"
        );
    }
}
