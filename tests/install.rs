//! Installation into every harness, through the real binary: a temporary
//! HOME and project pre-filled with realistic foreign configuration, then
//! install, reinstall (byte-identical), verify, uninstall (the operator's
//! file back), and every refusal.

mod support;

use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use support::Sandbox;

struct Case {
    harness: &'static str,
    scope: &'static str,
    /// Relative to HOME (user) or the project (project).
    rel: &'static str,
    /// The operator's file, with odd formatting and hooks on the same events.
    foreign: &'static str,
}

const CLAUDE: &str = "{\n    \"model\": \"opus\",\n    \"hooks\": {\n        \"SessionStart\": [\n            {\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/my-cuecard-notes.sh\"}]}\n        ],\n        \"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"audit.sh\", \"timeout\": 5}]}]\n    },\n    \"permissions\": {\"allow\": [\"Bash(ls:*)\"], \"deny\": []}\n}\n";
const CODEX: &str = "{\"description\": \"team hooks\", \"hooks\": {\"SessionStart\": [{\"matcher\": \"startup|resume\", \"hooks\": [{\"type\": \"command\", \"command\": \"python3 ~/.codex/hooks/session.py\", \"timeout\": 30, \"statusMessage\": \"loading\"}]}]}}";
const GEMINI: &str = "{\r\n\t\"theme\": \"GitHub\",\r\n\t\"hooks\": {\r\n\t\t\"SessionStart\": [{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\", \"name\": \"greeter\", \"timeout\": 60000}]}],\r\n\t\t\"AfterTool\": [{\"matcher\": \"write_file\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}]\r\n\t},\r\n\t\"hooksConfig\": {\"notifications\": true},\r\n\t\"general\": {\"vimMode\": true}\r\n}";
const QWEN: &str = "{\n  \"security\": {\"auth\": {\"selectedType\": \"openai\"}},\n  \"hooks\": {\n    \"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/my-cuecard-notes.sh\", \"timeout\": 30}]}],\n    \"PostToolUse\": [{\"matcher\": \"^write_file$\", \"hooks\": [{\"type\": \"command\", \"command\": \"lint.sh\"}]}]\n  }\n}\n";
const CODEBUDDY: &str = "{\n \"hooks\": {\"SessionStart\": [{\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"/usr/local/bin/cuecard-wrapper dispatch SessionStart\"}]}]},\n \"env\": {\"FOO\": \"1\"}\n}\n";
const FACTORY: &str = "{\n  \"model\": \"claude-opus-5\",\n  \"hooks\": {\"PostToolUse\": [{\"matcher\": \"Create|Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"\\\"$FACTORY_PROJECT_DIR\\\"/fmt.sh\", \"timeout\": 30}]}]}\n}\n";
const QODER: &str = "{\n  \"hooks\": {\"PreToolUse\": [{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/.qoder/hooks/block-rm.sh\"}]}]}\n}\n";
const CRUSH: &str = "{\n  \"$schema\": \"https://charm.land/crush.json\",\n  \"providers\": {\"local\": {\"type\": \"openai-compat\", \"base_url\": \"http://127.0.0.1:11434/v1\", \"api_key\": \"$LOCAL_KEY\", \"models\": [{\"id\": \"qwen3\", \"name\": \"Qwen 3\"}]}},\n  \"hooks\": {\n    \"PreToolUse\": [{\"name\": \"no-haskell\", \"matcher\": \"^bash$\", \"command\": \"./hooks/no-haskell.sh\", \"timeout\": 5}]\n  },\n  \"options\": {\"debug\": false}\n}\n";
const CURSOR: &str = "{\n  \"version\": 1,\n  \"hooks\": {\n    \"sessionStart\": [{\"command\": \"./hooks/welcome.sh\"}],\n    \"afterFileEdit\": [{\"command\": \"./hooks/format.sh\", \"timeout\": 20}]\n  }\n}\n";
const DEVIN: &str = "{\n  \"permissions\": {\"allow\": [\"Read(**)\", \"Exec(git)\"]},\n  \"hooks\": {\"SessionStart\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"./scripts/hello.sh\", \"timeout\": 10}]}]}\n}\n";
const KIRO: &str = "{\n  \"version\": \"v1\",\n  \"hooks\": [\n    {\"name\": \"lint-on-save\", \"trigger\": \"PostFileSave\", \"matcher\": \"\\\\.ts$\", \"action\": {\"type\": \"command\", \"command\": \"npm run lint\"}, \"timeout\": 30, \"enabled\": true},\n    {\"name\": \"remind-tests\", \"trigger\": \"PreToolUse\", \"action\": {\"type\": \"agent\", \"prompt\": \"cuecard dispatch is not a command here\"}}\n  ]\n}\n";
const KIRO_AGENT: &str = "{\n  \"name\": \"cuecard\",\n  \"description\": \"my agent\",\n  \"prompt\": \"Be terse.\",\n  \"tools\": [\"fs_read\", \"execute_bash\"],\n  \"hooks\": {\"agentSpawn\": [{\"command\": \"git status --short\"}], \"preToolUse\": [{\"matcher\": \"execute_bash\", \"command\": \"audit.sh\"}]}\n}\n";
const COPILOT_OTHER: &str = "{\"version\": 1, \"hooks\": {\"preToolUse\": [{\"type\": \"command\", \"bash\": \"./audit.sh\", \"timeoutSec\": 5}]}}\n";

fn cases() -> Vec<Case> {
    vec![
        Case {
            harness: "claude-code",
            scope: "user",
            rel: ".claude/settings.json",
            foreign: CLAUDE,
        },
        Case {
            harness: "claude-code",
            scope: "project",
            rel: ".claude/settings.json",
            foreign: CLAUDE,
        },
        Case {
            harness: "codex",
            scope: "user",
            rel: ".codex/hooks.json",
            foreign: CODEX,
        },
        Case {
            harness: "codex",
            scope: "project",
            rel: ".codex/hooks.json",
            foreign: CODEX,
        },
        Case {
            harness: "qwen",
            scope: "user",
            rel: ".qwen/settings.json",
            foreign: QWEN,
        },
        Case {
            harness: "codebuddy",
            scope: "user",
            rel: ".codebuddy/settings.json",
            foreign: CODEBUDDY,
        },
        Case {
            harness: "factory",
            scope: "project",
            rel: ".factory/settings.json",
            foreign: FACTORY,
        },
        Case {
            harness: "qoder",
            scope: "user",
            rel: ".qoder/settings.json",
            foreign: QODER,
        },
        Case {
            harness: "crush",
            scope: "user",
            rel: ".config/crush/crush.json",
            foreign: CRUSH,
        },
        Case {
            harness: "crush",
            scope: "project",
            rel: "crush.json",
            foreign: CRUSH,
        },
        Case {
            harness: "gemini",
            scope: "user",
            rel: ".gemini/settings.json",
            foreign: GEMINI,
        },
        Case {
            harness: "gemini",
            scope: "project",
            rel: ".gemini/settings.json",
            foreign: GEMINI,
        },
        Case {
            harness: "cursor",
            scope: "user",
            rel: ".cursor/hooks.json",
            foreign: CURSOR,
        },
        Case {
            harness: "cursor",
            scope: "project",
            rel: ".cursor/hooks.json",
            foreign: CURSOR,
        },
        Case {
            harness: "devin",
            scope: "project",
            rel: ".devin/config.local.json",
            foreign: DEVIN,
        },
        Case {
            harness: "devin",
            scope: "user",
            rel: ".config/devin/config.json",
            foreign: DEVIN,
        },
        Case {
            harness: "kiro",
            scope: "user",
            rel: ".kiro/hooks/cuecard.json",
            foreign: KIRO,
        },
        Case {
            harness: "kiro",
            scope: "project",
            rel: ".kiro/hooks/cuecard.json",
            foreign: KIRO,
        },
    ]
}

