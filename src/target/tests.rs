use super::*;
use crate::payload::Payload;
use serde_json::json;

struct Fixture {
    _dir: tempfile::TempDir,
    project: String,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(project.join("src/deep")).unwrap();
    Fixture {
        project: project.to_string_lossy().into_owned(),
        _dir: dir,
    }
}

fn with_ctx<R>(payload: serde_json::Value, f: impl FnOnce(&Call) -> R) -> R {
    let Value::Object(map) = payload else {
        panic!("object")
    };
    let p = Payload::from_map(map);
    let ctx = Call::new(&p);
    f(&ctx)
}

#[test]
fn normalise_folds_dots_and_backslashes() {
    assert_eq!(normalise("/a/./b/../c//d/"), "/a/c/d");
    assert_eq!(normalise("/../.."), "/");
    assert_eq!(
        normalise(r"C:\Users\x\..\y\.ssh\id_rsa"),
        "C:/Users/y/.ssh/id_rsa"
    );
    assert_eq!(relative_to("/p/src/a.rs", "/p"), Some("src/a.rs".into()));
    assert_eq!(relative_to("/p", "/p"), Some(String::new()));
    assert_eq!(relative_to("/pq/a", "/p"), None);
    assert_eq!(relative_to("c:/Proj/a", "C:/proj"), Some("a".into()));
}

#[test]
fn targets_resolve_against_cwd_and_project_root() {
    let fx = fixture();
    let cwd = format!("{}/src", fx.project);
    let payload = json!({"cwd": cwd, "tool_name": "Bash", "tool_input": {"command": "x"}});
    with_ctx(payload, |ctx| {
        let t = target_for(ctx, "deep/lib.rs");
        assert_eq!(t.shown, "src/deep/lib.rs");
        assert!(t.inside_project);
        assert_eq!(
            t.path,
            PathBuf::from(format!("{}/src/deep/lib.rs", fx.project))
        );
        let t = target_for(ctx, "../Cargo.toml");
        assert_eq!((t.shown.as_str(), t.inside_project), ("Cargo.toml", true));
        assert_eq!(t.file_name(), "Cargo.toml");
        let t = target_for(ctx, "../../elsewhere/x");
        assert!(!t.inside_project);
        assert_eq!(t.shown, "../../elsewhere/x");
        let t = target_for(ctx, "/etc/hosts");
        assert_eq!((t.as_str(), t.inside_project), ("/etc/hosts", false));
        let t = target_for(ctx, &format!("{}/README.md", fx.project));
        assert_eq!(t.shown, "README.md");
    });
}

#[test]
fn home_and_windows_paths() {
    let fx = fixture();
    let home = std::env::var("HOME").unwrap_or_default();
    let payload = json!({"cwd": fx.project, "tool_name": "Bash"});
    with_ctx(payload, |ctx| {
        if !home.is_empty() {
            let home_n = normalise(&home);
            for raw in ["~/.ssh/id_rsa", "$HOME/.ssh/id_rsa", "${HOME}/.ssh/id_rsa"] {
                let t = target_for(ctx, raw);
                assert_eq!(t.as_str(), format!("{home_n}/.ssh/id_rsa"), "{raw}");
                assert_eq!(t.shown, raw);
            }
            assert_eq!(target_for(ctx, "~").as_str(), home_n);
        }
        let t = target_for(ctx, r"C:\Users\x\.ssh\id_rsa");
        assert_eq!(t.as_str(), "C:/Users/x/.ssh/id_rsa");
        assert!(!t.inside_project);
        let t = target_for(ctx, r"src\main.rs");
        assert_eq!(t.shown, "src/main.rs");
        assert_eq!(
            target_for(ctx, "$NO_SUCH_VAR_CUECARD/x").shown,
            "$NO_SUCH_VAR_CUECARD/x"
        );
    });
}

#[test]
fn expand_variables() {
    let var = |k: &str| (k == "TMPDIR").then(|| "/tmp/t".to_string());
    assert_eq!(expand("$TMPDIR/a", Some("/h/u"), &var), "/tmp/t/a");
    assert_eq!(expand("%USERPROFILE%\\x", Some("/h/u"), &var), "/h/u\\x");
    assert_eq!(expand("$env:USERPROFILE/x", Some("/h/u"), &var), "/h/u/x");
    assert_eq!(
        expand("~root/.bashrc", Some("/home/u"), &var),
        "/home/root/.bashrc"
    );
    assert_eq!(expand("a/~/b", Some("/h"), &var), "a/~/b");
}

#[test]
fn write_tools_and_their_content() {
    let fx = fixture();
    let cases = [
        (
            json!({"file_path": "Cargo.toml", "content": "[package]"}),
            "Write",
            "[package]",
        ),
        (
            json!({"file_path": "src/a.rs", "old_string": "a", "new_string": "b"}),
            "Edit",
            "b",
        ),
        (
            json!({"file_path": "src/a.rs", "edits": [{"old_string": "a", "new_string": "x"}, {"old_string": "b", "new_string": "y"}]}),
            "MultiEdit",
            "x\ny",
        ),
        (
            json!({"notebook_path": "nb.ipynb", "new_source": "print(1)"}),
            "NotebookEdit",
            "print(1)",
        ),
    ];
    for (input, tool, content) in cases {
        let payload = json!({"cwd": fx.project, "tool_name": tool, "tool_input": input});
        with_ctx(payload, |ctx| {
            let t = write_targets(ctx);
            assert_eq!(t.len(), 1, "{tool}");
            assert!(t[0].inside_project);
            let c = written_content(ctx);
            assert_eq!(c.len(), 1, "{tool}");
            assert_eq!(c[0].1, content, "{tool}");
            assert_eq!(shell_command(ctx), None);
        });
    }
    let payload = json!({"cwd": fx.project, "tool_name": "Read", "tool_input": {"file_path": "x"}});
    with_ctx(payload, |ctx| {
        assert!(write_targets(ctx).is_empty());
        assert!(written_content(ctx).is_empty());
    });
}

