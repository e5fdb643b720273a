//! Textual patches: a rewritten config keeps every byte of the operator's
//! text that cuecard did not add or remove. The two documents are walked
//! together: a value that did not change keeps its text; an object keeps
//! its members' text, with members cuecard added appended and those it
//! emptied taken out with their separator; a list keeps its items' text,
//! with items taken out and appended the same way; only a value cuecard
//! put in is rendered, in the file's style at its depth. Number spellings
//! (`1.10`, `1E5`), escapes (`"\u00e9"`), inline arrays, spacing and key
//! order stay as written, so uninstall gives the operator's later edits
//! back exactly. What this cannot place (a reordered object, a file that is
//! not one object) is `None`: the caller renders the whole document.

use super::style::Style;
use serde::Serialize;
use serde_json::Value;

/// `before` (which parses to `old`) rewritten to hold `new`.
pub fn patch(before: &str, old: &Value, new: &Value, style: &Style) -> Option<String> {
    let b = before.as_bytes();
    let start = skip_ws(b, 0);
    let end = skip_value(b, start)?;
    if !old.is_object() || !new.is_object() {
        return None;
    }
    let mut out = String::from(&before[..start]);
    out.push_str(&value(before, (start, end), old, new, style, 0)?);
    out.push_str(&before[end..]);
    Some(out)
}

/// The text of one value at `span`, rewritten from `old` to `new`.
fn value(
    text: &str,
    span: (usize, usize),
    old: &Value,
    new: &Value,
    style: &Style,
    depth: usize,
) -> Option<String> {
    if old == new {
        return Some(text[span.0..span.1].to_string());
    }
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => object(text, span, o, n, style, depth),
        (Value::Array(o), Value::Array(n)) => {
            array(text, span, o, n, style, depth).or_else(|| Some(nested(new, style, depth)))
        }
        _ => Some(nested(new, style, depth)),
    }
}

fn object(
    text: &str,
    span: (usize, usize),
    old: &serde_json::Map<String, Value>,
    new: &serde_json::Map<String, Value>,
    style: &Style,
    depth: usize,
) -> Option<String> {
    let (members, close) = items(text, span.0, true)?;
    if members.len() != old.len() || members.iter().zip(old.keys()).any(|(m, k)| m.key != *k) {
        return None;
    }
    let kept: Vec<&String> = new.keys().filter(|k| old.contains_key(*k)).collect();
    let olds: Vec<&String> = old.keys().filter(|k| new.contains_key(*k)).collect();
    // The kept keys stay in their order, and the new ones come after them.
    if kept != olds || new.keys().skip(kept.len()).any(|k| old.contains_key(k)) {
        return None;
    }
    if kept.is_empty() {
        return Some(nested(&Value::Object(new.clone()), style, depth));
    }
    let mut parts: Vec<String> = Vec::new();
    let mut spans: Vec<&Item> = Vec::new();
    for m in &members {
        let Some(v) = new.get(&m.key) else { continue };
        let mut s = text[m.start..m.value.0].to_string();
        s.push_str(&value(text, m.value, &old[&m.key], v, style, depth + 1)?);
        parts.push(s);
        spans.push(m);
    }
    let colon = if style.indent.is_empty() { ":" } else { ": " };
    for (k, v) in new.iter().filter(|(k, _)| !old.contains_key(*k)) {
        parts.push(format!(
            "{}{colon}{}",
            serde_json::to_string(k).ok()?,
            nested(v, style, depth + 1)
        ));
    }
    join(
        text,
        inline(text, style),
        span,
        &members,
        &spans,
        parts,
        close,
    )
}

