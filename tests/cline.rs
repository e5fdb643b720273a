//! Cline CLI: cuecard's registration is one hook file it owns, named after
//! the event Cline reads (`~/.cline/hooks/PostToolUse` or
//! `$CLINE_DIR/hooks/PostToolUse`, `.clinerules/hooks/PostToolUse`), a bash
//! script that `exec`s cuecard. Install writes it, verify reads it back,
//! doctor runs its entry, uninstall removes only cuecard's unedited file; a
//! hook file of the user's own is never written over, and the user's other
//! hook files are left alone. The installed script, run the way Cline runs
//! it (`bash <file>`, the payload on stdin), answers with the one JSON
//! object Cline reads, and prints nothing when cuecard cannot be found.

mod support;

use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;
use support::{Sandbox, put};

fn user_hook(sb: &Sandbox) -> PathBuf {
    sb.home().join(".cline/hooks/PostToolUse")
}

fn project_hook(sb: &Sandbox) -> PathBuf {
    sb.project().join(".clinerules/hooks/PostToolUse")
}

fn read(p: &Path) -> String {
    std::fs::read_to_string(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn install_verify_doctor_reinstall_uninstall_leave_the_users_other_hooks_alone() {
    let sb = Sandbox::new();
    let mine = put(sb.home().join(".cline/hooks/PreToolUse.sh"), "echo '{}'\n");
    let out = sb.cmd(&["install", "--harness", "cline"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = read(&user_hook(&sb));
    assert!(
        text.starts_with("# cuecard-owned-file: Cline hook, written by cuecard "),
        "{text}"
    );
    // No shebang: Cline runs it with bash. User scope runs this machine's
    // binary, by its absolute path.
    let bin = support::bin().to_string_lossy().into_owned();
    let exec = text.lines().last().unwrap();
    assert!(exec.starts_with("exec ") && exec.contains(&bin), "{exec}");
    assert!(
        exec.contains("dispatch --contract cline PostToolUse"),
        "{exec}"
    );
    // Nothing else is registered: Cline reads no other hook's output.
    for other in [
        "PreToolUse",
        "TaskStart",
        "UserPromptSubmit",
        "TaskComplete",
    ] {
        assert!(
            !sb.home().join(".cline/hooks").join(other).exists(),
            "{other}"
        );
    }

    let verify = sb.cmd(&["verify", "--harness", "cline"]);
    assert!(
        verify.stdout.starts_with("ok         cline (user)"),
        "{}",
        verify.stdout
    );
    let doctor = sb.cmd(&["doctor", "--harness", "cline"]);
    assert!(
        doctor.stdout.contains("ok   PostToolUse"),
        "{}",
        doctor.stdout
    );
    assert!(
        doctor.stdout.contains("1 entry run, 0 failed"),
        "{}",
        doctor.stdout
    );

    let again = sb.cmd(&["install", "--harness", "cline"]);
    assert!(again.stdout.contains("unchanged"), "{}", again.stdout);
    assert_eq!(read(&user_hook(&sb)), text);

    let out = sb.cmd(&["uninstall", "--harness", "cline"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(!user_hook(&sb).exists(), "{}", out.stdout);
    assert_eq!(read(&mine), "echo '{}'\n");
    let verify = sb.cmd(&["verify", "--harness", "cline"]);
    assert!(
        verify.stdout.contains("not installed: cline"),
        "{}",
        verify.stdout
    );
}

#[test]
fn cline_dir_moves_the_user_hooks_folder() {
    let sb = Sandbox::new();
    let dir = sb.path().join("cline-dir");
    let out = sb
        .test()
        .args(["install", "--harness", "cline"])
        .env("CLINE_DIR", &dir)
        .run();
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    assert!(dir.join("hooks/PostToolUse").is_file(), "{}", out.stdout);
    assert!(!user_hook(&sb).exists());
}

#[test]
fn a_users_own_hook_file_of_that_name_is_refused_and_kept() {
    let sb = Sandbox::new();
    let theirs = "#!/usr/bin/env bash\necho '{\"context\":\"mine\"}'\n";
    put(user_hook(&sb), theirs);
    let install = sb.cmd_fails(&["install", "--harness", "cline"]);
    assert!(
        install.stderr.contains("is not cuecard's"),
        "{}",
        install.stderr
    );
    assert!(
        install.stderr.contains("never writes over it"),
        "{}",
        install.stderr
    );
    assert_eq!(read(&user_hook(&sb)), theirs);
    let out = sb.cmd(&["uninstall", "--harness", "cline"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(read(&user_hook(&sb)), theirs);
}

#[test]
fn an_edited_hook_is_reported_kept_and_not_written_over() {
    let sb = Sandbox::new();
    assert_eq!(sb.cmd(&["install", "--harness", "cline"]).code, 0);
    let edited = read(&user_hook(&sb)) + "# my change\n";
    std::fs::write(user_hook(&sb), &edited).unwrap();
    let verify = sb.cmd_fails(&["verify", "--harness", "cline"]);
    assert!(
        verify.stdout.contains("edited by hand"),
        "{}",
        verify.stdout
    );
    let install = sb.cmd_fails(&["install", "--harness", "cline"]);
    assert!(
        install.stderr.contains("was edited since cuecard wrote it"),
        "{}",
        install.stderr
    );
    assert_eq!(read(&user_hook(&sb)), edited);
    sb.cmd(&["uninstall", "--harness", "cline"]);
    assert_eq!(read(&user_hook(&sb)), edited);
}

#[test]
fn a_hook_written_by_another_cuecard_is_stale_and_reinstalled() {
    let sb = Sandbox::new();
    assert_eq!(sb.cmd(&["install", "--harness", "cline"]).code, 0);
    let text = read(&user_hook(&sb));
    let old = text.replacen(
        &format!("written by cuecard {}", env!("CARGO_PKG_VERSION")),
        "written by cuecard 0.0.1",
        1,
    );
    assert_ne!(old, text);
    std::fs::write(user_hook(&sb), &old).unwrap();
    let verify = sb.cmd_fails(&["verify", "--harness", "cline"]);
    assert!(
        verify.stdout.contains("written by cuecard 0.0.1"),
        "{}",
        verify.stdout
    );
    assert_eq!(sb.cmd(&["install", "--harness", "cline"]).code, 0);
    assert_eq!(read(&user_hook(&sb)), text);
}

#[test]
fn a_symlinked_hook_is_refused_and_its_target_untouched() {
    let sb = Sandbox::new();
    let target = put(sb.path().join("elsewhere.sh"), "echo target\n");
    std::fs::create_dir_all(user_hook(&sb).parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(&target, user_hook(&sb)).unwrap();
    let out = sb.cmd_fails(&["install", "--harness", "cline"]);
    assert!(out.stderr.contains("is a symlink"), "{}", out.stderr);
    assert_eq!(read(&target), "echo target\n");
    assert!(
        std::fs::symlink_metadata(user_hook(&sb))
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

/// Runs the installed hook the way Cline does: `bash <file>`, the payload
/// on stdin, in the workspace, with `path` as PATH.
fn run_hook(sb: &Sandbox, hook: &Path, payload: &Value, path: &str) -> (String, String) {
    let input = sb.path().join("payload.json");
    std::fs::write(&input, payload.to_string()).unwrap();
    let out = support::output_of(
        Command::new("bash")
            .arg(hook)
            .current_dir(sb.project())
            .env_clear()
            .env("HOME", sb.home())
            .env("PATH", path)
            .env("CUECARD_STATE_DIR", sb.state())
            .env("CUECARD_DATA_DIR", sb.data())
            .stdin(std::fs::File::open(&input).unwrap()),
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn the_project_hook_names_cuecard_through_path_answers_as_cline_reads_and_fails_open() {
    let sb = Sandbox::new();
    let out = sb.cmd(&["install", "--harness", "cline", "--scope", "project"]);
    assert_eq!(out.code, 0, "{}{}", out.stdout, out.stderr);
    let text = read(&project_hook(&sb));
    assert!(
        text.lines()
            .last()
            .unwrap()
            .starts_with("exec cuecard dispatch --contract cline PostToolUse"),
        "{text}"
    );
    assert!(
        !text.contains(&sb.path().to_string_lossy().into_owned()),
        "nothing of this machine: {text}"
    );
    let payload = sb.fixture("cline", "PostToolUse.run_commands.npm");
    let bin_dir = support::bin()
        .parent()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let (stdout, stderr) = run_hook(
        &sb,
        &project_hook(&sb),
        &payload,
        &format!("{bin_dir}:/usr/bin:/bin"),
    );
    assert_eq!(stdout.trim_end().lines().count(), 1, "{stdout:?} {stderr}");
    let v: Value = serde_json::from_str(stdout.trim_end()).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["context"], "{stdout}");
    assert!(
        v["context"].as_str().unwrap().contains("left-pad"),
        "{stdout}"
    );
    // No cuecard on PATH: nothing on stdout, which Cline reads as no
    // answer (it ignores the exit code and stderr).
    let (stdout, _) = run_hook(&sb, &project_hook(&sb), &payload, "/usr/bin:/bin");
    assert_eq!(stdout, "");
}

/// Garbled Cline payloads (wrong types where Cline's keys should be) are
/// answered with nothing or advice, exit 0, never a crash.
#[test]
fn garbled_cline_payloads_fail_open() {
    let sb = Sandbox::new();
    let project = sb.project();
    for payload in [
        serde_json::json!({"hookName": "tool_result", "tool_result": "garbage"}),
        serde_json::json!({"hookName": "tool_result", "workspaceRoots": 5, "sessionContext": [],
                           "tool_result": {"name": "run_commands", "input": {"commands": [1, {}, null]}}}),
        serde_json::json!({"hookName": "tool_result", "workspaceRoots": [project],
                           "tool_result": {"name": "run_commands", "input": {"commands": []}}}),
        serde_json::json!({"hookName": "tool_result", "workspaceRoots": [project],
                           "tool_result": {"name": "editor", "input": {"path": 7, "new_text": {}}}}),
        serde_json::json!({"hookName": "tool_result", "workspaceRoots": [project],
                           "tool_result": {"name": "read_files", "input": {"files": "a.rs"}}}),
        serde_json::json!({"hookName": "tool_result", "tool_result": {"name": 3, "input": "x"}}),
    ] {
        let out = sb
            .test()
            .args(["dispatch", "--contract", "cline", "PostToolUse"])
            .json(&payload)
            .run();
        assert_eq!(out.code, 0, "{payload}: {}", out.stderr);
        support::assert_hook_stdout(&out.stdout);
    }
}
