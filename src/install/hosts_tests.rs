//! Every harness's entries on every host, rendered on this machine: one
//! snapshot per harness × host, and an install → verify → uninstall round
//! trip per harness with a Windows-shaped home and binary path.

use super::document::{self, Action, ConfigFile};
use super::{double, entries, merge};
use crate::harness::HarnessId;
use crate::harness::config::{Config, Host, Roots, Scope};
use crate::registration::Registration;
use serde_json::Value;

const UNIX_BIN: &str = "/home/zoë doe/.local/bin/cuecard";
const WIN_BIN: &str = r"C:\Users\Zoë Doe\AppData\Local\cuecard\bin\cuecard.exe";

/// SessionStart cards, and a PreToolUse card: with a policy set (as here),
/// Windsurf, which carries no context, gets its pre-hooks for decisions.
fn regs() -> Vec<Registration> {
    vec![
        Registration {
            event: "SessionStart",
            matcher: "*".into(),
            cards: vec!["session-start".into(), "kb-drift".into()],
        },
        Registration {
            event: "PreToolUse",
            matcher: "Bash".into(),
            cards: vec!["destructive".into()],
        },
    ]
}

fn rendered(spec: &Config, host: Host) -> String {
    let bin = match host {
        Host::Unix => UNIX_BIN,
        Host::Windows => WIN_BIN,
    };
    let (e, _) = entries::build_deciding(spec, bin, host, &regs(), true);
    let e = e
        .first()
        .expect("SessionStart (Windsurf: pre_run_command) is registered");
    Value::Object(e.handler.clone()).to_string()
}

