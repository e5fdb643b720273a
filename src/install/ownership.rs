//! Which hook handlers run cuecard: those whose program is the cuecard
//! binary and whose first argument is `dispatch` ([`is_ours`]); which of
//! them are cuecard's to replace and remove is decided by what install
//! wrote ([`Recorded`]), not by the name. The program and arguments
//! come from the exec form (`command` or `exec`, with `args`) or from the
//! shell form's words (`command`, `bash` or `powershell`, split the way the
//! shell behind it reads them: `sh`, PowerShell's `& "<program>" ...`, cmd's
//! `"<program>" ...`), never from a substring, so `my-cuecard-notes.sh` or
//! `echo cuecard dispatch` stay the operator's. The program is cuecard's
//! when it is the installed binary or any file named `cuecard` (or
//! `cuecard.exe`, in any case), with `/` or `\` as the separator.

use super::shell_words;
use crate::harness::config::Host;
use serde_json::{Map, Value};

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
    ["command", "bash", "powershell", "exec"]
        .iter()
        .find_map(|k| handler.get(*k).and_then(Value::as_str).map(|c| (*k, c)))
        .and_then(|(k, c)| shell_words::split_for(k, c))
}

/// The words the harness starts on `host`: as [`argv`], except that a
/// handler with a line per shell (Copilot) runs its `powershell` line on
/// Windows (`doctor` runs what the harness would).
pub fn argv_on(handler: &Map<String, Value>, host: Host) -> Option<Vec<String>> {
    match handler.get("powershell").and_then(Value::as_str) {
        Some(line) if host == Host::Windows => shell_words::split_for("powershell", line),
        _ => argv(handler),
    }
}

/// Whether `prog` names a cuecard binary by its file name, on any host:
/// `cuecard`, or `cuecard.exe` case-insensitively, after the last `/` or
/// `\`.
pub fn is_cuecard_name(prog: &str) -> bool {
    let name = prog.rsplit(['/', '\\']).next().unwrap_or(prog);
    name == "cuecard" || name.eq_ignore_ascii_case("cuecard.exe")
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
    prog == bin || is_cuecard_name(prog)
}

/// Which handlers in a file are cuecard's to replace and remove.
pub trait Owner {
    fn owns(&self, handler: &Value) -> bool;
}

/// By name: any handler that runs a `cuecard` binary's `dispatch` (see
/// [`is_ours`]). What verify's double-registration check and a form
/// cuecard no longer writes (Kiro's legacy agent file) go by.
impl Owner for str {
    fn owns(&self, handler: &Value) -> bool {
        is_ours(handler, self)
    }
}

/// By what cuecard wrote: the handlers its install record holds for the
/// file; with no record for the file (one lost, or written by a cuecard
/// from before the record), only a handler identical to one install would
/// write now; and any `dispatch` handler whose program `--replace` named.
/// A hand-written entry that runs a cuecard binary (a dev build, a card of
/// the user's own) is the user's.
#[derive(Debug, Clone, Default)]
pub struct Recorded {
    pub recorded: Option<Vec<Value>>,
    pub wanted: Vec<Value>,
    pub replace: Vec<String>,
}

impl Owner for Recorded {
    fn owns(&self, handler: &Value) -> bool {
        let known = match &self.recorded {
            Some(r) => r.contains(handler),
            None => self.wanted.contains(handler),
        };
        known || (!self.replace.is_empty() && self.named(handler))
    }
}

impl Recorded {
    /// Whether `--replace` names the program of this `dispatch` handler.
    fn named(&self, handler: &Value) -> bool {
        handler.as_object().and_then(argv).is_some_and(|a| {
            a.get(1).map(String::as_str) == Some("dispatch") && self.replace.contains(&a[0])
        })
    }
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

    const WIN: &str = r"C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe";

    #[test]
    fn every_hosts_forms_are_recognised() {
        for h in [
            // PowerShell, with the call operator (Cursor, Codex, Gemini ...).
            json!({"command": r#"& "C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe" dispatch --contract cursor postToolUse"#}),
            json!({"command": r#"& 'C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe' dispatch X"#}),
            // cmd's quoting (CodeBuddy).
            json!({"command": r#""C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe" dispatch --contract codebuddy X"#}),
            // Unquoted, as a user may write it.
            json!({"command": r"C:\Tools\cuecard.exe dispatch X"}),
            // Copilot's keys, either alone.
            json!({"type": "command", "powershell": r#"& "C:\Old\CUECARD.EXE" dispatch --contract copilot sessionStart"#}),
            json!({"type": "command", "bash": "'C:/Old/cuecard.exe' dispatch X"}),
            json!({"type": "command", "bash": "\"C:/Users/Zoë Doe/cuecard.exe\" dispatch X", "powershell": r#"& "C:\Users\Zoë Doe\cuecard.exe" dispatch X"#}),
            // The exec form with a Windows path, and a program through PATH.
            json!({"type": "command", "command": WIN, "args": ["dispatch", "SessionStart"]}),
            json!({"command": "& \"cuecard\" dispatch X"}),
            json!({"command": "cuecard.exe dispatch X"}),
        ] {
            assert!(is_ours(&h, "/not/this/one"), "{h}");
        }
        assert!(is_ours(&json!({"command": WIN, "args": ["dispatch"]}), WIN));
    }

    #[test]
    fn a_copilot_entry_runs_its_hosts_line() {
        let h = json!({"bash": "/u/cuecard dispatch X", "powershell": r#"& "C:\u\cuecard.exe" dispatch X"#});
        let h = h.as_object().unwrap();
        let prog = |host| super::argv_on(h, host).unwrap()[0].clone();
        assert_eq!(prog(super::Host::Unix), "/u/cuecard");
        assert_eq!(prog(super::Host::Windows), r"C:\u\cuecard.exe");
    }

    #[test]
    fn windows_lookalikes_stay_the_operators() {
        for h in [
            json!({"command": r#"& "C:\x\cuecard-wrapper.exe" dispatch X"#}),
            json!({"command": r#"& "C:\x\cuecard.exe" dispatch X; Remove-Item -Recurse C:\"#}),
            json!({"command": r#""C:\x\cuecard.exe" dispatch X & del /q C:\"#}),
            json!({"command": r#"& "C:\x\cuecard.exe" explain X"#}),
            json!({"command": r#"Write-Output "C:\x\cuecard.exe dispatch""#}),
            json!({"powershell": r#"& "$env:LOCALAPPDATA\cuecard\cuecard.exe" dispatch X"#}),
            json!({"command": r#""C:\x\cuecard.exe" dispatch X ^& del x"#}),
            json!({"command": r#"& "C:\x\cuecard.exe.bak" dispatch X"#}),
        ] {
            assert!(!is_ours(&h, WIN), "{h}");
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
