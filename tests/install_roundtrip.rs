//! The round trip a user relies on, on generated configs (issue 28, point
//! 9): for each harness format, a user's file (odd spacing, CRLF, tabs,
//! unusual numbers and strings, empty objects and lists, inline arrays,
//! hooks of their own on cuecard's events, a hand-written entry that runs
//! cuecard, comments where the harness accepts them) and a skill of the
//! user's by a shipped skill's name; then install, an edit by the user,
//! reinstall, uninstall, through the real binary. Every case must give back
//! the user's bytes plus their edit, and their skill untouched.

mod support;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use std::path::PathBuf;
use support::{Sandbox, put};

/// The one string the user edits between install and reinstall.
const EDIT_ME: &str = "__EDIT_ME__";

#[derive(Debug, Clone, Copy)]
enum Format {
    /// Claude Code: grouped, exec form.
    Claude,
    /// Gemini CLI: grouped, shell form, `hooksConfig`, comments accepted.
    Gemini,
    /// Codex: grouped, shell form.
    Codex,
    /// Cursor: flat, `version`.
    Cursor,
    /// Qwen Code: grouped, comments accepted.
    Qwen,
    /// Kiro: one list of items naming their event in `trigger`.
    Kiro,
}

impl Format {
    fn harness(self) -> &'static str {
        match self {
            Format::Claude => "claude-code",
            Format::Gemini => "gemini",
            Format::Codex => "codex",
            Format::Cursor => "cursor",
            Format::Qwen => "qwen",
            Format::Kiro => "kiro",
        }
    }
    fn rel(self) -> &'static str {
        match self {
            Format::Claude => ".claude/settings.json",
            Format::Gemini => ".gemini/settings.json",
            Format::Codex => ".codex/hooks.json",
            Format::Cursor => ".cursor/hooks.json",
            Format::Qwen => ".qwen/settings.json",
            Format::Kiro => ".kiro/hooks/cuecard.json",
        }
    }
    fn skills(self) -> &'static str {
        match self {
            Format::Claude => ".claude/skills",
            Format::Gemini => ".gemini/skills",
            Format::Codex => ".agents/skills",
            Format::Cursor => ".cursor/skills",
            Format::Qwen => ".qwen/skills",
            Format::Kiro => ".kiro/skills",
        }
    }
    fn comments_allowed(self) -> bool {
        matches!(self, Format::Gemini | Format::Qwen)
    }
    /// The event cuecard registers that the user's own hooks share.
    fn shared_event(self) -> &'static str {
        match self {
            Format::Cursor => "sessionStart",
            _ => "SessionStart",
        }
    }
}

/// A JSON value as text, spelled the ways people and tools spell them.
fn scalar() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("1.0e3".to_string()),
        Just("-0".to_string()),
        Just("1E+2".to_string()),
        Just("0.10".to_string()),
        Just("12345678901234567".to_string()),
        Just("true".to_string()),
        Just("null".to_string()),
        Just("\"\\u00e9t\\u00e9\"".to_string()),
        Just("\"tab\\there \\\"quoted\\\" \\/slash\"".to_string()),
        Just("\"Zoë 🦀\"".to_string()),
        Just("{}".to_string()),
        Just("[]".to_string()),
        Just("[1,2 , 3]".to_string()),
        Just("{\"nested\":{\"deep\":[{}]}}".to_string()),
        "[a-z]{0,8}".prop_map(|s| format!("\"{s}\"")),
        (-1000i64..1000).prop_map(|n| n.to_string()),
    ]
}

