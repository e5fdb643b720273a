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

const PACK: &str = "[policy]\n\"destructive.database\" = \"deny\"\n\n[effects]\n\"acmectl ledger scrub|rewind\" = \"destructive.database\"\n'vaultctl reveal' = \"secrets.printed\"\n";

#[test]
fn a_user_pack_makes_a_verb_a_finding_under_its_policy() {
    let sb = Sandbox::new();
    assert_eq!(
        bash(&sb, "acmectl ledger scrub --yes", &["destructive"]),
        ""
    );
    user_config(&sb, PACK);
    let out = bash(
        &sb,
        "acmectl --profile prod ledger scrub --yes",
        &["destructive"],
    );
    assert!(
        out.contains("\"permissionDecision\":\"deny\"") && out.contains("destructive.database"),
        "{out}"
    );
    // Another verb of the tool, and the verb's help form, stay quiet.
    assert_eq!(bash(&sb, "acmectl ledger list", &["destructive"]), "");
    assert_eq!(
        bash(&sb, "acmectl ledger scrub --help", &["destructive"]),
        ""
    );
    let out = bash(&sb, "vaultctl reveal prod/db", &["secrets"]);
    assert!(out.contains("your [effects] pack"), "{out}");
    // `policy --ids` lists them.
    let ids = sb.test().arg("policy").arg("--ids").run().stdout;
    assert!(
        ids.contains("`acmectl ledger scrub|rewind` (your [effects] pack)"),
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
        "[effects]\n\"acmectl ledger scrub\" = \"destructive.dataabse\"\n",
    );
    assert_eq!(bash(&sb, "acmectl ledger scrub", &["destructive"]), "");
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
        "[effects]\n\"acmectl ledger scrub\" = \"destructive.database\"\n",
    )
    .unwrap();
    assert_eq!(bash(&sb, "acmectl ledger scrub", &["destructive"]), "");
    sb.test().arg("trust").run();
    let out = bash(&sb, "acmectl ledger scrub", &["destructive"]);
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

const CARD: &str = "# Acme operations\n\n## Advisory\n`{command}` {reason}.\n\n## Procedure\nSteps.\n\n## Bindings\n- event: PreToolUse\n- matcher: Bash\n- guard: destructive\n- effect: \"acmectl ledger scrub|rewind\" = \"destructive.database\"\n";

#[test]
fn a_user_cards_effect_line_is_a_pack_line() {
    let sb = Sandbox::new();
    assert_eq!(
        bash(&sb, "acmectl ledger scrub --yes", &["destructive"]),
        ""
    );
    user_card(&sb, CARD);
    let out = bash(&sb, "acmectl ledger rewind", &["destructive"]);
    assert!(out.contains("your [effects] pack"), "{out}");
    assert_eq!(bash(&sb, "acmectl ledger list", &["destructive"]), "");
    let ids = sb.test().arg("policy").arg("--ids").run().stdout;
    assert!(
        ids.contains("`acmectl ledger scrub|rewind` (your [effects] pack)"),
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
    assert_eq!(bash(&sb, "acmectl ledger rewind", &["destructive"]), "");
}

#[test]
fn a_project_cards_effect_line_counts_once_trusted() {
    let sb = Sandbox::new();
    sb.write(".cuecard/cards/acme-ops.md", CARD);
    assert_eq!(bash(&sb, "acmectl ledger scrub", &["destructive"]), "");
    sb.test().arg("trust").run();
    let out = bash(&sb, "acmectl ledger scrub", &["destructive"]);
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

/// A broken source of packs is still refused and recorded now that the
/// hook takes the packs from the policy's own read of the file: a table
/// with a wrong line, a file that is not UTF-8, a file over the size bound
/// each count for nothing, and `cuecard status` names the file and why.
#[test]
fn a_broken_pack_source_is_refused_and_recorded() {
    let big = format!(
        "{PACK}# {}\n",
        "x".repeat(cuecard::policy::MAX_BYTES as usize)
    );
    let cases: [(&[u8], &str); 3] = [
        (
            b"[policy]\n\"destructive.database\" = \"deny\"\n[effects]\n\"acmectl ledger scrub\" = \"destructive.dataabse\"\n",
            "[effects] line 4",
        ),
        (
            b"[policy]\n\"destructive.database\" = \"deny\"\n# caf\xe9\n[effects]\n\"acmectl ledger scrub\" = \"destructive.database\"\n",
            "not UTF-8",
        ),
        (big.as_bytes(), "unreadable or too large"),
    ];
    for (text, why) in cases {
        let sb = Sandbox::new();
        let dir = sb.home().join(".config/cuecard");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), text).unwrap();
        assert_eq!(
            bash(&sb, "acmectl ledger scrub --yes", &["destructive"]),
            "",
            "{why}"
        );
        let status = sb.test().arg("status").run().stdout;
        assert!(
            status.contains("its [effects] table counts for nothing") && status.contains(why),
            "{why}: {status}"
        );
    }
}

