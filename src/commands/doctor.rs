//! `cuecard doctor [--harness <id>] [--json]`: runs every installed entry
//! as its harness would and reports exit code, output shape and latency. An
//! entry whose program is not an installed cuecard binary (one a cloned
//! repository ships, say) is reported and never run. One [`Report`] is
//! printed as text or, with `--json`, as JSON (docs/json.md).

use super::{CommandError, ExitStatus};
use crate::cli::DoctorArgs;
use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::document::ConfigFile;
use crate::install::{double, inspect, probe};
use crate::printer::Printer;
use serde::Serialize;

pub fn run(p: &Printer, a: DoctorArgs) -> Result<ExitStatus, CommandError> {
    let specs = match &a.harness {
        Some(id) => vec![super::harness_spec(id)?],
        None => crate::install::all_specs(),
    };
    let ctx = Context::from_env()?;
    let bin = ctx.bin()?;
    let roots = &ctx.roots;
    let specs_ids: Vec<_> = specs.iter().map(|s| s.harness).collect();
    let scratch = std::env::temp_dir().join(format!("cuecard-doctor-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    let mut report = Report::default();
    for spec in specs {
        for scope in [Scope::User, Scope::Project] {
            if let Some(t) = ConfigFile::new(spec, scope, roots) {
                probe_file(&ctx, &t, bin, &scratch, &mut report);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    // cuecard registered twice (a plugin the harness recorded beside a
    // settings install, or two scopes) runs and prints twice per call.
    for spec in crate::install::all_specs()
        .into_iter()
        .filter(|s| a.harness.is_none() || specs_ids.contains(&s.harness))
    {
        for d in double::doubles(&double::find_all(spec, roots, bin)) {
            report.failed += 1;
            report.double_registrations.push(Double {
                harness: spec.harness.id(),
                problem: d,
            });
        }
    }
    policy_report(&ctx, &mut report);
    audit_report(&mut report);
    // Installed, but not called since (a note: a harness not started since
    // is no failure).
    let store = ctx
        .state
        .as_deref()
        .and_then(|r| crate::state::Store::at(r).ok());
    for (what, why) in super::silent::findings(store.as_ref(), a.harness.as_deref(), Some(&ctx)) {
        report.silent.push(Silent { what, why });
    }
    report.ok = report.failed == 0 && report.waiting == 0;
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

/// What doctor found: each config file with cuecard's entries and the
/// verdict on each, the double registrations, the policy's sources, and
/// the tallies.
#[derive(Default, Serialize)]
struct Report {
    /// No failure and nothing waiting on the user.
    ok: bool,
    /// Entries started.
    ran: usize,
    failed: usize,
    /// Things that wait on the user (trust), not failures.
    waiting: usize,
    files: Vec<FileReport>,
    double_registrations: Vec<Double>,
    /// `None` when no policy is set and no source has a problem.
    policy: Option<Vec<Check>>,
    /// Installed harnesses that have not called cuecard since they were
    /// installed or their config changed, with the likely reason (notes).
    silent: Vec<Silent>,
    /// Whether the audit is on and which file says so (docs/audit.md);
    /// `FAIL` for a managed file refused.
    audit: Check,
}

#[derive(Serialize)]
struct Silent {
    what: String,
    why: String,
}

#[derive(Serialize)]
struct FileReport {
    harness: &'static str,
    scope: &'static str,
    path: String,
    checks: Vec<Check>,
}

#[derive(Serialize)]
struct Double {
    harness: &'static str,
    problem: String,
}

/// One verdict: `ok`, `FAIL`, `WAIT` (the user's move) or `note`; for an
/// entry run, its event, exit code, output shape and latency.
#[derive(Default, Serialize)]
struct Check {
    verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    exit: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    shape: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    millis: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    why: Option<String>,
}

impl Check {
    fn why(verdict: &'static str, why: impl Into<String>) -> Check {
        Check {
            verdict,
            why: Some(why.into()),
            ..Check::default()
        }
    }
}

/// The report for a person, each verdict coloured by its state.
fn text(p: &Printer, r: &Report) -> String {
    let mut out = String::new();
    let line = |c: &Check, out: &mut String| {
        let v = p.state(c.verdict, 4);
        match (&c.event, c.exit.is_some() || c.shape.is_some()) {
            (Some(event), true) => out.push_str(&format!(
                "  {v} {:22} exit {:>4}  {:16} {:>5} ms\n",
                event,
                c.exit.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
                c.shape.as_deref().unwrap_or(""),
                c.millis.unwrap_or(0)
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

/// One config file: its problems, then each installed entry run as the
/// harness would (skipped when the file holds nothing of cuecard's).
fn probe_file(
    ctx: &Context,
    t: &ConfigFile,
    bin: &str,
    scratch: &std::path::Path,
    report: &mut Report,
) {
    let spec = t.spec;
    let roots = &ctx.roots;
    let st = inspect::inspect(ctx, t, bin);
    if !st.installed() && st.not_cuecard.is_empty() && st.yours_entries.is_empty() {
        return;
    }
    let mut checks = Vec::new();
    // What the harness's own rules say about this file (Factory Droid keeps
    // only the first PostToolUse hook's context, ...): told, not failed.
    for note in (spec.notes)(t.scope, &t.path) {
        checks.push(Check::why("note", note));
    }
    for why in &st.switched_off {
        report.failed += 1;
        checks.push(Check::why("FAIL", why));
    }
    for why in &st.untrusted {
        report.waiting += 1;
        checks.push(Check::why("WAIT", why));
    }
    for why in &st.unenforced {
        report.failed += 1;
        checks.push(Check::why("FAIL", why));
    }
    for (event, why) in &st.not_cuecard {
        report.failed += 1;
        checks.push(Check {
            event: Some(event.clone()),
            ..Check::why(
                "FAIL",
                format!("not run: not an installed cuecard binary ({why})"),
            )
        });
    }
    let yours_run: Vec<(String, Option<String>, serde_json::Value)> = st
        .yours_entries
        .iter()
        .filter(|(_, _, why)| why.is_none())
        .map(|(e, h, _)| (e.clone(), None, h.clone()))
        .collect();
    for (event, _, why) in &st.yours_entries {
        if let Some(why) = why {
            report.failed += 1;
            checks.push(Check {
                event: Some(event.clone()),
                ..Check::why(
                    "FAIL",
                    format!("not run: not an installed cuecard binary ({why}); an entry of yours"),
                )
            });
        }
    }
    for (event, _, handler) in st.installed.iter().chain(&yours_run) {
        // A fresh state directory per probe: no once-marker of one
        // entry silences the next.
        report.ran += 1;
        let dir = scratch.join(report.ran.to_string());
        let p = probe::payload(spec.harness, event, &roots.project, &dir);
        let r = probe::run(spec.harness, handler, event, &p, &roots.project, &dir);
        if !r.ok {
            report.failed += 1;
        }
        checks.push(Check {
            verdict: if r.ok { "ok" } else { "FAIL" },
            event: Some(r.event),
            exit: r.exit,
            shape: Some(r.shape),
            millis: Some(r.millis),
            why: None,
        });
    }
    report.files.push(FileReport {
        harness: spec.harness.id(),
        scope: t.scope.id(),
        path: st.path.clone(),
        checks,
    });
}

/// Where the audit's setting comes from: the managed file, the user's
/// config, or nowhere (off); a managed file refused is a failure.
fn audit_report(report: &mut Report) {
    let line = super::audit::state_line();
    let refused = matches!(
        crate::audit::managed::get(),
        crate::audit::managed::Managed::Refused(_)
    );
    if refused {
        report.failed += 1;
    }
    let why = line.lines().map(str::trim).collect::<Vec<_>>().join("; ");
    report.audit = Check::why(if refused { "FAIL" } else { "ok" }, why);
}

/// The policy's sources (a malformed or untrusted one counts for nothing)
/// and the harness settings that would defeat an ask or deny, counted as
/// failures.
fn policy_report(ctx: &Context, report: &mut Report) {
    let roots = &ctx.roots;
    let p = ctx.policy();
    let problems = p.problems();
    if !p.is_set() && problems.is_empty() {
        return;
    }
    let mut checks = Vec::new();
    let mut failed = 0;
    for why in &problems {
        failed += 1;
        checks.push(Check::why("FAIL", why.to_string()));
    }
    if p.is_set() {
        for d in crate::policy::defeats::check(&roots.home, &roots.project) {
            if d.defeats {
                failed += 1;
            }
            checks.push(Check::why(
                if d.defeats { "FAIL" } else { "note" },
                format!("{}: {}", d.file.display(), d.what),
            ));
        }
    }
    if failed == 0 {
        checks.push(Check::why(
            "ok",
            "every source is read and nothing defeats it",
        ));
    }
    report.failed += failed;
    report.policy = Some(checks);
}
