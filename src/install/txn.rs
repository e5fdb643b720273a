//! One install as one transaction: from a [`Context`] (the roots, the
//! binary, the cards and the policy, read once) and a [`Request`] (the
//! harness, the scope, the options), plan the change to the harness's file,
//! apply it (or, on a dry run, only say it), record what the file cannot
//! say, and return a [`Report`] that the command line prints. A refusal
//! comes before anything is written; the report only after everything was.

use super::context::Context;
use super::document::{self, Action, ConfigFile};
use super::error::InstallError;
use super::merge::HookEntry;
use super::report::{self, Change, Entry, Moved, Program, Report, SelfCopy, WouldWrite, Written};
use super::{double, entries, materialise, record, sandbox};
use crate::harness::HarnessId;
use crate::harness::config::{Config, Scope};
use crate::level::Level;

/// What the command line asked for.
pub struct Request<'a> {
    pub spec: &'static Config,
    pub scope: Scope,
    pub dry_run: bool,
    /// `--replace`: programs whose `dispatch` entries are cuecard's to
    /// replace though install did not write them.
    pub replace: &'a [String],
    /// `--self`: copy the binary to `~/.local/bin/cuecard` and install that.
    pub self_copy: bool,
    /// `--sandbox`: render the policy into the harness's own sandbox.
    pub sandbox: bool,
}

/// Installs `req` (see the module's documentation).
pub fn install(ctx: &Context, req: &Request) -> Result<Report, InstallError> {
    let (spec, scope, dry_run) = (req.spec, req.scope, req.dry_run);
    needs_policy(ctx, spec)?;
    let confine = sandbox_level(ctx, spec, req.sandbox)?;
    let mut bin = ctx.bin()?.to_string();
    let mut self_copy = None;
    if req.self_copy {
        let to = super::self_copy::copy(&bin, &ctx.roots, dry_run)?;
        self_copy = Some(SelfCopy {
            from: std::mem::replace(&mut bin, to.clone()),
            to,
        });
    }
    let program = spec.program(scope, &bin);
    entries::check_program(spec, ctx.host, &program)?;
    let mut target = ConfigFile::new(spec, scope, &ctx.roots).ok_or(InstallError::NoScope {
        harness: spec.harness,
        scope,
    })?;
    target.replace = req.replace.to_vec();
    if let Some((level, _)) = &confine
        && spec.harness == HarnessId::ClaudeCode
    {
        target.sandbox = sandbox::claude_keys(*level);
    }
    let (wanted, skipped) = ctx.wanted(spec, &program);
    let plan = plan_or_by_hand(&target, &bin, &wanted)?;
    let managed_false = plan
        .notes
        .iter()
        .any(|n| n.contains("allowManagedHooksOnly to false"));
    let mut report = Report {
        harness: spec.harness,
        scope,
        path: target.path.clone(),
        dry_run,
        change: match &plan.action {
            Action::Unchanged => Change::Unchanged,
            Action::Create(_) => Change::Created,
            _ => Change::Updated {
                backup: super::fsio::backup_path(&target.path),
            },
        },
        counts: plan.outcome.clone(),
        entries: wanted
            .iter()
            .map(|e| Entry {
                event: e.event.clone(),
                matcher: e.matcher.clone(),
                cards: e.cards.clone(),
            })
            .collect(),
        skipped,
        plan_notes: plan.notes.clone(),
        form: spec.form_name,
        self_copy,
        program: program_of(ctx, &program, &bin, scope),
        bin: bin.clone(),
        managed_only: scope == Scope::Managed && !managed_false,
        cargo_build: super::self_copy::in_cargo_target(&bin),
        moved: None,
        sandbox: None,
        cards: None,
        skills: None,
        harness_notes: Vec::new(),
        doubles: Vec::new(),
        writable_binary: false,
        would_write: None,
        local_file: super::local::local_file(spec, scope, &target.path, &ctx.roots.project),
    };
    // An older form of the harness's hooks that holds cuecard's entries
    // (Kiro's agent file): they move to the form just written.
    let legacy = legacy_plan(ctx, spec, scope, &bin)?;
    report.moved = legacy.as_ref().map(|(t, p)| Moved {
        entries: p.outcome.removed,
        from: t.path.clone(),
        form: t.spec.form_name,
    });
    if let Some((_, from)) = confine {
        let codex = if spec.harness == HarnessId::Codex {
            sandbox::codex_install(&target, dry_run)?
        } else {
            None
        };
        report.sandbox = Some(report::Sandbox { from, codex });
    }
    if dry_run {
        write_cards_and_skills(ctx, &target, true, &mut report)?;
        report.would_write = match plan.action {
            Action::Create(text) => Some(WouldWrite::New(text)),
            Action::Update { before, after } => Some(WouldWrite::Changed { before, after }),
            _ => None,
        };
        return Ok(report);
    }
    let skills_dir = (spec.skills_dir)(scope, &ctx.roots);
    let new_skill_dirs = match &skills_dir {
        Some(d) if !materialise::skill_files().is_empty() => record::missing_dirs(d, &target.base),
        _ => Vec::new(),
    };
    // The folders cuecard's data needs that are not there yet (the data
    // folder, `~/.local/share` on a fresh home): the last uninstall removes
    // them again when empty.
    let data_dirs = crate::paths::data_dir()
        .map(|d| record::missing_dirs(&d.join("cards"), &ctx.roots.home))
        .unwrap_or_default();
    document::apply_install(&target, &plan, &new_skill_dirs)?;
    if let Some(data) = crate::paths::data_dir() {
        record::record(&data, &[], &data_dirs)?;
    }
    if let Some((t, p)) = &legacy {
        document::apply_uninstall(t, p)?;
        document::finish_uninstall(t)?;
    }
    write_cards_and_skills(ctx, &target, false, &mut report)?;
    report.harness_notes = (spec.notes)(scope, &target.path);
    if scope != Scope::Managed {
        report.doubles = double::doubles(&double::find_all(spec, &ctx.roots, &bin));
    } else {
        report.writable_binary = super::self_copy::writable(&bin);
    }
    Ok(report)
}

