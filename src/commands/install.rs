//! `cuecard install --harness <id> [--scope user|project|managed] [--dry-run]`
//! (`--detect`: `install_detect`).

use super::{CommandError, ExitStatus};
use crate::cli::InstallArgs;
use crate::harness::HarnessId;
use crate::harness::config::{Host, Roots, Scope};
use crate::install::document::{self, Action, ConfigFile};
use crate::install::error::InstallError;
use crate::install::{double, entries, materialise, roots, sandbox};
use crate::printer::Printer;

pub fn run(p: &Printer, a: InstallArgs) -> Result<ExitStatus, CommandError> {
    if a.detect {
        return super::install_detect::run(p, &a);
    }
    let spec = super::harness_spec(a.harness.as_deref().unwrap_or_default())?;
    let scope = super::scope_arg(a.scope.as_deref())?.unwrap_or(spec.default_scope);
    if scope == Scope::Managed && spec.harness != HarnessId::ClaudeCode {
        return Err(CommandError::ManagedNeedsClaudeCode);
    }
    install(
        p,
        spec,
        scope,
        a.dry_run,
        &a.replace,
        a.self_copy,
        a.sandbox,
    )?;
    Ok(ExitStatus::Success)
}

/// A harness installed into only for decisions (Windsurf) with no policy
/// set would get entries that can never do anything: refused, with why.
pub(super) fn decisions_need_a_policy(
    spec: &crate::harness::config::Config,
    roots: &Roots,
) -> Result<(), InstallError> {
    let h = spec.harness;
    let state = crate::state::store::root_for_commands();
    if !h.decisions_only() || crate::policy::load(&roots.project, state.as_deref()).is_set() {
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
    spec: &crate::harness::config::Config,
    roots: &Roots,
    asked: bool,
) -> Result<Option<(crate::level::Level, String)>, InstallError> {
    if !asked {
        return Ok(None);
    }
    if !sandbox::supported(spec.harness) {
        return Err(InstallError::SandboxUnsupported(spec.harness));
    }
    sandbox::confinement(&roots.project)
        .map(Some)
        .ok_or_else(sandbox::no_policy)
}

#[allow(clippy::too_many_arguments)]
pub(super) fn install(
    p: &Printer,
    spec: &'static crate::harness::config::Config,
    scope: Scope,
    dry_run: bool,
    replace: &[String],
    self_copy: bool,
    sandbox: bool,
) -> Result<(), CommandError> {
    let roots = Roots::from_env()?;
    decisions_need_a_policy(spec, &roots)?;
    let confine = sandbox_level(spec, &roots, sandbox)?;
    let mut bin = roots::installed_binary()?;
    let mut copied = String::new();
    if self_copy {
        let (dest, said) = copy_self(&bin, &roots, dry_run)?;
        bin = dest;
        copied = said;
    }
    let program = spec.program(scope, &bin);
    let host = Host::current();
    entries::check_program(spec, host, &program)?;
    let mut target = ConfigFile::new(spec, scope, &roots).ok_or(InstallError::NoScope {
        harness: spec.harness,
        scope,
    })?;
    target.replace = replace.to_vec();
    if let Some((level, _)) = &confine
        && spec.harness == HarnessId::ClaudeCode
    {
        target.sandbox = sandbox::claude_keys(*level);
    }
    let (wanted, skipped) = entries::for_harness(spec, &program, host);
    let plan = plan_or_by_hand(&target, &bin, &wanted)?;
    let verb = Verb { dry_run };
    let mut out = describe_plan(&target, &plan, &wanted, &skipped, verb);
    out.push_str(&copied);
    out.push_str(&program_note(&program, &bin, &roots, scope));
    let managed_false = plan
        .notes
        .iter()
        .any(|n| n.contains("allowManagedHooksOnly to false"));
    if scope == Scope::Managed && !managed_false {
        out.push_str(MANAGED_ONLY);
    }
    if let Some(w) = cargo_build_warning(&bin, spec, scope) {
        out.push_str(&w);
    }
    // An older form of the harness's hooks that holds cuecard's entries
    // (Kiro's agent file): they move to the form just written.
    let legacy = legacy_plan(spec, scope, &roots, &bin)?;
    if let Some((t, p)) = &legacy {
        out.push_str(&format!(
            "  {} {} from {} ({})\n",
            verb.say("moved", "would move"),
            crate::text::count(p.outcome.removed, "entry", "entries"),
            t.path.display(),
            t.spec.form_name
        ));
    }
    if let Some((_, from)) = &confine {
        out.push_str(&format!("  sandbox: rendered from {from}\n"));
        if spec.harness == HarnessId::Codex {
            out.push_str(&sandbox::codex_install(&target, dry_run)?);
        }
    }
    if dry_run {
        write_cards_and_skills(&target, &roots, true, &mut out)?;
        if let Action::Create(text) | Action::Update { after: text, .. } = &plan.action {
            out.push_str(&format!(
                "--- {} would hold:\n{text}",
                target.path.display()
            ));
        }
        p.report(&out);
        return Ok(());
    }
    let skills_dir = (spec.skills_dir)(scope, &roots);
    let new_skill_dirs = match &skills_dir {
        Some(d) if !materialise::skill_files().is_empty() => {
            crate::install::record::missing_dirs(d, &target.base)
        }
        _ => Vec::new(),
    };
    // The folders cuecard's data needs that are not there yet (the data
    // folder, `~/.local/share` on a fresh home): the last uninstall removes
    // them again when empty.
    let data_dirs = crate::paths::data_dir()
        .map(|d| crate::install::record::missing_dirs(&d.join("cards"), &roots.home))
        .unwrap_or_default();
    document::apply_install(&target, &plan, &new_skill_dirs)?;
    if let Some(data) = crate::paths::data_dir() {
        crate::install::record::record(&data, &[], &data_dirs)?;
    }
    if let Some((t, p)) = &legacy {
        document::apply_uninstall(t, p)?;
        document::finish_uninstall(t)?;
    }
    write_cards_and_skills(&target, &roots, false, &mut out)?;
    for n in (spec.notes)(scope, &target.path) {
        out.push_str(&format!("  note: {n}\n"));
    }
    if scope != Scope::Managed {
        for d in double::doubles(&double::find_all(spec, &roots, &bin)) {
            out.push_str(&format!("  warning: {d}\n"));
        }
    } else {
        managed_warnings(&bin, &mut out);
    }
    p.report(&out);
    Ok(())
}

/// Whether install's report speaks of what it did or of what it would do.
#[derive(Clone, Copy)]
struct Verb {
    dry_run: bool,
}

impl Verb {
    fn say(self, done: &str, would: &str) -> String {
        if self.dry_run { would } else { done }.to_string()
    }
}

/// The change to the config file; for a file install refuses to touch
/// (a run or a dry run), the reason with exactly what to add by hand.
fn plan_or_by_hand(
    target: &ConfigFile,
    bin: &str,
    wanted: &[crate::install::merge::HookEntry],
) -> Result<document::Plan, CommandError> {
    match document::plan_install(target, bin, wanted) {
        Ok(p) => Ok(p),
        Err(refused) if refused.refuses_rewrite() => Err(CommandError::ByHand {
            refused,
            keys: target.spec.required_keys_hint(),
            entries: document::by_hand(target.spec, bin, wanted).map_err(InstallError::from)?,
        }),
        Err(e) => Err(e.into()),
    }
}

/// The report's first part: the file, what changes in it, each entry with
/// its cards, the events left out and why, and the plan's notes.
fn describe_plan(
    target: &ConfigFile,
    plan: &document::Plan,
    wanted: &[crate::install::merge::HookEntry],
    skipped: &[entries::Skipped],
    verb: Verb,
) -> String {
    let spec = target.spec;
    let h = spec.harness;
    let mut out = format!(
        "{} ({} scope): {}\n",
        h.name(),
        target.scope.id(),
        target.path.display()
    );
    let o = &plan.outcome;
    let summary = format!(
        "{} added, {} replaced, {} removed",
        o.added, o.replaced, o.removed
    );
    match &plan.action {
        Action::Unchanged => {
            out.push_str("  unchanged: cuecard's entries are already as install writes them\n")
        }
        Action::Create(_) => out.push_str(&format!(
            "  {} ({summary})\n",
            verb.say("created", "would create")
        )),
        _ => out.push_str(&format!(
            "  {} ({summary}); the previous file {} {}\n",
            verb.say("updated", "would update"),
            verb.say("is kept in", "would be kept in"),
            crate::install::fsio::backup_path(&target.path).display()
        )),
    }
    for e in wanted {
        let cards: Vec<String> = crate::install::ownership::argv(&e.handler)
            .unwrap_or_default()
            .into_iter()
            .skip_while(|w| *w != e.event)
            .skip(1)
            .collect();
        out.push_str(&format!(
            "  {} [{}]: {}\n",
            e.event,
            e.matcher.as_deref().unwrap_or("every call"),
            cards.join(", ")
        ));
    }
    for s in skipped {
        out.push_str(&format!(
            "  not registered: {} ({}): {}\n",
            s.event,
            s.cards.join(", "),
            s.why(h)
        ));
    }
    for n in &plan.notes {
        out.push_str(&format!("  {n}\n"));
    }
    if !spec.form_name.is_empty() {
        out.push_str(&format!("  form: {}\n", spec.form_name));
    }
    out
}

/// The older form's file and the removal of cuecard's entries from it,
/// when it holds any.
fn legacy_plan(
    spec: &'static crate::harness::config::Config,
    scope: Scope,
    roots: &Roots,
    bin: &str,
) -> Result<Option<(ConfigFile, document::Plan)>, InstallError> {
    let Some(t) = spec.legacy.and_then(|l| ConfigFile::new(l, scope, roots)) else {
        return Ok(None);
    };
    let p = document::plan_uninstall(&t, bin)?;
    Ok((p.action != Action::Unchanged).then_some((t, p)))
}

/// The cards the "Full procedure" pointers name, and the skills, written
/// where they lead; what was written (or would be, on a dry run) goes into
/// the report, with each skill file left because it is the user's. The
/// folders the skills needed are recorded with `target` for uninstall.
fn write_cards_and_skills(
    target: &ConfigFile,
    roots: &Roots,
    dry_run: bool,
    out: &mut String,
) -> Result<(), InstallError> {
    let verb = Verb { dry_run };
    if let Some(data) = crate::paths::data_dir() {
        let dir = data.join("cards");
        let w = materialise::write_files(&dir, None, &materialise::card_files(), dry_run)?;
        out.push_str(&format!(
            "  cards: {} {}, {} unchanged in {}\n",
            w.written.len(),
            verb.say("written", "would be written"),
            w.unchanged,
            dir.display()
        ));
    }
    let skills = materialise::skill_files();
    if !skills.is_empty()
        && let Some(dir) = (target.spec.skills_dir)(target.scope, roots)
    {
        let w = materialise::write_files(&dir, Some("skill"), &skills, dry_run)?;
        out.push_str(&format!(
            "  skills: {} {}, {} unchanged in {}\n",
            w.written.len(),
            verb.say("written", "would be written"),
            w.unchanged,
            dir.display()
        ));
        if dry_run {
            for p in &w.written {
                out.push_str(&format!("    would write {}\n", p.display()));
            }
        }
        for (p, why) in &w.refused {
            out.push_str(&format!(
                "  warning: skill file {} {}: {why}; rename yours to get cuecard's\n",
                verb.say("not written", "would not be written"),
                p.display()
            ));
        }
        if !dry_run {
            crate::install::record::record(&target.path, &[], &w.created_dirs)?;
        }
    }
    Ok(())
}

/// What the managed file's `allowManagedHooksOnly: true` does, said on
/// every managed install (and dry run) before the file is deployed.
const MANAGED_ONLY: &str = "  note: this file sets allowManagedHooksOnly: true. Deployed as Claude Code's managed \
settings, it makes Claude Code run managed hooks only: every user, project and plugin hook on every \
machine that gets it stops running (the users' own included). Take the key out of the file before \
deploying it if that is not what you want; `cuecard verify --scope managed` checks the file\n";

/// Managed hooks are only as fixed as the binary they run (checked with
/// `access(2)`, a Unix call; elsewhere nothing is said).
#[cfg(not(unix))]
fn managed_warnings(_bin: &str, _out: &mut String) {}

/// Managed hooks are only as fixed as the binary they run.
#[cfg(unix)]
fn managed_warnings(bin: &str, out: &mut String) {
    let writable = std::ffi::CString::new(bin)
        .map(|c| unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0)
        .unwrap_or(false);
    if writable {
        out.push_str(&format!(
            "  warning: {bin} is writable by this user: whoever can replace it overrides the managed hooks; \
             install cuecard to a root-owned path and render the managed settings from there\n"
        ));
    }
}

/// What the entries' program is, and, for `cuecard` through PATH, whether
/// PATH finds this binary here and how to make it.
fn program_note(program: &str, bin: &str, roots: &Roots, scope: Scope) -> String {
    if scope == Scope::Managed {
        return format!(
            "  program: {bin} (an absolute path: every machine that gets this file needs cuecard there)\n"
        );
    }
    if program == bin {
        return format!(
            "  program: {bin} (an absolute path on this machine: a file of yours, not shared)\n"
        );
    }
    let dir = std::path::Path::new(bin)
        .parent()
        .map(|d| d.display().to_string())
        .unwrap_or_default();
    let found = crate::install::program::resolve(program, &roots.project);
    let real_bin = std::fs::canonicalize(bin).ok();
    match found {
        Ok(p) if Some(&p) == real_bin.as_ref() => format!(
            "  program: `{program}` through PATH (this project file is shared: it names no path of this \
             machine); PATH finds this binary\n"
        ),
        Ok(p) => format!(
            "  program: `{program}` through PATH (this project file is shared: it names no path of this \
             machine); note: PATH finds {}, not this binary {bin}\n",
            p.display()
        ),
        Err(why) => format!(
            "  program: `{program}` through PATH (this project file is shared: it names no path of this \
             machine)\n  warning: {why}: the entries run nothing until it is; add {dir} to PATH, \
             or link it: `ln -s {bin} ~/.local/bin/{program}`\n"
        ),
    }
}

/// Whether `bin` lives in a cargo build folder (`.../target/debug/`,
/// `.../target/<triple>/release/`, ...), which `cargo clean` or a rebuild
/// on another branch empties or replaces.
pub fn in_cargo_target(bin: &str) -> bool {
    let parts: Vec<&str> = bin.split(['/', '\\']).collect();
    parts.iter().enumerate().any(|(i, p)| {
        *p == "target"
            && parts[i + 1..]
                .iter()
                .take(2)
                .any(|q| *q == "debug" || *q == "release")
    })
}

/// The warning for a binary in a cargo build folder, with how to put a
/// lasting copy in place.
fn cargo_build_warning(
    bin: &str,
    spec: &crate::harness::config::Config,
    scope: Scope,
) -> Option<String> {
    in_cargo_target(bin).then(|| {
        format!(
            "  warning: {bin} is a build in cargo's target/ folder: `cargo clean`, or a rebuild on another \
             branch, takes it away and every hook then fails. Put a lasting copy in place and install \
             from it: `cargo install --path .` then `~/.cargo/bin/cuecard install --harness {h} --scope \
             {s}`, or `{bin} install --self --harness {h} --scope {s}` (copies this binary to \
             ~/.local/bin/cuecard and installs that)\n",
            h = spec.harness.id(),
            s = scope.id()
        )
    })
}

/// `--self`: this binary copied to `~/.local/bin/cuecard` (written
/// through a temporary file and renamed, mode 0755), and what the report
/// says. A file there that is not a cuecard binary is the user's: refused.
fn copy_self(bin: &str, roots: &Roots, dry_run: bool) -> Result<(String, String), CommandError> {
    let name = if cfg!(windows) {
        "cuecard.exe"
    } else {
        "cuecard"
    };
    let dir = roots.home.join(".local").join("bin");
    let dest = dir.join(name);
    let dest_s = dest.display().to_string();
    let same = std::fs::read(&dest).ok() == std::fs::read(bin).ok();
    if dest.exists() && !same && !is_a_cuecard(&dest) {
        return Err(InstallError::SelfCopyForeign(dest).into());
    }
    let verb = if dry_run { "would copy" } else { "copied" };
    let said = format!(
        "  {verb} {bin} to {dest_s} (a lasting copy; uninstall leaves it: `rm {dest_s}` removes it)\n"
    );
    if dry_run || same {
        return Ok((dest_s, said));
    }
    let io = |path: &std::path::Path| {
        let path = path.to_path_buf();
        move |error| InstallError::Io { path, error }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let tmp = dir.join(format!(".{name}.cuecard-{}", std::process::id()));
    std::fs::copy(bin, &tmp).map_err(io(&tmp))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755)).map_err(io(&tmp))?;
    }
    std::fs::rename(&tmp, &dest).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        io(&dest)(e)
    })?;
    Ok((dest_s, said))
}

/// Whether the program at `p` says it is cuecard (`--version`).
fn is_a_cuecard(p: &std::path::Path) -> bool {
    std::process::Command::new(p)
        .arg("--version")
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).starts_with("cuecard "))
}
