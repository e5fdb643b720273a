//! The card parser on arbitrary Markdown: never panics, and a card it
//! accepts validates without panicking.
#![no_main]

use cuecard::card::{Origin, parse_card};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    if let Ok(card) = parse_card("fuzz-card", src, Origin::Embedded) {
        let _ = card.validate();
        let _ = card.emitted_text();
    }
});
