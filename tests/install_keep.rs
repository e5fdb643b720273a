//! Install and uninstall never lose or change a byte that is the user's
//! (issue 28), through the real binary: a skill of the user's by a shipped
//! skill's name, an edited skill, hand-written entries that run cuecard,
//! files and folders the user made, HOME that is not real.

mod support;

use std::path::{Path, PathBuf};
use support::{Sandbox, put};

fn read(p: impl AsRef<Path>) -> String {
    std::fs::read_to_string(p).unwrap()
}

fn skill(sb: &Sandbox, name: &str) -> PathBuf {
    sb.home().join(".claude/skills").join(name).join("SKILL.md")
}

/// A skill of the user's by the name of one cuecard ships is neither
/// written over by install nor removed by uninstall; both say so, and the
/// other skills are written and removed as usual.
#[test]
fn a_users_skill_of_the_same_name_is_never_written_over_nor_removed() {
    let sb = Sandbox::new();
    let mine = "---\nname: knowledge-wiki\ndescription: mine\n---\nMine.\n";
    let p = put(skill(&sb, "knowledge-wiki"), mine);
    let notes = put(
        sb.home().join(".claude/skills/knowledge-wiki/reference.md"),
        "my notes\n",
    );
    let dry = sb
        .cmd(&["install", "--harness", "claude-code", "--dry-run"])
        .stdout;
    assert!(
        dry.contains("would write") && dry.contains("compaction-handoff/SKILL.md"),
        "{dry}"
    );
    assert!(dry.contains("knowledge-wiki/SKILL.md"), "{dry}");
    let out = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert_eq!(read(&p), mine);
    assert!(
        out.contains("warning: skill file not written") && out.contains("knowledge-wiki"),
        "{out}"
    );
    assert!(
        skill(&sb, "compaction-handoff").is_file(),
        "the rest written"
    );
    let out = sb.cmd(&["uninstall", "--harness", "claude-code"]).stdout;
    assert_eq!(read(&p), mine);
    assert_eq!(read(&notes), "my notes\n");
    assert!(
        out.contains("skills: left") && out.contains("yours"),
        "{out}"
    );
    assert!(!skill(&sb, "compaction-handoff").exists());
}

/// A folder of the user's by a skill's name, even an empty one, gets no
/// file of cuecard's.
#[test]
fn a_users_empty_skill_folder_gets_nothing() {
    let sb = Sandbox::new();
    let dir = sb.home().join(".claude/skills/cuecard-status");
    std::fs::create_dir_all(&dir).unwrap();
    sb.cmd(&["install", "--harness", "claude-code"]);
    assert!(!dir.join("SKILL.md").exists());
    sb.cmd(&["uninstall", "--harness", "claude-code"]);
    assert!(dir.is_dir(), "the user's folder stays");
}

/// An installed skill the user edited is theirs: a reinstall does not undo
/// the edit, and uninstall leaves it.
#[test]
fn an_edited_skill_survives_reinstall_and_uninstall() {
    let sb = Sandbox::new();
    sb.cmd(&["install", "--harness", "claude-code"]);
    let p = skill(&sb, "knowledge-wiki");
    let edited = read(&p).replacen("# Knowledge wiki", "# Knowledge wiki (mine)", 1);
    std::fs::write(&p, &edited).unwrap();
    let v = sb.cmd(&["verify", "--harness", "claude-code"]).stdout;
    assert!(
        v.contains("yours: skill") && v.contains("edited by hand"),
        "{v}"
    );
    let out = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert_eq!(read(&p), edited);
    assert!(out.contains("edited by hand"), "{out}");
    let out = sb.cmd(&["uninstall", "--harness", "claude-code"]).stdout;
    assert_eq!(read(&p), edited);
    assert!(out.contains("left") && out.contains("edited"), "{out}");
}

/// A hook entry the user wrote that runs `cuecard dispatch` (a card of
/// their own, a dev build) is theirs: install keeps it and names it,
/// uninstall keeps it, and their file comes back byte for byte.
#[test]
fn a_hand_written_cuecard_entry_is_the_users() {
    let sb = Sandbox::new();
    let mine = "{ \"hooks\": { \"Notification\": [ { \"hooks\": [ { \"type\": \"command\", \"command\": \"/usr/local/bin/cuecard\",\n  \"args\": [\"dispatch\", \"Notification\", \"my-notify-card\"] } ] } ] } }\n";
    let p = put(sb.home().join(".claude/settings.json"), mine);
    let out = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert!(
        out.contains("kept an entry of yours: Notification")
            && out.contains("/usr/local/bin/cuecard dispatch Notification my-notify-card"),
        "{out}"
    );
    assert!(read(&p).contains("my-notify-card"));
    let v = sb.cmd(&["verify", "--harness", "claude-code"]).stdout;
    assert!(v.contains("yours: Notification"), "{v}");
    let out = sb.cmd(&["uninstall", "--harness", "claude-code"]).stdout;
    assert!(out.contains("kept an entry of yours"), "{out}");
    assert_eq!(read(&p), mine);
}

