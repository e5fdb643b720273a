//! Which hook handlers are cuecard's: those whose program is the cuecard
//! binary and whose first argument is `dispatch`. The program and arguments
//! come from the exec form (`command` or `exec`, with `args`) or from the
//! shell form's words (`command` or `bash`), never from a substring, so
//! `my-cuecard-notes.sh` or `echo cuecard dispatch` stay the operator's.

use super::words;
use serde_json::{Map, Value};
use std::path::Path;

/// The program and its arguments as the harness would start them.
pub fn argv(handler: &Map<String, Value>) -> Option<Vec<String>> {
    // A list item (Kiro V3) holds its command in `action`.
    if let Some(Value::Object(action)) = handler.get("action") {
        return (action.get("type").and_then(Value::as_str) == Some("command"))
            .then(|| argv(action))
            .flatten();
    }
    if let Some(Value::Array(args)) = handler.get("args") {
        let prog = ["command", "exec"]
            .iter()
            .find_map(|k| handler.get(*k).and_then(Value::as_str))?;
        let mut out = vec![prog.to_string()];
        for a in args {
            out.push(a.as_str()?.to_string());
        }
        return Some(out);
    }
    ["command", "bash", "exec"]
        .iter()
        .find_map(|k| handler.get(*k).and_then(Value::as_str))
        .and_then(words::split)
}

/// Whether `handler` is a cuecard registration. `bin` is the installed
/// binary; a binary named `cuecard` elsewhere (an install from another
/// location, or `cuecard` found on PATH) is cuecard too, so an upgrade that
/// moved the binary replaces the old entries instead of doubling them.
pub fn is_ours(handler: &Value, bin: &str) -> bool {
    let Some(h) = handler.as_object() else {
        return false;
    };
    let Some(argv) = argv(h) else {
        return false;
    };
    if argv.get(1).map(String::as_str) != Some("dispatch") {
        return false;
    }
    let prog = argv[0].as_str();
    prog == bin || Path::new(prog).file_name().is_some_and(|n| n == "cuecard")
}

#[cfg(test)]
mod tests {
    use super::is_ours;
    use serde_json::json;

    const BIN: &str = "/opt/bin/cuecard";

    #[test]
    fn exec_and_shell_forms_are_recognised() {
        for h in [
            json!({"type": "command", "command": BIN, "args": ["dispatch", "SessionStart"]}),
            json!({"type": "command", "exec": BIN, "args": ["dispatch"]}),
            json!({"type": "command", "command": "/opt/bin/cuecard dispatch --contract codex SessionStart"}),
            json!({"command": "\"/opt/bin/cuecard\" dispatch X"}),
            json!({"bash": "/old/place/cuecard dispatch X"}),
            json!({"command": "cuecard dispatch X"}),
            json!({"name": "cuecard X", "trigger": "X", "action": {"type": "command", "command": "/opt/bin/cuecard dispatch --contract kiro X"}}),
        ] {
            assert!(is_ours(&h, BIN), "{h}");
        }
    }

    #[test]
    fn lookalikes_stay_the_operators() {
        for h in [
            json!({"command": "~/bin/my-cuecard-notes.sh"}),
            json!({"command": "/opt/bin/cuecard-wrapper dispatch X"}),
            json!({"command": "echo /opt/bin/cuecard dispatch"}),
            json!({"command": "/opt/bin/cuecard dispatch X; rm -rf /"}),
            json!({"command": "/opt/bin/cuecard explain X"}),
            json!({"command": BIN, "args": ["explain", "X"]}),
            json!({"type": "prompt", "prompt": "cuecard dispatch"}),
            json!({"trigger": "X", "action": {"type": "agent", "prompt": "cuecard dispatch X"}}),
            json!("cuecard dispatch"),
        ] {
            assert!(!is_ours(&h, BIN), "{h}");
        }
    }
}
