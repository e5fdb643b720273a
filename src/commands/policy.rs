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
    p.out(&describe(&policy));
    if policy.problems().is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    }
}

/// The sources, then every id whose policy is not `advise`, with its line.
pub fn describe(p: &policy::Policy) -> String {
    let mut out =
        String::from("sources (highest precedence first; the project file only tightens):\n");
    for s in p.sources() {
        let state = match &s.read {
            Read::Absent => "not set".to_string(),
            Read::Rules(r) if r.is_empty() => "no [policy] lines".to_string(),
            Read::Rules(r) => format!("{} line(s)", r.lines.len()),
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