#[test]
fn apply_patch_files_and_added_lines() {
    let fx = fixture();
    let patch = "*** Begin Patch\n*** Add File: src/new.rs\n+fn a() {}\n+// two\n*** Update File: Cargo.toml\n@@ [dependencies]\n serde = \"1\"\n-rand = \"0.7\"\n+rand = \"0.8\"\n*** Move to: Cargo2.toml\n*** Delete File: /etc/old.conf\n*** End Patch\n";
    let payload =
        json!({"cwd": fx.project, "tool_name": "apply_patch", "tool_input": {"command": patch}});
    with_ctx(payload, |ctx| {
        let shown: Vec<String> = write_targets(ctx).into_iter().map(|t| t.shown).collect();
        assert_eq!(
            shown,
            ["src/new.rs", "Cargo.toml", "Cargo2.toml", "/etc/old.conf"]
        );
        let content: Vec<(String, String)> = written_content(ctx)
            .into_iter()
            .map(|(t, c)| (t.shown, c))
            .collect();
        assert_eq!(
            content,
            [
                ("src/new.rs".to_string(), "fn a() {}\n// two".to_string()),
                ("Cargo.toml".to_string(), "rand = \"0.8\"".to_string()),
            ]
        );
        let removed: Vec<(String, String)> = replaced_content(ctx)
            .into_iter()
            .map(|(t, c)| (t.shown, c))
            .collect();
        assert_eq!(
            removed,
            [("Cargo.toml".to_string(), "rand = \"0.7\"".to_string())]
        );
        assert_eq!(shell_command(ctx), None);
    });
}

#[test]
fn a_moved_file_receives_the_hunks_after_its_move() {
    let fx = fixture();
    let patch = "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-old()\n+new()\n*** End Patch\n";
    let payload =
        json!({"cwd": fx.project, "tool_name": "apply_patch", "tool_input": {"command": patch}});
    with_ctx(payload, |ctx| {
        let shown: Vec<String> = write_targets(ctx).into_iter().map(|t| t.shown).collect();
        assert_eq!(shown, ["a.py", "b.py"]);
        let content: Vec<(String, String)> = written_content(ctx)
            .into_iter()
            .map(|(t, c)| (t.shown, c))
            .collect();
        assert_eq!(content, [("b.py".to_string(), "new()".to_string())]);
    });
}

#[test]
fn shell_command_of_bash_and_powershell() {
    let fx = fixture();
    let payload =
        json!({"cwd": fx.project, "tool_name": "Bash", "tool_input": {"command": "git push"}});
    with_ctx(payload, |ctx| {
        assert_eq!(shell_command(ctx), Some("git push"));
        assert_eq!(shell_commands(ctx)[0].argv, ["git", "push"]);
    });
    let payload = json!({"cwd": fx.project, "tool_name": "PowerShell", "tool_input": {"command": r"Remove-Item C:\x"}});
    with_ctx(payload, |ctx| {
        assert_eq!(shell_commands(ctx)[0].argv, ["Remove-Item", r"C:\x"]);
    });
}

#[test]
fn a_calls_tool_kind_and_shell_writes_are_read_once() {
    let fx = fixture();
    let command = "echo x > a.txt && cp b c /srv/www/ && ls | tee -a log";
    let payload =
        json!({"cwd": fx.project, "tool_name": "Bash", "tool_input": {"command": command}});
    with_ctx(payload, |ctx| {
        assert_eq!(ctx.tool(), ToolKind::Bash);
        let writes = ctx.shell_write_paths();
        // One entry per simple command, in their order.
        assert_eq!(ctx.shell_commands().len(), writes.len());
        assert_eq!(
            writes,
            [vec!["a.txt"], vec!["/srv/www/"], vec![], vec!["log"]]
        );
        // Memoised: the second read is the same value, not a new one.
        assert!(std::ptr::eq(writes, ctx.shell_write_paths()));
    });
    let payload = json!({"cwd": fx.project, "tool_name": "PowerShell",
        "tool_input": {"command": "Set-Content -Path C:/x.ini -Value 1"}});
    with_ctx(payload, |ctx| {
        assert_eq!(ctx.tool(), ToolKind::PowerShell);
        assert_eq!(ctx.shell_write_paths(), [vec!["C:/x.ini"]]);
    });
    // A file tool runs no command: it writes nothing through a shell.
    let payload = json!({"cwd": fx.project, "tool_name": "Write",
        "tool_input": {"file_path": "a.txt", "content": "echo x > b"}});
    with_ctx(payload, |ctx| {
        assert_eq!(ctx.tool(), ToolKind::Write);
        assert!(ctx.shell_write_paths().is_empty());
    });
}
