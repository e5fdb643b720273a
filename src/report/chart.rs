//! The context curve drawn: inline SVG for the report (one polyline with
//! a vertex per measured call, the two thresholds as dashed lines, the
//! warnings and compactions as marks), and a one-line sparkline for
//! `cuecard status`.

use super::{Report, html::esc};
use crate::text::thousands;
use std::fmt::Write;

const W: f64 = 900.0;
const H: f64 = 280.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 20.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 36.0;

/// The chart as one `<svg>` element; a short paragraph when no size was
/// measured.
pub fn svg(r: &Report) -> String {
    if r.points.is_empty() {
        return "<p class=\"empty\" id=\"no-curve\">No context size was measured in this session (no usage record, no transcript the hook could read).</p>".into();
    }
    let marks = r
        .warnings
        .iter()
        .map(|w| w.0)
        .chain(r.compactions.iter().map(|c| c.x));
    let xs = r.points.iter().map(|p| p.x).chain(marks);
    let (x0, x1) = xs.fold((u64::MAX, 0), |(lo, hi), x| (lo.min(x), hi.max(x)));
    let span = (x1.saturating_sub(x0)).max(1) as f64;
    let ymax = r
        .points
        .iter()
        .map(|p| p.tokens)
        .max()
        .unwrap_or(0)
        .max(r.window)
        .max(1) as f64;
    let px = |x: u64| LEFT + (x.saturating_sub(x0)) as f64 / span * (W - LEFT - RIGHT);
    let py = |t: u64| TOP + (1.0 - t as f64 / ymax) * (H - TOP - BOTTOM);
    let mut o = String::new();
    let _ = write!(
        o,
        "<svg id=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {W} {H}\" width=\"{W}\" height=\"{H}\" role=\"img\" aria-label=\"context size per call\">"
    );
    // Axes.
    let _ = write!(
        o,
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{b}\" x2=\"{r}\" y2=\"{b}\"/><line class=\"axis\" x1=\"{LEFT}\" y1=\"{TOP}\" x2=\"{LEFT}\" y2=\"{b}\"/>",
        b = H - BOTTOM,
        r = W - RIGHT
    );
    for t in [0, ymax as u64 / 2, ymax as u64] {
        let _ = write!(
            o,
            "<text class=\"tick\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LEFT - 6.0,
            py(t) + 4.0,
            thousands(t)
        );
    }
    let _ = write!(
        o,
        "<text class=\"tick\" x=\"{LEFT}\" y=\"{y}\">call {x0}</text><text class=\"tick\" x=\"{r}\" y=\"{y}\" text-anchor=\"end\">call {x1}</text>",
        y = H - BOTTOM + 18.0,
        r = W - RIGHT
    );
    for (i, (pct, tokens)) in r.thresholds.iter().enumerate() {
        let y = py(*tokens);
        let _ = write!(
            o,
            "<line class=\"threshold\" id=\"threshold-{n}\" x1=\"{LEFT}\" y1=\"{y:.1}\" x2=\"{r}\" y2=\"{y:.1}\"/><text class=\"tick threshold-label\" x=\"{r}\" y=\"{ly:.1}\" text-anchor=\"end\">{pct}% ({t} tokens)</text>",
            n = i + 1,
            r = W - RIGHT,
            ly = y - 4.0,
            t = thousands(*tokens)
        );
    }
    for c in &r.compactions {
        let x = px(c.x);
        let _ = write!(
            o,
            "<line class=\"compaction-mark\" x1=\"{x:.1}\" y1=\"{TOP}\" x2=\"{x:.1}\" y2=\"{b}\"><title>compaction after call {n} ({t})</title></line>",
            b = H - BOTTOM,
            n = c.x,
            t = esc(&c.trigger)
        );
    }
    let pts: Vec<String> = r
        .points
        .iter()
        .map(|p| format!("{:.1},{:.1}", px(p.x), py(p.tokens)))
        .collect();
    let _ = write!(
        o,
        "<polyline id=\"context-curve\" class=\"curve\" data-points=\"{}\" points=\"{}\"/>",
        pts.len(),
        pts.join(" ")
    );
    for (x, card) in &r.warnings {
        // On the curve where it fired: the size last known at that call.
        let t = r
            .points
            .iter()
            .take_while(|p| p.x <= *x)
            .last()
            .map_or(0, |p| p.tokens);
        let _ = write!(
            o,
            "<circle class=\"warning-mark\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"6\"><title>warning at call {x}: {}</title></circle>",
            px(*x),
            py(t),
            esc(card)
        );
    }
    o.push_str("</svg>");
    o
}

/// Levels of the Unicode sparkline.
const BLOCKS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
/// Levels of the ASCII one.
const ASCII: [char; 8] = ['_', '.', ',', '-', '~', '=', '*', '#'];

/// `values` as `width` characters at most (each the highest value of its
/// share of the calls), scaled to `top` (the window, or the highest value
/// when that is higher): Unicode blocks, or ASCII with `ascii`.
pub fn sparkline(values: &[u64], top: u64, width: usize, ascii: bool) -> String {
    if values.is_empty() || width == 0 {
        return String::new();
    }
    let top = values.iter().copied().max().unwrap_or(0).max(top).max(1);
    let n = values.len().min(width);
    let levels = if ascii { &ASCII } else { &BLOCKS };
    (0..n)
        .map(|i| {
            let (a, b) = (
                i * values.len() / n,
                ((i + 1) * values.len() / n).max(i * values.len() / n + 1),
            );
            let v = values[a..b].iter().copied().max().unwrap_or(0);
            let level = (v as u128 * 7).div_ceil(top as u128) as usize;
            levels[level.min(7)]
        })
        .collect()
}

/// Whether a terminal can show the Unicode sparkline: stdout is one and
/// the locale says UTF-8 (`LC_ALL`, else `LC_CTYPE`, else `LANG`).
pub fn unicode_terminal() -> bool {
    use std::io::IsTerminal;
    if !std::io::stdout().is_terminal() {
        return false;
    }
    let locale = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|k| std::env::var(k).ok().filter(|v| !v.is_empty()))
        .unwrap_or_default()
        .to_ascii_lowercase();
    locale.contains("utf-8") || locale.contains("utf8")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sparkline_scales_to_the_window_and_keeps_the_peaks() {
        assert_eq!(sparkline(&[], 10, 8, false), "");
        assert_eq!(sparkline(&[0, 25, 50, 75, 100], 100, 10, false), "▁▃▅▇█");
        assert_eq!(sparkline(&[0, 25, 50, 75, 100], 100, 10, true), "_,~*#");
        // Scaled to the window: a small session stays low.
        assert_eq!(sparkline(&[10, 20], 200, 10, true), "..");
        // Narrowed: each character is the peak of its share.
        let v: Vec<u64> = (0..100).map(|i| if i == 57 { 100 } else { 1 }).collect();
        let s = sparkline(&v, 100, 10, true);
        assert_eq!(s.chars().count(), 10);
        assert_eq!(s.matches('#').count(), 1, "{s}");
    }
}
