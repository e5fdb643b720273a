//! The whole dispatch in-process, as a hook call sees it: any harness's
//! contract (or none) and any of its events, an arbitrary payload, and a
//! project whose files the guards read (a generated file's header, a
//! knowledge base's log, a project card) made of fuzz bytes. Never panics,
//! and no guard panics either (a guard's panic is caught by the dispatcher
//! and recorded; here it fails the run). The answer keeps the hook contract.
#![no_main]

use cuecard::diag::{self, Kind};
use cuecard::dispatch::{self, Request};
use cuecard::harness::{Delivery, HarnessId, Shape};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

/// One scratch project for the process: `.git`, a generated file, a
/// knowledge base, a project card (rewritten from each input).
fn project() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let d = std::env::temp_dir().join(format!("cuecard-fuzz-{}", std::process::id()));
        for sub in [".git", "wiki", ".cuecard/cards", "src", "state"] {
            std::fs::create_dir_all(d.join(sub)).unwrap();
        }
        std::fs::write(d.join("wiki/index.md"), "# index\n").unwrap();
        d
    })
}

/// Splits the input at the first three `\0` bytes: payload, file text,
/// card text; the first byte picks the contract and the event.
fn parts(data: &[u8]) -> Option<(u8, &[u8], &[u8], &[u8], &[u8])> {
    let (&pick, rest) = data.split_first()?;
    let mut it = rest.splitn(4, |&b| b == 0);
    Some((pick, it.next()?, it.next().unwrap_or_default(), it.next().unwrap_or_default(), it.next().unwrap_or_default()))
}

fuzz_target!(|data: &[u8]| {
    let Some((pick, payload, head, log, card)) = parts(data) else { return };
    let root = project();
    let _ = std::fs::write(root.join("src/gen.rs"), head);
    let _ = std::fs::write(root.join("wiki/log.md"), log);
    let _ = std::fs::write(root.join(".cuecard/cards/fuzz.md"), card);

    let harnesses = HarnessId::ALL;
    let n = harnesses.len() + 1;
    let contract = harnesses.get(usize::from(pick) % n).copied();
    let event = match contract {
        Some(h) => {
            let rows = h.spec().events;
            rows[usize::from(pick / n as u8) % rows.len().max(1)].native.to_string()
        }
        None => {
            let all = cuecard::event::EVENTS;
            all[usize::from(pick) % all.len()].name.to_string()
        }
    };
    // The payload as given, with the project's place put in where it is an
    // object (so the file-reading guards look at the files above).
    let input = match serde_json::from_slice::<serde_json::Value>(payload) {
        Ok(serde_json::Value::Object(mut m)) => {
            m.insert("cwd".into(), root.to_string_lossy().into());
            if let Some(serde_json::Value::Object(i)) = m.get_mut("tool_input") {
                if i.get("file_path").is_some_and(|v| v.as_str() == Some("gen")) {
                    i.insert("file_path".into(), root.join("src/gen.rs").to_string_lossy().into());
                }
            }
            serde_json::to_vec(&m).unwrap()
        }
        _ => payload.to_vec(),
    };
    let req = Request {
        event,
        cards: Vec::new(),
        contract,
        // A state root, so that the project's cards are listed and parsed
        // (untrusted, they never fire).
        state_root: Some(root.join("state")),
        once: false,
        unjudged: None,
    };
    let run = dispatch::run(&req, cuecard::payload::parse(&input), None);
    // A row that reads plain text (Kiro) answers with text, not JSON.
    let plain = contract.is_some_and(|h| {
        h.spec()
            .row(&req.event)
            .is_some_and(|r| matches!(r.delivery, Delivery::Context(Shape::PlainText)))
    });
    if let Some(line) = run.answer.as_deref().filter(|_| !plain) {
        assert!(!line.contains('\n'), "one line");
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON");
        assert!(v.is_object(), "one JSON object");
    }
    for f in diag::take() {
        assert!(f.kind != Kind::GuardPanic, "a guard panicked: {}", f.detail);
    }
});
