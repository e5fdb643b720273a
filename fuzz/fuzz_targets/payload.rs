//! The payload reader on arbitrary stdin bytes: never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(p) = cuecard::payload::parse(data) {
        let _ = (p.session_id(), p.cwd(), p.tool_name(), p.tool_input(), p.source(), p.prompt());
        let _ = p.stop_hook_active();
    }
});
