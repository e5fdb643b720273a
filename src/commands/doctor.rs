//! `cuecard doctor [--harness <id>]`: runs every installed entry as its
//! harness would and reports exit code, output shape and latency. An entry
//! whose program is not an installed cuecard binary (one a cloned
//! repository ships, say) is reported and never run.

use super::{CommandError, ExitStatus};
use crate::cli::DoctorArgs;
use crate::harness::config::{Roots, Scope};
use crate::install::document::ConfigFile;
use crate::install::{double, inspect, probe, roots};
use crate::printer::Printer;

pub fn run(p: &Printer, a: DoctorArgs) -> Result<ExitStatus, CommandError> {
    let specs = match &a.harness {
        Some(id) => vec![super::harness_spec(id)?],
        None => crate::install::all_specs(),
    };
    let roots = Roots::from_env()?;
    let bin = roots::installed_binary()?;
    let specs_ids: Vec<_> = specs.iter().map(|s| s.harness).collect();
    let scratch = std::env::temp_dir().join(format!("cuecard-doctor-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&scratch);
    let mut out = String::new();
    let mut tally = Tally::default();
    for spec in specs {
        for scope in [Scope::User, Scope::Project] {
            if let Some(t) = ConfigFile::new(spec, scope, &roots) {
                probe_file(&t, &bin, &roots, &scratch, &mut tally, &mut out);
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
        for d in double::doubles(&double::find_all(spec, &roots, &bin)) {
            tally.failed += 1;
            out.push_str(&format!("{}: {:4} {d}\n", spec.harness.id(), "FAIL"));
        }
    }
    tally.failed += policy_report(&roots, &mut out);
    let Tally {
        ran,
        failed,
        waiting,
    } = tally;
    if ran == 0 && failed == 0 && waiting == 0 {
        out.push_str("nothing installed to check (see `cuecard install --help`)\n");
    } else if waiting > 0 {
        out.push_str(&format!(
            "{ran} entries run, {failed} failed, {waiting} waiting on you (WAIT: the fix is named above)\n"
        ));
    } else {
        out.push_str(&format!("{ran} entries run, {failed} failed\n"));
    }
    p.out(&out);
    Ok(if failed > 0 {
        ExitStatus::Failure
    } else if waiting > 0 {
        ExitStatus::Waiting
    } else {
        ExitStatus::Success
    })
}

/// Entries run and problems found so far.
#[derive(Default)]
struct Tally {
    ran: usize,
    failed: usize,
    /// Things that wait on the user (trust), not failures.
    waiting: usize,
}

/// One config file: its problems, then each installed entry run as the
/// harness would (skipped when the file holds nothing of cuecard's).
fn probe_file(
    t: &ConfigFile,
    bin: &str,
    roots: &Roots,
    scratch: &std::path::Path,
    tally: &mut Tally,
    out: &mut String,
) {
    let spec = t.spec;
    let st = inspect::inspect(t, bin, roots);
    if !st.installed() && st.not_cuecard.is_empty() && st.yours_entries.is_empty() {
        return;
    }
    out.push_str(&format!(
        "{} ({}): {}\n",
        spec.harness.id(),
        t.scope.id(),
        st.path
    ));
    // What the harness's own rules say about this file (Factory Droid keeps
    // only the first PostToolUse hook's context, ...): told, not failed.
    for note in (spec.notes)(t.scope, &t.path) {
        out.push_str(&format!("  {:4} {note}\n", "NOTE"));
    }
    for why in &st.switched_off {
        tally.failed += 1;
        out.push_str(&format!("  {:4} {why}\n", "FAIL"));
    }
    for why in &st.untrusted {
        tally.waiting += 1;
        out.push_str(&format!("  {:4} {why}\n", "WAIT"));
    }
    for why in &st.unenforced {
        tally.failed += 1;
        out.push_str(&format!("  {:4} {why}\n", "FAIL"));
    }
    for (event, why) in &st.not_cuecard {
        tally.failed += 1;
        out.push_str(&format!(
            "  {:4} {:22} not run: not an installed cuecard binary ({why})\n",
            "FAIL", event
        ));
    }
    let yours_run: Vec<(String, Option<String>, serde_json::Value)> = st
        .yours_entries
        .iter()
        .filter(|(_, _, why)| why.is_none())
        .map(|(e, h, _)| (e.clone(), None, h.clone()))
        .collect();
    for (event, _, why) in &st.yours_entries {
        if let Some(why) = why {
            tally.failed += 1;
            out.push_str(&format!(
                "  {:4} {:22} not run: not an installed cuecard binary ({why}); an entry of yours\n",
                "FAIL", event
            ));
        }
    }
    for (event, _, handler) in st.installed.iter().chain(&yours_run) {
        // A fresh state directory per probe: no once-marker of one
        // entry silences the next.
        tally.ran += 1;
        let dir = scratch.join(tally.ran.to_string());
        let p = probe::payload(spec.harness, event, &roots.project, &dir);
        let r = probe::run(spec.harness, handler, event, &p, &roots.project, &dir);
        if !r.ok {
            tally.failed += 1;
        }
        out.push_str(&format!(
            "  {:4} {:22} exit {:>4}  {:16} {:>5} ms\n",
            if r.ok { "ok" } else { "FAIL" },
            r.event,
            r.exit.map(|c| c.to_string()).unwrap_or_else(|| "-".into()),
            r.shape,
            r.millis
        ));
    }
}

/// The policy's sources (a malformed or untrusted one counts for nothing)
/// and the harness settings that would defeat an ask or deny. Returns the
/// number of problems.
fn policy_report(roots: &Roots, out: &mut String) -> usize {
    let state = crate::state::store::root_for_commands();
    let p = crate::policy::load(&roots.project, state.as_deref());
    let problems = p.problems();
    if !p.is_set() && problems.is_empty() {
        return 0;
    }
    out.push_str("policy (`cuecard policy` for every line):\n");
    let mut failed = 0;
    for why in &problems {
        failed += 1;
        out.push_str(&format!("  {:4} {why}\n", "FAIL"));
    }
    if p.is_set() {
        for d in crate::policy::defeats::check(&roots.home, &roots.project) {
            if d.defeats {
                failed += 1;
            }
            out.push_str(&format!(
                "  {:4} {}: {}\n",
                if d.defeats { "FAIL" } else { "note" },
                d.file.display(),
                d.what
            ));
        }
    }
    if failed == 0 {
        out.push_str(&format!(
            "  {:4} every source is read and nothing defeats it\n",
            "ok"
        ));
    }
    failed
}
