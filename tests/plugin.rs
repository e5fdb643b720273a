//! `cuecard plugin build`: the plugin directory, generated from the same
//! Bindings as every settings install, and a plugin that the harness
//! recorded found beside a settings install (a double registration).

mod support;

use serde_json::Value;
use std::path::Path;
use support::Sandbox;

fn read_json(path: impl AsRef<Path>) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn build(sb: &Sandbox, dir: &Path, harness: &str) -> support::Output {
    sb.test()
        .arg("plugin")
        .arg("build")
        .arg(dir)
        .args(["--harness", harness])
        .run()
}

#[test]
fn a_claude_code_plugin_holds_the_install_entries_pointed_at_its_own_binary() {
    let sb = Sandbox::new();
    let dir = sb.path().join("plugin");
    let out = build(&sb, &dir, "claude-code").stdout;
    // How to try it, naming the folder just built.
    assert!(
        out.contains(&format!("`claude --plugin-dir {}`", dir.display())) && !out.contains("<dir>"),
        "{out}"
    );
    let manifest = read_json(dir.join(".claude-plugin/plugin.json"));
    assert_eq!(manifest["name"], "cuecard");
    let market = read_json(dir.join(".claude-plugin/marketplace.json"));
    assert_eq!(market["plugins"][0]["source"], "./");
    assert!(dir.join("README.md").is_file());
    // The binary copied in, runnable.
    let copy = dir.join("bin/cuecard");
    assert_eq!(
        std::fs::read(&copy).unwrap(),
        std::fs::read(support::bin()).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&copy).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
    }
    // The hooks are the settings install's, with the program rebased.
    sb.test()
        .args(["install", "--harness", "claude-code", "--scope", "user"])
        .run();
    let installed = read_json(sb.home().join(".claude/settings.json"));
    let plugin = read_json(dir.join("hooks/hooks.json"));
    let events =
        |v: &Value| -> Vec<String> { v["hooks"].as_object().unwrap().keys().cloned().collect() };
    assert_eq!(events(&plugin), events(&installed));
    for (event, groups) in plugin["hooks"].as_object().unwrap() {
        let h = &groups[0]["hooks"][0];
        let i = &installed["hooks"][event][0]["hooks"][0];
        assert_eq!(h["command"], "${CLAUDE_PLUGIN_ROOT}/bin/cuecard", "{event}");
        assert_eq!(h["args"][0], "dispatch");
        assert_eq!(h["args"][1], event.as_str());
        assert_eq!(
            groups[0]["matcher"], installed["hooks"][event][0]["matcher"],
            "{event}"
        );
        // The shipped cards, as the install lists them.
        assert_eq!(h["args"], i["args"], "{event}");
    }
    // The skills, under skills/<name>/SKILL.md.
    let skills: Vec<_> = std::fs::read_dir(dir.join("skills"))
        .unwrap()
        .flatten()
        .filter(|e| e.path().join("SKILL.md").is_file())
        .collect();
    assert!(!skills.is_empty());
}

#[test]
fn a_plugin_is_built_only_into_an_empty_directory() {
    let sb = Sandbox::new();
    let dir = sb.path().join("taken");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mine.txt"), "keep").unwrap();
    let out = sb.test().arg("plugin").arg("build").arg(&dir).exit(1).run();
    assert!(out.stderr.contains("not empty"), "{}", out.stderr);
    assert_eq!(
        std::fs::read_to_string(dir.join("mine.txt")).unwrap(),
        "keep"
    );
    assert!(!dir.join("hooks").exists());
    let out = sb
        .test()
        .args(["plugin", "build", "x", "--harness", "kiro"])
        .exit(1)
        .run();
    assert!(out.stderr.contains("no plugin format"), "{}", out.stderr);
}

