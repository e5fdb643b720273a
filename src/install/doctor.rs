//! `cuecard doctor`'s examination: every installed entry run as its
//! harness would (exit code, output shape, latency), an entry whose program
//! is not an installed cuecard binary (one a cloned repository ships, say)
//! reported and never run, the double registrations, the policy's sources,
//! the audit's setting and the installs that have gone silent, in one
//! [`Report`] (its JSON: docs/json.md). `commands/doctor.rs` prints it.

use super::context::Context;
use super::document::ConfigFile;
use super::{double, inspect, probe};
use crate::harness::config::{Config, Scope};
use serde::Serialize;

/// Examines `specs`' config files (in both scopes) with `ctx`, whose
/// installed binary is `bin`; `only`: the harness asked for, if one was.
/// `audit` is the audit's state as `cuecard audit` words it.
pub fn examine(
    ctx: &Context,
    bin: &str,
    specs: Vec<&'static Config>,
    only: Option<&str>,
    audit: &str,
) -> Report {
    let roots = &ctx.roots;
    let specs_ids: Vec<_> = specs.iter().map(|s| s.harness).collect();
    let scratch = std::env::temp_dir().join(format!("cuecard-doctor-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    let mut report = Report::default();
    for spec in specs {
        for scope in [Scope::User, Scope::Project] {
            if let Some(t) = ConfigFile::new(spec, scope, roots) {
                probe_file(ctx, &t, bin, &scratch, &mut report);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    // cuecard registered twice (a plugin the harness recorded beside a
    // settings install, or two scopes) runs and prints twice per call.
    for spec in super::all_specs()
        .into_iter()
        .filter(|s| only.is_none() || specs_ids.contains(&s.harness))
    {
        for d in double::doubles(&double::find_all(spec, roots, bin)) {
            report.failed += 1;
            report.double_registrations.push(Double {
                harness: spec.harness.id(),
                problem: d,
            });
        }
    }
    policy_report(ctx, &mut report);
    audit_report(audit, &mut report);
    // Installed, but not called since (a note: a harness not started since
    // is no failure).
    let store = ctx
        .state
        .as_deref()
        .and_then(|r| crate::state::Store::at(r).ok());
    for (what, why) in super::silent::findings(store.as_ref(), only, Some(ctx)) {
        report.silent.push(Silent { what, why });
    }
    report.ok = report.failed == 0 && report.waiting == 0;
    report
}

/// What doctor found: each config file with cuecard's entries and the
/// verdict on each, the double registrations, the policy's sources, and
/// the tallies.
#[derive(Default, Serialize)]
pub struct Report {
    /// No failure and nothing waiting on the user.
    pub ok: bool,
    /// Entries started.
    pub ran: usize,
    pub failed: usize,
    /// Things that wait on the user (trust), not failures.
    pub waiting: usize,
    pub files: Vec<FileReport>,
    pub double_registrations: Vec<Double>,
    /// `None` when no policy is set and no source has a problem.
    pub policy: Option<Vec<Check>>,
    /// Installed harnesses that have not called cuecard since they were
    /// installed or their config changed, with the likely reason (notes).
    pub silent: Vec<Silent>,
    /// Whether the audit is on and which file says so (docs/audit.md);
    /// `FAIL` for a managed file refused.
    pub audit: Check,
}

#[derive(Serialize)]
pub struct Silent {
    pub what: String,
    pub why: String,
}

#[derive(Serialize)]
pub struct FileReport {
    pub harness: &'static str,
    pub scope: &'static str,
    pub path: String,
    pub checks: Vec<Check>,
}

#[derive(Serialize)]
pub struct Double {
    pub harness: &'static str,
    pub problem: String,
}

/// One verdict: `ok`, `FAIL`, `WAIT` (the user's move) or `note`; for an
/// entry run, its event, exit code, output shape and latency.
#[derive(Default, Serialize)]
pub struct Check {
    pub verdict: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit: Option<i32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub millis: Option<u128>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub why: Option<String>,
}

impl Check {
    fn why(verdict: &'static str, why: impl Into<String>) -> Check {
        Check {
            verdict,
            why: Some(why.into()),
            ..Check::default()
        }
    }

    /// An entry of `event` not run: its program is not an installed
    /// cuecard binary (`why`), with `more` said after.
    fn not_run(event: &str, why: &str, more: &str) -> Check {
        Check {
            event: Some(event.to_string()),
            ..Check::why(
                "FAIL",
                format!("not run: not an installed cuecard binary ({why}){more}"),
            )
        }
    }
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
        checks.push(Check::not_run(event, why, ""));
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
            checks.push(Check::not_run(event, why, "; an entry of yours"));
        }
    }
    for (event, _, handler) in st.installed.iter().chain(&yours_run) {
        // A fresh state directory per probe: no once-marker of one
        // entry silences the next.
        report.ran += 1;
        let dir = scratch.join(report.ran.to_string());
        let card = probe::expected_card(spec.harness, event, handler);
        let p = probe::payload(spec.harness, event, &roots.project, &dir, card);
        let r = probe::run(
            spec.harness,
            handler,
            event,
            (&p, card),
            &roots.project,
            &dir,
        );
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
fn audit_report(line: &str, report: &mut Report) {
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
