//! `cuecard verify [--harness <id>] [--json] [--capabilities [--markdown]]`:
//! prints what [`crate::install::verify::gather`] found.

use super::{CommandError, ExitStatus};
use crate::cli::VerifyArgs;
use crate::harness::HarnessId;
use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::verify::{Found, gather};
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
    let bad = found.bad();
    // Trust the user has yet to give: its own exit code, not a failure.
    let waiting = found.waiting();
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
    let missing = found.not_installed(harnesses);
    if !missing.is_empty() {
        out.push_str(&format!("not installed: {}\n", missing.join(", ")));
    }
    for (h, n) in notes {
        out.push_str(&format!("{}: not installable: {n}\n", h.id()));
    }
    out
}
