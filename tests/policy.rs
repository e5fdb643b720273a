//! Opt-in policy (DESIGN §4a), through the real binary: where a policy is
//! set and in which order the sources count (`cuecard policy`), and what
//! `cards show` lists as finding ids.

mod support;

use support::Sandbox;

fn user_config(sb: &Sandbox, text: &str) {
    let dir = sb.home().join(".config/cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

fn effective_line<'a>(out: &'a str, id: &str) -> Option<&'a str> {
    out.lines()
        .find(|l| l.split_whitespace().next() == Some(id))
}

#[test]
fn the_policy_command_shows_each_line_with_its_source_env_over_user() {
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[policy]\ndestructive = \"ask\"\n\"destructive.outside-project\" = \"deny\"\n",
    );
    let out = sb.test().arg("policy").run().stdout;
    let l = effective_line(&out, "destructive.outside-project").unwrap();
    assert!(
        l.contains("deny") && l.contains("config.toml: destructive.outside-project = deny"),
        "{l}"
    );
    let l = effective_line(&out, "destructive.git-discard").unwrap();
    assert!(
        l.contains("ask") && l.contains("config.toml: destructive = ask"),
        "{l}"
    );
    assert!(
        effective_line(&out, "secrets.exfiltration").is_none(),
        "advise is not listed"
    );
    // CUECARD_POLICY counts over the user's file.
    let out = sb
        .test()
        .arg("policy")
        .env(
            "CUECARD_POLICY",
            "destructive=advise,secrets.exfiltration=ask",
        )
        .run()
        .stdout;
    assert!(
        effective_line(&out, "destructive.outside-project").is_none(),
        "{out}"
    );
    let l = effective_line(&out, "secrets.exfiltration").unwrap();
    assert!(l.contains("ask") && l.contains("CUECARD_POLICY"), "{l}");
}

#[test]
fn nothing_set_is_advice_everywhere() {
    let sb = Sandbox::new();
    let out = sb.test().arg("policy").run().stdout;
    assert!(out.contains("everything is advice (nothing set)"), "{out}");
}

#[test]
fn a_malformed_source_counts_for_nothing_and_is_named() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestrutive = \"deny\"\n");
    let t = sb.test().arg("policy").exit(1).run();
    assert!(t.stdout.contains("MALFORMED"), "{}", t.stdout);
    assert!(t.stdout.contains("everything is advice"), "{}", t.stdout);
    let t = sb
        .test()
        .arg("policy")
        .env("CUECARD_POLICY", "destructive:deny")
        .exit(1)
        .run();
    assert!(
        t.stdout.contains("CUECARD_POLICY: MALFORMED"),
        "{}",
        t.stdout
    );
}

#[test]
fn a_project_file_counts_once_trusted_and_only_tightens() {
    let sb = Sandbox::new();
    user_config(&sb, "[policy]\ndestructive = \"deny\"\n");
    sb.write(
        ".cuecard/config.toml",
        "[policy]\ndestructive = \"advise\"\n\"protected-branch.force-push\" = \"deny\"\n",
    );
    let t = sb.test().arg("policy").exit(1).run();
    assert!(
        t.stdout.contains("new or changed since `cuecard trust`"),
        "{}",
        t.stdout
    );
    assert!(effective_line(&t.stdout, "protected-branch.force-push").is_none());
    sb.test().arg("trust").run();
    let out = sb.test().arg("policy").run().stdout;
    let l = effective_line(&out, "protected-branch.force-push").unwrap();
    assert!(
        l.contains("deny") && l.contains(".cuecard/config.toml"),
        "{l}"
    );
    // The project's `advise` does not loosen the user's deny.
    let l = effective_line(&out, "destructive.outside-project").unwrap();
    assert!(l.contains("deny") && l.contains("home"), "{l}");
    // Changed after trust: inactive again.
    sb.write(
        ".cuecard/config.toml",
        "[policy]\n\"protected-branch\" = \"deny\"\n",
    );
    let t = sb.test().arg("policy").exit(1).run();
    assert!(
        effective_line(&t.stdout, "protected-branch.force-push").is_none(),
        "{}",
        t.stdout
    );
}

#[test]
fn cards_show_lists_the_finding_ids_of_its_guard() {
    let sb = Sandbox::new();
    let out = sb
        .test()
        .args(["cards", "show", "destructive"])
        .run()
        .stdout;
    for id in [
        "`destructive`",
        "`destructive.outside-project`",
        "`destructive.git-discard`",
    ] {
        assert!(out.contains(id), "{id} in {out}");
    }
}