/// The user's own hooks object for the format, as text (`None`: no key).
fn hooks(f: Format) -> impl Strategy<Value = Option<String>> {
    let ev = f.shared_event();
    let mine = match f {
        Format::Cursor => "[{\"command\": \"./hooks/welcome.sh\", \"timeout\": 20}]".to_string(),
        _ => "[{\"matcher\": \"startup\", \"hooks\": [{\"type\": \"command\", \"command\": \"echo hi\"}]}]"
            .to_string(),
    };
    let hand_written = match f {
        Format::Claude => Some(
            "\"Notification\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/usr/local/bin/cuecard\", \"args\": [\"dispatch\", \"Notification\", \"mine\"]}]}]",
        ),
        Format::Codex => Some(
            "\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/opt/dev/cuecard dispatch --contract codex Stop mine\"}]}]",
        ),
        _ => None,
    };
    (0usize..5, any::<bool>()).prop_map(move |(kind, with_hand)| {
        if matches!(f, Format::Kiro) {
            // One list; the user's own item on the shared event.
            return match kind {
                0 => None,
                1 => Some("[]".to_string()),
                _ => Some(
                    "[{\"name\": \"lint\", \"trigger\": \"SessionStart\", \"action\": {\"type\": \"command\", \"command\": \"npm run lint\"}, \"timeout\": 30}]"
                        .to_string(),
                ),
            };
        }
        let mut members: Vec<String> = match kind {
            0 => return None,
            1 => Vec::new(),
            2 => vec![format!("\"{ev}\": []")],
            _ => vec![format!("\"{ev}\": {mine}")],
        };
        if with_hand && let Some(h) = hand_written {
            members.push(h.to_string());
        }
        if kind == 4 {
            members.push("\"PreToolUse\": []".into());
        }
        Some(format!("{{{}}}", members.join(", ")))
    })
}

/// A whole user file: its members, formatting, line endings, comments.
#[derive(Debug, Clone)]
struct UserFile {
    text: String,
    /// Whether it holds a comment (install refuses to rewrite it).
    commented: bool,
}

fn user_file(f: Format) -> impl Strategy<Value = UserFile> {
    let members = prop::collection::vec(("[a-z][a-zA-Z]{0,6}", scalar()), 0..5);
    let gemini_switch = prop_oneof![
        Just(None),
        Just(Some("{\"enabled\": true}")),
        Just(Some("{\"enabled\": false}")),
        Just(Some("{\"notifications\": true}")),
    ];
    (
        members,
        hooks(f),
        gemini_switch,
        0usize..4,
        any::<bool>(),
        any::<bool>(),
        0usize..4,
        any::<bool>(),
    )
        .prop_map(
            move |(members, hooks, switch, indent, crlf, final_newline, hooks_at, comment)| {
                let mut kv: Vec<(String, String)> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for (k, v) in members {
                    // Keys cuecard writes to are the format's own below.
                    if seen.insert(k.clone())
                        && !["hooks", "hooksConfig", "version"].contains(&k.as_str())
                    {
                        kv.push((format!("u{k}"), v));
                    }
                }
                kv.push(("note".into(), format!("\"{EDIT_ME}\"")));
                if let Some(h) = hooks {
                    kv.insert(hooks_at.min(kv.len()), ("hooks".into(), h));
                }
                if matches!(f, Format::Gemini)
                    && let Some(s) = switch
                {
                    kv.push(("hooksConfig".into(), s.to_string()));
                }
                if matches!(f, Format::Cursor) {
                    kv.insert(0, ("version".into(), "1".into()));
                }
                if matches!(f, Format::Kiro) {
                    kv.insert(0, ("version".into(), "\"v1\"".into()));
                }
                let nl = if crlf { "\r\n" } else { "\n" };
                let unit = ["", "  ", "    ", "\t"][indent];
                let commented = comment && f.comments_allowed();
                let mut text = String::from("{");
                if commented {
                    text.push_str(&format!("{nl}{unit}// the user's comment"));
                }
                for (i, (k, v)) in kv.iter().enumerate() {
                    if i > 0 {
                        text.push(',');
                    }
                    if unit.is_empty() {
                        text.push_str(&format!("\"{k}\": {v}"));
                    } else {
                        text.push_str(&format!("{nl}{unit}\"{k}\": {v}"));
                    }
                }
                if !unit.is_empty() {
                    text.push_str(nl);
                }
                text.push('}');
                if final_newline {
                    text.push_str(nl);
                }
                UserFile { text, commented }
            },
        )
}

fn format() -> impl Strategy<Value = Format> {
    prop_oneof![
        Just(Format::Claude),
        Just(Format::Gemini),
        Just(Format::Codex),
        Just(Format::Cursor),
        Just(Format::Qwen),
        Just(Format::Kiro),
    ]
}

