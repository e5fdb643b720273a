//! The harness-by-event capability table, generated from every harness's
//! definition into generated/capabilities.md and printed by
//! `cuecard verify --capabilities`.

use super::{Delivery, HarnessId};
use crate::event::EVENTS;

/// The table (Markdown): for each harness and canonical event, the native
/// event and whether a card's text reaches the model there, then how each
/// harness reads an answer, its limits, and every native event with the
/// answer shape of its row and the evidence.
pub fn capability_table() -> String {
    let mut md = String::from(
        "# Harness capabilities\n\n\
         For each harness and canonical (Claude Code) event: the harness's own event name and \
         whether text a card emits there reaches the model. \
         `✓` delivered; `→ X` the cards ride on event X instead (the harness drops context \
         before a tool runs, so the advisory arrives with the tool's result); \
         `✗` the harness drops it (nothing is registered); `—` no such event.\n\n",
    );
    delivery_grid(&mut md);
    answers(&mut md);
    md.push_str(&policy_section());
    limits(&mut md);
    native_events(&mut md);
    md
}

/// Per harness and shown canonical event: the native event(s) and whether
/// a card's text reaches the model there.
fn delivery_grid(md: &mut String) {
    let shown: Vec<_> = EVENTS.iter().filter(|e| e.shown).collect();
    md.push_str("| harness |");
    for e in &shown {
        md.push_str(&format!(" {} |", e.name));
    }
    md.push_str("\n|---|");
    for _ in &shown {
        md.push_str("---|");
    }
    md.push('\n');
    for h in HarnessId::ALL {
        let spec = h.spec();
        md.push_str(&format!("| `{}` |", spec.id));
        for e in &shown {
            let cells: Vec<String> = spec
                .natives(e.event)
                .map(|r| match r.delivery {
                    Delivery::Context(_) => format!("`{}` ✓", r.native),
                    Delivery::Deferred(to) => format!(
                        "`{}` → `{}`",
                        r.native,
                        spec.primary(to).map_or(to.name(), |p| p.native)
                    ),
                    Delivery::Dropped => format!("`{}` ✗", r.native),
                })
                .collect();
            if cells.is_empty() {
                md.push_str(" — |");
            } else {
                md.push_str(&format!(" {} |", cells.join("<br>")));
            }
        }
        md.push('\n');
    }
}

/// How each harness reads an answer, matches tools, and whether it loads
/// Claude Code's hooks.
fn answers(md: &mut String) {
    md.push_str("\n## How each harness reads an answer\n\n| harness | answer | tool matcher | loads Claude Code hooks |\n|---|---|---|---|\n");
    for h in HarnessId::ALL {
        let spec = h.spec();
        let shapes = spec.shapes();
        let answer = if shapes.is_empty() {
            "nothing reaches the model".to_string()
        } else {
            shapes
                .iter()
                .map(|s| {
                    let on: Vec<String> = spec
                        .events
                        .iter()
                        .filter(|r| r.delivery == Delivery::Context(*s))
                        .map(|r| format!("`{}`", r.native))
                        .collect();
                    format!("{} (on {})", s.describe(), on.join(", "))
                })
                .collect::<Vec<_>>()
                .join("; ")
        };
        let matcher = match spec.tool_matcher("Bash|Write|Edit") {
            m if m.is_empty() => "none (every tool; cuecard filters)".to_string(),
            m => format!("`{}`", m.replace('|', "\\|")),
        };
        md.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            spec.id,
            answer.replace('|', "\\|"),
            matcher,
            if spec.loads_claude_hooks { "yes" } else { "no" }
        ));
    }
}

/// Each harness's limitation, in a sentence.
fn limits(md: &mut String) {
    md.push_str("\n## Limits\n\n");
    for h in HarnessId::ALL {
        md.push_str(&format!(
            "- **{}** (`{}`): {}\n",
            h.name(),
            h.id(),
            h.spec().limitation
        ));
    }
}

/// Every native event with its canonical event, delivery and the evidence.
fn native_events(md: &mut String) {
    md.push_str("\n## Every native event\n\n| harness | native | canonical | delivery | why |\n|---|---|---|---|---|\n");
    for h in HarnessId::ALL {
        let spec = h.spec();
        for r in spec.events {
            let d = match r.delivery {
                Delivery::Context(s) => format!("✓ {}", s.label()),
                Delivery::Deferred(to) => format!("→ `{to}`"),
                Delivery::Dropped => "✗".to_string(),
            };
            md.push_str(&format!(
                "| `{}` | `{}` | {} | {} | {} |\n",
                spec.id,
                r.native,
                r.canonical,
                d.replace('|', "\\|"),
                r.note
            ));
        }
    }
}

/// Which policies (docs/design.md §4a) each harness can enforce: per canonical
/// event a guard judges, ask / deny / advice only.
fn policy_section() -> String {
    use crate::event::Event;
    let mut events: Vec<Event> = Vec::new();
    for g in crate::guards::GUARDS {
        for e in g.events() {
            if let Some(e) = Event::parse(e)
                && !events.contains(&e)
            {
                events.push(e);
            }
        }
    }
    let mut md = String::from(
        "\n## Policies: where ask and deny are enforced\n\n\
         A finding under an `ask` or `deny` policy is a decision only where the harness honours \
         one on the event the finding arrives on; everywhere else it stays advice (no silent \
         permit: the advisory still travels, and `cuecard explain` says the decision could not). \
         Where a harness has no ask channel, an `ask` is sent as a deny whose reason says a person \
         must run it.\n\n| harness |",
    );
    for e in &events {
        md.push_str(&format!(" {e} |"));
    }
    md.push_str("\n|---|");
    for _ in &events {
        md.push_str("---|");
    }
    md.push('\n');
    for h in HarnessId::ALL {
        md.push_str(&format!("| `{}` |", h.id()));
        for e in &events {
            let cell = match super::enforcement(Some(*h), *e) {
                super::Enforcement::Asks(n, _) => format!("ask, deny (`{n}`)"),
                super::Enforcement::DeniesOnly(n, _) => format!("deny; ask → deny (`{n}`)"),
                super::Enforcement::AdviceOnly => "advice only".into(),
            };
            md.push_str(&format!(" {cell} |"));
        }
        md.push('\n');
    }
    md.push_str("\nGuards by event (their findings' policy ids: `cuecard policy --ids`):\n\n");
    for e in &events {
        let names: Vec<String> = crate::guards::GUARDS
            .iter()
            .filter(|g| g.events().contains(&e.name()))
            .map(|g| format!("`{}`", g.name()))
            .collect();
        md.push_str(&format!("- {e}: {}\n", names.join(", ")));
    }
    md.push_str("\nHow each harness reads a decision:\n\n");
    for h in HarnessId::ALL {
        for (native, d) in h.spec().decides {
            md.push_str(&format!("- `{}` `{native}`: {}\n", h.id(), d.describe()));
        }
    }
    md
}
