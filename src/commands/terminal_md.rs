//! Markdown for a terminal: what `verify --capabilities` shows a person
//! (the same text is Markdown in a pipe and with `--markdown`). Headings
//! stand out, paragraphs and list items wrap to the width, code spans and
//! emphasis lose their marks, and a table becomes aligned columns whose
//! widest cells wrap inside their column, so no line is wider than the
//! terminal.

/// `md` laid out for a terminal `width` columns wide.
pub fn render(md: &str, width: usize) -> String {
    let width = width.max(20);
    let mut out = String::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.starts_with('|') {
            let start = i;
            while i < lines.len() && lines[i].starts_with('|') {
                i += 1;
            }
            table(&lines[start..i], width, &mut out);
            continue;
        }
        i += 1;
        if let Some(h) = line.strip_prefix("# ") {
            let h = inline(h);
            out.push_str(&format!("{}\n{}\n", h, "=".repeat(h.chars().count())));
        } else if let Some(h) = line.strip_prefix("## ") {
            let h = inline(h);
            out.push_str(&format!("{}\n{}\n", h, "-".repeat(h.chars().count())));
        } else if let Some(item) = line.strip_prefix("- ") {
            wrap_into(&inline(item), width, "- ", "  ", &mut out);
        } else if line.trim().is_empty() {
            out.push('\n');
        } else {
            wrap_into(&inline(line), width, "", "", &mut out);
        }
    }
    out
}

/// One line of Markdown as plain text: code spans and emphasis without
/// their marks, `<br>` as a line break, `\|` as `|`.
fn inline(s: &str) -> String {
    s.replace("**", "")
        .replace('`', "")
        .replace("<br>", "\n")
        .replace("\\|", "|")
}

/// Word-wraps `text` to `width` columns: the first line after `first`, the
/// rest after `rest`.
fn wrap_into(text: &str, width: usize, first: &str, rest: &str, out: &mut String) {
    for (n, l) in wrap(text, width.saturating_sub(first.chars().count()).max(8))
        .iter()
        .enumerate()
    {
        out.push_str(if n == 0 { first } else { rest });
        out.push_str(l);
        out.push('\n');
    }
}

/// The lines of `text` (its own line breaks kept) wrapped at spaces to at
/// most `width` columns; a word longer than that is cut.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.split('\n') {
        let mut cur = String::new();
        for word in para.split(' ').filter(|w| !w.is_empty()) {
            let mut word: Vec<char> = word.chars().collect();
            loop {
                let cur_len = cur.chars().count();
                let need = if cur.is_empty() { 0 } else { 1 } + word.len();
                if cur_len + need <= width {
                    if !cur.is_empty() {
                        cur.push(' ');
                    }
                    cur.extend(word.iter());
                    break;
                }
                if !cur.is_empty() {
                    lines.push(std::mem::take(&mut cur));
                    continue;
                }
                // A word wider than the column: cut it.
                let rest = word.split_off(width);
                lines.push(word.into_iter().collect());
                word = rest;
            }
        }
        lines.push(cur);
    }
    lines
}

/// The cells of a table row, split on `|` but not on `\|`.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|');
    let row = row.strip_suffix('|').unwrap_or(row);
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push_str("\\|");
                chars.next();
            }
            '|' => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter().map(|c| inline(c.trim())).collect()
}

