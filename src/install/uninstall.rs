//! One uninstall as one transaction, from the same [`Context`] install
//! uses: cuecard's entries out of each harness's file in each scope asked
//! (the groups and event lists that left empty, the skills it wrote if
//! unedited, the folders it created), then, once cuecard is installed
//! nowhere, the card copies and its empty folders; with `--all`, what is
//! left. The operator's file comes back byte for byte when nothing else
//! changed since install. Returns an [`Uninstalled`] the command prints.

use super::context::Context;
use super::document::{self, Action, ConfigFile};
use super::error::InstallError;
use super::report::{FileUninstalled, Left, Removal, ScopeUninstalled, SkillsRemoved, Uninstalled};
use super::{double, materialise, record};
use crate::harness::HarnessId;
use crate::harness::config::{Config, Roots, Scope};
use std::path::Path;

/// What the command line asked for.
pub struct Request<'a> {
    pub specs: Vec<&'static Config>,
    pub scopes: Vec<Scope>,
    /// `--all`: a harness and scope with nothing of cuecard's says nothing,
    /// and what is left is told.
    pub all: bool,
    /// `--replace`: programs whose `dispatch` entries are cuecard's.
    pub replace: &'a [String],
}

/// Uninstalls `req` (see the module's documentation).
pub fn uninstall(ctx: &Context, req: &Request) -> Result<Uninstalled, InstallError> {
    let bin = ctx.bin()?;
    let roots = &ctx.roots;
    let mut out = Uninstalled::default();
    for spec in &req.specs {
        for scope in req.scopes.iter().copied() {
            if req.all && !anything_there(ctx, spec, scope, bin) {
                continue;
            }
            out.scopes
                .push(uninstall_scope(ctx, spec, scope, bin, req.replace)?);
        }
    }
    remove_card_copies(ctx, bin, &mut out);
    if req.all {
        out.left = Some(left(roots, bin));
    }
    Ok(out)
}

