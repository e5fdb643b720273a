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

/// A card's Bindings carry the same pack line (`- effect:`): a user card's
/// counts, a project card's once the project is trusted; `cards check`
/// checks the line and `policy --ids` lists it.
fn user_card(sb: &Sandbox, text: &str) {
    let dir = sb.home().join(".config/cuecard/cards");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("acme-ops.md"), text).unwrap();
}

const CARD: &str = "# Acme operations\n\n## Advisory\n`{command}` {reason}.\n\n## Procedure\nSteps.\n\n## Bindings\n- event: PreToolUse\n- matcher: Bash\n- guard: destructive\n- effect: \"acmectl db wipe|reset\" = \"destructive.database\"\n";

#[test]
fn a_user_cards_effect_line_is_a_pack_line() {
    let sb = Sandbox::new();
    assert_eq!(bash(&sb, "acmectl db wipe --yes", &["destructive"]), "");
    user_card(&sb, CARD);
    let out = bash(&sb, "acmectl db reset", &["destructive"]);
    assert!(out.contains("your [effects] pack"), "{out}");
    assert_eq!(bash(&sb, "acmectl db list", &["destructive"]), "");
    let ids = sb.test().arg("policy").arg("--ids").run().stdout;
    assert!(
        ids.contains("`acmectl db wipe|reset` (your [effects] pack)"),
        "{ids}"
    );
    user_card(
        &sb,
        &CARD.replace("destructive.database", "destructive.dataabse"),
    );
    let t = sb.test().arg("cards").arg("check").exit(1).run();
    assert!(
        t.stdout.contains("- effect:") && t.stdout.contains("destructive.dataabse"),
        "{}",
        t.stdout
    );
    assert_eq!(bash(&sb, "acmectl db reset", &["destructive"]), "");
}

#[test]
fn a_project_cards_effect_line_counts_once_trusted() {
    let sb = Sandbox::new();
    sb.write(".cuecard/cards/acme-ops.md", CARD);
    assert_eq!(bash(&sb, "acmectl db wipe", &["destructive"]), "");
    sb.test().arg("trust").run();
    let out = bash(&sb, "acmectl db wipe", &["destructive"]);
    assert!(out.contains("your [effects] pack"), "{out}");
}

/// Every id `policy --ids` offers a pack works: a verb a pack calls
/// `destructive.opaque` (or `secrets.opaque`) is an opaque finding of that
/// guard, quiet without a policy and decided by the opaque id's, as the
/// reader's own opaque findings are (it was once accepted and never fired).
#[test]
fn a_pack_verb_may_be_an_opaque_finding() {
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[effects]\n\"acmectl nuke\" = \"destructive.opaque\"\n'vaultctl peek' = \"secrets.opaque\"\n",
    );
    assert_eq!(bash(&sb, "acmectl nuke --all", &["destructive"]), "");
    assert_eq!(bash(&sb, "vaultctl peek prod", &["secrets"]), "");
    user_config(
        &sb,
        "[policy]\n\"destructive.opaque\" = \"deny\"\n\"secrets.opaque\" = \"deny\"\n\n[effects]\n\"acmectl nuke\" = \"destructive.opaque\"\n'vaultctl peek' = \"secrets.opaque\"\n",
    );
    let out = bash(&sb, "acmectl nuke --all", &["destructive"]);
    assert!(
        out.contains("\"permissionDecision\":\"deny\"") && out.contains("destructive.opaque"),
        "{out}"
    );
    let out = bash(&sb, "vaultctl peek prod", &["secrets"]);
    assert!(
        out.contains("\"permissionDecision\":\"deny\"") && out.contains("secrets.opaque"),
        "{out}"
    );
    assert_eq!(bash(&sb, "acmectl list", &["destructive"]), "");
}
