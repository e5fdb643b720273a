//! Packs a user adds to the effect model (issue 27, point 2), through the
//! real binary: an `[effects]` line in the user's config makes a tool's verb
//! a finding of the id it names, in the same decision path as the shipped
//! tables (its policy applies); a project's pack counts once trusted; a
//! malformed table counts for nothing and `cards check` says why; `policy
//! --ids` lists the pack's verbs.

mod support;

use serde_json::json;
use support::Sandbox;

fn user_config(sb: &Sandbox, text: &str) {
    let dir = sb.home().join(".config/cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), text).unwrap();
}

fn bash(sb: &Sandbox, command: &str, cards: &[&str]) -> String {
    let mut p = support::payload(sb, "PreToolUse");
    p["tool_name"] = json!("Bash");
    p["tool_input"] = json!({ "command": command });
    p["tool_use_id"] = json!("toolu_1");
    sb.test()
        .dispatch("PreToolUse", cards)
        .json(&p)
        .run()
        .stdout
}

const PACK: &str = "[policy]\n\"destructive.database\" = \"deny\"\n\n[effects]\n\"acmectl db wipe|reset\" = \"destructive.database\"\n'vaultctl reveal' = \"secrets.printed\"\n";

#[test]
fn a_user_pack_makes_a_verb_a_finding_under_its_policy() {
    let sb = Sandbox::new();
    assert_eq!(bash(&sb, "acmectl db wipe --yes", &["destructive"]), "");
    user_config(&sb, PACK);
    let out = bash(
        &sb,
        "acmectl --profile prod db wipe --yes",
        &["destructive"],
    );
    assert!(
        out.contains("\"permissionDecision\":\"deny\"") && out.contains("destructive.database"),
        "{out}"
    );
    // Another verb of the tool, and the verb's help form, stay quiet.
    assert_eq!(bash(&sb, "acmectl db list", &["destructive"]), "");
    assert_eq!(bash(&sb, "acmectl db wipe --help", &["destructive"]), "");
    let out = bash(&sb, "vaultctl reveal prod/db", &["secrets"]);
    assert!(out.contains("your [effects] pack"), "{out}");
    // `policy --ids` lists them.
    let ids = sb.test().arg("policy").arg("--ids").run().stdout;
    assert!(
        ids.contains("`acmectl db wipe|reset` (your [effects] pack)"),
        "{ids}"
    );
    // `cards check` checks the table.
    let check = sb.test().arg("cards").arg("check").run().stdout;
    assert!(check.contains("[effects]: ok (2 verbs)"), "{check}");
}

#[test]
fn a_malformed_pack_counts_for_nothing_and_cards_check_says_why() {
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[effects]\n\"acmectl db wipe\" = \"destructive.dataabse\"\n",
    );
    assert_eq!(bash(&sb, "acmectl db wipe", &["destructive"]), "");
    let t = sb.test().arg("cards").arg("check").exit(1).run();
    assert!(
        t.stdout.contains("[effects]: INVALID") && t.stdout.contains("destructive.dataabse"),
        "{}",
        t.stdout
    );
}

#[test]
fn a_project_pack_counts_once_trusted() {
    let sb = Sandbox::new();
    let dir = sb.project().join(".cuecard");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        "[effects]\n\"acmectl db wipe\" = \"destructive.database\"\n",
    )
    .unwrap();
    assert_eq!(bash(&sb, "acmectl db wipe", &["destructive"]), "");
    sb.test().arg("trust").run();
    let out = bash(&sb, "acmectl db wipe", &["destructive"]);
    assert!(out.contains("your [effects] pack"), "{out}");
}
