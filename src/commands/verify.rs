//! `cuecard verify [--harness <id>] [--json] [--capabilities [--markdown]]`.

use super::{CommandError, ExitStatus};
use crate::cli::VerifyArgs;
use crate::harness::HarnessId;
use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::document::ConfigFile;
use crate::install::double;
use crate::install::inspect::{self, Status};
use crate::printer::Printer;

pub fn run(p: &Printer, a: VerifyArgs) -> Result<ExitStatus, CommandError> {
    if a.capabilities {
        // Markdown in a pipe and with --markdown; a table on a terminal.
        let md = crate::harness::capability_table();
        p.out(&if p.terminal() && !a.markdown {
            super::terminal_md::render(&md, p.width())
        } else {
            md
        });
        return Ok(ExitStatus::Success);
    }
    let harnesses: Vec<HarnessId> = match &a.harness {
        // Any harness cuecard knows, installable or not.
        Some(id) => vec![
            HarnessId::parse(id)
                .ok_or_else(|| crate::install::Unresolved::Unknown(id.to_string()))?,
        ],
        None => HarnessId::ALL.to_vec(),
    };
    let scopes = match super::scope_arg(a.scope.as_deref())? {
        Some(s) => vec![s],
        None => vec![Scope::User, Scope::Project],
    };
    let ctx = Context::from_env()?;
    let bin = ctx.bin()?;
    let found = gather(&harnesses, &scopes, &ctx, bin);
    let Found {
        statuses,
        notes,
        doubles,
    } = &found;
    let bad = statuses
        .iter()
        .any(|s| !s.problems.is_empty() || !s.unenforced.is_empty())
        || !doubles.is_empty();
    // Trust the user has yet to give: its own exit code, not a failure.
    let waiting = statuses.iter().any(|s| !s.untrusted.is_empty());
    if a.json {
        let v = serde_json::json!({
            "binary": bin,
            "ok": !bad && !waiting,
            "waiting": waiting,
            "targets": statuses,
            "double_registrations": doubles.iter().map(|(h, d)| serde_json::json!({"harness": h.id(), "problem": d})).collect::<Vec<_>>(),
            "not_installable": notes.iter().map(|(h, n)| serde_json::json!({"harness": h.id(), "why": n})).collect::<Vec<_>>(),
        });
        p.out(&serde_json::to_string_pretty(&v).unwrap_or_default());
    } else {
        p.out(&text(p, &harnesses, &found));
    }
    Ok(if bad {
        ExitStatus::Failure
    } else if waiting {
        ExitStatus::Waiting
    } else {
        ExitStatus::Success
    })
}

/// What verify found: each config file's state, the harnesses it cannot
/// install into (and why), and double registrations.
struct Found {
    statuses: Vec<Status>,
    notes: Vec<(HarnessId, String)>,
    doubles: Vec<(HarnessId, String)>,
}

/// Inspects every scope and form of each harness's config, against what
/// install would write from the same context.
fn gather(harnesses: &[HarnessId], scopes: &[Scope], ctx: &Context, bin: &str) -> Found {
    let roots = &ctx.roots;
    let mut statuses: Vec<Status> = Vec::new();
    let mut notes: Vec<(HarnessId, String)> = Vec::new();
    let mut doubles: Vec<(HarnessId, String)> = Vec::new();
    for h in harnesses {
        let Some(spec) = h.config() else {
            notes.push((
                *h,
                h.limitation().unwrap_or("not installed into").to_string(),
            ));
            continue;
        };
        for scope in scopes.iter().copied() {
            for form in std::iter::once(spec).chain(spec.legacy) {
                if let Some(t) = ConfigFile::new(form, scope, roots) {
                    statuses.push(inspect::inspect(ctx, &t, bin));
                }
            }
        }
        for d in double::doubles(&double::find_all(spec, roots, bin)) {
            doubles.push((*h, d));
        }
    }
    Found {
        statuses,
        notes,
        doubles,
    }
}

/// The report for a person: one line per installed file with its state and
/// problems, the double registrations, what is not installed, and why some
/// harnesses cannot be.
fn text(p: &Printer, harnesses: &[HarnessId], found: &Found) -> String {
    let Found {
        statuses,
        notes,
        doubles,
    } = found;
    let mut out = String::new();
    for s in statuses {
        if s.state.is_empty() {
            continue;
        }
        let form = if s.form.is_empty() {
            String::new()
        } else {
            format!("; {}", s.form)
        };
        let counted = if s.owned_not_run > 0 {
            format!(
                "{}, {} not run",
                crate::text::count(s.entries + s.owned_not_run, "entry", "entries"),
                s.owned_not_run
            )
        } else {
            crate::text::count(s.entries, "entry", "entries")
        };
        out.push_str(&format!(
            "{} {} ({}): {} ({counted}{form})\n",
            p.state(s.state, 10),
            s.harness,
            s.scope,
            s.path
        ));
        for why in s
            .problems
            .iter()
            .chain(&s.untrusted)
            .chain(&s.unenforced)
            .chain(&s.yours)
            .chain(&s.notes)
        {
            out.push_str(&format!("           {why}\n"));
        }
    }
    for (h, d) in doubles {
        out.push_str(&format!("{} {}: {d}\n", p.state("DOUBLE", 10), h.id()));
    }
    let missing: Vec<&str> = harnesses
        .iter()
        .filter(|h| h.config().is_some())
        .filter(|h| !statuses.iter().any(|s| s.harness == h.id() && s.present()))
        .map(|h| h.id())
        .collect();
    if !missing.is_empty() {
        out.push_str(&format!("not installed: {}\n", missing.join(", ")));
    }
    for (h, n) in notes {
        out.push_str(&format!("{}: not installable: {n}\n", h.id()));
    }
    out
}
