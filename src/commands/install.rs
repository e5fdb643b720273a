//! `cuecard install --harness <id> [--scope user|project|managed] [--dry-run]`
//! (`--detect`: `install_detect`): the command line around the library's
//! transaction ([`crate::install::txn`]): argv to a request, one call, the
//! report printed.

use super::{CommandError, ExitStatus};
use crate::cli::InstallArgs;
use crate::harness::HarnessId;
use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::report::{Change, LocalFile, Program, Report, WouldWrite, Written};
use crate::install::sandbox::CodexLine;
use crate::install::txn::{self, Request};
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
    let ctx = Context::from_env()?;
    let report = txn::install(
        &ctx,
        &Request {
            spec,
            scope,
            dry_run: a.dry_run,
            replace: &a.replace,
            self_copy: a.self_copy,
            sandbox: a.sandbox,
        },
    )?;
    p.report(&text(&report));
    Ok(ExitStatus::Success)
}

/// Whether install's report speaks of what it did or of what it would do.
#[derive(Clone, Copy)]
pub(super) struct Verb {
    pub(super) dry_run: bool,
}

impl Verb {
    fn say(self, done: &str, would: &str) -> String {
        if self.dry_run { would } else { done }.to_string()
    }
}

/// The report for a person: the file and what changes in it, each entry
/// with its cards, the events left out and why, the plan's notes; then the
/// program, warnings, the cards and skills written, and (after a write)
/// the harness's notes and double registrations, or (on a dry run) the
/// file as it would be.
pub(super) fn text(r: &Report) -> String {
    let verb = Verb { dry_run: r.dry_run };
    let mut out = format!(
        "{} ({} scope): {}\n",
        r.harness.name(),
        r.scope.id(),
        r.path.display()
    );
    let o = &r.counts;
    let summary = format!(
        "{} added, {} replaced, {} removed",
        o.added, o.replaced, o.removed
    );
    match &r.change {
        Change::Unchanged => {
            out.push_str("  unchanged: cuecard's entries are already as install writes them\n")
        }
        Change::Created => out.push_str(&format!(
            "  {} ({summary})\n",
            verb.say("created", "would create")
        )),
        Change::Updated { backup } => out.push_str(&format!(
            "  {} ({summary}); the previous file {} {}\n",
            verb.say("updated", "would update"),
            verb.say("is kept in", "would be kept in"),
            backup.display()
        )),
    }
    for e in &r.entries {
        out.push_str(&format!(
            "  {}{}: {}\n",
            e.event,
            matcher(r.harness, &e.event, e.matcher.as_deref()),
            e.cards.join(", ")
        ));
    }
    for s in &r.skipped {
        out.push_str(&format!(
            "  not registered: {} ({}): {}\n",
            s.event,
            s.cards.join(", "),
            s.why(r.harness)
        ));
    }
    for n in &r.plan_notes {
        out.push_str(&format!("  {n}\n"));
    }
    if !r.form.is_empty() {
        out.push_str(&format!("  form: {}\n", r.form));
    }
    if let Some(c) = &r.self_copy {
        out.push_str(&format!(
            "  {} {} to {to} (a lasting copy; uninstall leaves it: `rm {to}` removes it)\n",
            verb.say("copied", "would copy"),
            c.from,
            to = c.to
        ));
    }
    out.push_str(&program(&r.program, &r.bin));
    if r.managed_only {
        out.push_str(MANAGED_ONLY);
    }
    if r.cargo_build {
        out.push_str(&cargo_build_warning(r));
    }
    if let Some(m) = &r.moved {
        out.push_str(&format!(
            "  {} {} from {} ({})\n",
            verb.say("moved", "would move"),
            crate::text::count(m.entries, "entry", "entries"),
            m.from.display(),
            m.form
        ));
    }
    if let Some(s) = &r.sandbox {
        out.push_str(&format!("  sandbox: rendered from {}\n", s.from));
        if let Some(c) = &s.codex {
            out.push_str(&codex_line(c, verb));
        }
    }
    if let Some(w) = &r.cards {
        out.push_str(&written("cards", w, verb));
    }
    if let Some(w) = &r.skills {
        out.push_str(&written("skills", w, verb));
        if r.dry_run {
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
    }
    for n in &r.harness_notes {
        out.push_str(&format!("  note: {n}\n"));
    }
    for d in &r.doubles {
        out.push_str(&format!("  warning: {d}\n"));
    }
    if r.writable_binary {
        out.push_str(&format!(
            "  warning: {} is writable by this user: whoever can replace it overrides the managed hooks; \
             install cuecard to a root-owned path and render the managed settings from there\n",
            r.bin
        ));
    }
    if let Some(l) = &r.local_file {
        out.push_str(&local_file(l));
    }
    match &r.would_write {
        Some(WouldWrite::New(text)) => {
            out.push_str(&format!("--- {} would hold:\n{text}", r.path.display()));
        }
        Some(WouldWrite::Changed { before, after }) => {
            out.push_str(&format!(
                "--- {p} (as it is)\n+++ {p} (as install would write it)\n{}",
                crate::install::diff::unified(before, after),
                p = r.path.display()
            ));
        }
        None => {}
    }
    out
}

/// What to do about a project file that names this machine's binary: not
/// to be committed, and whether the project's ignore files see to it
/// (cuecard does not edit them).
fn local_file(l: &LocalFile) -> String {
    let rel = &l.rel;
    let head = format!(
        "{rel} names this machine's binary (an absolute path): it is this machine's file, not one to \
         share or commit"
    );
    match (&l.ignored_by, l.in_git) {
        (Some(by), _) => format!("  note: {head}; {by} keeps it out of git\n"),
        (None, true) => format!(
            "  warning: {head}, and no ignore file of this project keeps it out of git: add the line \
             `/{rel}` to .gitignore (cuecard leaves your .gitignore as it is)\n"
        ),
        (None, false) => format!("  note: {head}\n"),
    }
}

/// An entry's matcher as a person reads it: one form for "every tool"
/// whatever the harness writes for it (no matcher, `*`, `.*`, empty), none
/// on an event that is not about a tool call (a SessionStart's `*`, an
/// entry with no matcher), and any other matcher exactly as written.
fn matcher(h: crate::harness::HarnessId, event: &str, m: Option<&str>) -> String {
    let every = matches!(m.map(str::trim), None | Some("" | "*" | ".*" | "^.*$"));
    let tool = crate::harness::canonical_event(h, event)
        .and_then(crate::event::lookup)
        .is_some_and(|e| e.is_tool_event());
    match m {
        _ if every && tool => " [every tool]".into(),
        _ if every => String::new(),
        Some(m) => format!(" [{m}]"),
        None => String::new(),
    }
}

/// What became of Codex's `sandbox_mode` line (install and uninstall).
pub(super) fn codex_line(c: &CodexLine, verb: Verb) -> String {
    match c {
        CodexLine::AlreadySet { path, mode } => format!(
            "  sandbox: {} already sets sandbox_mode = \"{mode}\": left as it is\n",
            path.display()
        ),
        CodexLine::UsersOwn { path, mode } => format!(
            "  warning: {} sets sandbox_mode = \"{mode}\", your own setting: left as it is, so \
             Codex's sandbox does not confine writes to the project; set it to \"workspace-write\" \
             yourself to have it\n",
            path.display()
        ),
        CodexLine::Added { path } => format!(
            "  sandbox: {} sandbox_mode = \"workspace-write\" as the first line of {} \
             (--sandbox, from your policy: Codex confines the agent's commands' writes to the \
             project and the temporary directories, and turns their network off; uninstall \
             removes the line)\n",
            verb.say("added", "would add"),
            path.display()
        ),
        CodexLine::Gone { path } => format!(
            "  sandbox: left {}: the line install wrote is no longer there as written\n",
            path.display()
        ),
        CodexLine::Removed { path } => format!(
            "  sandbox: removed the sandbox_mode line install wrote from {}\n",
            path.display()
        ),
    }
}

/// `  cards: 3 written, 12 unchanged in <dir>`.
fn written(what: &str, w: &Written, verb: Verb) -> String {
    format!(
        "  {what}: {} {}, {} unchanged in {}\n",
        w.written.len(),
        verb.say("written", "would be written"),
        w.unchanged,
        w.dir.display()
    )
}

/// What `allowManagedHooksOnly: true` does, said on every managed install
/// (and dry run) before the file is deployed.
const MANAGED_ONLY: &str = "  note: this file sets allowManagedHooksOnly: true. Deployed as Claude Code's managed \
settings, it makes Claude Code run managed hooks only: every user, project and plugin hook on every \
machine that gets it stops running (the users' own included). Take the key out of the file before \
deploying it if that is not what you want; `cuecard verify --scope managed` checks the file\n";

/// What the entries' program is, and, for `cuecard` through PATH, whether
/// PATH finds this binary here and how to make it.
fn program(p: &Program, bin: &str) -> String {
    const SHARED: &str = "through PATH (this project file is shared: it names no path of this \
                          machine)";
    match p {
        Program::Managed => format!(
            "  program: {bin} (an absolute path: every machine that gets this file needs cuecard there)\n"
        ),
        Program::Absolute => format!(
            "  program: {bin} (an absolute path on this machine: a file of yours, not shared)\n"
        ),
        Program::OnPath { program } => {
            format!("  program: `{program}` {SHARED}; PATH finds this binary\n")
        }
        Program::Elsewhere { program, found } => format!(
            "  program: `{program}` {SHARED}; note: PATH finds {}, not this binary {bin}\n",
            found.display()
        ),
        Program::NotOnPath { program, why } => format!(
            "  program: `{program}` {SHARED}\n  warning: {why}: the entries run nothing until it is; \
             add {} to PATH, or link it: `ln -s {bin} ~/.local/bin/{program}`\n",
            std::path::Path::new(bin)
                .parent()
                .map(|d| d.display().to_string())
                .unwrap_or_default()
        ),
    }
}

/// The warning for a binary in a cargo build folder, with how to put a
/// lasting copy in place.
fn cargo_build_warning(r: &Report) -> String {
    let bin = &r.bin;
    format!(
        "  warning: {bin} is a build in cargo's target/ folder: `cargo clean`, or a rebuild on another \
         branch, takes it away and every hook then fails. Put a lasting copy in place and install \
         from it: `cargo install --path .` then `~/.cargo/bin/cuecard install --harness {h} --scope \
         {s}`, or `{bin} install --self --harness {h} --scope {s}` (copies this binary to \
         ~/.local/bin/cuecard and installs that)\n",
        h = r.harness.id(),
        s = r.scope.id()
    )
}
