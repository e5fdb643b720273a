//! `cuecard uninstall --harness <id> | --all [--scope ...]`: the command line
//! around the library's transaction ([`crate::install::uninstall`]), which
//! removes exactly what install added; argv to a request, one call, the
//! report printed.

use super::{CommandError, ExitStatus};
use crate::cli::UninstallArgs;
use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::report::{FileUninstalled, Left, Removal, ScopeUninstalled, Uninstalled};
use crate::install::uninstall::{self, Request};
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
    let done = uninstall::uninstall(
        &ctx,
        &Request {
            specs,
            scopes,
            all: a.all,
            replace: &a.replace,
        },
    )?;
    p.report(&text(&done));
    // A file cuecard could only read: what to delete by hand was printed.
    Ok(if done.by_hand() {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    })
}

/// The report for a person: each harness and scope, the card copies and
/// empty folders removed, and with `--all` what is left.
fn text(u: &Uninstalled) -> String {
    let mut out = String::new();
    for s in &u.scopes {
        scope(s, &mut out);
    }
    if let Some((n, dir)) = &u.cards {
        out.push_str(&format!(
            "cards: {} removed from {} (cuecard is installed nowhere else)\n",
            crate::text::count(*n, "copy", "copies"),
            dir.display()
        ));
    }
    if !u.folders.is_empty() {
        let gone: Vec<String> = u.folders.iter().map(|d| d.display().to_string()).collect();
        out.push_str(&format!(
            "removed cuecard's empty folders: {}\n",
            gone.join(", ")
        ));
    }
    if let Some(l) = &u.left {
        out.push_str(&left(l));
    }
    out
}

/// One harness in one scope.
fn scope(s: &ScopeUninstalled, out: &mut String) {
    let (name, scope) = (s.harness.name(), s.scope.id());
    for f in &s.files {
        match f {
            FileUninstalled::LinkNothing { path } => out.push_str(&format!(
                "{name} ({scope} scope): {}: nothing of cuecard's there\n",
                path.display()
            )),
            FileUninstalled::Done {
                form,
                path,
                what,
                entries,
                notes,
            } => {
                let which = if form.is_empty() {
                    String::new()
                } else {
                    format!(", {form}")
                };
                out.push_str(&format!(
                    "{name} ({scope} scope{which}): {}: {}\n",
                    path.display(),
                    what_was_removed(*what, *entries)
                ));
                for n in notes {
                    out.push_str(&format!("  {n}\n"));
                }
            }
        }
    }
    if let Some(list) = &s.by_hand {
        out.push_str(&format!("{name} ({scope} scope): {list}"));
        return;
    }
    if let Some(r) = &s.skills {
        if r.removed > 0 {
            out.push_str(&format!(
                "  skills: {} removed from {}\n",
                crate::text::count(r.removed, "file", "files"),
                r.dir.display()
            ));
        }
        for (p, why) in &r.left {
            out.push_str(&format!("  skills: left {}: {why}\n", p.display()));
        }
    }
    for c in &s.sandbox {
        out.push_str(&super::install::codex_line(
            c,
            super::install::Verb { dry_run: false },
        ));
    }
}

/// What became of the file, in words.
fn what_was_removed(what: Removal, n: usize) -> String {
    let entries = crate::text::count(n, "entry", "entries");
    match what {
        Removal::Nothing => "nothing of cuecard's there".to_string(),
        Removal::Restored => {
            format!("removed {entries}; the file is back exactly as it was before install")
        }
        Removal::Deleted => format!("removed {entries} and the file, which held nothing else"),
        Removal::Removed => format!("removed {entries}; everything else kept"),
    }
}

/// What `uninstall --all` leaves: `left:` and a line each, or that nothing
/// is.
fn left(left: &[Left]) -> String {
    if left.is_empty() {
        return "left: nothing; cuecard is installed nowhere\n".into();
    }
    let mut out = String::from("left:\n");
    for l in left {
        out.push_str(&match l {
            Left::Registration {
                harness,
                path,
                events,
                ours,
            } => format!(
                "  {} {} ({}): {}\n",
                harness.id(),
                path.display(),
                events.join(", "),
                if *ours {
                    "entries of yours that run cuecard, kept (`--replace <program>` removes them)"
                } else {
                    "a plugin or extension the harness installed, or a file of yours: remove it \
                     through the harness's plugin or extension manager, or by hand"
                }
            ),
            Left::Binary(copy) => format!(
                "  binary {}: the copy `install --self` made (`rm` it when you no longer need it)\n",
                copy.display()
            ),
            Left::State(dir) => format!(
                "  state {}: sessions and trust records (delete it when you no longer need them)\n",
                dir.display()
            ),
        });
    }
    out
}