/// A harness installed into only for decisions (Windsurf) with no policy
/// set would get entries that can never do anything: refused, with why.
pub fn needs_policy(ctx: &Context, spec: &Config) -> Result<(), InstallError> {
    let h = spec.harness;
    if !h.decisions_only() || ctx.policy().is_set() {
        return Ok(());
    }
    Err(InstallError::NeedsPolicy {
        harness: h,
        policy_file: crate::policy::user_file()
            .map(|p| p.display().to_string())
            .unwrap_or_else(|| "config.toml".into()),
    })
}

/// With `--sandbox`, the level of confinement the policy asks for and the
/// line it came from; refused (nothing written) for a harness with no
/// sandbox cuecard renders into, or a policy that confines nothing.
fn sandbox_level(
    ctx: &Context,
    spec: &Config,
    asked: bool,
) -> Result<Option<(Level, String)>, InstallError> {
    if !asked {
        return Ok(None);
    }
    if !sandbox::supported(spec.harness) {
        return Err(InstallError::SandboxUnsupported(spec.harness));
    }
    sandbox::confinement(ctx.policy())
        .map(Some)
        .ok_or_else(sandbox::no_policy)
}

/// The change to the config file; for a file install refuses to touch
/// (a run or a dry run), the reason with exactly what to add by hand.
fn plan_or_by_hand(
    target: &ConfigFile,
    bin: &str,
    wanted: &[HookEntry],
) -> Result<document::Plan, InstallError> {
    match document::plan_install(target, bin, wanted) {
        Ok(p) => Ok(p),
        Err(refused) if refused.refuses_rewrite() => Err(InstallError::ByHand {
            keys: target.spec.required_keys_hint(),
            entries: document::by_hand(target.spec, bin, wanted)?,
            refused: Box::new(refused),
        }),
        Err(e) => Err(e),
    }
}

/// The older form's file and the removal of cuecard's entries from it,
/// when it holds any.
fn legacy_plan(
    ctx: &Context,
    spec: &'static Config,
    scope: Scope,
    bin: &str,
) -> Result<Option<(ConfigFile, document::Plan)>, InstallError> {
    let Some(t) = spec
        .legacy
        .and_then(|l| ConfigFile::new(l, scope, &ctx.roots))
    else {
        return Ok(None);
    };
    let p = document::plan_uninstall(&t, bin)?;
    Ok((p.action != Action::Unchanged).then_some((t, p)))
}

