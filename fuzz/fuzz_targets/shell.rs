//! The shell reader and the guards that read commands, on arbitrary command
//! lines: never panics, stays within its bounds, and every PreToolUse guard
//! judges what it read without panicking (issue 13: find/xargs/parallel,
//! interpreter one-liners, the working directory a chain moves to, nesting).
//! The payload's `cwd` is a directory that does not exist, so no guard reads
//! a real file.
#![no_main]

use cuecard::context::Ctx;
use cuecard::shell::{self, Cwd, MAX_COMMANDS};
use libfuzzer_sys::fuzz_target;
use serde_json::json;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    for cmds in [shell::parse(&text), shell::parse_powershell(&text)] {
        assert!(cmds.len() <= MAX_COMMANDS);
        for c in &cmds {
            let _ = (c.program(), c.args());
            for w in &c.argv {
                let _ = c.cwd.resolve(w);
                let _ = Cwd::Start.join(w);
            }
            let _ = shell::found_paths(&c.argv);
        }
    }
    let Some(event) = cuecard::event::lookup("PreToolUse") else {
        return;
    };
    for tool in ["Bash", "PowerShell"] {
        let v = json!({
            "session_id": "fuzz",
            "cwd": "/nonexistent-cuecard-fuzz/project",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": {"command": text},
        });
        let Ok(payload) = cuecard::payload::parse(v.to_string().as_bytes()) else {
            continue;
        };
        let ctx = Ctx::new(event, &payload, None);
        for guard in cuecard::guards::GUARDS {
            if guard.events().contains(&"PreToolUse") {
                let _ = guard.check(&ctx);
            }
        }
    }
});
