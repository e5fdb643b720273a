//! The report as one HTML page: inline CSS, inline SVG, no script, no
//! font, no request of any kind (a Content-Security-Policy that allows
//! nothing else says so to the browser). Every text that comes from a
//! session, a transcript or a file goes through [`esc`].

use super::{Report, chart};
use crate::text::thousands;
use std::fmt::Write;

/// `text` escaped for HTML text and attribute values.
pub fn esc(text: &str) -> String {
    let mut o = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            // Controls other than tab and line breaks have no place in a page.
            c if c.is_control() && !matches!(c, '\n' | '\t') => o.push(' '),
            c => o.push(c),
        }
    }
    o
}

const STYLE: &str = "
body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1d2330;background:#f6f7f9}
header{background:#1d2330;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:20px;font-weight:600}
header p{margin:4px 0 0;color:#c9cfdb}
main{padding:8px 28px 40px;max-width:1200px}
section{background:#fff;border:1px solid #dde1e8;border-radius:6px;margin:16px 0;padding:12px 18px}
h2{font-size:16px;margin:4px 0 10px}
dl{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:0}
dt{color:#5b6475}dd{margin:0;word-break:break-all}
table{border-collapse:collapse;width:100%}
th,td{text-align:left;padding:4px 8px;border-bottom:1px solid #eceff3;vertical-align:top}
th{color:#5b6475;font-weight:600}
td.num{text-align:right;font-variant-numeric:tabular-nums}
pre{white-space:pre-wrap;margin:0;font:12px/1.4 ui-monospace,Menlo,Consolas,monospace}
.empty{color:#5b6475}
.deny{color:#b3261e;font-weight:600}.ask{color:#8a5a00;font-weight:600}
svg .axis{stroke:#8a93a5}svg .tick{font-size:11px;fill:#5b6475}
svg .threshold{stroke:#d08700;stroke-dasharray:6 4}
svg .curve{fill:none;stroke:#2f6fde;stroke-width:2}
svg .warning-mark{fill:#d08700;stroke:#fff}
svg .compaction-mark{stroke:#b3261e;stroke-width:2;stroke-dasharray:2 3}
.spark{font-family:ui-monospace,Menlo,Consolas,monospace}
";

/// A whole page around `body`.
pub fn page(title: &str, subtitle: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<meta name=\"generator\" content=\"cuecard {}\">\
<title>{}</title><style>{STYLE}</style></head>\n<body><header><h1>{}</h1><p>{}</p></header><main>\n{body}</main></body></html>\n",
        esc(env!("CARGO_PKG_VERSION")),
        esc(title),
        esc(title),
        esc(subtitle)
    )
}

/// A table: its id, head, and rows of cells (already escaped HTML); a
/// sentence instead when there is no row.
pub fn table(id: &str, head: &[&str], rows: &[Vec<String>], empty: &str) -> String {
    if rows.is_empty() {
        return format!("<p class=\"empty\" id=\"{id}-none\">{}</p>", esc(empty));
    }
    let mut o = format!("<table id=\"{id}\"><thead><tr>");
    for h in head {
        let _ = write!(o, "<th>{}</th>", esc(h));
    }
    o.push_str("</tr></thead><tbody>");
    for r in rows {
        o.push_str("<tr>");
        for c in r {
            o.push_str(c);
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</tbody></table>");
    o
}

/// A text cell.
pub fn td(text: &str) -> String {
    format!("<td>{}</td>", esc(text))
}

/// A number cell.
pub fn num(n: u64) -> String {
    format!("<td class=\"num\">{}</td>", thousands(n))
}

fn section(id: &str, title: &str, inner: &str) -> String {
    format!(
        "<section id=\"{id}-section\"><h2>{}</h2>{inner}</section>\n",
        esc(title)
    )
}

/// One session's or replay's page.
pub fn report(r: &Report) -> String {
    let mut body = String::new();
    let mut facts = String::from("<dl id=\"facts\">");
    for (k, v) in &r.facts {
        let _ = write!(facts, "<dt>{}</dt><dd>{}</dd>", esc(k), esc(v));
    }
    facts.push_str("</dl>");
    body.push_str(&section("summary", "Summary", &facts));

    let mut curve = chart::svg(r);
    let _ = write!(
        curve,
        "<p>Window {} tokens ({}); thresholds {}% and {}%. {} measured, {}, {}.</p>",
        thousands(r.window),
        esc(&r.window_from),
        r.thresholds[0].0,
        r.thresholds[1].0,
        crate::text::count(r.points.len(), "size", "sizes"),
        crate::text::count(r.warnings.len(), "warning", "warnings"),
        crate::text::count(r.compactions.len(), "compaction", "compactions"),
    );
    body.push_str(&section("curve", "Context size per call", &curve));

    let rows: Vec<Vec<String>> = r
        .warnings
        .iter()
        .map(|(x, card)| vec![num(*x), td(card)])
        .collect();
    body.push_str(&section(
        "warnings",
        "Compaction warnings",
        &table(
            "warnings",
            &["call", "card"],
            &rows,
            "No compaction warning.",
        ),
    ));

    let rows: Vec<Vec<String>> = r
        .compactions
        .iter()
        .map(|c| {
            vec![
                num(c.x),
                td(&c.trigger),
                td(&c.from),
                match &c.carried {
                    Some(t) => format!("<td><pre>{}</pre></td>", esc(t)),
                    None => {
                        td("nothing: no hand-off note or plan this session wrote could be read")
                    }
                },
            ]
        })
        .collect();
    body.push_str(&section(
        "compactions",
        "Compactions and what each recovery carried",
        &table(
            "compactions",
            &["after call", "trigger", "from", "the recovery carried"],
            &rows,
            "No compaction.",
        ),
    ));

    let rows: Vec<Vec<String>> = r
        .cards
        .iter()
        .map(|c| {
            vec![
                td(&c.when),
                td(&c.event),
                td(&c.tool),
                td(&c.target),
                td(&c.card),
                td(&c.kind),
                num(c.chars),
                num(c.tokens),
                td(&c.why),
            ]
        })
        .collect();
    body.push_str(&section(
        "cards",
        &format!("Cards fired ({})", r.cards.len()),
        &table(
            "cards",
            &[
                "when",
                "event",
                "tool",
                "target",
                "card",
                "kind",
                "characters",
                "tokens",
                "why",
            ],
            &rows,
            "No card fired.",
        ),
    ));

    let rows: Vec<Vec<String>> = r
        .decisions
        .iter()
        .map(|d| {
            let class = if d.decision == "ask" { "ask" } else { "deny" };
            vec![
                td(&d.when),
                td(&d.event),
                td(&d.tool),
                td(&d.target),
                format!("<td class=\"{class}\">{}</td>", esc(&d.decision)),
                td(&d.reason),
                td(&d.source),
            ]
        })
        .collect();
    body.push_str(&section(
        "decisions",
        &format!("Asks and denies ({})", r.decisions.len()),
        &table(
            "decisions",
            &[
                "when",
                "event",
                "tool",
                "target",
                "decision",
                "reason",
                "policy line",
            ],
            &rows,
            "No ask or deny.",
        ),
    ));

    let rows: Vec<Vec<String>> = r
        .harnesses
        .iter()
        .map(|(h, n)| vec![td(h), num(*n)])
        .collect();
    body.push_str(&section(
        "harnesses",
        "Calls seen per harness",
        &table("harnesses", &["harness", "calls"], &rows, "No call."),
    ));
    let notes: String = r
        .notes
        .iter()
        .map(|n| format!("<p class=\"empty\">{}</p>", esc(n)))
        .collect();
    body.push_str(&notes);
    page(&r.title, "what cuecard did, call by call", &body)
}

#[cfg(test)]
mod tests {
    #[test]
    fn escapes_markup_and_quotes() {
        assert_eq!(
            super::esc("<script>a&'b\"</script>\u{1b}"),
            "&lt;script&gt;a&amp;&#39;b&quot;&lt;/script&gt; "
        );
    }
}