/// Where install keeps the backup of `path`: beside it, or, for a file in
/// a repository, in the data directory under the FNV-1a of its path.
fn backup_of(sb: &Sandbox, path: &Path) -> PathBuf {
    let name = format!(
        "{}.cuecard.bak",
        path.file_name().unwrap().to_string_lossy()
    );
    if !path.starts_with(sb.project()) {
        return path.with_file_name(name);
    }
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in path.to_string_lossy().as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    sb.data().join(format!("install/backups/{h:016x}-{name}"))
}

fn path_of(sb: &Sandbox, c: &Case) -> PathBuf {
    match c.scope {
        "user" => sb.home().join(c.rel),
        _ => sb.project().join(c.rel),
    }
}

fn put(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A JSON file, parsed.
fn read_json(path: impl AsRef<Path>) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn install(sb: &Sandbox, harness: &str, scope: &str) -> support::Output {
    sb.test()
        .args(["install", "--harness", harness, "--scope", scope])
        .run()
}

/// Records, the way each harness does once its user trusted them, trust in
/// cuecard's installed hooks: Codex's `[hooks.state."<file>:<event>:..."]`
/// in config.toml (and the project), Copilot's `trusted_folders`, Gemini's
/// trustedFolders.json.
fn trust_as_the_harnesses_do(sb: &Sandbox) {
    let mut toml = format!(
        "[projects.\"{}\"]\ntrust_level = \"trusted\"\n",
        sb.project().display()
    );
    for file in [
        sb.home().join(".codex/hooks.json"),
        sb.project().join(".codex/hooks.json"),
    ] {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let doc: Value = serde_json::from_str(&text).unwrap();
        for event in doc["hooks"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(e, _)| e)
        {
            let snake: String = event
                .chars()
                .enumerate()
                .flat_map(|(i, c)| {
                    let lower = c.to_ascii_lowercase();
                    if c.is_ascii_uppercase() && i > 0 {
                        vec!['_', lower]
                    } else {
                        vec![lower]
                    }
                })
                .collect();
            toml.push_str(&format!(
                "[hooks.state.\"{}:{snake}:0:0\"]\ntrusted_hash = \"sha256:00\"\n",
                file.display()
            ));
        }
    }
    put(&sb.home().join(".codex/config.toml"), &toml);
    put(
        &sb.home().join(".copilot/config.json"),
        &json!({"trusted_folders": [sb.project()]}).to_string(),
    );
    put(
        &sb.home().join(".gemini/trustedFolders.json"),
        &json!({ sb.project().to_string_lossy(): "TRUST_FOLDER" }).to_string(),
    );
}

fn bin() -> String {
    support::bin()
        .canonicalize()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// cuecard's handlers in a parsed config (grouped, flat, or a list whose
/// items hold their command in `action`: Kiro V3).
fn our_handlers(doc: &Value) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for item in doc["hooks"].as_array().into_iter().flatten() {
        let cmd = item["action"]["command"].as_str().unwrap_or_default();
        if is_cuecard(cmd) {
            let mut h = item.clone();
            h["command"] = json!(cmd);
            out.push((item["trigger"].as_str().unwrap().to_string(), h));
        }
    }
    for (event, list) in doc["hooks"].as_object().into_iter().flatten() {
        for item in list.as_array().into_iter().flatten() {
            let hs: Vec<&Value> = match item.get("hooks").and_then(Value::as_array) {
                Some(hs) => hs.iter().collect(),
                None => vec![item],
            };
            for h in hs {
                // Copilot's line for sh is under `bash`.
                let cmd = h["command"].as_str().or(h["bash"].as_str());
                if is_cuecard(cmd.unwrap_or_default()) {
                    out.push((event.clone(), h.clone()));
                }
            }
        }
    }
    out
}

/// Whether a command starts this machine's binary, or `cuecard` through PATH.
fn is_cuecard(cmd: &str) -> bool {
    cmd.starts_with(&bin()) || cmd == "cuecard" || cmd.starts_with("cuecard ")
}

/// The program install names: this machine's binary in a user's own file,
/// `cuecard` through PATH in a project file a team commits (Devin's project
/// file is its local, git-ignored one).
fn program_for(c: &Case) -> String {
    if c.scope == "project" && c.harness != "devin" {
        "cuecard".into()
    } else {
        bin()
    }
}

/// The harness's format, as its documentation describes it.
fn check_format(c: &Case, doc: &Value) {
    let ours = our_handlers(doc);
    assert!(
        !ours.is_empty(),
        "{}: no cuecard entry in {doc:#}",
        c.harness
    );
    for (event, h) in &ours {
        let cmd = h["command"].as_str().unwrap();
        match c.harness {
            "claude-code" => {
                assert_eq!(cmd, program_for(c), "exec form: command is the program");
                let args: Vec<&str> = h["args"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|a| a.as_str().unwrap())
                    .collect();
                assert_eq!(args[0], "dispatch");
                assert_eq!(args[1], event, "no --contract for claude-code");
                assert_eq!(h["timeout"], 10, "seconds");
                assert_eq!(h["type"], "command");
            }
            _ => {
                assert!(h.get("args").is_none(), "shell form");
                let want = format!(
                    "{} dispatch --contract {} {event} ",
                    program_for(c),
                    c.harness
                );
                assert!(cmd.starts_with(&want), "{cmd} starts with {want}");
            }
        }
        match c.harness {
            "codex" | "codebuddy" | "devin" | "cursor" | "factory" | "qoder" | "crush" => {
                assert_eq!(h["timeout"], 10, "{}: seconds", c.harness)
            }
            "gemini" => assert_eq!(h["timeout"], 10000, "gemini: milliseconds"),
            "kiro" => {
                assert_eq!(h["timeout"], 10, "kiro V3: seconds");
                assert_eq!(h["enabled"], true);
                assert_eq!(h["action"]["type"], "command");
                assert_eq!(h["name"], format!("cuecard {event}"));
            }
            "qwen" => assert!(
                h.get("timeout").is_none(),
                "qwen: unit disputed, none written"
            ),
            _ => {}
        }
        match c.harness {
            "cursor" => assert!(
                event.chars().next().unwrap().is_lowercase(),
                "camelCase {event}"
            ),
            _ => assert!(event.chars().next().unwrap().is_uppercase(), "{event}"),
        }
    }
    match c.harness {
        "codex" => {
            let keys: Vec<&String> = doc.as_object().unwrap().keys().collect();
            assert!(
                keys.iter().all(|k| *k == "description" || *k == "hooks"),
                "codex root keys: {keys:?}"
            );
        }
        "gemini" => assert_eq!(doc["hooksConfig"]["enabled"], true, "hooks enabled"),
        "cursor" => assert_eq!(doc["version"], 1),
        // Flat `{command, matcher, timeout}` entries, no `type`, and only
        // PreToolUse: the one event Crush fires through 0.96.1 (0.99 rejects
        // an event name it does not know).
        "crush" => {
            for (event, h) in &ours {
                assert_eq!(event, "PreToolUse", "crush: {doc:#}");
                assert!(h.get("type").is_none(), "crush: untyped {h}");
                assert!(h.get("hooks").is_none(), "crush: flat {h}");
                assert_eq!(
                    h["matcher"], "^(?:bash|write|edit|multiedit|view|grep)$",
                    "crush: an anchored regex of Crush's tool names"
                );
            }
        }
        "kiro" => assert_eq!(doc["version"], "v1"),
        _ => {}
    }
}

#[test]
fn every_harness_install_reinstall_verify_uninstall_over_foreign_config() {
    for c in cases() {
        let sb = Sandbox::new();
        let path = path_of(&sb, &c);
        put(&path, c.foreign);
        let foreign_doc: Value = serde_json::from_str(c.foreign).unwrap();

        let out = install(&sb, c.harness, c.scope);
        assert!(
            out.stdout.contains("updated"),
            "{}: {}",
            c.harness,
            out.stdout
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let doc: Value = serde_json::from_str(&text).unwrap();
        check_format(&c, &doc);
        // Every operator key and hook is still there.
        for (k, v) in foreign_doc.as_object().unwrap() {
            if k != "hooks" && k != "hooksConfig" {
                assert_eq!(&doc[k], v, "{}: key {k}", c.harness);
            }
        }
        for (i, item) in foreign_doc["hooks"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            assert_eq!(
                &doc["hooks"][i], item,
                "{}: operator item {i} kept in place",
                c.harness
            );
        }
        for (event, list) in foreign_doc["hooks"].as_object().into_iter().flatten() {
            for (i, item) in list.as_array().unwrap().iter().enumerate() {
                assert_eq!(
                    &doc["hooks"][event][i], item,
                    "{}: operator entry {event}[{i}] kept in place",
                    c.harness
                );
            }
        }
        // The file's formatting is kept: indent and line endings.
        let style_of = |t: &str| {
            (
                t.contains("\r\n"),
                t.lines().nth(1).map(|l| {
                    l.chars()
                        .take_while(|c| c.is_whitespace())
                        .collect::<String>()
                }),
            )
        };
        if c.foreign.trim().contains('\n') {
            assert_eq!(
                style_of(&text),
                style_of(c.foreign),
                "{}: formatting kept",
                c.harness
            );
        }
        // A backup of the operator's file (kept out of the repository for
        // a project's file).
        let backup = backup_of(&sb, &path);
        assert_eq!(
            std::fs::read_to_string(&backup).unwrap(),
            c.foreign,
            "{}: backup",
            c.harness
        );

        // Reinstall: byte-identical, reported unchanged.
        let out = install(&sb, c.harness, c.scope);
        assert!(
            out.stdout.contains("unchanged"),
            "{}: {}",
            c.harness,
            out.stdout
        );
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            text,
            "{}: reinstall byte-identical",
            c.harness
        );

        // Verify: clean, once the harness trusted the hooks.
        trust_as_the_harnesses_do(&sb);
        let out = sb.test().args(["verify", "--harness", c.harness]).run();
        assert!(
            out.stdout
                .contains(&format!("ok         {} ({})", c.harness, c.scope)),
            "{}: {}",
            c.harness,
            out.stdout
        );
        let out = sb
            .test()
            .args(["verify", "--harness", c.harness, "--json"])
            .run();
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(v["ok"], true);
        assert!(
            v["targets"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["current"] == true && t["scope"] == c.scope)
        );

        // Uninstall: the operator's file back byte for byte.
        sb.test()
            .args(["uninstall", "--harness", c.harness, "--scope", c.scope])
            .run();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            c.foreign,
            "{}: restored",
            c.harness
        );
    }
}

