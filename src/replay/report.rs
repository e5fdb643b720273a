//! The replay, told to a human (one block per turn) or as JSON for tools.

use super::Replay;
use crate::text::thousands;

/// `turn 2` or `turns 2, 5` (each turn once).
fn turns_list(v: &[usize]) -> String {
    let mut v = v.to_vec();
    v.dedup();
    let list = v
        .iter()
        .map(|t| t.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    format!("{} {list}", if v.len() == 1 { "turn" } else { "turns" })
}

pub fn human(r: &Replay) -> String {
    let mut o = String::new();
    let fired: usize = r.turns.iter().map(|t| t.firings.len()).sum();
    o.push_str(&format!(
        "cuecard replay: {} ({} transcript, {} {}{})\n",
        r.source,
        r.format.harness(),
        thousands(r.records as u64),
        if r.records == 1 { "record" } else { "records" },
        if r.skipped_lines > 0 {
            format!(
                ", {} skipped",
                crate::text::count(r.skipped_lines, "unreadable line", "unreadable lines")
            )
        } else {
            String::new()
        }
    ));
    o.push_str(&format!(
        "{} {}, {} {} replayed with the shipped cards, in a throw-away state directory\n",
        thousands(r.tool_calls as u64),
        if r.tool_calls == 1 {
            "tool call"
        } else {
            "tool calls"
        },
        thousands(r.hook_calls as u64),
        if r.hook_calls == 1 {
            "hook call"
        } else {
            "hook calls"
        },
    ));
    for t in &r.turns {
        turn(&mut o, t);
    }
    totals(&mut o, r, fired);
    o
}

/// One turn: its prompt and context size, its compactions (with what the
/// recovery carried), and each card that fired, with why.
fn turn(o: &mut String, t: &super::Turn) {
    o.push('\n');
    let head = if t.turn == 0 {
        "before the first prompt".to_string()
    } else {
        format!("turn {}  \"{}\"", t.turn, t.prompt)
    };
    o.push_str(&head);
    match (t.context_tokens, t.context_last) {
        (Some(peak), Some(last)) if last < peak => o.push_str(&format!(
            "  (context peaked at {} tokens, ended at {})",
            thousands(peak),
            thousands(last)
        )),
        (Some(peak), _) => o.push_str(&format!("  (context up to {} tokens)", thousands(peak))),
        _ => {}
    }
    o.push('\n');
    // Told in time: a compaction after the firings of the hook calls
    // before it, and before those of the calls after it.
    let w = t.firings.iter().map(|f| f.card.len()).max().unwrap_or(0);
    let mut next = 0;
    for f in &t.firings {
        while next < t.compactions.len() && t.compaction_calls[next] < f.hook_call {
            compaction(o, t, next);
            next += 1;
        }
        let call = if f.call.is_empty() {
            f.event.clone()
        } else {
            format!("{} {}", f.event, f.call)
        };
        o.push_str(&format!(
            "  {:w$}  +{} chars, ~{} tokens  on {call}{}\n      why: {}\n",
            f.card,
            thousands(f.chars as u64),
            thousands(f.tokens as u64),
            if f.warning {
                "  [compaction warning]"
            } else {
                ""
            },
            f.why
        ));
    }
    for i in next..t.compactions.len() {
        compaction(o, t, i);
    }
    if t.firings.is_empty() {
        o.push_str(&format!(
            "  nothing fired ({})\n",
            crate::text::count(t.hook_calls, "hook call", "hook calls")
        ));
    }
}

/// The turn's `i`th compaction, with what the recovery after it carried.
fn compaction(o: &mut String, t: &super::Turn, i: usize) {
    o.push_str(&format!("  compaction ({})\n", t.compactions[i]));
    if let Some(rec) = t.recoveries.get(i) {
        o.push_str(&recovery(rec));
    }
}

/// The replay's totals: cards fired, what they added, and the turns of the
/// compaction warnings and compactions.
fn totals(o: &mut String, r: &Replay, fired: usize) {
    o.push_str(&format!(
        "\ntotal: {} fired, {} characters (~{} tokens) added over {} {}\n",
        crate::text::count(fired, "card", "cards"),
        thousands(r.total_chars as u64),
        thousands(r.total_tokens as u64),
        thousands(r.hook_calls as u64),
        if r.hook_calls == 1 {
            "hook call"
        } else {
            "hook calls"
        },
    ));
    o.push_str(&format!(
        "compaction warnings: {}\n",
        if r.warnings_at.is_empty() {
            "none".to_string()
        } else {
            turns_list(&r.warnings_at)
        }
    ));
    o.push_str(&format!(
        "compactions: {}\n",
        if r.compactions_at.is_empty() {
            "none".to_string()
        } else {
            turns_list(&r.compactions_at)
        }
    ));
}

/// What the recovery after a compaction carried, indented under it.
fn recovery(rec: &super::recovery::Recovery) -> String {
    let Some(text) = &rec.carried else {
        return "    the recovery carries no hand-off: no note this session wrote after a warning, nor a plan it wrote, can be read\n".to_string();
    };
    let mut o = String::from("    the recovery carries:\n");
    for line in text.lines() {
        o.push_str(&format!("      {line}\n"));
    }
    o
}

pub fn json(r: &Replay) -> String {
    serde_json::to_string_pretty(r).unwrap_or_else(|_| "{}".into())
}

#[cfg(test)]
mod tests {
    #[test]
    fn thousands_separators() {
        assert_eq!(super::thousands(0), "0");
        assert_eq!(super::thousands(999), "999");
        assert_eq!(super::thousands(1000), "1,000");
        assert_eq!(super::thousands(1234567), "1,234,567");
    }
}