fn array(
    text: &str,
    span: (usize, usize),
    old: &[Value],
    new: &[Value],
    style: &Style,
    depth: usize,
) -> Option<String> {
    let (elems, close) = items(text, span.0, false)?;
    if elems.len() != old.len() || old.is_empty() {
        return None;
    }
    // Either the same items, changed in place, or some taken out and some
    // appended: the kept ones are a prefix of `new`, in their order.
    let mut parts: Vec<String> = Vec::new();
    let mut spans: Vec<&Item> = Vec::new();
    if old.len() == new.len() {
        for (i, e) in elems.iter().enumerate() {
            parts.push(value(text, e.value, &old[i], &new[i], style, depth + 1)?);
            spans.push(e);
        }
    } else {
        let mut j = 0;
        for (i, e) in elems.iter().enumerate() {
            if j < new.len() && new[j] == old[i] {
                parts.push(text[e.value.0..e.value.1].to_string());
                spans.push(e);
                j += 1;
            }
        }
        if spans.is_empty() {
            return None;
        }
        for v in &new[j..] {
            parts.push(nested(v, style, depth + 1));
        }
    }
    join(
        text,
        inline(text, style),
        span,
        &elems,
        &spans,
        parts,
        close,
    )
}

/// The separator between inline items: `, ` in an indented file or one that
/// writes it so, else `,`.
fn inline(text: &str, style: &Style) -> &'static str {
    if !style.indent.is_empty() || text.contains(", ") {
        ", "
    } else {
        ","
    }
}

/// The container's text from its parts: what stood before the first item,
/// the file's own separator between them (the one that followed each kept
/// item, or the first one the container has), and what stood after the last.
fn join(
    text: &str,
    inline: &str,
    span: (usize, usize),
    all: &[Item],
    kept: &[&Item],
    parts: Vec<String>,
    close: usize,
) -> Option<String> {
    let first = all.first()?;
    let sep = match all.get(1) {
        Some(second) => text[first.value.1..second.start].to_string(),
        // One item: its leading whitespace when on its own line, else the
        // style's inline separator.
        None => {
            let lead = &text[span.0 + 1..first.start];
            if lead.contains('\n') {
                format!(",{lead}")
            } else {
                inline.to_string()
            }
        }
    };
    let mut out = text[span.0..first.start].to_string();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            // The separator that followed the previous kept item, when it
            // was followed by one in the file.
            let s = kept
                .get(i - 1)
                .and_then(|prev| {
                    let at = all.iter().position(|x| std::ptr::eq(x, *prev))?;
                    all.get(at + 1).map(|next| &text[prev.value.1..next.start])
                })
                .map(str::to_string)
                .unwrap_or_else(|| sep.clone());
            out.push_str(&s);
        }
        out.push_str(p);
    }
    out.push_str(&text[all.last()?.value.1..close]);
    out.push_str(&text[close..span.1]);
    Some(out)
}

/// `value` rendered at `depth` (the document is at 0, a top-level member's
/// value at 1): its closing bracket `depth` indents in.
fn nested(value: &Value, style: &Style, depth: usize) -> String {
    if style.indent.is_empty() {
        return serde_json::to_string(value).unwrap_or_default();
    }
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(style.indent.as_bytes());
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let _ = value.serialize(&mut ser);
    let text = String::from_utf8(buf).unwrap_or_default();
    let nl = if style.crlf { "\r\n" } else { "\n" };
    text.replace('\n', &format!("{nl}{}", style.indent.repeat(depth)))
}

/// One member (key and value) or item (value only) of a container.
struct Item {
    key: String,
    /// The key's opening quote, or the value's start for an item.
    start: usize,
    value: (usize, usize),
}

/// The items of the container opening at `open`, and the offset of its
/// closing bracket.
fn items(text: &str, open: usize, object: bool) -> Option<(Vec<Item>, usize)> {
    let b = text.as_bytes();
    let (o, c) = if object { (b'{', b'}') } else { (b'[', b']') };
    if b.get(open) != Some(&o) {
        return None;
    }
    let mut i = open + 1;
    let mut out = Vec::new();
    loop {
        i = skip_ws(b, i);
        match *b.get(i)? {
            x if x == c => return Some((out, i)),
            b',' => {
                i += 1;
                continue;
            }
            _ => {}
        }
        let start = i;
        let mut key = String::new();
        if object {
            if b[i] != b'"' {
                return None;
            }
            let end = skip_string(b, i)?;
            key = serde_json::from_str(&text[start..end]).ok()?;
            i = skip_ws(b, end);
            if b.get(i) != Some(&b':') {
                return None;
            }
            i = skip_ws(b, i + 1);
        }
        let vend = skip_value(b, i)?;
        out.push(Item {
            key,
            start,
            value: (i, vend),
        });
        i = vend;
    }
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\r' | b'\n')) {
        i += 1;
    }
    i
}