#[test]
fn uninstall_after_the_operator_edited_keeps_their_edit() {
    for c in cases() {
        let sb = Sandbox::new();
        let path = path_of(&sb, &c);
        put(&path, c.foreign);
        install(&sb, c.harness, c.scope);
        let mut doc = read_json(&path);
        doc["addedLater"] = json!({"x": [1, 2]});
        std::fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        sb.test().args(["uninstall", "--harness", c.harness]).run();
        let after = read_json(&path);
        let mut want: Value = serde_json::from_str(c.foreign).unwrap();
        want["addedLater"] = json!({"x": [1, 2]});
        // The switch install turned on (Gemini's hooksConfig.enabled, absent
        // before) is put back as the operator had it: absent.
        assert_eq!(
            after, want,
            "{}: semantically the operator's file plus their edit",
            c.harness
        );
    }
}

#[test]
fn a_file_cuecard_created_is_removed_on_uninstall() {
    for c in cases() {
        let sb = Sandbox::new();
        let path = path_of(&sb, &c);
        let out = install(&sb, c.harness, c.scope);
        assert!(
            out.stdout.contains("created"),
            "{}: {}",
            c.harness,
            out.stdout
        );
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("{\n  \"") && text.ends_with("}\n"),
            "{}: new files: 2 spaces, final newline",
            c.harness
        );
        check_format(&c, &serde_json::from_str(&text).unwrap());
        sb.test()
            .args(["uninstall", "--harness", c.harness, "--scope", c.scope])
            .run();
        assert!(
            !path.exists(),
            "{}: the file cuecard created is gone",
            c.harness
        );
    }
}

#[test]
fn copilot_gets_its_own_file_and_session_start_cards() {
    let sb = Sandbox::new();
    let other = sb.project().join(".github/hooks/team.json");
    put(&other, COPILOT_OTHER);
    let out = install(&sb, "copilot", "project");
    assert!(
        !out.stdout.contains("not registered: SessionStart"),
        "{}",
        out.stdout
    );
    let path = sb.project().join(".github/hooks/cuecard.json");
    let doc = read_json(&path);
    assert_eq!(doc["version"], 1);
    // The hooks reference documents sessionStart's additionalContext.
    assert!(doc["hooks"].get("sessionStart").is_some());
    let ours = our_handlers(&doc);
    assert!(!ours.is_empty(), "{doc:#}");
    for (event, h) in ours {
        // A line for each shell, Copilot running the one for its host:
        // `cuecard` through PATH (a project file), `& "..."` in PowerShell.
        let tail = format!("dispatch --contract copilot {event} ");
        let bash = h["bash"].as_str().unwrap();
        let ps = h["powershell"].as_str().unwrap();
        assert!(bash.starts_with(&format!("cuecard {tail}")), "{bash}");
        assert!(ps.starts_with(&format!("& \"cuecard\" {tail}")), "{ps}");
        assert!(h.get("command").is_none(), "{h}");
        assert_eq!(h["timeoutSec"], 10);
    }
    let before = path
        .exists()
        .then(|| std::fs::read_to_string(&path).unwrap());
    install(&sb, "copilot", "project");
    assert_eq!(
        path.exists()
            .then(|| std::fs::read_to_string(&path).unwrap()),
        before
    );
    sb.test().args(["uninstall", "--harness", "copilot"]).run();
    assert!(!path.exists());
    assert_eq!(
        std::fs::read_to_string(&other).unwrap(),
        COPILOT_OTHER,
        "the operator's hook file untouched"
    );
}