/// What each harness gets for SessionStart, per host. Exec form (Claude
/// Code) on both; `sh` words on Unix; on Windows PowerShell's
/// `& "<path>" ...`, cmd's `"<path>" ...` (CodeBuddy), and Copilot's `bash`
/// (forward slashes, for Git Bash) and `powershell` keys on both hosts.
const SNAPSHOTS: &[(&str, Host, &str)] = &[
    (
        "claude-code",
        Host::Unix,
        r#"{"type":"command","command":"/home/zoë doe/.local/bin/cuecard","args":["dispatch","SessionStart","session-start","kb-drift"],"timeout":10}"#,
    ),
    (
        "claude-code",
        Host::Windows,
        r#"{"type":"command","command":"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe","args":["dispatch","SessionStart","session-start","kb-drift"],"timeout":10}"#,
    ),
    (
        "codex",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract codex SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "codex",
        Host::Windows,
        r#"{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract codex SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "qwen",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract qwen SessionStart session-start kb-drift"}"#,
    ),
    (
        "qwen",
        Host::Windows,
        r#"{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract qwen SessionStart session-start kb-drift"}"#,
    ),
    (
        "codebuddy",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract codebuddy SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "codebuddy",
        Host::Windows,
        r#"{"type":"command","command":"\"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract codebuddy SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "gemini",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract gemini SessionStart session-start kb-drift","timeout":10000}"#,
    ),
    (
        "gemini",
        Host::Windows,
        r#"{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract gemini SessionStart session-start kb-drift","timeout":10000}"#,
    ),
    (
        "copilot",
        Host::Unix,
        r#"{"type":"command","bash":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract copilot sessionStart session-start kb-drift","powershell":"& \"/home/zoë doe/.local/bin/cuecard\" dispatch --contract copilot sessionStart session-start kb-drift","timeoutSec":10}"#,
    ),
    (
        "copilot",
        Host::Windows,
        r#"{"type":"command","bash":"\"C:/Users/Zoë Doe/AppData/Local/cuecard/bin/cuecard.exe\" dispatch --contract copilot sessionStart session-start kb-drift","powershell":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract copilot sessionStart session-start kb-drift","timeoutSec":10}"#,
    ),
    (
        "cursor",
        Host::Unix,
        r#"{"command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract cursor sessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "cursor",
        Host::Windows,
        r#"{"command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract cursor sessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "devin",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract devin SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "devin",
        Host::Windows,
        r#"{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract devin SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "factory",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract factory SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "factory",
        Host::Windows,
        r#"{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract factory SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "qoder",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract qoder SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "qoder",
        Host::Windows,
        r#"{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract qoder SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "kiro",
        Host::Unix,
        r#"{"name":"cuecard SessionStart","trigger":"SessionStart","action":{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract kiro SessionStart session-start kb-drift"},"timeout":10,"enabled":true}"#,
    ),
    (
        "kiro",
        Host::Windows,
        r#"{"name":"cuecard SessionStart","trigger":"SessionStart","action":{"type":"command","command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract kiro SessionStart session-start kb-drift"},"timeout":10,"enabled":true}"#,
    ),
    // Crush runs every hook through its own POSIX shell, Windows too: the
    // Windows path goes to sh with forward slashes, and only PreToolUse is
    // registered.
    (
        "crush",
        Host::Unix,
        r#"{"command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract crush PreToolUse destructive","matcher":"^(?:bash)$","timeout":10}"#,
    ),
    (
        "crush",
        Host::Windows,
        r#"{"command":"\"C:/Users/Zoë Doe/AppData/Local/cuecard/bin/cuecard.exe\" dispatch --contract crush PreToolUse destructive","matcher":"^(?:bash)$","timeout":10}"#,
    ),
    // Antigravity CLI: SessionStart is a plain handler (no group, no
    // matcher), run by `sh -c` on Unix and `cmd /c` on Windows.
    (
        "antigravity",
        Host::Unix,
        r#"{"type":"command","command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract antigravity SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "antigravity",
        Host::Windows,
        r#"{"type":"command","command":"\"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract antigravity SessionStart session-start kb-drift","timeout":10}"#,
    ),
    (
        "opencode",
        Host::Unix,
        r#"{"command":"/home/zoë doe/.local/bin/cuecard","args":["dispatch","--contract","opencode","session.created","session-start","kb-drift"],"timeout":10}"#,
    ),
    (
        "opencode",
        Host::Windows,
        r#"{"command":"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe","args":["dispatch","--contract","opencode","session.created","session-start","kb-drift"],"timeout":10}"#,
    ),
    // Kilo Code: OpenCode's entries, naming the kilo contract.
    (
        "kilo",
        Host::Unix,
        r#"{"command":"/home/zoë doe/.local/bin/cuecard","args":["dispatch","--contract","kilo","session.created","session-start","kb-drift"],"timeout":10}"#,
    ),
    (
        "kilo",
        Host::Windows,
        r#"{"command":"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe","args":["dispatch","--contract","kilo","session.created","session-start","kb-drift"],"timeout":10}"#,
    ),
    // pi: the same exec entries, in its extension.
    (
        "pi",
        Host::Unix,
        r#"{"command":"/home/zoë doe/.local/bin/cuecard","args":["dispatch","--contract","pi","session_start","session-start","kb-drift"],"timeout":10}"#,
    ),
    (
        "pi",
        Host::Windows,
        r#"{"command":"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe","args":["dispatch","--contract","pi","session_start","session-start","kb-drift"],"timeout":10}"#,
    ),
    (
        "cline",
        Host::Unix,
        r#"{"command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract cline PostToolUse destructive"}"#,
    ),
    (
        "cline",
        Host::Windows,
        r#"{"command":"\"C:/Users/Zoë Doe/AppData/Local/cuecard/bin/cuecard.exe\" dispatch --contract cline PostToolUse destructive"}"#,
    ),
    (
        "windsurf",
        Host::Unix,
        r#"{"command":"\"/home/zoë doe/.local/bin/cuecard\" dispatch --contract windsurf pre_run_command destructive"}"#,
    ),
    (
        "windsurf",
        Host::Windows,
        r#"{"command":"& \"C:\\Users\\Zoë Doe\\AppData\\Local\\cuecard\\bin\\cuecard.exe\" dispatch --contract windsurf pre_run_command destructive"}"#,
    ),
];

#[test]
fn each_harness_renders_for_each_host() {
    let mut seen = 0;
    for (id, host, want) in SNAPSHOTS {
        let spec = HarnessId::parse(id).and_then(|h| h.config()).unwrap();
        assert_eq!(rendered(spec, *host), *want, "{id} on {host:?}");
        seen += 1;
    }
    // Every installable harness, on both hosts.
    assert_eq!(seen, super::all_specs().len() * 2);
}

/// The roots of a Windows-shaped machine: a home `Users/Zoë Doe` (a space
/// and a non-ASCII letter) and a project beside it.
fn windows_roots(t: &std::path::Path) -> Roots {
    let home = t.join("Users").join("Zoë Doe");
    let project = t.join("src").join("my project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    Roots {
        home,
        project: project.clone(),
        cwd: project,
    }
}

/// The user-scope target, under the test's home even when the harness's
/// own `*_HOME` variable points elsewhere on this machine.
fn user_target(spec: &'static Config, roots: &Roots) -> ConfigFile {
    let mut t = ConfigFile::new(spec, Scope::User, roots).unwrap();
    if !t.path.starts_with(&roots.home) {
        t.path = roots.home.join(t.path.file_name().unwrap());
        t.base = roots.home.clone();
    }
    t
}