/// Uninstall gives back exactly what the user had: a file holding only an
/// empty `hooks` (or an empty event list), an empty file, `{}`; the file
/// is never deleted, and no backup is left.
#[test]
fn uninstall_gives_back_empty_containers_and_files_the_user_made() {
    for mine in [
        "{\n  \"hooks\": {}\n}\n",
        "{\"hooks\": {\"PreToolUse\": []}}",
        "{\"hooks\": {\"SessionStart\": []}}\n",
        "",
        "{}",
    ] {
        let sb = Sandbox::new();
        let p = put(sb.home().join(".claude/settings.json"), mine);
        sb.cmd(&["install", "--harness", "claude-code"]);
        assert_ne!(read(&p), mine);
        let out = sb.cmd(&["uninstall", "--harness", "claude-code"]).stdout;
        assert!(p.is_file(), "{mine:?}: the user's file was deleted: {out}");
        assert_eq!(read(&p), mine, "{out}");
        let bak = sb.home().join(".claude/settings.json.cuecard.bak");
        assert!(!bak.exists(), "{mine:?}: a backup is left");
    }
}

/// An empty `hooks` the user had stays even when they edited the file
/// after install (uninstall patches the file instead of restoring it).
#[test]
fn the_users_empty_hooks_key_survives_an_edit_after_install() {
    let sb = Sandbox::new();
    let mine = "{\n  \"permissions\": {\"allow\": []},\n  \"hooks\": {}\n}\n";
    let p = sb.write(".claude/settings.json", mine);
    sb.cmd(&["install", "--harness", "claude-code", "--scope", "project"]);
    let edited = read(&p).replace("\"allow\": []", "\"allow\": [\"Bash(ls)\"]");
    std::fs::write(&p, &edited).unwrap();
    sb.cmd(&[
        "uninstall",
        "--harness",
        "claude-code",
        "--scope",
        "project",
    ]);
    assert_eq!(
        read(&p),
        "{\n  \"permissions\": {\"allow\": [\"Bash(ls)\"]},\n  \"hooks\": {}\n}\n"
    );
}