#[test]
fn lossy_files_are_refused_and_nothing_is_written() {
    for (text, why) in [
        ("{\n  // my settings\n  \"model\": \"opus\"\n}\n", "comment"),
        ("{\"model\": \"opus\",}\n", "trailing comma"),
        ("{model: 'opus'}\n", "JSON5"),
        ("{\"a\": 1, \"a\": 2}\n", "repeats the key"),
        ("{\"hooks\": [\"not\", \"an object\"]}\n", "not an object"),
        ("[1, 2]\n", "not a JSON object"),
        ("{\"model\": \n", "not valid JSON"),
    ] {
        let sb = Sandbox::new();
        let path = sb.home().join(".claude/settings.json");
        put(&path, text);
        let out = sb
            .test()
            .args(["install", "--harness", "claude-code"])
            .exit(1)
            .run();
        assert!(out.stderr.contains(why), "{text:?}: {}", out.stderr);
        assert!(out.stderr.contains("othing was written"), "{}", out.stderr);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(!PathBuf::from(format!("{}.cuecard.bak", path.display())).exists());
        // Uninstall refuses too, rather than guessing.
        sb.test()
            .args(["uninstall", "--harness", "claude-code"])
            .exit(1)
            .run();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        // The dry run the refusal suggests explains why, and shows the
        // entries to merge by hand, still exit 1 and writing nothing.
        let out = sb
            .test()
            .args(["install", "--harness", "claude-code", "--dry-run"])
            .exit(1)
            .run();
        assert!(out.stderr.contains(why), "{text:?}: {}", out.stderr);
        assert!(out.stderr.contains("to merge by hand"), "{}", out.stderr);
        let snippet = out
            .stderr
            .split("to merge by hand")
            .nth(1)
            .unwrap_or_default();
        let snippet = &snippet[snippet.find('\n').unwrap() + 1..];
        let doc: Value = serde_json::from_str(snippet).unwrap_or_else(|e| panic!("{e}: {snippet}"));
        assert!(
            !our_handlers(&doc).is_empty(),
            "the snippet holds cuecard's entries: {snippet}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    }
}

#[test]
fn symlinked_config_or_directory_is_refused() {
    let sb = Sandbox::new();
    let real = sb.path().join("dotfiles/claude");
    put(&real.join("settings.json"), CLAUDE);
    std::os::unix::fs::symlink(&real, sb.home().join(".claude")).unwrap();
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stderr.contains("symlink"), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(real.join("settings.json")).unwrap(),
        CLAUDE
    );

    let sb = Sandbox::new();
    put(&sb.path().join("elsewhere.json"), CODEX);
    std::fs::create_dir_all(sb.home().join(".codex")).unwrap();
    std::os::unix::fs::symlink(
        sb.path().join("elsewhere.json"),
        sb.home().join(".codex/hooks.json"),
    )
    .unwrap();
    let out = sb
        .test()
        .args(["install", "--harness", "codex"])
        .exit(1)
        .run();
    assert!(out.stderr.contains("is a symlink"), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(sb.path().join("elsewhere.json")).unwrap(),
        CODEX
    );
}

/// The binary copied to `dir` under the sandbox: an install path of its own.
fn copy_bin(sb: &Sandbox, dir: &str) -> PathBuf {
    let d = sb.path().join(dir);
    std::fs::create_dir_all(&d).unwrap();
    let copy = d.join("cuecard");
    std::fs::copy(support::bin(), &copy).unwrap();
    copy
}

/// `install --harness <harness>` run by that copy, in the sandbox.
fn install_with(sb: &Sandbox, copy: &Path, harness: &str) -> std::process::Output {
    support::output_of(
        std::process::Command::new(copy)
            .args(["install", "--harness", harness])
            .current_dir(sb.project())
            .env_clear()
            .env("HOME", sb.home())
            .env("CUECARD_DATA_DIR", sb.data()),
    )
}

#[test]
fn entries_in_a_windows_hosts_form_are_recognised() {
    // Files as an install on Windows writes them (PowerShell for Cursor,
    // cmd for CodeBuddy, Copilot's two keys), beside the operator's hooks:
    // verify sees each as running cuecard and counts none as installed
    // here (no record, no such binary), and uninstall with `--replace`
    // naming the program takes exactly them out.
    let sb = Sandbox::new();
    let exe = r"C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe";
    let cursor = sb.home().join(".cursor/hooks.json");
    let operator = json!({"command": "./hooks/format.sh"});
    put(
        &cursor,
        &json!({"version": 1, "hooks": {"sessionStart": [
            operator,
            {"command": format!("& \"{exe}\" dispatch --contract cursor sessionStart session-start"), "timeout": 10},
        ]}})
        .to_string(),
    );
    let buddy = sb.home().join(".codebuddy/settings.json");
    put(
        &buddy,
        &json!({"hooks": {"SessionStart": [{"hooks": [
            {"type": "command", "command": format!("\"{exe}\" dispatch --contract codebuddy SessionStart session-start")},
        ]}]}})
        .to_string(),
    );
    let copilot = sb.home().join(".copilot/hooks/cuecard.json");
    put(
        &copilot,
        &json!({"version": 1, "hooks": {"sessionStart": [{
            "type": "command",
            "bash": format!("\"{}\" dispatch --contract copilot sessionStart", exe.replace('\\', "/")),
            "powershell": format!("& \"{exe}\" dispatch --contract copilot sessionStart"),
        }]}})
        .to_string(),
    );
    // Not written by this install (no record of them): the user's, named,
    // not counted as installed; uninstall keeps them unless `--replace`
    // names their program. Exit 1: their programs are no binary here.
    let out = sb.test().args(["verify", "--json"]).exit(1).run();
    let v: Value = serde_json::from_str(&out.stdout).unwrap();
    for (harness, path) in [
        ("cursor", &cursor),
        ("codebuddy", &buddy),
        ("copilot", &copilot),
    ] {
        let st = v
            .as_array()
            .or(v["targets"].as_array())
            .into_iter()
            .flatten()
            .find(|s| s["harness"] == harness && s["path"] == path.to_str().unwrap())
            .unwrap_or_else(|| panic!("{harness} in {v:#}"));
        let yours = st["yours"].to_string();
        assert!(
            yours.contains("runs cuecard") && yours.contains("cuecard.exe"),
            "{harness}: seen as running cuecard, not counted: {st:#}"
        );
        assert_eq!(st["entries"], 0, "{harness}: {st:#}");
    }
    let before = std::fs::read_to_string(&cursor).unwrap();
    let out = sb.test().args(["uninstall", "--harness", "cursor"]).run();
    assert!(
        out.stdout.contains("kept an entry of yours"),
        "{}",
        out.stdout
    );
    assert_eq!(std::fs::read_to_string(&cursor).unwrap(), before);
    let slashed = exe.replace('\\', "/");
    for h in ["cursor", "codebuddy", "copilot"] {
        sb.test()
            .args([
                "uninstall",
                "--harness",
                h,
                "--replace",
                exe,
                "--replace",
                &slashed,
            ])
            .run();
    }
    assert_eq!(
        read_json(&cursor),
        json!({"version": 1, "hooks": {"sessionStart": [operator]}}),
        "only cuecard's entry went"
    );
    // The files that held nothing else hold nothing of cuecard's now.
    for path in [&buddy, &copilot] {
        let left = std::fs::read_to_string(path).unwrap_or_default();
        assert!(!left.contains("dispatch"), "{}: {left}", path.display());
    }
}

#[test]
fn shell_unsafe_install_path_is_refused_for_shell_harnesses_only() {
    for dir in ["a$HOME", "a`x`", "a\"b", "a\\b"] {
        let sb = Sandbox::new();
        let copy = copy_bin(&sb, dir);
        let run = |harness: &str| install_with(&sb, &copy, harness);
        for h in ["codex", "qwen", "gemini", "cursor", "kiro", "codebuddy"] {
            let out = run(h);
            assert_eq!(out.status.code(), Some(1), "{dir} {h}");
            assert!(
                String::from_utf8_lossy(&out.stderr).contains("install path"),
                "{dir} {h}"
            );
        }
        assert!(!sb.home().join(".codex").exists(), "nothing written");
        let out = run("claude-code");
        assert_eq!(out.status.code(), Some(0), "exec form runs no shell: {dir}");
        let doc = read_json(sb.home().join(".claude/settings.json"));
        assert_eq!(
            doc["hooks"]["SessionStart"][0]["hooks"][0]["command"],
            copy.canonicalize().unwrap().to_str().unwrap()
        );
    }
}

#[test]
fn an_install_path_with_spaces_is_quoted_for_the_shell_and_runs() {
    let sb = Sandbox::new();
    let copy = copy_bin(&sb, "my tools");
    let out = install_with(&sb, &copy, "codex");
    assert!(out.status.success());
    trust_as_the_harnesses_do(&sb);
    let doc = read_json(sb.home().join(".codex/hooks.json"));
    let cmd = doc["hooks"]["SessionStart"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap();
    assert!(
        cmd.starts_with(&format!(
            "\"{}\" dispatch",
            copy.canonicalize().unwrap().display()
        )),
        "{cmd}"
    );
    let out = std::process::Command::new(&copy)
        .args(["doctor", "--harness", "codex"])
        .current_dir(sb.project())
        .env_clear()
        .env("HOME", sb.home())
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("ok   SessionStart") && text.contains("exit    0"),
        "{text}"
    );
}

#[test]
fn dry_run_writes_nothing_and_shows_the_file() {
    let sb = Sandbox::new();
    let path = sb.home().join(".gemini/settings.json");
    put(&path, GEMINI);
    let out = sb
        .test()
        .args(["install", "--harness", "gemini", "--dry-run"])
        .run();
    assert!(out.stdout.contains("would update"), "{}", out.stdout);
    assert!(out.stdout.contains("--contract gemini"), "{}", out.stdout);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), GEMINI);
    assert!(!sb.data().join("cards").exists());
}

