//! `cuecard install --detect [--scope ...] [--dry-run] [--yes]`: install
//! into every harness used on this machine ([`crate::install::detect`]),
//! asking first when a person is at the terminal.

use super::{CommandError, ExitStatus};
use crate::cli::InstallArgs;
use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::detect;
use crate::install::txn::{self, Request};
use crate::printer::{Printer, Tone};

pub fn run(p: &Printer, a: &InstallArgs) -> Result<ExitStatus, CommandError> {
    let scope = super::scope_arg(a.scope.as_deref())?;
    if scope == Some(Scope::Managed) {
        return Err(CommandError::ManagedNeedsClaudeCode);
    }
    let ctx = Context::from_env()?;
    let roots = &ctx.roots;
    let found = detect::detect(roots);
    if found.is_empty() {
        p.out(
            "no harness found on this machine (looked for each harness's own folder in HOME \
             and its program on PATH); `cuecard install --harness <id>` installs into one anyway",
        );
        return Ok(ExitStatus::Failure);
    }
    let mut list = format!(
        "found {}:\n",
        crate::text::count(found.len(), "harness", "harnesses")
    );
    let mut chosen = Vec::new();
    for d in &found {
        let spec = d.spec;
        let s = scope.unwrap_or(spec.default_scope);
        let target = (spec.path)(s, roots)
            .map(|t| format!(" -> {} ({} scope)", t.display(), s.id()))
            .unwrap_or_default();
        match txn::needs_policy(&ctx, spec) {
            Ok(()) => {
                list.push_str(&format!(
                    "  {:12} {}{target}\n",
                    spec.harness.id(),
                    d.signs.join("; ")
                ));
                chosen.push((spec, s));
            }
            Err(why) => list.push_str(&format!(
                "  {:12} {} {why}\n",
                spec.harness.id(),
                p.paint(Tone::Warn, "skipped:")
            )),
        }
    }
    let ids: Vec<&str> = chosen.iter().map(|(s, _)| s.harness.id()).collect();
    if a.dry_run {
        list.push_str(&format!(
            "would install into: {} (nothing written; `cuecard install --harness <id> --dry-run` \
             shows each file)",
            ids.join(", ")
        ));
        p.out(&list);
        return Ok(ExitStatus::Success);
    }
    p.out(&list);
    if chosen.is_empty() {
        return Ok(ExitStatus::Failure);
    }
    if !a.yes && p.confirm(&format!("install cuecard into {}?", ids.join(", "))) == Some(false) {
        p.out("nothing installed");
        return Ok(ExitStatus::Success);
    }
    let mut failed = Vec::new();
    for (spec, s) in chosen {
        let req = Request {
            spec,
            scope: s,
            dry_run: false,
            replace: &a.replace,
            self_copy: a.self_copy,
            sandbox: false,
        };
        match txn::install(&ctx, &req) {
            Ok(report) => p.report(&super::install::text(&report)),
            Err(e) => {
                CommandError::from(e).report(p);
                failed.push(spec.harness.id());
            }
        }
    }
    if failed.is_empty() {
        return Ok(ExitStatus::Success);
    }
    p.err(&format!(
        "{} not installed: {}",
        crate::text::count(failed.len(), "harness", "harnesses"),
        failed.join(", ")
    ));
    Ok(ExitStatus::Failure)
}