fn ours(t: &ConfigFile, bin: &str) -> Vec<(String, Option<String>, Value)> {
    let (_, doc) = document::load(t).unwrap().expect("the file is there");
    merge::ours(&doc, t.spec.layout, bin)
}

#[test]
fn windows_install_verify_uninstall_round_trip() {
    for spec in super::all_specs() {
        let id = spec.harness.id();
        let tmp = tempfile::tempdir().unwrap();
        let roots = windows_roots(tmp.path());
        let t = user_target(spec, &roots);
        entries::check_program(spec, Host::Windows, WIN_BIN)
            .unwrap_or_else(|e| panic!("{id}: a Windows path is refused: {e}"));
        let (wanted, _) = entries::build_deciding(spec, WIN_BIN, Host::Windows, &regs(), true);

        // Install.
        let plan = document::plan_install(&t, WIN_BIN, &wanted).unwrap();
        assert!(matches!(plan.action, Action::Create(_)), "{id}");
        document::apply_install(&t, &plan, &[]).unwrap();

        // Verify: the entries are found as cuecard's, and are what install
        // writes (the comparison `verify` makes).
        let found = ours(&t, WIN_BIN);
        assert_eq!(found.len(), wanted.len(), "{id}: {found:?}");
        for (w, (event, matcher, handler)) in wanted.iter().zip(&found) {
            assert_eq!((&w.event, &w.matcher), (event, matcher), "{id}");
            assert_eq!(&Value::Object(w.handler.clone()), handler, "{id}");
        }
        // ... also by a later binary elsewhere (an upgrade replaces them).
        assert_eq!(
            ours(&t, r"D:\Other\cuecard.exe").len(),
            wanted.len(),
            "{id}"
        );

        // Reinstall: recognised, so nothing changes (no second copy).
        let again = document::plan_install(&t, WIN_BIN, &wanted).unwrap();
        assert_eq!(again.action, Action::Unchanged, "{id}");

        // Double registration: the same entries in the project file.
        if let Some(p) = ConfigFile::new(spec, Scope::Project, &roots) {
            let text = std::fs::read_to_string(&t.path).unwrap();
            std::fs::create_dir_all(p.path.parent().unwrap()).unwrap();
            std::fs::write(&p.path, &text).unwrap();
            let doubles = double::doubles(&double::find_all(spec, &roots, WIN_BIN));
            assert!(
                doubles.iter().any(|d| d.contains("registered twice")),
                "{id}: {doubles:?}"
            );
            std::fs::remove_file(&p.path).unwrap();
        }

        // Uninstall: nothing of cuecard's is left, the file included.
        let plan = document::plan_uninstall(&t, WIN_BIN).unwrap();
        document::apply_uninstall(&t, &plan).unwrap();
        document::finish_uninstall(&t).unwrap();
        assert!(!t.path.exists(), "{id}: {} is left", t.path.display());
        assert!(
            !super::fsio::backup_path(&t.path).exists(),
            "{id}: a backup is left"
        );
    }
}

#[test]
fn the_refusal_follows_the_shell_each_harness_uses_on_the_host() {
    let spec = |id: &str| HarnessId::parse(id).and_then(|h| h.config()).unwrap();
    let ok = |id: &str, host, path: &str| entries::check_program(spec(id), host, path).is_ok();
    let percent = r"C:\Users\100%\cuecard.exe";
    let dollar = r"C:\Users\a$b\cuecard.exe";
    // On Windows a backslash path is fine for every harness's shell.
    for s in super::all_specs() {
        assert!(
            ok(s.harness.id(), Host::Windows, WIN_BIN),
            "{}",
            s.harness.id()
        );
    }
    // cmd (CodeBuddy) expands `%`; PowerShell (Codex, Cursor) does not.
    assert!(!ok("codebuddy", Host::Windows, percent));
    assert!(ok("codex", Host::Windows, percent));
    assert!(ok("cursor", Host::Windows, percent));
    // `$` is refused for every shell, never for the exec form.
    for id in ["codex", "codebuddy", "copilot", "cursor", "kiro", "crush"] {
        assert!(!ok(id, Host::Windows, dollar), "{id}");
    }
    assert!(ok("claude-code", Host::Windows, dollar));
    // On Unix, sh's rule: a backslash is refused.
    assert!(!ok("codex", Host::Unix, r"/opt/a\b/cuecard"));
    assert!(ok("claude-code", Host::Unix, r"/opt/a\b/cuecard"));
}