#[test]
fn install_materialises_the_cards_for_their_pointers() {
    let sb = Sandbox::new();
    install(&sb, "claude-code", "user");
    let card = sb.data().join("cards/session-start.md");
    let text = std::fs::read_to_string(&card).unwrap();
    assert!(
        !text.contains("## Bindings") && !text.contains("SPDX"),
        "{text}"
    );
    let shown = sb.test().args(["cards", "show", "session-start"]).run();
    assert_eq!(text.trim_end(), shown.stdout.trim_end());
    // The skill catalogue goes where the harness looks for skills.
    let catalogue = Path::new(env!("CARGO_MANIFEST_DIR")).join("messages/skills");
    let skill = std::fs::read_dir(&catalogue)
        .unwrap()
        .flatten()
        .next()
        .unwrap()
        .file_name();
    let installed = sb
        .home()
        .join(".claude/skills")
        .join(&skill)
        .join("SKILL.md");
    // The shipped text, then the line that marks it cuecard's.
    let written = std::fs::read_to_string(&installed).unwrap();
    let (body, marker) = written
        .trim_end()
        .rsplit_once('\n')
        .expect("a marker line last");
    assert_eq!(
        format!("{body}\n"),
        std::fs::read_to_string(catalogue.join(&skill).join("SKILL.md")).unwrap()
    );
    assert!(
        marker.starts_with("<!-- cuecard-owned-file: skill"),
        "{marker}"
    );
    sb.test()
        .args(["uninstall", "--harness", "claude-code"])
        .run();
    assert!(!installed.exists(), "uninstall removes the skills it wrote");
}

#[test]
fn user_and_project_registrations_of_one_harness_are_reported() {
    let sb = Sandbox::new();
    install(&sb, "claude-code", "user");
    let out = install(&sb, "claude-code", "project");
    assert!(
        out.stdout.contains("registered twice on SessionStart"),
        "{}",
        out.stdout
    );
    let out = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("DOUBLE"), "{}", out.stdout);
    sb.test()
        .args([
            "uninstall",
            "--harness",
            "claude-code",
            "--scope",
            "project",
        ])
        .run();
    sb.test().args(["verify", "--harness", "claude-code"]).run();
}

#[test]
fn codex_hooks_json_and_config_toml_registrations_are_reported() {
    let sb = Sandbox::new();
    install(&sb, "codex", "user");
    put(
        &sb.home().join(".codex/config.toml"),
        &format!(
            "[features]\nhooks = true\n\n[[hooks.SessionStart]]\nmatcher = \"*\"\n[[hooks.SessionStart.hooks]]\ntype = \"command\"\ncommand = \"{} dispatch --contract codex SessionStart\"\n",
            bin()
        ),
    );
    let out = sb
        .test()
        .args(["verify", "--harness", "codex"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("config.toml"), "{}", out.stdout);
}

#[test]
fn a_claude_plugin_registering_cuecard_is_reported() {
    let sb = Sandbox::new();
    install(&sb, "claude-code", "user");
    put(
        &sb.home().join(".claude/plugins/cache/market/cuecard/1.0/hooks/hooks.json"),
        &json!({"hooks": {"SessionStart": [{"hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/x"}, {"type": "command", "command": "/opt/cuecard/bin/cuecard dispatch SessionStart"}]}]}}).to_string(),
    );
    let out = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("plugins"), "{}", out.stdout);
}

/// An install from another place (an upgrade that moved the binary) is
/// what cuecard wrote: verify calls it stale, and a reinstall replaces it
/// in place. An entry running a cuecard binary that no install recorded
/// writing is the user's: kept and named, replaced only when `--replace`
/// names its program.
#[test]
fn a_moved_binary_is_stale_in_verify_and_replaced_by_reinstall() {
    let sb = Sandbox::new();
    let path = sb.home().join(".claude/settings.json");
    let old = copy_bin(&sb, "old-place");
    let done = install_with(&sb, &old, "claude-code");
    assert!(done.status.success(), "{done:?}");
    std::fs::remove_file(&old).unwrap();
    let out = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("claude-code (user)"), "{}", out.stdout);
    let before = read_json(&path)["hooks"]["SessionStart"]
        .as_array()
        .unwrap()
        .len();
    install(&sb, "claude-code", "user");
    let doc = read_json(&path);
    assert_eq!(
        doc["hooks"]["SessionStart"].as_array().unwrap().len(),
        before,
        "replaced, not doubled"
    );
    assert_eq!(
        doc["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        bin()
    );
    sb.test().args(["verify", "--harness", "claude-code"]).run();

    // Written by hand (no record of it): the user's.
    let sb = Sandbox::new();
    let mine = json!({"type": "command", "command": "/old/place/cuecard", "args": ["dispatch", "SessionStart", "session-start"]});
    put(
        &path_in(&sb),
        &json!({"hooks": {"SessionStart": [{"matcher": "*", "hooks": [mine]}]}}).to_string(),
    );
    let out = install(&sb, "claude-code", "user");
    assert!(
        out.stdout.contains("kept an entry of yours")
            && out.stdout.contains("--replace /old/place/cuecard"),
        "{}",
        out.stdout
    );
    let doc = read_json(path_in(&sb));
    assert_eq!(doc["hooks"]["SessionStart"][0]["hooks"][0], mine);
    sb.test()
        .args([
            "install",
            "--harness",
            "claude-code",
            "--replace",
            "/old/place/cuecard",
        ])
        .run();
    let doc = read_json(path_in(&sb));
    assert!(!doc.to_string().contains("/old/place"), "{doc}");
}

fn path_in(sb: &Sandbox) -> PathBuf {
    sb.home().join(".claude/settings.json")
}

#[test]
fn managed_scope_renders_managed_settings() {
    let sb = Sandbox::new();
    let out = install(&sb, "claude-code", "managed");
    let path = sb.project().join("managed-settings.json");
    let doc = read_json(&path);
    assert_eq!(doc["allowManagedHooksOnly"], true);
    assert_eq!(
        doc["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        bin()
    );
    assert!(
        out.stdout.contains("managed-settings.json"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("writable by this user"),
        "the test binary is user-writable: {}",
        out.stdout
    );
    assert!(
        out.stdout.contains("every user, project and plugin hook")
            && out.stdout.contains("verify --scope managed"),
        "what allowManagedHooksOnly does: {}",
        out.stdout
    );
    let v = sb
        .test()
        .args(["verify", "--harness", "claude-code", "--scope", "managed"])
        .run();
    assert!(
        v.stdout.contains("claude-code (managed)") && v.stdout.contains("managed-settings.json"),
        "{}",
        v.stdout
    );
    // An administrator's explicit false is kept, with a warning.
    let sb = Sandbox::new();
    put(
        &sb.project().join("managed-settings.json"),
        "{\"allowManagedHooksOnly\": false}\n",
    );
    let out = install(&sb, "claude-code", "managed");
    assert!(
        out.stdout.contains("allowManagedHooksOnly to false"),
        "{}",
        out.stdout
    );
    sb.test()
        .args(["install", "--harness", "codex", "--scope", "managed"])
        .exit(2)
        .run();
}

#[test]
fn unknown_harnesses() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["install", "--harness", "vim"])
        .exit(2)
        .run();
    // A value enum (issue 33): clap names the valid ids.
    assert!(
        out.stderr
            .contains("invalid value 'vim' for '--harness <HARNESS>'"),
        "{}",
        out.stderr
    );
    // Windsurf, installed into only with a policy set: tests/policy.rs.
}