/// With strace on the machine: one Bash call that hits packs from every
/// source (the user's config and a card of the user's, a trusted project's
/// config and card) opens each config file once, lists each card folder
/// at most once and checks the state root once: the packs are read from
/// what the call's policy and deck resolution already read.
#[test]
fn one_call_reads_each_pack_source_once() {
    if support::strace_missing() {
        return;
    }
    let sb = Sandbox::new();
    user_config(
        &sb,
        "[policy]\n\"destructive.database\" = \"deny\"\n[effects]\n'vaultctl reveal' = \"secrets.printed\"\n",
    );
    user_card(&sb, CARD);
    sb.write(
        ".cuecard/config.toml",
        "[effects]\n\"acmectl ledger zap\" = \"destructive.database\"\n",
    );
    sb.write(
        ".cuecard/cards/acme-proj.md",
        &CARD.replace("scrub|rewind", "fold"),
    );
    sb.test().arg("trust").run();
    // Cards written a while ago, so that their cache is trusted as it
    // stands (a card changed within the last seconds is read again).
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    for dir in [
        sb.home().join(".config/cuecard/cards"),
        sb.project().join(".cuecard/cards"),
    ] {
        for e in std::fs::read_dir(&dir).unwrap() {
            support::set_mtime(&e.unwrap().path(), past);
        }
        support::set_mtime(&dir, past);
    }
    let trace = sb.path().join("trace");
    let mut p = support::payload(&sb, "PreToolUse");
    p["tool_name"] = json!("Bash");
    p["tool_input"] = json!({ "command": "acmectl ledger fold" });
    // A session that has state, and card folders whose cache is written.
    sb.test()
        .dispatch("PreToolUse", &["destructive", "secrets"])
        .json(&p)
        .run();
    let out = sb
        .test()
        .dispatch("PreToolUse", &["destructive", "secrets"])
        .json(&p)
        .strace(&trace)
        .run()
        .stdout;
    // The project card's pack line fires, under the user's policy.
    assert!(
        out.contains("\"permissionDecision\":\"deny\"") && out.contains("destructive.database"),
        "{out}"
    );
    let text = std::fs::read_to_string(&trace).unwrap();
    let naming = |path: &std::path::Path, call: &str| {
        let quoted = format!("\"{}\"", path.display());
        text.lines()
            .filter(|l| l.contains(&quoted) && l.contains(call))
            .count()
    };
    let user_cfg = sb.home().join(".config/cuecard/config.toml");
    let project_cfg = sb.project().join(".cuecard/config.toml");
    assert_eq!(naming(&user_cfg, "open"), 1, "the user's config:\n{text}");
    assert_eq!(naming(&user_cfg, "stat"), 0, "the user's config:\n{text}");
    assert_eq!(
        naming(&project_cfg, "open"),
        1,
        "the project's config:\n{text}"
    );
    assert_eq!(
        naming(&project_cfg, "stat"),
        0,
        "the project's config:\n{text}"
    );
    for dir in [
        sb.home().join(".config/cuecard/cards"),
        sb.project().join(".cuecard/cards"),
    ] {
        assert!(
            naming(&dir, "O_DIRECTORY") <= 1,
            "{}:\n{text}",
            dir.display()
        );
        assert!(naming(&dir, "stat") <= 1, "{}:\n{text}", dir.display());
    }
    assert_eq!(naming(&sb.state(), "stat"), 1, "the state root:\n{text}");
}