#[test]
fn a_recorded_plugin_beside_a_settings_install_is_a_double_registration() {
    let sb = Sandbox::new();
    // Where Claude Code keeps an installed plugin.
    let cached = sb
        .home()
        .join(".claude/plugins/cache/cuecard/cuecard/0.1.0");
    build(&sb, &cached, "claude-code");
    sb.test().args(["verify", "--harness", "claude-code"]).run();
    let out = sb
        .test()
        .args(["install", "--harness", "claude-code", "--scope", "user"])
        .run();
    assert!(
        out.stdout.contains("registered twice on SessionStart")
            && out.stdout.contains("hooks/hooks.json"),
        "{}",
        out.stdout
    );
    let out = sb
        .test()
        .args(["verify", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("DOUBLE"), "{}", out.stdout);
    let out = sb
        .test()
        .args(["doctor", "--harness", "claude-code"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("registered twice"), "{}", out.stdout);
}

#[test]
fn a_gemini_extension_holds_the_install_entries_pointed_at_its_own_binary() {
    let sb = Sandbox::new();
    let dir = sb.path().join("ext");
    let out = build(&sb, &dir, "gemini");
    assert!(
        out.stdout.contains("not registered: Stop"),
        "{}",
        out.stdout
    );
    assert_eq!(
        read_json(dir.join("gemini-extension.json"))["name"],
        "cuecard"
    );
    assert!(!dir.join(".claude-plugin").exists());
    sb.test()
        .args(["install", "--harness", "gemini", "--scope", "user"])
        .run();
    let installed = read_json(sb.home().join(".gemini/settings.json"));
    let ext = read_json(dir.join("hooks/hooks.json"));
    let events: Vec<&String> = ext["hooks"].as_object().unwrap().keys().collect();
    let want: Vec<&String> = installed["hooks"].as_object().unwrap().keys().collect();
    assert_eq!(events, want);
    for (event, groups) in ext["hooks"].as_object().unwrap() {
        let cmd = groups[0]["hooks"][0]["command"].as_str().unwrap();
        let theirs = installed["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap();
        // The same words after the program, which is the extension's copy,
        // quoted so the shell takes Gemini's substituted path as one word.
        let (prog, rest) = cmd.split_at(cmd.find(" dispatch ").unwrap());
        assert_eq!(prog, "\"${extensionPath}/bin/cuecard\"", "{event}");
        assert!(theirs.ends_with(rest), "{event}: {theirs} vs {rest}");
        assert_eq!(groups[0]["hooks"][0]["timeout"], 10000, "milliseconds");
    }
}

#[test]
fn an_installed_gemini_extension_beside_a_settings_install_is_a_double_registration() {
    let sb = Sandbox::new();
    build(&sb, &sb.home().join(".gemini/extensions/cuecard"), "gemini");
    sb.test().args(["verify", "--harness", "gemini"]).run();
    let out = sb
        .test()
        .args(["install", "--harness", "gemini", "--scope", "user"])
        .run();
    assert!(
        out.stdout.contains("registered twice on SessionStart"),
        "{}",
        out.stdout
    );
    let out = sb
        .test()
        .args(["verify", "--harness", "gemini"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("DOUBLE"), "{}", out.stdout);
}

#[test]
fn a_codex_plugin_holds_the_install_entries_and_a_cached_one_is_a_double_registration() {
    let sb = Sandbox::new();
    let dir = sb.path().join("codex-plugin");
    build(&sb, &dir, "codex");
    assert_eq!(
        read_json(dir.join(".codex-plugin/plugin.json"))["name"],
        "cuecard"
    );
    assert_eq!(
        read_json(dir.join(".claude-plugin/marketplace.json"))["plugins"][0]["source"],
        "./"
    );
    sb.test()
        .args(["install", "--harness", "codex", "--scope", "user"])
        .run();
    let installed = read_json(sb.home().join(".codex/hooks.json"));
    let plugin = read_json(dir.join("hooks/hooks.json"));
    for (event, groups) in plugin["hooks"].as_object().unwrap() {
        let cmd = groups[0]["hooks"][0]["command"].as_str().unwrap();
        let theirs = installed["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap();
        let (prog, rest) = cmd.split_at(cmd.find(" dispatch ").unwrap());
        assert_eq!(prog, "\"${CLAUDE_PLUGIN_ROOT}/bin/cuecard\"", "{event}");
        assert!(theirs.ends_with(rest), "{event}: {theirs} vs {rest}");
    }
    // Where `codex plugin add` puts it (measured with the pinned 0.171.0).
    build(
        &sb,
        &sb.home().join(".codex/plugins/cache/cuecard/cuecard/0.1.0"),
        "codex",
    );
    let out = sb
        .test()
        .args(["verify", "--harness", "codex"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("DOUBLE"), "{}", out.stdout);
}

#[test]
fn a_copilot_plugin_holds_the_install_entries_on_the_bash_key_only() {
    let sb = Sandbox::new();
    let dir = sb.path().join("copilot-plugin");
    build(&sb, &dir, "copilot");
    let manifest = read_json(dir.join("plugin.json"));
    assert_eq!(manifest["name"], "cuecard");
    assert_eq!(manifest["hooks"], "hooks.json");
    assert_eq!(
        read_json(dir.join(".claude-plugin/marketplace.json"))["plugins"][0]["source"],
        "./"
    );
    assert!(dir.join("skills/cuecard-status/SKILL.md").is_file());
    sb.test()
        .args(["install", "--harness", "copilot", "--scope", "user"])
        .run();
    let installed = read_json(sb.home().join(".copilot/hooks/cuecard.json"));
    let plugin = read_json(dir.join("hooks.json"));
    // Copilot's own hook-file format, events and all.
    assert_eq!(plugin["version"], 1);
    let events =
        |v: &Value| -> Vec<String> { v["hooks"].as_object().unwrap().keys().cloned().collect() };
    assert_eq!(events(&plugin), events(&installed));
    for (event, entries) in plugin["hooks"].as_object().unwrap() {
        let h = &entries[0];
        let cmd = h["bash"].as_str().unwrap();
        let theirs = installed["hooks"][event][0]["bash"].as_str().unwrap();
        let (prog, rest) = cmd.split_at(cmd.find(" dispatch ").unwrap());
        assert_eq!(prog, "\"${COPILOT_PLUGIN_ROOT}/bin/cuecard\"", "{event}");
        assert!(theirs.ends_with(rest), "{event}: {theirs} vs {rest}");
        // The plugin ships a Unix binary: no PowerShell line naming a
        // program it does not have.
        assert!(h.get("powershell").is_none(), "{event}: {h}");
        assert_eq!(h["matcher"], installed["hooks"][event][0]["matcher"]);
    }
}

#[test]
fn a_copilot_plugin_it_records_beside_a_settings_install_is_a_double_registration() {
    // Installed from a GitHub marketplace: copied under installed-plugins.
    let sb = Sandbox::new();
    build(
        &sb,
        &sb.home().join(".copilot/installed-plugins/cuecard/cuecard"),
        "copilot",
    );
    sb.test().args(["verify", "--harness", "copilot"]).run();
    let out = sb
        .test()
        .args(["install", "--harness", "copilot", "--scope", "user"])
        .run();
    assert!(
        out.stdout.contains("registered twice on SessionStart"),
        "{}",
        out.stdout
    );
    sb.test()
        .args(["verify", "--harness", "copilot"])
        .exit(1)
        .run();

    // Loaded live from a local marketplace that settings.json names.
    let sb = Sandbox::new();
    let market = sb.path().join("market");
    build(&sb, &market, "copilot");
    std::fs::create_dir_all(sb.home().join(".copilot")).unwrap();
    std::fs::write(
        sb.home().join(".copilot/settings.json"),
        serde_json::json!({
            "extraKnownMarketplaces": {"cuecard": {"source": {"source": "directory", "path": market}}},
            "enabledPlugins": {"cuecard@cuecard": false}
        })
        .to_string(),
    )
    .unwrap();
    sb.test()
        .args(["install", "--harness", "copilot", "--scope", "user"])
        .run();
    let out = sb
        .test()
        .args(["verify", "--harness", "copilot"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("DOUBLE"), "{}", out.stdout);
    let out = sb
        .test()
        .args(["doctor", "--harness", "copilot"])
        .exit(1)
        .run();
    assert!(out.stdout.contains("registered twice"), "{}", out.stdout);
}