#[test]
fn verify_capabilities_prints_the_table() {
    let sb = Sandbox::new();
    let out = sb.test().args(["verify", "--capabilities"]).run();
    assert!(
        out.stdout.contains("codex") && out.stdout.contains("gemini"),
        "{}",
        out.stdout
    );
}

#[test]
fn doctor_runs_each_installed_entry() {
    let sb = Sandbox::new();
    for h in ["claude-code", "codex", "gemini", "qwen"] {
        install(&sb, h, "user");
    }
    trust_as_the_harnesses_do(&sb);
    let out = sb.test().args(["doctor"]).run();
    assert!(out.stdout.contains("claude-code (user)"), "{}", out.stdout);
    assert!(out.stdout.contains(", 0 failed"), "{}", out.stdout);
    assert!(out.stdout.contains("one JSON object"), "{}", out.stdout);
    // A broken entry is reported as failing.
    let path = sb.home().join(".codex/hooks.json");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace(" dispatch ", " dispatch --bogus-flag-that-is-ignored ");
    std::fs::write(&path, text.replace(&bin(), "/nonexistent/cuecard")).unwrap();
    let out = sb
        .test()
        .args(["doctor", "--harness", "codex"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("FAIL"), "{}", out.stdout);
}

/// The one list of harnesses drives the CLI: every harness cuecard installs
/// into is named in install's and uninstall's `--harness` help, every
/// harness in dispatch's `--contract` help and verify's and doctor's
/// `--harness` help, and docs/harnesses.md's tables have a row for each.
#[test]
fn help_and_readme_name_every_harness_from_the_one_list() {
    let sb = Sandbox::new();
    let help = |cmd: &str| sb.test().args([cmd, "--help"]).run().stdout;
    let (install, uninstall, verify, doctor, dispatch) = (
        help("install"),
        help("uninstall"),
        help("verify"),
        help("doctor"),
        help("dispatch"),
    );
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/harnesses.md")).unwrap();
    for h in cuecard::harness::HarnessId::ALL {
        let id = h.id();
        for (what, text) in [
            ("verify", &verify),
            ("doctor", &doctor),
            ("dispatch", &dispatch),
        ] {
            assert!(text.contains(id), "{what} --help does not name {id}");
        }
        assert!(
            readme.contains(&format!("| `{id}` |")),
            "docs/harnesses.md has no row for {id}"
        );
        let installable = h.config().is_some();
        for (what, text) in [("install", &install), ("uninstall", &uninstall)] {
            assert_eq!(
                text.contains(&format!("{id},")) || text.contains(&format!("{id}.")),
                installable,
                "{what} --help and {id}"
            );
        }
    }
}

/// Kiro CLI 3.0 reads standalone hook files; the legacy agent form still
/// works during its transition. verify and uninstall read the legacy form
/// and say which form holds cuecard's entries; install writes the V3 file
/// and moves cuecard's entries out of the agent, keeping the operator's.
#[test]
fn kiro_writes_the_v3_hook_file_and_still_reads_the_legacy_agent_form() {
    let sb = Sandbox::new();
    let agent = sb.home().join(".kiro/agents/cuecard.json");
    let mut legacy: Value = serde_json::from_str(KIRO_AGENT).unwrap();
    legacy["hooks"]["agentSpawn"]
        .as_array_mut()
        .unwrap()
        .push(json!({"command": format!("{} dispatch --contract kiro agentSpawn session-start", bin()), "timeout_ms": 10000}));
    put(&agent, &serde_json::to_string_pretty(&legacy).unwrap());

    let out = sb
        .test()
        .args(["verify", "--harness", "kiro"])
        .exit(1)
        .run();
    assert!(
        out.stdout
            .contains(".kiro/agents/cuecard.json (1 entry; legacy agent form"),
        "{}",
        out.stdout
    );

    let out = install(&sb, "kiro", "user");
    assert!(out.stdout.contains("form: V3 hook file"), "{}", out.stdout);
    assert!(
        out.stdout.contains("moved 1 entry from") && out.stdout.contains("agents/cuecard.json"),
        "{}",
        out.stdout
    );
    let moved = read_json(&agent);
    assert_eq!(
        moved["hooks"]["agentSpawn"],
        json!([{"command": "git status --short"}]),
        "the operator's agent hook stays, cuecard's went"
    );
    let v3 = read_json(sb.home().join(".kiro/hooks/cuecard.json"));
    assert_eq!(v3["version"], "v1");
    assert_eq!(v3["hooks"][0]["trigger"], "SessionStart");
    let out = sb.test().args(["verify", "--harness", "kiro"]).run();
    assert!(
        out.stdout.contains("ok         kiro (user)") && out.stdout.contains("V3 hook file"),
        "{}",
        out.stdout
    );

    // Uninstall takes cuecard out of either form and says which.
    put(&agent, &serde_json::to_string_pretty(&legacy).unwrap());
    let out = sb
        .test()
        .args(["uninstall", "--harness", "kiro", "--scope", "user"])
        .run();
    assert!(out.stdout.contains("V3 hook file"), "{}", out.stdout);
    assert!(out.stdout.contains("legacy agent form"), "{}", out.stdout);
    assert!(!sb.home().join(".kiro/hooks/cuecard.json").exists());
    assert_eq!(
        read_json(&agent)["hooks"]["agentSpawn"],
        json!([{"command": "git status --short"}])
    );
}

/// Gemini: an operator's `hooksConfig.enabled: false` is switched on by
/// install (hooks run only then), with a note, and put back to `false` by
/// uninstall, with a note, even after the operator edited the file since.
#[test]
fn gemini_hooks_switch_is_put_back_as_the_operator_had_it() {
    // The user's `false` is never flipped: install says what to change,
    // verify and doctor report it, uninstall leaves it.
    let sb = Sandbox::new();
    let path = sb.home().join(".gemini/settings.json");
    let mine = "{\n  \"hooksConfig\": {\"enabled\": false},\n  \"theme\": \"GitHub\"\n}\n";
    put(&path, mine);
    let out = install(&sb, "gemini", "user");
    assert!(
        out.stdout.contains("warning: hooksConfig.enabled is false")
            && out.stdout.contains("set it to true yourself"),
        "{}",
        out.stdout
    );
    assert_eq!(read_json(&path)["hooksConfig"]["enabled"], false);
    let out = sb
        .test()
        .args(["verify", "--harness", "gemini"])
        .exit(1)
        .run();
    assert!(out.stdout.starts_with("HOOKS-OFF"), "{}", out.stdout);
    let out = sb
        .test()
        .args(["doctor", "--harness", "gemini"])
        .exit(1)
        .run();
    assert!(
        out.stdout.contains("FAIL hooksConfig.enabled is false"),
        "{}",
        out.stdout
    );
    sb.test()
        .args(["uninstall", "--harness", "gemini", "--scope", "user"])
        .run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), mine);

    // Absent: install adds it and says so; uninstall takes it out again,
    // after the operator's later edit too.
    let sb = Sandbox::new();
    put(&path_gemini(&sb), "{\n  \"theme\": \"GitHub\"\n}\n");
    let out = install(&sb, "gemini", "user");
    assert!(
        out.stdout.contains("added hooksConfig.enabled: true"),
        "{}",
        out.stdout
    );
    let mut doc = read_json(path_gemini(&sb));
    doc["theme"] = json!("Dark");
    put(
        &path_gemini(&sb),
        &serde_json::to_string_pretty(&doc).unwrap(),
    );
    let out = sb
        .test()
        .args(["uninstall", "--harness", "gemini", "--scope", "user"])
        .run();
    assert!(
        out.stdout
            .contains("removed hooksConfig.enabled, which install had added"),
        "{}",
        out.stdout
    );
    let after = read_json(path_gemini(&sb));
    assert!(after.get("hooksConfig").is_none(), "{after}");
    assert_eq!(after["theme"], "Dark", "the operator's edit stays");
    assert!(after.get("hooks").is_none());
}

