//! `cuecard doctor [--harness <id>] [--json]`: prints the
//! [`crate::install::doctor::Report`] of every installed entry run as its
//! harness would, as text or, with `--json`, as JSON (docs/json.md).

use super::{CommandError, ExitStatus};
use crate::cli::DoctorArgs;
use crate::install::context::Context;
use crate::install::doctor::{Check, Report};
use crate::printer::Printer;

pub fn run(p: &Printer, a: DoctorArgs) -> Result<ExitStatus, CommandError> {
    let specs = match &a.harness {
        Some(id) => vec![super::harness_spec(id)?],
        None => crate::install::all_specs(),
    };
    let ctx = Context::from_env()?;
    let bin = ctx.bin()?;
    let report = crate::install::doctor::examine(
        &ctx,
        bin,
        specs,
        a.harness.as_deref(),
        &super::audit::state_line(),
    );
    if a.json {
        p.out(&serde_json::to_string_pretty(&report).unwrap_or_default());
    } else {
        p.out(&text(p, &report));
    }
    Ok(if report.failed > 0 {
        ExitStatus::Failure
    } else if report.waiting > 0 {
        ExitStatus::Waiting
    } else {
        ExitStatus::Success
    })
}

/// The report for a person, each verdict coloured by its state.
fn text(p: &Printer, r: &Report) -> String {
    let mut out = String::new();
    let line = |c: &Check, out: &mut String| {
        let v = p.state(c.verdict, 4);
        match (&c.event, c.exit.is_some() || c.shape.is_some()) {
            (Some(event), true) => out.push_str(&format!(
                "  {v} {:22} exit {:>4} {:>5} ms  {}\n",
                event,
                c.exit.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
                c.millis.unwrap_or(0),
                c.shape.as_deref().unwrap_or("")
            )),
            (Some(event), false) => out.push_str(&format!(
                "  {v} {:22} {}\n",
                event,
                c.why.as_deref().unwrap_or("")
            )),
            (None, _) => out.push_str(&format!("  {v} {}\n", c.why.as_deref().unwrap_or(""))),
        }
    };
    for f in &r.files {
        out.push_str(&format!("{} ({}): {}\n", f.harness, f.scope, f.path));
        for c in &f.checks {
            line(c, &mut out);
        }
    }
    for d in &r.double_registrations {
        out.push_str(&format!(
            "{}: {} {}\n",
            d.harness,
            p.state("FAIL", 4),
            d.problem
        ));
    }
    if let Some(checks) = &r.policy {
        out.push_str("policy (`cuecard policy` for every line):\n");
        for c in checks {
            line(c, &mut out);
        }
    }
    out.push_str(&format!(
        "{} {}\n",
        p.state(r.audit.verdict, 4),
        r.audit.why.as_deref().unwrap_or("")
    ));
    for n in &r.silent {
        out.push_str(&format!(
            "{} {}\n     {}\n",
            p.state("note", 4),
            n.what,
            n.why
        ));
    }
    let ran = crate::text::count(r.ran, "entry", "entries");
    if r.ran == 0 && r.failed == 0 && r.waiting == 0 {
        out.push_str("nothing installed to check (see `cuecard install --help`)\n");
    } else if r.waiting > 0 {
        out.push_str(&format!(
            "{ran} run, {} failed, {} waiting on you (WAIT: the fix is named above)\n",
            r.failed, r.waiting
        ));
    } else {
        out.push_str(&format!("{ran} run, {} failed\n", r.failed));
    }
    out
}
