//! Tool calls the scripted model makes, as candidate lists: the mock uses the
//! first candidate whose name the request offers, so one script serves every
//! harness (Claude Code `Bash`/`Write`/`Edit`/`Read`, Codex `exec_command`
//! and `apply_patch`, Gemini and Qwen `run_shell_command`/`write_file`/
//! `replace`/`read_file`, Copilot `bash`/`create`/`edit`/`view`, OpenCode
//! `bash`/`write`/`edit`/`read` (pi's `read` and `write` too, with `path`;
//! pi's strict `edit` gets its own candidate, picked by the offered schema),
//! Cline `run_commands`/`editor`/`read_files`, Factory Droid `Execute`/
//! `Create`/`Edit` (its `Edit` picked by its schema)).

use serde_json::{Value, json};

/// Runs a shell command.
pub fn shell(cmd: &str) -> Value {
    json!([
        {"name": "Bash", "input": {"command": cmd, "description": "run a command"}},
        {"name": "run_shell_command", "input": {"command": cmd, "description": "run a command", "is_background": false}},
        {"name": "exec_command", "input": {"cmd": cmd}},
        {"name": "shell_command", "input": {"command": cmd}},
        {"name": "shell", "input": {"command": ["bash", "-lc", cmd]}},
        {"name": "bash", "input": {"command": cmd, "description": "run a command"}},
        {"name": "run_commands", "input": {"commands": [cmd]}},
        {"name": "Execute", "input": {"summary": "Run the scripted command", "command": cmd,
                                      "riskLevel": "low", "riskLevelReason": "a scripted test step"}}
    ])
}

/// Writes a whole file (absolute path).
pub fn write(path: &str, content: &str) -> Value {
    let patch = format!(
        "*** Begin Patch\n*** Add File: {path}\n{}*** End Patch\n",
        content
            .lines()
            .map(|l| format!("+{l}\n"))
            .collect::<String>()
    );
    let mut c = vec![
        json!({"name": "Write", "input": {"file_path": path, "content": content}}),
        json!({"name": "Create", "input": {"file_path": path, "content": content}}),
        json!({"name": "write_file", "input": {"file_path": path, "content": content}}),
        json!({"name": "create", "input": {"path": path, "file_text": content}}),
        json!({"name": "write", "input": {"filePath": path, "path": path, "content": content}}),
        json!({"name": "apply_patch", "input": patch}),
        json!({"name": "editor", "input": {"path": path, "new_text": content}}),
    ];
    c.extend(fallback(&format!(
        "cat > '{path}' <<'CUECARD_E2E_EOF'\n{content}CUECARD_E2E_EOF"
    )));
    Value::Array(c)
}

/// Replaces `old` with `new` in a file (absolute path).
pub fn edit(path: &str, old: &str, new: &str) -> Value {
    let patch =
        format!("*** Begin Patch\n*** Update File: {path}\n@@\n-{old}\n+{new}\n*** End Patch\n");
    let mut c = vec![
        json!({"name": "Edit", "input": {"file_path": path, "old_string": old, "new_string": new}}),
        // Factory Droid's `Edit` (`old_str` / `new_str`), chosen by its schema.
        json!({"name": "Edit", "input": {"file_path": path, "old_str": old, "new_str": new}}),
        json!({"name": "replace", "input": {"file_path": path, "old_string": old, "new_string": new, "instruction": "update the line"}}),
        json!({"name": "edit", "input": {"file_path": path, "old_string": old, "new_string": new, "path": path, "old_str": old, "new_str": new,
                                         "filePath": path, "oldString": old, "newString": new}}),
        // pi's `edit` (strict: `path` and `edits[]` only), chosen where the
        // one above does not fit the offered schema.
        json!({"name": "edit", "input": {"path": path, "edits": [{"oldText": old, "newText": new}]}}),
        json!({"name": "apply_patch", "input": patch}),
        json!({"name": "editor", "input": {"path": path, "old_text": old, "new_text": new}}),
    ];
    c.extend(fallback(&format!(
        "python3 - <<'CUECARD_E2E_EOF'\nimport pathlib\np = pathlib.Path('{path}')\np.write_text(p.read_text().replace({old:?}, {new:?}))\nCUECARD_E2E_EOF"
    )));
    Value::Array(c)
}

/// Reads a file (absolute path).
pub fn read(path: &str) -> Value {
    let mut c = vec![
        json!({"name": "Read", "input": {"file_path": path}}),
        json!({"name": "read_file", "input": {"file_path": path, "absolute_path": path}}),
        json!({"name": "view", "input": {"path": path}}),
        json!({"name": "read", "input": {"filePath": path, "path": path}}),
        json!({"name": "read_files", "input": {"files": [{"path": path}]}}),
    ];
    c.extend(fallback(&format!("cat '{path}'")));
    Value::Array(c)
}

fn fallback(cmd: &str) -> Vec<Value> {
    shell(cmd).as_array().cloned().unwrap_or_default()
}

/// A tool turn, with reported usage (Anthropic style).
pub fn turn(tool: Value, usage: Option<(u64, u64)>) -> Value {
    let mut t = json!({ "tool": tool });
    if let Some((input, cache_read)) = usage {
        // Reported usage is read back from the harness's transcript, which
        // it writes asynchronously: answer at a model's pace, not a mock's.
        t["delay_ms"] = json!(250);
        t["usage"] = json!({"input_tokens": input, "cache_read_input_tokens": cache_read, "output_tokens": 120});
    }
    t
}

/// A closing text turn.
pub fn text(t: &str) -> Value {
    json!({ "text": t })
}
