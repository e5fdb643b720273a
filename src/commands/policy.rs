//! `cuecard policy [--ids]`: the effective policy of this project and where
//! each line came from.

use super::ExitStatus;
use crate::policy::{self, Read};
use crate::printer::Printer;

pub fn run(p: &Printer, ids: bool) -> ExitStatus {
    if ids {
        let mut out = String::new();
        for g in crate::guards::GUARDS {
            for (id, line) in policy::ids_of(g.name()) {
                out.push_str(&format!("{id:36} {line}\n"));
            }
        }
        p.out(&out);
        return ExitStatus::Success;
    }
    let project = crate::context::project_root_here();
    let state = crate::state::store::root_for_commands();
    let policy = policy::load(&project, state.as_deref());
    let mut out = describe(&policy);
    out.push_str(&project_cards(&project, &policy));
    p.out(&out);
    if policy.problems().is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    }
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