/// Whether a harness's file in `scope` (any form) holds anything of
/// cuecard's or of the user's that runs cuecard, or its skills folder holds
/// a skill by cuecard's names.
fn anything_there(ctx: &Context, spec: &'static Config, scope: Scope, bin: &str) -> bool {
    let roots = &ctx.roots;
    let files = std::iter::once(spec).chain(spec.legacy).any(|form| {
        ConfigFile::new(form, scope, roots).is_some_and(|t| {
            let st = super::inspect::inspect(ctx, &t, bin);
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
/// wrote, then the folders install created there, now empty. A file that
/// could only be read (comments, trailing commas) has its entries listed
/// for deleting by hand, and nothing more of that scope is removed.
fn uninstall_scope(
    ctx: &Context,
    spec: &'static Config,
    scope: Scope,
    bin: &str,
    replace: &[String],
) -> Result<ScopeUninstalled, InstallError> {
    let roots = &ctx.roots;
    let mut out = ScopeUninstalled {
        harness: spec.harness,
        scope,
        files: Vec::new(),
        by_hand: None,
        skills: None,
        sandbox: Vec::new(),
    };
    for form in std::iter::once(spec).chain(spec.legacy) {
        let Some(mut t) = ConfigFile::new(form, scope, roots) else {
            continue;
        };
        t.replace = replace.to_vec();
        let wanted = wanted(ctx, &t, bin);
        let plan = match document::plan_uninstall_with(&t, bin, Some(&wanted)) {
            Ok(plan) => plan,
            Err(e) if e.refuses_rewrite() => {
                match document::by_hand_removal(&t, bin, Some(&wanted), &e) {
                    document::ByHand::Delete(list) => {
                        out.by_hand = Some(list);
                        return Ok(out);
                    }
                    // A link cuecard does not write through, holding nothing
                    // of cuecard's: nothing to do.
                    document::ByHand::Nothing
                        if matches!(
                            e,
                            InstallError::Symlink(_) | InstallError::SymlinkedDir(_)
                        ) =>
                    {
                        out.files
                            .push(FileUninstalled::LinkNothing { path: t.path });
                        continue;
                    }
                    _ => return Err(e),
                }
            }
            Err(e) => return Err(e),
        };
        document::apply_uninstall(&t, &plan)?;
        if !std::ptr::eq(form, spec) && plan.action == Action::Unchanged {
            // The legacy form is reported only where cuecard was.
            continue;
        }
        out.files.push(FileUninstalled::Done {
            form: form.form_name,
            path: t.path,
            what: match &plan.action {
                Action::Unchanged => Removal::Nothing,
                Action::Restore { .. } => Removal::Restored,
                Action::Delete { .. } => Removal::Deleted,
                _ => Removal::Removed,
            },
            entries: plan.outcome.removed,
            notes: plan.notes,
        });
    }
    let skills = materialise::skill_files();
    if !skills.is_empty()
        && let Some(dir) = (spec.skills_dir)(scope, roots)
    {
        let r = materialise::remove_files(&dir, &skills);
        out.skills = Some(SkillsRemoved {
            dir,
            removed: r.removed,
            left: r.left,
        });
    }
    // The folders install created, now empty.
    for form in std::iter::once(spec).chain(spec.legacy) {
        if let Some(t) = ConfigFile::new(form, scope, roots) {
            if spec.harness == HarnessId::Codex {
                out.sandbox.extend(super::sandbox::codex_uninstall(&t)?);
            }
            document::finish_uninstall(&t)?;
        }
    }
    Ok(out)
}

/// The card copies go with the last install anywhere, and then the data
/// and state folders when they hold nothing (no session, no trust record,
/// nothing of the user's); a folder an environment variable names stays.
fn remove_card_copies(ctx: &Context, bin: &str, out: &mut Uninstalled) {
    if installed_anywhere(ctx, bin) {
        return;
    }
    let mut made = Vec::new();
    if let Some(data) = crate::paths::data_dir() {
        made = record::dirs(&data);
        let _ = record::forget(&data);
    }
    if let Some(dir) = crate::paths::data_dir().map(|d| d.join("cards")) {
        let n = materialise::remove_files(&dir, &materialise::card_files()).removed;
        let _ = std::fs::remove_dir(&dir);
        if n > 0 {
            out.cards = Some((n, dir));
        }
    }
    let Some(dirs) = crate::dirs::Dirs::current() else {
        return;
    };
    if crate::dirs::data_is_platform() && remove_if_empty(&dirs.data, &[]) {
        out.folders.push(dirs.data.clone());
    }
    if crate::dirs::state_is_platform() && remove_if_empty(&dirs.state, &["sessions"]) {
        out.folders.push(dirs.state.clone());
    }
    // The folders above them install created (`~/.local/share` on a
    // fresh home), when empty.
    record::remove_empty(&made);
}

/// Removes `dir` when it holds nothing but the empty folders named in
/// `empty_subdirs`; never follows a symlink. Whether it went.
fn remove_if_empty(dir: &Path, empty_subdirs: &[&str]) -> bool {
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
fn installed_anywhere(ctx: &Context, bin: &str) -> bool {
    super::all_specs().into_iter().any(|spec| {
        std::iter::once(spec).chain(spec.legacy).any(|form| {
            [Scope::User, Scope::Project].into_iter().any(|scope| {
                ConfigFile::new(form, scope, &ctx.roots).is_some_and(|t| {
                    let Ok(Some((_, doc, _))) = document::load_read_only(&t) else {
                        return false;
                    };
                    let owner = document::owner(&t, bin, Some(&wanted(ctx, &t, bin)));
                    !super::merge::ours(&doc, form.layout, &owner).is_empty()
                })
            })
        })
    })
}

/// What install would write into `t` now, from the run's context: whose
/// entries there are cuecard's.
fn wanted(ctx: &Context, t: &ConfigFile, bin: &str) -> Vec<super::merge::HookEntry> {
    ctx.wanted(t.spec, &t.spec.program(t.scope, bin)).0
}

/// What `uninstall --all` leaves, said plainly: every registration of
/// cuecard still found in a file a harness reads (a plugin or extension the
/// harness installed, entries of the user's that run cuecard), the copy of
/// the binary `install --self` made, and the state folder that holds
/// sessions and trust records.
fn left(roots: &Roots, bin: &str) -> Vec<Left> {
    let mut left = Vec::new();
    for spec in super::all_specs() {
        let own: Vec<std::path::PathBuf> = [Scope::User, Scope::Project]
            .into_iter()
            .flat_map(|s| {
                std::iter::once(spec)
                    .chain(spec.legacy)
                    .filter_map(move |f| ConfigFile::new(f, s, roots).map(|t| t.path))
            })
            .collect();
        for f in double::find_all(spec, roots, bin) {
            let l = Left::Registration {
                harness: spec.harness,
                ours: own.contains(&f.path),
                path: f.path,
                events: f.events,
            };
            if !left.contains(&l) {
                left.push(l);
            }
        }
    }
    // The lasting copy `install --self` made: uninstall never removes a
    // program.
    let copy = roots.home.join(".local/bin").join(if cfg!(windows) {
        "cuecard.exe"
    } else {
        "cuecard"
    });
    if copy.is_file() {
        left.push(Left::Binary(copy));
    }
    if let Some(dirs) = crate::dirs::Dirs::current()
        && std::fs::symlink_metadata(&dirs.state).is_ok_and(|m| m.is_dir())
    {
        left.push(Left::State(dirs.state));
    }
    left
}