/// The offset just past the string starting at `i` (its `"`).
fn skip_string(b: &[u8], mut i: usize) -> Option<usize> {
    i += 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

/// The offset just past the value starting at `i`.
fn skip_value(b: &[u8], i: usize) -> Option<usize> {
    match b.get(i)? {
        b'"' => skip_string(b, i),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut j = i;
            while j < b.len() {
                match b[j] {
                    b'"' => {
                        j = skip_string(b, j)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(j + 1);
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            None
        }
        _ => {
            let mut j = i;
            while j < b.len() && !matches!(b[j], b',' | b'}' | b']' | b' ' | b'\t' | b'\r' | b'\n')
            {
                j += 1;
            }
            (j > i).then_some(j)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn round(before: &str, new: Value) -> String {
        let old: Value = serde_json::from_str(before).unwrap();
        let out = patch(before, &old, &new, &Style::detect(before)).expect("patched");
        assert_eq!(serde_json::from_str::<Value>(&out).unwrap(), new, "{out}");
        out
    }

    #[test]
    fn only_what_changed_is_rendered_again() {
        let before = "{\n    \"n\": 1.10,\n    \"big\": 1E5,\n    \"s\": \"\\u00e9\",\n    \"allow\": [\"Bash(ls:*)\"],\n    \"hooks\": {\"A\": [{\"x\": 1.0}]}\n}\n";
        let mut new: Value = serde_json::from_str(before).unwrap();
        new["hooks"]["A"]
            .as_array_mut()
            .unwrap()
            .push(json!({"y": 2}));
        new["hooks"]["B"] = json!([1]);
        let out = round(before, new);
        assert_eq!(
            out,
            "{\n    \"n\": 1.10,\n    \"big\": 1E5,\n    \"s\": \"\\u00e9\",\n    \"allow\": [\"Bash(ls:*)\"],\n    \"hooks\": {\"A\": [{\"x\": 1.0}, {\n                \"y\": 2\n            }], \"B\": [\n            1\n        ]}\n}\n"
        );
        // And back: the operator's text, to the byte.
        let old: Value = serde_json::from_str(&out).unwrap();
        let back = patch(
            &out,
            &old,
            &serde_json::from_str(before).unwrap(),
            &Style::detect(&out),
        );
        assert_eq!(back.as_deref(), Some(before));
    }

    #[test]
    fn members_and_items_are_added_at_the_end_and_removed_with_their_separator() {
        let before = "{\"a\": 1.0, \"b\": [1,2]}";
        let out = round(before, json!({"a": 1.0, "b": [1, 2], "hooks": {"X": []}}));
        assert_eq!(out, "{\"a\": 1.0, \"b\": [1,2], \"hooks\":{\"X\":[]}}");
        let before = "{\n  \"hooks\": {\"X\": []},\n  \"b\": 1E5\n}\n";
        assert_eq!(round(before, json!({"b": 1e5})), "{\n  \"b\": 1E5\n}\n");
        let before = "{\n  \"b\": 1E5,\n  \"hooks\": {\"X\": []}\n}\n";
        assert_eq!(round(before, json!({"b": 1e5})), "{\n  \"b\": 1E5\n}\n");
        let before = "{\"l\": [1.0, 2, 3.50]}";
        assert_eq!(
            round(before, json!({"l": [1.0, 3.5]})),
            "{\"l\": [1.0, 3.50]}"
        );
    }

    #[test]
    fn what_it_cannot_place_is_left_to_a_full_render() {
        let old = json!({"a": 1, "b": 2});
        assert!(patch("[1]", &json!([1]), &json!([2]), &Style::new_file()).is_none());
        // A new key before a kept one is not placed.
        assert!(
            patch(
                "{\"a\":1,\"b\":2}",
                &old,
                &json!({"z": 0, "a": 1, "b": 2}),
                &Style::new_file()
            )
            .is_none()
        );
    }
}
