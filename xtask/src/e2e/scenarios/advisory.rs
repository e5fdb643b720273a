//! The advisory scenarios: what reaches the model on a benign session, with
//! cuecard disabled, on a manifest edit or a package add, the usage warnings,
//! a drifted knowledge base.

use super::{Plan, guarded, shipped, signature};
use crate::e2e::harness::{self, Harness};
use crate::e2e::outcome::{Outcome, normalise};
use crate::e2e::tools::{edit, read, shell, text, turn, write};
use cuecard::card::Card;
use serde_json::json;
use std::path::Path;

/// The cards a package-add command triggers.
pub(super) fn package_add_cards() -> Result<Vec<Card>, String> {
    guarded(
        &["dependency", "dependencies", "package", "package-add"],
        Some("Bash"),
    )
}

/// The model adds a package with npm: offline and against a dead loopback
/// registry, so the command fails fast and reaches no network.
pub(super) fn plan_package_add() -> Plan {
    Plan {
        prompt: "Add left-pad with npm, then say done.".into(),
        script: json!({"turns": [
            turn(shell("npm install --offline --registry=http://127.0.0.1:9/ left-pad@1.3.0 || true"), None),
            text("Tried to add left-pad.")
        ]}),
        ..Plan::default()
    }
}

pub(super) fn plan_benign(p: &Path, with_manifest: bool) -> Plan {
    let lib = p.join("src/lib.rs").to_string_lossy().to_string();
    let mut turns = vec![
        turn(read(&lib), None),
        turn(shell("sh test.sh"), None),
        turn(edit(&lib, "    a + b", "    b + a"), None),
    ];
    if with_manifest {
        let manifest = p.join("package.json").to_string_lossy().to_string();
        turns.push(turn(
            write(
                &manifest,
                "{\n  \"name\": \"demo\",\n  \"dependencies\": {\"left-pad\": \"1.3.0\"}\n}\n",
            ),
            None,
        ));
    }
    turns.push(text("CUECARD-E2E-FINISHED: read, tested, edited."));
    Plan {
        prompt: "Read src/lib.rs, run the tests, swap the operands in add, then say done.".into(),
        script: json!({ "turns": turns }),
        ..Plan::default()
    }
}

/// Whether cuecard measures usage this harness reports rather than
/// estimating it: Claude Code transcripts, Codex rollouts, the token counts
/// cuecard's OpenCode/Kilo plugin and pi extension pass, Gemini CLI and Qwen
/// Code chats, CodeBuddy transcripts, Copilot's events log and Factory
/// Droid's session settings (issue 30; the shapes measured in these runs,
/// docs/decisions.md, Compaction). Cline reports none to a hook.
pub(super) fn transcript_measured(h: &Harness) -> bool {
    h.id != "cline"
}

/// Whether cuecard's contract delivers SessionStart context on `h`.
pub(super) fn start_delivered(h: &Harness) -> bool {
    cuecard::harness::HarnessId::parse(h.id)
        .is_some_and(|id| cuecard::harness::delivers_context(id, "SessionStart"))
}

pub(super) fn check_benign(h: &Harness, o: &Outcome, cards: &[Card]) -> Vec<String> {
    let mut p = Vec::new();
    let start = signature(&cards[0]);
    if start_delivered(h) && o.first_with(&start).is_none() {
        p.push(format!(
            "the session-start card never reached the model (`{start}`)"
        ));
    }
    // What a session start carries in a project without a knowledge base
    // (nothing at all where the contract drops SessionStart output).
    let at_start: &[&str] = if start_delivered(h) {
        &["session-start", "skill-index"]
    } else {
        &[]
    };
    for c in shipped()
        .iter()
        .filter(|c| !at_start.contains(&c.name.as_str()))
    {
        let sig = signature(c);
        if let Some(r) = o.first_with(&sig) {
            p.push(format!(
                "card `{}` reached request {} on benign calls",
                c.name, r.seq
            ));
        }
    }
    if o.requests.iter().all(|r| r.reply != "turn3") {
        p.push("the harness did not go through every scripted turn".into());
    }
    p
}

pub(super) fn check_disabled(_: &Harness, o: &Outcome, cards: &[Card]) -> Vec<String> {
    let mut p = Vec::new();
    for c in cards {
        if let Some(r) = o.first_with(&signature(c)) {
            p.push(format!(
                "card `{}` reached request {} with CUECARD_DISABLE=1",
                c.name, r.seq
            ));
        }
    }
    if o.requests.iter().all(|r| r.reply != "turn4") {
        p.push("the harness did not go through every scripted turn".into());
    }
    p
}

/// One of `cards` appears in a request after the one that answered with
/// tool turn `turn` (the call that should trigger it), and not before.
pub(super) fn advisory_after(o: &Outcome, cards: &[Card], turn: usize) -> Vec<String> {
    let Some(trigger) = o.answered_with(&format!("turn{turn}")) else {
        return vec![format!(
            "the scripted tool call (turn {turn}) was never made"
        )];
    };
    let hits: Vec<(String, usize)> = cards
        .iter()
        .filter_map(|c| o.first_with(&signature(c)).map(|r| (c.name.clone(), r.seq)))
        .collect();
    match hits.iter().min_by_key(|h| h.1) {
        None => vec![format!(
            "no request carries the advisory ({})",
            cards
                .iter()
                .map(|c| c.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        )],
        Some((name, seq)) if *seq <= trigger.seq => vec![format!(
            "card `{name}` appears in request {seq}, before the call (request {}) that should trigger it",
            trigger.seq
        )],
        Some(_) => vec![],
    }
}

pub(super) fn check_warnings(h: &Harness, o: &Outcome, cards: &[Card]) -> Vec<String> {
    let mut p = Vec::new();
    let mut fired = 0;
    for c in cards {
        let sig = signature(c);
        let n = o.max_occurrences(&sig);
        fired += n;
        if n > 2 {
            p.push(format!(
                "card `{}` appears {n} times in one request (at most 2)",
                c.name
            ));
        }
        if n > 0 {
            let r = o.first_with(&sig).expect("counted above");
            let i = r.text.find(&normalise(&sig)).unwrap_or(0);
            let tail: String = r.text[i..].chars().take(400).collect();
            if !tail.chars().any(|ch| ch.is_ascii_digit()) {
                p.push(format!("card `{}` carries no figure: {tail}", c.name));
            }
        }
    }
    // The usage climbs past both thresholds: two warnings where usage is
    // measured; an estimate moves in coarse steps and may cross both at once
    // (one warning, the higher), so one or two there.
    let want = if transcript_measured(h) { 2..=2 } else { 1..=2 };
    if !want.contains(&fired) {
        p.push(format!(
            "{fired} compaction warning(s) reached the model; expected {want:?} (one per threshold)"
        ));
    }
    p
}

pub(super) fn setup_drifted_kb(p: &Path) -> Result<(), String> {
    let w = |rel: &str, t: &str| harness::write(&p.join(rel), t);
    w(
        "knowledge-base/index.md",
        "# Index\n\n- [A](pages/a.md)\n- [B](pages/b.md)\n",
    )?;
    w("knowledge-base/pages/a.md", "# A\n")?;
    w("knowledge-base/pages/b.md", "# B\n")?;
    w(
        "knowledge-base/log.md",
        "# Log\n\n## [2025-01-10] ingest | First source\n\n## [2025-01-11] baseline | pages=1 latest=## [2025-01-10] ingest | First source\n\n## [2025-02-01] ingest | Second source\n",
    )
}
