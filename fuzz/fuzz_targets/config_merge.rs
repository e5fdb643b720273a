//! The config merge on arbitrary config text: whatever the operator's file
//! holds, the merge never panics; a file it accepts comes back unchanged
//! after install then uninstall; a reinstall changes nothing; the rendered
//! text parses back to the same document.
#![no_main]

use cuecard::install::merge::{self, Entry, Layout};
use cuecard::install::{lossless, style::Style, words};
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

const BIN: &str = "/opt/bin/cuecard";

fn entries(layout: Layout) -> Vec<Entry> {
    ["SessionStart", "PostToolUse", "Stop"]
        .iter()
        .map(|e| {
            let mut h = json!({"type": "command", "command": format!("{BIN} dispatch {e} card"), "timeout": 10});
            if layout == Layout::Flat {
                h["matcher"] = json!("Bash");
            }
            Entry {
                event: e.to_string(),
                matcher: Some("Bash".into()),
                handler: h.as_object().unwrap().clone(),
            }
        })
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let _ = words::split(text);
    if lossless::check(text).is_err() {
        return;
    }
    let Ok(orig) = serde_json::from_str::<Value>(text) else { return };
    let rendered = Style::detect(text).render(&orig);
    assert_eq!(serde_json::from_str::<Value>(&rendered).unwrap(), orig);
    for layout in [Layout::Grouped, Layout::Flat] {
        let mut base = orig.clone();
        if merge::uninstall(&mut base, layout, BIN).is_err() {
            continue;
        }
        let mut doc = orig.clone();
        if merge::install(&mut doc, layout, BIN, &entries(layout)).is_err() {
            assert_eq!(doc, orig, "a refused merge changes nothing");
            continue;
        }
        assert_eq!(merge::ours(&doc, layout, BIN).len(), 3);
        let once = doc.clone();
        merge::install(&mut doc, layout, BIN, &entries(layout)).unwrap();
        assert_eq!(doc, once, "reinstall is a no-op");
        merge::uninstall(&mut doc, layout, BIN).unwrap();
        // Lists the operator left empty and cuecard filled are emptied by the
        // uninstall and go (a documented edge); compare where there were none.
        let had_empty = orig.get("hooks").and_then(Value::as_object).is_some_and(|h| {
            h.is_empty() || h.values().any(|v| v.as_array().is_some_and(|a| a.is_empty()))
        });
        if !had_empty {
            assert_eq!(doc, base, "install then uninstall leaves the operator's config");
        }
    }
});