fn path_gemini(sb: &Sandbox) -> PathBuf {
    sb.home().join(".gemini/settings.json")
}

/// verify and doctor say when a harness will not run cuecard's entries yet,
/// from what the harness records, and how to fix it: Codex before the user
/// trusted the hooks in `/hooks`, Copilot and Gemini in an untrusted folder.
#[test]
fn untrusted_hooks_are_reported_with_the_fix() {
    let sb = Sandbox::new();
    install(&sb, "codex", "user");
    install(&sb, "copilot", "project");
    install(&sb, "gemini", "project");
    // Gemini records trust only once folder trust was used: an entry for
    // another folder.
    put(
        &sb.home().join(".gemini/trustedFolders.json"),
        &json!({"/elsewhere": "TRUST_FOLDER"}).to_string(),
    );
    // Exit 3: nothing is wrong, the hooks wait on the user's trust.
    let out = sb.test().args(["verify"]).exit(3).run();
    for (h, fix) in [
        ("codex (user)", "type `/hooks` and trust them"),
        ("copilot (project)", "trusted_folders"),
        ("gemini (project)", "GEMINI_CLI_TRUST_WORKSPACE"),
    ] {
        assert!(
            out.stdout.contains(&format!("UNTRUSTED  {h}")),
            "{h}: {}",
            out.stdout
        );
        assert!(out.stdout.contains(fix), "{h}: {}", out.stdout);
    }
    let out = sb
        .test()
        .args(["doctor", "--harness", "codex"])
        .exit(3)
        .run();
    assert!(
        out.stdout.contains("WAIT Codex has not trusted")
            && out.stdout.contains("0 failed, 1 waiting on you"),
        "{}",
        out.stdout
    );
    trust_as_the_harnesses_do(&sb);
    let out = sb.test().args(["verify"]).run();
    assert!(!out.stdout.contains("UNTRUSTED"), "{}", out.stdout);
}

/// A clean uninstall leaves no trace: no `.cuecard.bak`, no folder install
/// created (the hook file's, the skills'), no card copies once cuecard is
/// installed nowhere; and nothing else: a folder the operator made, empty
/// or not, stays.
#[test]
fn a_clean_uninstall_leaves_no_trace() {
    let sb = Sandbox::new();
    let own = sb.project().join(".github/keep");
    std::fs::create_dir_all(&own).unwrap();
    install(&sb, "copilot", "project");
    let settings = sb.home().join(".claude/settings.json");
    put(&settings, CLAUDE);
    install(&sb, "claude-code", "user");
    assert!(sb.project().join(".github/hooks/cuecard.json").is_file());
    assert!(sb.project().join(".github/skills").is_dir());
    assert!(PathBuf::from(format!("{}.cuecard.bak", settings.display())).is_file());
    assert!(
        sb.data().join("cards/session-start.md").is_file(),
        "card copies"
    );

    sb.test()
        .args(["uninstall", "--harness", "copilot", "--scope", "project"])
        .run();
    assert!(
        !sb.project().join(".github/hooks").exists(),
        "the folder install made"
    );
    assert!(
        !sb.project().join(".github/skills").exists(),
        "the skills folder install made"
    );
    assert!(own.is_dir(), "the operator's own empty folder stays");
    let out = sb
        .test()
        .args(["uninstall", "--harness", "claude-code", "--scope", "user"])
        .run();
    assert_eq!(std::fs::read_to_string(&settings).unwrap(), CLAUDE);
    assert!(
        !PathBuf::from(format!("{}.cuecard.bak", settings.display())).exists(),
        "no backup left"
    );
    assert!(
        out.stdout.contains("cards:") && out.stdout.contains("installed nowhere else"),
        "{}",
        out.stdout
    );
    assert!(!sb.home().join(".claude/skills").exists());
    assert!(!sb.data().join("cards").exists(), "no card copies left");
}

/// A project file a team commits names `cuecard`, found through PATH, not
/// this machine's binary; install says so and whether PATH finds it here,
/// and verify says how to fix it when PATH does not.
#[test]
fn project_scope_names_cuecard_through_path() {
    let sb = Sandbox::new();
    let out = install(&sb, "codex", "project");
    assert!(
        out.stdout.contains("`cuecard` through PATH")
            && out.stdout.contains("PATH finds this binary"),
        "{}",
        out.stdout
    );
    let text = std::fs::read_to_string(sb.project().join(".codex/hooks.json")).unwrap();
    assert!(!text.contains(&bin()), "no path of this machine: {text}");
    assert!(
        text.contains("\"cuecard dispatch --contract codex SessionStart"),
        "{text}"
    );
    // The user's own file keeps the binary's path.
    install(&sb, "codex", "user");
    let user = std::fs::read_to_string(sb.home().join(".codex/hooks.json")).unwrap();
    assert!(user.contains(&bin()), "{user}");
    // Without cuecard on PATH, verify says so and how to fix it.
    let out = sb
        .test()
        .args(["verify", "--harness", "codex"])
        .env("PATH", "/usr/bin:/bin")
        .exit(1)
        .run();
    assert!(
        out.stdout.contains("cuecard is not on PATH")
            && out
                .stdout
                .contains("put the folder holding cuecard on PATH"),
        "{}",
        out.stdout
    );
    let out = sb
        .test()
        .args(["install", "--harness", "qwen", "--scope", "project"])
        .env("PATH", "/usr/bin:/bin")
        .run();
    assert!(
        out.stdout.contains("warning: cuecard is not on PATH"),
        "{}",
        out.stdout
    );
}

/// Edits are textual patches: after the operator edited the file since
/// install, uninstall gives back every byte of theirs as written (inline
/// arrays, number spellings, escapes, spacing), taking out only cuecard's.
#[test]
fn uninstall_gives_back_the_operators_later_edits_byte_for_byte() {
    let sb = Sandbox::new();
    let path = sb.home().join(".claude/settings.json");
    put(&path, CLAUDE);
    install(&sb, "claude-code", "user");
    let installed = std::fs::read_to_string(&path).unwrap();
    assert!(
        installed.contains("\"permissions\": {\"allow\": [\"Bash(ls:*)\"], \"deny\": []}"),
        "install keeps the inline array: {installed}"
    );
    let edit = |t: &str| {
        let cut = t
            .trim_end()
            .strip_suffix('}')
            .unwrap()
            .trim_end()
            .to_string();
        format!("{cut},\n    \"n\": 1.10,\n    \"big\": 1E5,\n    \"s\": \"\\u00e9\"\n}}\n")
    };
    put(&path, &edit(&installed));
    sb.test()
        .args(["uninstall", "--harness", "claude-code", "--scope", "user"])
        .run();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), edit(CLAUDE));
}

#[test]
fn a_factory_install_says_when_droid_reads_a_hooks_json_instead() {
    let sb = Sandbox::new();
    let out = install(&sb, "factory", "user");
    assert!(
        !out.stdout.contains("reads hooks from it"),
        "{}",
        out.stdout
    );
    put(&sb.home().join(".factory/hooks.json"), "{}\n");
    let out = install(&sb, "factory", "user");
    assert!(
        out.stdout
            .contains("hooks.json exists: Droid reads hooks from it instead of settings.json"),
        "{}",
        out.stdout
    );
}