/// One case: the file, and whether a skill of the user's sits where a
/// shipped one goes.
fn case() -> impl Strategy<Value = (Format, UserFile, bool, bool)> {
    format().prop_flat_map(|f| (Just(f), user_file(f), any::<bool>(), any::<bool>()))
}

fn run_case(
    f: Format,
    file: &UserFile,
    own_skill: bool,
    project: bool,
) -> Result<(), TestCaseError> {
    let sb = Sandbox::new();
    let base: PathBuf = if project { sb.project() } else { sb.home() };
    let scope = if project { "project" } else { "user" };
    let path = put(base.join(f.rel()), &file.text);
    let skill_text = "---\nname: knowledge-wiki\ndescription: mine\n---\nMine.\n";
    let skill = base.join(f.skills()).join("knowledge-wiki/SKILL.md");
    if own_skill {
        put(skill.clone(), skill_text);
    }
    // The binary as a user runs it, in the sandbox; any exit code.
    let cmd = |args: &[&str]| {
        let o = support::output_of(
            std::process::Command::new(support::bin())
                .args(args)
                .current_dir(sb.project())
                .env_clear()
                .env("HOME", sb.home())
                .env("CODEX_HOME", sb.home().join(".codex"))
                .env("CUECARD_STATE_DIR", sb.state())
                .env("CUECARD_DATA_DIR", sb.data())
                .env(
                    "PATH",
                    format!(
                        "{}:/usr/bin:/bin",
                        support::bin().parent().unwrap().display()
                    ),
                ),
        );
        support::Output {
            code: o.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&o.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
            elapsed: std::time::Duration::ZERO,
        }
    };
    let install = ["install", "--harness", f.harness(), "--scope", scope];
    let out = cmd(&install);
    if file.commented {
        prop_assert_eq!(out.code, 1, "a commented file is refused: {}", out.stderr);
        prop_assert_eq!(std::fs::read_to_string(&path).unwrap(), file.text.clone());
        return Ok(());
    }
    prop_assert_eq!(out.code, 0, "install: {}{}", out.stdout, out.stderr);
    let installed = std::fs::read_to_string(&path).unwrap();
    prop_assert!(installed.contains("dispatch"), "{}", installed);
    // The user edits their own value.
    prop_assert_eq!(installed.matches(EDIT_ME).count(), 1);
    std::fs::write(&path, installed.replace(EDIT_ME, "edited")).unwrap();
    let out = cmd(&install);
    prop_assert_eq!(out.code, 0, "reinstall: {}{}", out.stdout, out.stderr);
    let out = cmd(&["uninstall", "--harness", f.harness(), "--scope", scope]);
    prop_assert_eq!(out.code, 0, "uninstall: {}{}", out.stdout, out.stderr);
    let want = file.text.replace(EDIT_ME, "edited");
    let got = std::fs::read_to_string(&path).unwrap_or_else(|_| "<deleted>".into());
    prop_assert_eq!(got, want, "uninstall said: {}", out.stdout);
    if own_skill {
        prop_assert_eq!(std::fs::read_to_string(&skill).unwrap(), skill_text);
    } else {
        prop_assert!(!base.join(f.skills()).exists(), "skills left");
    }
    let bak = path.with_file_name(format!(
        "{}.cuecard.bak",
        path.file_name().unwrap().to_string_lossy()
    ));
    prop_assert!(!bak.exists(), "a backup left beside the file");
    prop_assert!(
        !sb.data().join("install").exists(),
        "a record or backup left"
    );
    Ok(())
}

/// 240 generated cases (40 a format on average), up to four runs of the
/// binary each: about 20 s in a debug build on 2 cores. Run against the
/// binary from before issue 28, it fails (a `"hooks": {}` of the user's
/// was dropped).
#[test]
fn install_edit_reinstall_uninstall_gives_back_the_users_bytes_plus_their_edit() {
    let mut runner = TestRunner::new(Config {
        cases: 240,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&case(), |(f, file, own_skill, project)| {
            run_case(f, &file, own_skill, project)
        })
        .unwrap();
}
