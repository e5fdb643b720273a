//! The output formatting policy: a rewritten config keeps the file's indent
//! (spaces or tabs, detected from its first indented line), its line endings
//! (LF or CRLF), its one-line (compact) layout when it had one, and whether it
//! ended with a newline. A new file gets two spaces and a final newline.
//! The same document and style always render to the same bytes, which is what
//! makes a reinstall byte-identical.

use serde::Serialize;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Style {
    /// The indent unit; empty means one line (compact).
    pub indent: String,
    pub crlf: bool,
    pub final_newline: bool,
}

impl Style {
    /// The style of a new file.
    pub fn new_file() -> Style {
        Style {
            indent: "  ".into(),
            crlf: false,
            final_newline: true,
        }
    }

    /// The style of an existing file's text.
    pub fn detect(text: &str) -> Style {
        let crlf = text.contains("\r\n");
        let final_newline = text.ends_with('\n');
        let body = text.trim();
        if !body.contains('\n') {
            // `{}` alone tells nothing: treat it as a new file's layout.
            if body.len() <= 2 {
                return Style {
                    final_newline: final_newline || body.is_empty(),
                    ..Style::new_file()
                };
            }
            return Style {
                indent: String::new(),
                crlf,
                final_newline,
            };
        }
        let indent = body
            .lines()
            .skip(1)
            .map(|l| l.trim_end_matches('\r'))
            .find_map(|l| {
                let ws: String = l.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
                (!ws.is_empty() && ws.len() < l.len()).then_some(ws)
            })
            .unwrap_or_else(|| "  ".into());
        Style {
            indent,
            crlf,
            final_newline,
        }
    }

    /// Renders `doc` in this style.
    pub fn render(&self, doc: &Value) -> String {
        let mut out = if self.indent.is_empty() {
            serde_json::to_string(doc).unwrap_or_default()
        } else {
            let mut buf = Vec::new();
            let fmt = serde_json::ser::PrettyFormatter::with_indent(self.indent.as_bytes());
            let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
            let _ = doc.serialize(&mut ser);
            String::from_utf8(buf).unwrap_or_default()
        };
        if self.final_newline {
            out.push('\n');
        }
        if self.crlf {
            out = out.replace('\n', "\r\n");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::Style;
    use serde_json::json;

    #[test]
    fn detects_indent_endings_and_layout() {
        let s = Style::detect("{\n    \"a\": 1\n}\n");
        assert_eq!(s.indent, "    ");
        assert!(s.final_newline && !s.crlf);
        let s = Style::detect("{\r\n\t\"a\": 1\r\n}");
        assert_eq!(s.indent, "\t");
        assert!(s.crlf && !s.final_newline);
        let s = Style::detect("{\"a\": {\"b\": 1}}");
        assert_eq!(s.indent, "");
        assert_eq!(s.render(&json!({"a": 1})), "{\"a\":1}");
        assert_eq!(Style::detect("{}\n"), Style::new_file());
    }

    #[test]
    fn a_rendered_file_detects_as_its_own_style() {
        let doc = json!({"hooks": {"A": [{"x": [1, 2]}]}, "b": "c"});
        for style in [
            Style::new_file(),
            Style::detect("{\r\n\t\"a\": 1\r\n}"),
            Style::detect("{\n    \"a\": 1\n}"),
        ] {
            let text = style.render(&doc);
            assert_eq!(Style::detect(&text), style, "{text}");
        }
    }
}
