//! `cuecard policy [--ids]`: the effective policy of this project and where
//! each line came from.

use super::ExitStatus;
use crate::policy::{self, Read};
use crate::printer::Printer;

pub fn run(p: &Printer, ids: bool, json: bool) -> ExitStatus {
    if ids && json {
        let v: Vec<serde_json::Value> = crate::guards::GUARDS
            .iter()
            .flat_map(|g| policy::ids_of(g.name()))
            .map(|(id, line)| serde_json::json!({"id": id, "what": line}))
            .collect();
        p.out(&serde_json::to_string_pretty(&v).unwrap_or_default());
        return ExitStatus::Success;
    }
    if ids {
        let mut out = String::new();
        for g in crate::guards::GUARDS {
            for (id, line) in policy::ids_of(g.name()) {
                out.push_str(&format!("{id:36} {line}\n"));
            }
        }
        for line in crate::policy::packs::lines(&crate::context::project_root_here()) {
            out.push_str(&line);
            out.push('\n');
        }
        p.out(&out);
        return ExitStatus::Success;
    }
    let project = crate::context::project_root_here();
    let state = crate::state::store::root_for_commands();
    let policy = policy::load(&project, state.as_deref());
    let status = if policy.problems().is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    };
    if json {
        let v = describe_json(&policy, &policy::project_changes(&project, &policy));
        p.out(&serde_json::to_string_pretty(&v).unwrap_or_default());
        return status;
    }
    let mut out = describe(&policy);
    out.push_str(&project_cards(&project, &policy));
    p.out(&out);
    status
}

/// `policy --json` (docs/json.md): each source with its state, lines and
/// problems, then every id whose policy is not `advise`.
pub fn describe_json(p: &policy::Policy, project_cards: &[String]) -> serde_json::Value {
    use serde_json::json;
    let sources: Vec<serde_json::Value> = p
        .sources()
        .iter()
        .map(|s| {
            let (kind, path) = match &s.origin {
                policy::PolicyOrigin::Env => ("env", None),
                policy::PolicyOrigin::User(p) => ("user", Some(p)),
                policy::PolicyOrigin::Project(p) => ("project", Some(p)),
            };
            let path = path
                .filter(|p| !p.as_os_str().is_empty())
                .map(|p| p.display().to_string());
            let (state, lines, problems) = match &s.read {
                Read::Absent => ("absent", vec![], vec![]),
                Read::Rules(r) => (
                    if r.problems.is_empty() { "read" } else { "read-with-problems" },
                    r.lines
                        .iter()
                        .map(|(k, l)| json!({"id": k, "level": l.word()}))
                        .collect(),
                    r.problems.iter().map(|e| json!(e.to_string())).collect(),
                ),
                Read::Malformed(why) => ("unreadable", vec![], vec![json!(why.to_string())]),
                Read::Untrusted => ("untrusted", vec![], vec![]),
            };
            json!({"origin": kind, "path": path, "state": state, "lines": lines, "problems": problems})
        })
        .collect();
    let mut effective = Vec::new();
    for g in crate::guards::GUARDS {
        for (id, _) in policy::ids_of(g.name()) {
            let r = p.resolve(&id, None);
            if r.level.decides() {
                effective.push(json!({"id": id, "level": r.level.word(), "from": r.from}));
            }
        }
    }
    json!({
        "ok": p.problems().is_empty(),
        "problems": p.problems(),
        "sources": sources,
        "effective": effective,
        "project_cards": project_cards,
    })
}

/// What the project's cards change (issue 26: the project can only
/// tighten, so a card a policy from outside the project holds stays).
pub fn project_cards(project: &std::path::Path, policy: &policy::Policy) -> String {
    let changes = policy::project_changes(project, policy);
    if changes.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "\nproject cards (.cuecard/cards; they count only once `cuecard trust` pinned them):\n",
    );
    for c in changes {
        out.push_str(&format!("  {}\n", crate::text::sanitize(&c, 300)));
    }
    out
}

/// The sources, then every id whose policy is not `advise`, with its line.
pub fn describe(p: &policy::Policy) -> String {
    let mut out = String::from(
        "sources (the user's file first; CUECARD_POLICY, the user's file at its default place and the project file only tighten):\n",
    );
    for s in p.sources() {
        let state = match &s.read {
            Read::Absent => "not set".to_string(),
            Read::Rules(r) if r.problems.is_empty() && r.is_empty() => {
                "no [policy] lines".to_string()
            }
            Read::Rules(r) => {
                let mut s = crate::text::count(r.lines.len(), "line", "lines");
                if !r.problems.is_empty() {
                    s.push_str(&format!(
                        "; NOT UNDERSTOOD, {} counting for nothing (the other lines apply):",
                        crate::text::count(r.problems.len(), "line", "lines")
                    ));
                    for why in &r.problems {
                        s.push_str(&format!("\n    {why}"));
                    }
                }
                s
            }
            Read::Malformed(why) => format!("MALFORMED, counts for nothing: {why}"),
            Read::Untrusted => "new or changed since `cuecard trust`: counts for nothing".into(),
        };
        let label = s.origin.label();
        let label = if label.is_empty() {
            "(no config directory)".into()
        } else {
            label
        };
        out.push_str(&format!("  {label}: {state}\n"));
    }
    out.push_str("\neffective policy (every other finding: advise):\n");
    let mut any = false;
    for g in crate::guards::GUARDS {
        for (id, _) in policy::ids_of(g.name()) {
            let r = p.resolve(&id, None);
            if r.level.decides() {
                any = true;
                out.push_str(&format!("  {id:36} {:6} from {}\n", r.level.word(), r.from));
            }
        }
    }
    if !any {
        out.push_str("  everything is advice (nothing set)\n");
    }
    out.push_str(
        "\nCards may declare their own `- decision: ask|deny` (see `cuecard cards show <card>`).\n\
         Whether a harness can honour ask or deny on an event: `cuecard verify --capabilities`.\n",
    );
    out
}