#[test]
fn a_crush_project_install_writes_crush_json_unless_a_dot_crush_json_is_there() {
    // Crush reads both names; `.crush.json` wins a conflict, so an existing
    // one is where cuecard's entry goes, and a new file is `crush.json`.
    let sb = Sandbox::new();
    let out = install(&sb, "crush", "project");
    // What Crush cannot get is named for what it is: no such event (not
    // "dropped", as on Qoder's PreToolUse).
    assert!(
        out.stdout
            .contains("not registered: SessionStart (session-start")
            && out.stdout.contains("Crush has no such event"),
        "{}",
        out.stdout
    );
    assert!(sb.project().join("crush.json").is_file());
    assert!(!sb.project().join(".crush.json").exists());
    sb.test()
        .args(["uninstall", "--harness", "crush", "--scope", "project"])
        .run();

    let sb = Sandbox::new();
    put(&sb.project().join(".crush.json"), "{}\n");
    install(&sb, "crush", "project");
    assert!(!sb.project().join("crush.json").exists());
    let doc = read_json(sb.project().join(".crush.json"));
    let ours = our_handlers(&doc);
    assert_eq!(ours.len(), 1, "{doc:#}");
    // A project file a team commits names `cuecard` through PATH.
    assert!(
        ours[0].1["command"]
            .as_str()
            .unwrap()
            .starts_with("cuecard dispatch --contract crush PreToolUse "),
        "{doc:#}"
    );
}

#[test]
fn a_crush_registration_at_user_and_project_scope_is_reported_twice() {
    // Crush merges its user and project files (their hook lists add up) and
    // runs each distinct command: this machine's binary at user scope and
    // `cuecard` through PATH in the project are two, so cuecard would run
    // twice. verify names both files.
    let sb = Sandbox::new();
    install(&sb, "crush", "user");
    install(&sb, "crush", "project");
    let out = sb
        .test()
        .args(["verify", "--harness", "crush"])
        .exit(1)
        .run();
    let user = sb.home().join(".config/crush/crush.json");
    let project = sb.project().join("crush.json");
    assert!(
        out.stdout.contains("registered twice on PreToolUse")
            && out.stdout.contains(&user.display().to_string())
            && out.stdout.contains(&project.display().to_string()),
        "{}",
        out.stdout
    );
}

#[test]
fn doctor_runs_the_crush_entry_with_a_crush_payload() {
    let sb = Sandbox::new();
    install(&sb, "crush", "project");
    let out = sb.test().args(["doctor", "--harness", "crush"]).run();
    assert!(out.stdout.contains("crush (project)"), "{}", out.stdout);
    assert!(
        out.stdout.contains("PreToolUse") && out.stdout.contains(", 0 failed"),
        "{}",
        out.stdout
    );
    // An entry whose program is gone is reported as failing.
    let path = sb.project().join("crush.json");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("\"cuecard dispatch", "\"/nonexistent/cuecard dispatch"),
    )
    .unwrap();
    let out = sb
        .test()
        .args(["doctor", "--harness", "crush"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("FAIL"), "{}", out.stdout);
}

#[test]
fn a_crush_user_install_follows_crush_global_config() {
    // Crush reads the user's file from `$CRUSH_GLOBAL_CONFIG` when it is
    // set, before `$XDG_CONFIG_HOME/crush`.
    let sb = Sandbox::new();
    let dir = sb.home().join("crush-elsewhere");
    sb.test()
        .args(["install", "--harness", "crush", "--scope", "user"])
        .env("CRUSH_GLOBAL_CONFIG", dir.to_str().unwrap())
        .run();
    let doc = read_json(dir.join("crush.json"));
    assert_eq!(our_handlers(&doc).len(), 1, "{doc:#}");
    assert!(!sb.home().join(".config/crush/crush.json").exists());
}

#[test]
fn a_relative_crush_global_config_is_ignored_not_written_relative_to_the_cwd() {
    // A relative directory would land wherever install runs from (here the
    // project): it counts as unset, as Crush's own default then applies.
    let sb = Sandbox::new();
    sb.test()
        .args(["install", "--harness", "crush", "--scope", "user"])
        .env("CRUSH_GLOBAL_CONFIG", "crush-here")
        .run();
    assert!(!sb.project().join("crush-here").exists());
    let doc = read_json(sb.home().join(".config/crush/crush.json"));
    assert_eq!(our_handlers(&doc).len(), 1, "{doc:#}");
}

/// Copilot CLI also runs hooks written inline under `hooks` in its own
/// settings (`~/.copilot/settings.json`, the older `config.json`, and the
/// repository's `.github/copilot/settings.json`): cuecard's entries copied
/// there run twice, and verify says so.
#[test]
fn copilot_inline_hooks_in_its_settings_count_as_a_second_registration() {
    for rel in [
        ".copilot/settings.json",
        ".copilot/config.json",
        "project:.github/copilot/settings.json",
    ] {
        let sb = Sandbox::new();
        install(&sb, "copilot", "project");
        let ours: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(sb.project().join(".github/hooks/cuecard.json")).unwrap(),
        )
        .unwrap();
        let inline = serde_json::json!({"model": "gpt-5", "hooks": ours["hooks"]});
        let path = match rel.strip_prefix("project:") {
            Some(r) => sb.project().join(r),
            None => sb.home().join(rel),
        };
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, inline.to_string()).unwrap();
        let out = sb
            .test()
            .args(["verify", "--harness", "copilot"])
            .exit(1)
            .run();
        assert!(
            out.stdout.contains("DOUBLE") && out.stdout.contains(&*path.to_string_lossy()),
            "{rel}: {}",
            out.stdout
        );
    }
}

/// Where a harness drops context before a tool runs, PreToolUse's cards
/// ride on its after-tool event: that entry's matcher must admit every tool
/// those cards watch (a file write included), not only the shell tool. A
/// matcher narrowed to the shell, as for an event judged as a Bash call,
/// kept the dependency card off a manifest written by the model (found by
/// `cargo xtask e2e --all`: `dependency-manifest` on Gemini, Qwen, OpenCode).
#[test]
fn cards_riding_on_the_after_tool_event_keep_their_whole_matcher() {
    let sb = Sandbox::new();
    install(&sb, "gemini", "user");
    let after = &read_json(path_gemini(&sb))["hooks"]["AfterTool"][0];
    let matcher = after["matcher"].as_str().unwrap_or_default();
    let command = after["hooks"][0]["command"].as_str().unwrap_or_default();
    assert!(command.contains(" dependency "), "{command}");
    assert!(
        matcher == ".*" || matcher.contains("write_file"),
        "AfterTool matcher {matcher:?} leaves out write_file"
    );
    let sb = Sandbox::new();
    install(&sb, "qwen", "user");
    let post = &read_json(sb.home().join(".qwen/settings.json"))["hooks"]["PostToolUse"][0];
    let matcher = post["matcher"].as_str().unwrap_or_default();
    assert!(
        matcher == ".*" || matcher.contains("write_file"),
        "PostToolUse matcher {matcher:?} leaves out write_file"
    );
}

/// MCP tool calls (issue 27): Claude Code's PreToolUse entry admits every
/// `mcp__<server>__<tool>` and, being a regex once it holds `.*`, is
/// anchored so that `Write` does not admit `TodoWrite`; a harness whose MCP
/// tools are named otherwise gets no pattern.
#[test]
fn claude_codes_pretooluse_entry_reaches_mcp_tools_anchored() {
    let sb = Sandbox::new();
    install(&sb, "claude-code", "project");
    let doc = read_json(sb.project().join(".claude/settings.json"));
    let m = doc["hooks"]["PreToolUse"][0]["matcher"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(m.starts_with("^(?:") && m.ends_with("|mcp__.*)$"), "{m}");
    assert!(m.contains("|Bash|") && m.contains("|Write|"), "{m}");
    let sb = Sandbox::new();
    install(&sb, "codex", "project");
    let text = std::fs::read_to_string(sb.project().join(".codex/hooks.json")).unwrap();
    assert!(
        text.contains("PreToolUse") && !text.contains("mcp__"),
        "{text}"
    );
}