/// A Markdown table as columns two spaces apart, the header underlined;
/// when the natural widths do not fit, the widest columns are narrowed
/// (their cells wrap) until they do.
fn table(rows: &[&str], width: usize, out: &mut String) {
    let rows: Vec<Vec<String>> = rows
        .iter()
        .filter(|r| {
            !r.trim()
                .trim_matches('|')
                .chars()
                .all(|c| "-:| ".contains(c))
        })
        .map(|r| cells(r))
        .collect();
    let n = rows.iter().map(Vec::len).max().unwrap_or(0);
    if n == 0 {
        return;
    }
    let natural: Vec<usize> = (0..n)
        .map(|c| {
            rows.iter()
                .filter_map(|r| r.get(c))
                .flat_map(|cell| cell.split('\n'))
                .map(|l| l.chars().count())
                .max()
                .unwrap_or(0)
                .max(1)
        })
        .collect();
    let avail = width.saturating_sub(2 * (n - 1)).max(n * 6);
    let widths = fit(&natural, avail);
    // Columns too narrow to read: one block per row instead, each cell
    // under its column's name.
    if widths
        .iter()
        .zip(&natural)
        .any(|(w, nat)| w < nat && *w < MIN_COLUMN)
    {
        records(&rows, width, out);
        return;
    }
    for (r, row) in rows.iter().enumerate() {
        // A first cell that repeats the row above's is left blank, so
        // groups (a harness's rows) read as groups.
        let repeated = r > 1 && rows[r - 1].first() == row.first();
        let cols: Vec<Vec<String>> = (0..n)
            .map(|c| {
                let cell = row.get(c).map_or("", String::as_str);
                wrap(if c == 0 && repeated { "" } else { cell }, widths[c])
            })
            .collect();
        let height = cols.iter().map(Vec::len).max().unwrap_or(1);
        for l in 0..height {
            let mut line = String::new();
            for (c, col) in cols.iter().enumerate() {
                let cell = col.get(l).map_or("", String::as_str);
                line.push_str(cell);
                if c + 1 < n {
                    line.push_str(&" ".repeat(widths[c] - cell.chars().count() + 2));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        if r == 0 {
            let total: usize = widths.iter().sum::<usize>() + 2 * (n - 1);
            out.push_str(&"─".repeat(total.min(width)));
            out.push('\n');
        }
    }
}

/// The narrowest column a wrapped table keeps before it is shown as
/// blocks instead.
const MIN_COLUMN: usize = 16;

/// A table as one block per row: its first cell, then each other cell
/// after its column's name, wrapped under it.
fn records(rows: &[Vec<String>], width: usize, out: &mut String) {
    let Some((head, body)) = rows.split_first() else {
        return;
    };
    let label = head
        .iter()
        .skip(1)
        .map(|h| h.chars().count())
        .max()
        .unwrap_or(0)
        + 2;
    for row in body {
        out.push_str(row.first().map_or("", String::as_str));
        out.push('\n');
        for (c, cell) in row.iter().enumerate().skip(1) {
            let name = head.get(c).map_or("", String::as_str);
            let first = format!("  {name}:{}", " ".repeat(label - name.chars().count() - 1));
            let rest = " ".repeat(first.chars().count());
            // `SessionStart: SessionStart ✓` says it once: `SessionStart: ✓`.
            let cell = cell
                .strip_prefix(name)
                .and_then(|c| c.strip_prefix(' '))
                .unwrap_or(cell);
            wrap_into(cell, width, &first, &rest, out);
        }
    }
}

/// Column widths that fit in `avail`: the natural widths when they do,
/// else every column capped at the largest width that makes them fit (at
/// least 6).
fn fit(natural: &[usize], avail: usize) -> Vec<usize> {
    if natural.iter().sum::<usize>() <= avail {
        return natural.to_vec();
    }
    let total = |cap: usize| natural.iter().map(|w| (*w).min(cap)).sum::<usize>();
    let mut cap = natural.iter().copied().max().unwrap_or(6);
    while cap > 6 && total(cap) > avail {
        cap -= 1;
    }
    natural.iter().map(|w| (*w).min(cap)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wide_table_fits_the_width_and_keeps_every_word() {
        let md = "# T\n\n| a | b |\n|---|---|\n| `x` | one two three four five six seven eight nine ten<br>second |\n";
        let text = render(md, 40);
        assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
        for w in ["one", "ten", "second", "x"] {
            assert!(text.contains(w), "{text}");
        }
        assert!(!text.contains('`') && !text.contains("<br>"), "{text}");
    }

    #[test]
    fn escaped_bars_stay_in_their_cell() {
        assert_eq!(cells("| `a\\|b` | c |"), vec!["a|b", "c"]);
    }
}
