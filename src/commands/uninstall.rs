//! `cuecard uninstall --harness <id> | --all [--scope ...]`: removes exactly what
//! install added (cuecard's entries, the groups and event lists that left
//! empty, the skills it wrote if unedited); the operator's file comes back
//! byte for byte when nothing else changed since install.

use super::{CommandError, ExitStatus};
use crate::cli::UninstallArgs;
use crate::harness::config::{Config, Roots, Scope};
use crate::install::context::Context;
use crate::install::document::{self, Action, ConfigFile};
use crate::install::error::InstallError;
use crate::install::materialise;
use crate::printer::Printer;

pub fn run(p: &Printer, a: UninstallArgs) -> Result<ExitStatus, CommandError> {
    let specs = if a.all {
        crate::install::all_specs()
    } else {
        vec![super::harness_spec(
            a.harness.as_deref().unwrap_or_default(),
        )?]
    };
    let scopes = match super::scope_arg(a.scope.as_deref())? {
        Some(s) => vec![s],
        None => vec![Scope::User, Scope::Project],
    };
    let ctx = Context::from_env()?;
    let bin = ctx.bin()?;
    let roots = &ctx.roots;
    let mut out = String::new();
    let mut by_hand = false;
    for spec in specs {
        for scope in scopes.iter().copied() {
            // With --all, a harness and scope with nothing of cuecard's
            // says nothing.
            if a.all && !anything_there(&ctx, spec, scope, bin) {
                continue;
            }
            by_hand |= uninstall_scope(spec, scope, roots, bin, &a.replace, &mut out)?;
        }
    }
    remove_card_copies(roots, bin, &mut out);
    if a.all {
        super::uninstall_left::report(roots, bin, &mut out);
    }
    p.report(&out);
    // A file cuecard could only read: what to delete by hand was printed.
    Ok(if by_hand {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// Whether a harness's file in `scope` (any form) holds anything of
/// cuecard's or of the user's that runs cuecard, or its skills folder holds
/// a skill by cuecard's names.
fn anything_there(ctx: &Context, spec: &'static Config, scope: Scope, bin: &str) -> bool {
    let roots = &ctx.roots;
    let files = std::iter::once(spec).chain(spec.legacy).any(|form| {
        ConfigFile::new(form, scope, roots).is_some_and(|t| {
            let st = crate::install::inspect::inspect(ctx, &t, bin);
            st.present() || !st.yours.is_empty() || !st.problems.is_empty()
        })
    });
    let skills = (spec.skills_dir)(scope, roots).is_some_and(|d| {
        materialise::skill_files()
            .iter()
            .any(|(rel, _)| d.join(rel).exists())
    });
    files || skills
}

/// One scope: cuecard's entries out of each form's file, the skills it
/// wrote, then the folders install created there, now empty. True when a
/// file could only be read (comments, trailing commas): its entries are
/// listed for deleting by hand and nothing of that scope is removed.
fn uninstall_scope(
    spec: &'static Config,
    scope: Scope,
    roots: &Roots,
    bin: &str,
    replace: &[String],
    out: &mut String,
) -> Result<bool, InstallError> {
    for form in std::iter::once(spec).chain(spec.legacy) {
        let Some(mut t) = ConfigFile::new(form, scope, roots) else {
            continue;
        };
        t.replace = replace.to_vec();
        let plan = match document::plan_uninstall(&t, bin) {
            Ok(plan) => plan,
            Err(e) if e.refuses_rewrite() => match document::by_hand_removal(&t, bin, &e) {
                document::ByHand::Delete(list) => {
                    out.push_str(&format!(
                        "{} ({} scope): {list}",
                        spec.harness.name(),
                        scope.id()
                    ));
                    return Ok(true);
                }
                // A link cuecard does not write through, holding nothing
                // of cuecard's: nothing to do.
                document::ByHand::Nothing
                    if matches!(e, InstallError::Symlink(_) | InstallError::SymlinkedDir(_)) =>
                {
                    out.push_str(&format!(
                        "{} ({} scope): {}: nothing of cuecard's there\n",
                        spec.harness.name(),
                        scope.id(),
                        t.path.display()
                    ));
                    continue;
                }
                _ => return Err(e),
            },
            Err(e) => return Err(e),
        };
        document::apply_uninstall(&t, &plan)?;
        if !std::ptr::eq(form, spec) && plan.action == Action::Unchanged {
            // The legacy form is reported only where cuecard was.
            continue;
        }
        let which = if form.form_name.is_empty() {
            String::new()
        } else {
            format!(", {}", form.form_name)
        };
        out.push_str(&format!(
            "{} ({} scope{which}): {}: {}\n",
            spec.harness.name(),
            scope.id(),
            t.path.display(),
            what_was_removed(&plan)
        ));
        for n in &plan.notes {
            out.push_str(&format!("  {n}\n"));
        }
    }
    let skills = materialise::skill_files();
    if !skills.is_empty()
        && let Some(dir) = (spec.skills_dir)(scope, roots)
    {
        let r = materialise::remove_files(&dir, &skills);
        if r.removed > 0 {
            out.push_str(&format!(
                "  skills: {} removed from {}\n",
                crate::text::count(r.removed, "file", "files"),
                dir.display()
            ));
        }
        for (p, why) in &r.left {
            out.push_str(&format!("  skills: left {}: {why}\n", p.display()));
        }
    }
    // The folders install created, now empty.
    for form in std::iter::once(spec).chain(spec.legacy) {
        if let Some(t) = ConfigFile::new(form, scope, roots) {
            if spec.harness == crate::harness::HarnessId::Codex {
                out.push_str(&crate::install::sandbox::codex_uninstall(&t)?);
            }
            document::finish_uninstall(&t)?;
        }
    }
    Ok(false)
}

/// `1 entry`, `2 entries`.
fn entries(n: usize) -> String {
    crate::text::count(n, "entry", "entries")
}

/// What the plan did to the file, in words.
fn what_was_removed(plan: &document::Plan) -> String {
    match &plan.action {
        Action::Unchanged => "nothing of cuecard's there".to_string(),
        Action::Restore { .. } => format!(
            "removed {}; the file is back exactly as it was before install",
            entries(plan.outcome.removed)
        ),
        Action::Delete { .. } => format!(
            "removed {} and the file, which held nothing else",
            entries(plan.outcome.removed)
        ),
        _ => format!(
            "removed {}; everything else kept",
            entries(plan.outcome.removed)
        ),
    }
}

/// The card copies go with the last install anywhere, and then the data
/// and state folders when they hold nothing (no session, no trust record,
/// nothing of the user's); a folder an environment variable names stays.
fn remove_card_copies(roots: &Roots, bin: &str, out: &mut String) {
    if installed_anywhere(roots, bin) {
        return;
    }
    let mut made = Vec::new();
    if let Some(data) = crate::paths::data_dir() {
        made = crate::install::record::dirs(&data);
        let _ = crate::install::record::forget(&data);
    }
    if let Some(dir) = crate::paths::data_dir().map(|d| d.join("cards")) {
        let n = materialise::remove_files(&dir, &materialise::card_files()).removed;
        let _ = std::fs::remove_dir(&dir);
        if n > 0 {
            out.push_str(&format!(
                "cards: {} removed from {} (cuecard is installed nowhere else)\n",
                crate::text::count(n, "copy", "copies"),
                dir.display()
            ));
        }
    }
    let Some(dirs) = crate::dirs::Dirs::current() else {
        return;
    };
    let mut gone = Vec::new();
    if crate::dirs::data_is_platform() && remove_if_empty(&dirs.data, &[]) {
        gone.push(dirs.data.display().to_string());
    }
    if crate::dirs::state_is_platform() && remove_if_empty(&dirs.state, &["sessions"]) {
        gone.push(dirs.state.display().to_string());
    }
    // The folders above them install created (`~/.local/share` on a
    // fresh home), when empty.
    crate::install::record::remove_empty(&made);
    if !gone.is_empty() {
        out.push_str(&format!(
            "removed cuecard's empty folders: {}\n",
            gone.join(", ")
        ));
    }
}

/// Removes `dir` when it holds nothing but the empty folders named in
/// `empty_subdirs`; never follows a symlink. Whether it went.
fn remove_if_empty(dir: &std::path::Path, empty_subdirs: &[&str]) -> bool {
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return false;
    }
    for sub in empty_subdirs {
        let p = dir.join(sub);
        if std::fs::symlink_metadata(&p).is_ok_and(|m| m.is_dir()) {
            let _ = std::fs::remove_dir(&p);
        }
    }
    std::fs::remove_dir(dir).is_ok()
}

/// Whether any harness's configuration, in any scope and form, still holds
/// a cuecard entry.
fn installed_anywhere(roots: &Roots, bin: &str) -> bool {
    crate::install::all_specs().into_iter().any(|spec| {
        std::iter::once(spec).chain(spec.legacy).any(|form| {
            [Scope::User, Scope::Project].into_iter().any(|scope| {
                ConfigFile::new(form, scope, roots).is_some_and(|t| {
                    matches!(document::load_read_only(&t), Ok(Some((_, doc, _)))
                        if !crate::install::merge::ours(&doc, form.layout, &document::owner(&t, bin, None)).is_empty())
                })
            })
        })
    })
}