/// The cards the "Full procedure" pointers name, and the skills, written
/// where they lead (or, on a dry run, what would be); each skill file left
/// because it is the user's is named. The folders the skills needed are
/// recorded with `target` for uninstall.
fn write_cards_and_skills(
    ctx: &Context,
    target: &ConfigFile,
    dry_run: bool,
    report: &mut Report,
) -> Result<(), InstallError> {
    if let Some(data) = crate::paths::data_dir() {
        let dir = data.join("cards");
        let w = materialise::write_files(&dir, None, &materialise::card_files(), dry_run)?;
        report.cards = Some(written(dir, w));
    }
    let skills = materialise::skill_files();
    if !skills.is_empty()
        && let Some(dir) = (target.spec.skills_dir)(target.scope, &ctx.roots)
    {
        let w = materialise::write_files(&dir, Some("skill"), &skills, dry_run)?;
        if !dry_run {
            record::record(&target.path, &[], &w.created_dirs)?;
        }
        report.skills = Some(written(dir, w));
    }
    Ok(())
}

fn written(dir: std::path::PathBuf, w: materialise::Written) -> Written {
    Written {
        dir,
        written: w.written,
        unchanged: w.unchanged,
        refused: w.refused,
    }
}

/// What the entries' program is, and, for `cuecard` through PATH, whether
/// PATH finds this binary here.
fn program_of(ctx: &Context, program: &str, bin: &str, scope: Scope) -> Program {
    if scope == Scope::Managed {
        return Program::Managed;
    }
    if program == bin {
        return Program::Absolute;
    }
    let found = super::program::resolve(program, &ctx.roots.project);
    let real_bin = std::fs::canonicalize(bin).ok();
    match found {
        Ok(p) if Some(&p) == real_bin.as_ref() => Program::OnPath {
            program: program.into(),
        },
        Ok(found) => Program::Elsewhere {
            program: program.into(),
            found,
        },
        Err(why) => Program::NotOnPath {
            program: program.into(),
            why,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::harness::config::Roots;

    /// Each entry the report lists names the cards its rendered command
    /// line dispatches (kept typed, not read back out of the line), for
    /// every harness; and a dry run writes nothing. Project scope: its
    /// files are all under the temporary project, whatever the machine's
    /// environment moves.
    #[test]
    fn a_dry_run_reports_each_entry_with_the_cards_its_command_runs() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let project = t.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(project.join(".git")).unwrap();
        let roots = Roots {
            home: home.clone(),
            project: project.clone(),
            cwd: project.clone(),
        };
        let bin = "/opt/cuecard/bin/cuecard";
        let ctx = Context::new(roots, None).with_bin(bin.into());
        let mut reported = 0;
        for spec in super::super::all_specs() {
            if spec.harness.decisions_only() && !ctx.policy().is_set()
                || (spec.path)(Scope::Project, &ctx.roots).is_none()
            {
                continue;
            }
            let req = Request {
                spec,
                scope: Scope::Project,
                dry_run: true,
                replace: &[],
                self_copy: false,
                sandbox: false,
            };
            let r = install(&ctx, &req).unwrap();
            let program = spec.program(Scope::Project, bin);
            let (wanted, _) = ctx.wanted(spec, &program);
            assert!(!r.entries.is_empty(), "{}", spec.harness.id());
            assert_eq!(r.entries.len(), wanted.len());
            for (e, w) in r.entries.iter().zip(&wanted) {
                let rendered: Vec<String> = super::super::ownership::argv(&w.handler)
                    .unwrap_or_default()
                    .into_iter()
                    .skip_while(|word| *word != w.event)
                    .skip(1)
                    .collect();
                assert_eq!(e.event, w.event);
                assert_eq!(e.cards, rendered, "{} {}", spec.harness.id(), e.event);
            }
            assert!(r.dry_run && r.doubles.is_empty() && r.harness_notes.is_empty());
            assert_eq!(r.program == Program::Absolute, program == bin);
            reported += 1;
        }
        assert!(reported >= 10, "{reported} harnesses reported");
        let written: Vec<_> = walk(t.path());
        assert_eq!(
            written,
            vec![project.join(".git")],
            "a dry run writes nothing"
        );
    }

    fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut out = Vec::new();
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() && p.read_dir().unwrap().next().is_some() {
                out.extend(walk(&p));
            } else if p.is_file() || p.ends_with(".git") {
                out.push(p);
            }
        }
        out
    }
}