/// A project install keeps its backup out of the repository.
#[test]
fn no_backup_file_lands_in_a_repository() {
    let sb = Sandbox::new();
    let mine = "{\n  \"version\": 1,\n  \"hooks\": {}\n}\n";
    let p = sb.write(".cursor/hooks.json", mine);
    sb.cmd(&["install", "--harness", "cursor", "--scope", "project"]);
    let leftovers: Vec<_> = std::fs::read_dir(sb.project().join(".cursor"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name())
        .filter(|n| n.to_string_lossy().contains("bak"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?} beside the file");
    sb.cmd(&["uninstall", "--harness", "cursor", "--scope", "project"]);
    assert_eq!(read(&p), mine);
    assert!(!sb.data().join("install").exists(), "the backup went too");
}

/// Run with the platform's own folders (no `CUECARD_*_DIR`).
fn plain(sb: &Sandbox, args: &[&str]) -> support::Output {
    sb.test()
        .args(args)
        .env("CUECARD_DATA_DIR", "")
        .env("CUECARD_STATE_DIR", "")
        .run()
}

/// Commands that only read create no folder, and after the last uninstall
/// nothing cuecard made is left in the home: not the data folder, not
/// `~/.local/share` it had to create.
#[test]
fn the_last_uninstall_leaves_the_home_as_it_was() {
    let sb = Sandbox::new();
    for args in [
        &["explain", "SessionStart"][..],
        &["policy"],
        &["cards", "list"],
        &["verify"],
    ] {
        let _ = sb
            .test()
            .args(args)
            .env("CUECARD_DATA_DIR", "")
            .env("CUECARD_STATE_DIR", "")
            .run();
    }
    let listing = |sb: &Sandbox| -> Vec<String> {
        let mut out: Vec<String> = walk(&sb.home())
            .into_iter()
            .map(|p| p.strip_prefix(sb.home()).unwrap().display().to_string())
            .collect();
        out.sort();
        out
    };
    assert_eq!(listing(&sb), Vec::<String>::new(), "read-only commands");
    plain(&sb, &["install", "--harness", "claude-code"]);
    plain(&sb, &["install", "--harness", "codex"]);
    assert!(sb.home().join(".local/share/cuecard/cards").is_dir());
    plain(&sb, &["uninstall", "--harness", "claude-code"]);
    assert!(
        sb.home().join(".local/share/cuecard/cards").is_dir(),
        "codex is still installed"
    );
    let out = plain(&sb, &["uninstall", "--harness", "codex"]);
    assert!(
        out.stdout.contains("removed cuecard's empty folders"),
        "{}",
        out.stdout
    );
    assert_eq!(listing(&sb), Vec::<String>::new(), "{}", out.stdout);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        out.push(e.path());
        if e.file_type().is_ok_and(|t| t.is_dir()) {
            out.extend(walk(&e.path()));
        }
    }
    out
}

/// A project install whose `cuecard` is not on PATH is installed, and
/// verify says what is wrong in those words, with the entries counted.
#[test]
fn verify_names_a_cuecard_not_on_path() {
    let sb = Sandbox::new();
    sb.write(".claude/settings.json", "{\"permissions\":{\"allow\":[]}}");
    let nobin = sb.path().join("nobin");
    std::fs::create_dir_all(&nobin).unwrap();
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code", "--scope", "project"])
        .path_prefix(&nobin)
        .run();
    assert!(out.stdout.contains("not on PATH"), "{}", out.stdout);
    let out = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .path_prefix(&nobin)
        .exit(1)
        .run();
    assert!(
        out.stdout.contains("NOT-ON-PATH claude-code (project)"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("not run"), "{}", out.stdout);
    assert!(!out.stdout.contains("UNREADABLE"), "{}", out.stdout);
    assert!(!out.stdout.contains("not installed"), "{}", out.stdout);
}

/// The program the entries run was removed (a `cargo clean`): verify says
/// it is missing, not "another binary path".
#[test]
fn verify_names_a_missing_program_as_missing() {
    let sb = Sandbox::new();
    let dir = sb.path().join("gone");
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("cuecard");
    std::fs::copy(support::bin(), &copy).unwrap();
    let done = support::output_of(
        std::process::Command::new(&copy)
            .args(["install", "--harness", "claude-code"])
            .current_dir(sb.project())
            .env_clear()
            .env("HOME", sb.home())
            .env("CUECARD_DATA_DIR", sb.data())
            .env("CUECARD_STATE_DIR", sb.state()),
    );
    assert!(done.status.success(), "{done:?}");
    std::fs::remove_file(&copy).unwrap();
    let out = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stdout.starts_with("MISSING"), "{}", out.stdout);
    assert!(
        out.stdout.contains("does not exist") && out.stdout.contains("cargo install --path ."),
        "{}",
        out.stdout
    );
}

/// doctor in a working directory whose path is not UTF-8 answers, no panic.
#[test]
fn doctor_in_a_non_utf8_directory_does_not_panic() {
    use std::os::unix::ffi::OsStrExt;
    let sb = Sandbox::new();
    sb.cmd(&["install", "--harness", "claude-code"]);
    let dir = sb.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(&dir).unwrap();
    let out = support::output_of(
        std::process::Command::new(support::bin())
            .arg("doctor")
            .current_dir(&dir)
            .env_clear()
            .env("HOME", sb.home())
            .env("CUECARD_DATA_DIR", sb.data())
            .env("CUECARD_STATE_DIR", sb.state())
            .env("PATH", "/usr/bin:/bin"),
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("0 failed"), "{stdout}");
}

/// A binary in cargo's `target/` folder is named as such, with how to put a
/// lasting copy in place; `install --self` copies it to ~/.local/bin and
/// installs that.
#[test]
fn a_build_in_target_is_named_and_install_self_puts_a_lasting_copy() {
    let sb = Sandbox::new();
    assert!(support::bin().to_string_lossy().contains("/target/"));
    let out = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert!(
        out.contains("a build in cargo's target/ folder")
            && out.contains("cargo install --path .")
            && out.contains("install --self"),
        "{out}"
    );
    let out = sb
        .cmd(&["install", "--self", "--harness", "claude-code"])
        .stdout;
    let copy = sb.home().join(".local/bin/cuecard");
    assert!(copy.is_file(), "{out}");
    assert!(!out.contains("a build in cargo's target/ folder"), "{out}");
    let settings = read(sb.home().join(".claude/settings.json"));
    assert!(settings.contains(&*copy.to_string_lossy()), "{settings}");
    assert!(
        !settings.contains("/target/"),
        "the old entries were replaced: {settings}"
    );
    // A program of the user's at that place is not written over.
    let sb = Sandbox::new();
    let mine = put(
        sb.home().join(".local/bin/cuecard"),
        "#!/bin/sh\necho mine\n",
    );
    sb.test()
        .args(["install", "--self", "--harness", "claude-code"])
        .status(1);
    assert_eq!(read(&mine), "#!/bin/sh\necho mine\n");
}

/// HOME naming no folder, or an XDG folder outside the home that does not
/// exist, is refused, and nothing is created.
#[test]
fn an_unset_or_missing_home_is_refused() {
    let sb = Sandbox::new();
    let ghost = sb.path().join("no/such/home");
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code"])
        .env("HOME", &ghost)
        .status(1);
    assert!(
        out.stderr.contains("not an existing folder"),
        "{}",
        out.stderr
    );
    assert!(!sb.path().join("no").exists(), "nothing created");
    // An unset HOME is refused the same way (not tested here: before the
    // fix it fell back to the real home of whoever runs the tests).
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code"])
        .env("XDG_DATA_HOME", sb.path().join("elsewhere/data"))
        .env("CUECARD_DATA_DIR", "")
        .status(1);
    assert!(out.stderr.contains("XDG_DATA_HOME"), "{}", out.stderr);
    assert!(!sb.path().join("elsewhere").exists());
}

/// Claude Code's `disableAllHooks: true` is the user's switch: install
/// says so and leaves it; verify and doctor report it.
#[test]
fn disable_all_hooks_is_reported_never_flipped() {
    let sb = Sandbox::new();
    let p = put(
        sb.home().join(".claude/settings.json"),
        "{\"disableAllHooks\": true}\n",
    );
    let out = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert!(out.contains("warning: disableAllHooks is true"), "{out}");
    assert!(read(&p).contains("\"disableAllHooks\": true"));
    let v = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .status(1);
    assert!(v.stdout.starts_with("HOOKS-OFF"), "{}", v.stdout);
    let d = sb
        .test()
        .args(["doctor", "--harness", "claude-code"])
        .status(1);
    assert!(
        d.stdout.contains("FAIL disableAllHooks is true"),
        "{}",
        d.stdout
    );
}

/// A config with a comment (which Gemini CLI accepts) is still served:
/// verify counts cuecard's entries in it, doctor runs them, and uninstall
/// names exactly the entries to delete by hand, changing nothing.
#[test]
fn a_file_with_comments_is_read_and_uninstall_says_what_to_delete() {
    let sb = Sandbox::new();
    let p = put(sb.home().join(".gemini/settings.json"), "{}\n");
    sb.cmd(&["install", "--harness", "gemini"]);
    let text = read(&p).replacen('{', "{\n  // my comment", 1);
    std::fs::write(&p, &text).unwrap();
    let v = sb.cmd(&["verify", "--harness", "gemini"]).stdout;
    assert!(v.starts_with("ok         gemini (user)"), "{v}");
    assert!(
        v.contains("read past") && !v.contains("not installed"),
        "{v}"
    );
    let d = sb.cmd(&["doctor", "--harness", "gemini"]).stdout;
    assert!(
        d.contains("SessionStart") && d.contains(", 0 failed"),
        "{d}"
    );
    let u = sb
        .test()
        .args(["uninstall", "--harness", "gemini"])
        .status(1);
    assert!(
        u.stdout.contains("Delete these")
            || u.stdout.contains("Delete this entry")
                && u.stdout.contains("SessionStart [")
                && u.stdout.contains("--contract gemini"),
        "{}",
        u.stdout
    );
    assert_eq!(read(&p), text, "nothing changed");
}

/// A config that is a link (a dotfile manager's) to a file of the user's
/// inside HOME is written through, the link kept; a link leading outside
/// HOME is refused with where it leads, and `--dry-run` prints the entries
/// to merge by hand.
#[test]
fn a_symlinked_config_inside_home_is_written_through() {
    use std::os::unix::fs::symlink;
    let sb = Sandbox::new();
    let real = put(
        sb.home().join("dotfiles/claude/settings.json"),
        "{\"a\": 1}\n",
    );
    std::fs::create_dir_all(sb.home().join(".claude")).unwrap();
    let link = sb.home().join(".claude/settings.json");
    symlink(&real, &link).unwrap();
    let out = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert!(out.contains("dotfiles/claude/settings.json"), "{out}");
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(read(&real).contains("dispatch"));
    sb.cmd(&["uninstall", "--harness", "claude-code"]);
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&real), "{\"a\": 1}\n");

    // A whole folder linked inside HOME (stow-style) and a symlinked HOME.
    let sb = Sandbox::new();
    let real_dir = sb.home().join("dotfiles/codex");
    put(real_dir.join("hooks.json"), "{}\n");
    symlink(&real_dir, sb.home().join(".codex")).unwrap();
    sb.cmd(&["install", "--harness", "codex"]);
    assert!(read(real_dir.join("hooks.json")).contains("dispatch"));
    let linked_home = sb.path().join("home-link");
    symlink(sb.home(), &linked_home).unwrap();
    sb.test()
        .args(["install", "--harness", "gemini"])
        .env("HOME", &linked_home)
        .run();
    assert!(sb.home().join(".gemini/settings.json").is_file());

    // Outside HOME: refused, with where it leads and the entries to merge.
    let sb = Sandbox::new();
    let outside = put(sb.path().join("elsewhere.json"), "{}\n");
    std::fs::create_dir_all(sb.home().join(".claude")).unwrap();
    symlink(&outside, sb.home().join(".claude/settings.json")).unwrap();
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code"])
        .status(1);
    assert!(
        out.stderr.contains("elsewhere.json") && out.stderr.contains("to merge by hand"),
        "the refusal says where the link leads and what to merge: {}",
        out.stderr
    );
    let dry = sb
        .test()
        .args(["install", "--harness", "claude-code", "--dry-run"])
        .status(1);
    assert!(
        dry.stderr.contains("to merge by hand") && dry.stderr.contains("\"dispatch\""),
        "entries to merge: {}{}",
        dry.stdout,
        dry.stderr
    );
    // Uninstall there: nothing of cuecard's, nothing to do (exit 0).
    let u = sb.cmd(&["uninstall", "--harness", "claude-code", "--scope", "user"]);
    assert!(
        u.stdout.contains("nothing of cuecard's there"),
        "{}",
        u.stdout
    );
    assert_eq!(read(&outside), "{}\n");
}

/// A config the user made read-only is not written over: install says so
/// and prints the entries to merge; uninstall lists what to delete.
#[test]
fn a_read_only_config_is_not_written_over() {
    use std::os::unix::fs::PermissionsExt;
    let sb = Sandbox::new();
    let p = put(sb.home().join(".claude/settings.json"), "{\"a\": 1}\n");
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).unwrap();
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code"])
        .status(1);
    assert!(
        out.stderr.contains("read-only") && out.stderr.contains("to merge by hand"),
        "{}",
        out.stderr
    );
    assert_eq!(read(&p), "{\"a\": 1}\n");
    // Made writable, installed, made read-only again: uninstall says what
    // to delete and changes nothing.
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o644)).unwrap();
    sb.cmd(&["install", "--harness", "claude-code"]);
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o444)).unwrap();
    let installed = read(&p);
    let u = sb
        .test()
        .args(["uninstall", "--harness", "claude-code", "--scope", "user"])
        .status(1);
    assert!(
        u.stdout.contains("Delete these") || u.stdout.contains("Delete this entry"),
        "{}{}",
        u.stdout,
        u.stderr
    );
    assert_eq!(read(&p), installed);
}

/// An install that adds an entry to a file cuecard already installed into
/// (here: a policy set since, so the gating PreSkillShellCommand entry is
/// written now) reports the entry it added, never as "an entry of yours";
/// an entry of the user's that runs cuecard still is.
#[test]
fn an_entry_install_adds_is_never_reported_as_the_users() {
    let sb = Sandbox::new();
    let first = sb.cmd(&["install", "--harness", "claude-code"]).stdout;
    assert!(!first.contains("PreSkillShellCommand"), "{first}");
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code"])
        .env("CUECARD_POLICY", "destructive=deny")
        .run()
        .stdout;
    assert!(out.contains("PreSkillShellCommand ["), "{out}");
    assert!(!out.contains("kept an entry of yours"), "{out}");
    let settings = sb.home().join(".claude/settings.json");
    let text = read(&settings);
    assert!(text.contains("PreSkillShellCommand"), "{text}");
}
