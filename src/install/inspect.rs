//! What is installed in one config file, compared with what install would
//! write now (for `verify` and `doctor`).

use super::context::Context;
use super::document::{self, ConfigFile};
use super::merge::{self, HookEntry};
use super::ownership::Owner;
use super::program::ProgramRefused;
use crate::harness::config::{Roots, TrustCheck};
use serde::Serialize;
use serde_json::Value;
use std::path::Path;

#[derive(Debug, Clone, Serialize)]
pub struct Status {
    /// The state in one word, for a person (see [`Status::label`]).
    pub state: &'static str,
    pub harness: &'static str,
    pub scope: &'static str,
    pub path: String,
    /// Which form of the harness's configuration this file is (Kiro: the V3
    /// hook file or the legacy agent form); empty when it has one form.
    pub form: &'static str,
    pub exists: bool,
    /// How many cuecard entries the file holds.
    pub entries: usize,
    /// Whether cuecard's entries (and the keys the harness needs) are exactly
    /// what install would write now.
    pub current: bool,
    pub problems: Vec<String>,
    /// What keeps the harness from running the entries yet (its trust
    /// stores), with the fix: not a fault of the file, but nothing runs.
    pub untrusted: Vec<String>,
    /// What the effective policy decides that these entries cannot
    /// enforce (a policy set after install: the decision-only entries are
    /// missing; a decisions-only harness with no policy), with the fix.
    pub unenforced: Vec<String>,
    #[serde(skip)]
    pub installed: Vec<(String, Option<String>, Value)>,
    /// Entries that look like cuecard's but whose program is not an
    /// installed cuecard binary (see [`super::program`]): never counted as
    /// installed, never run; the event and why.
    pub not_cuecard: Vec<(String, String)>,
    /// What is the user's and left as it is: an entry that runs cuecard
    /// but that install did not write, a skill of theirs or one they
    /// edited. Not a fault.
    pub yours: Vec<String>,
    /// The user's entries that run cuecard (for `doctor`, which probes
    /// them too): (event, handler, why its program is not run, if not).
    #[serde(skip)]
    pub yours_entries: Vec<(String, Value, Option<String>)>,
    /// Entries install wrote whose program is no installed cuecard binary.
    pub owned_not_run: usize,
    /// Whether one of them is a `cuecard` PATH does not find.
    pub not_on_path: bool,
    /// The programs install's entries run that do not exist.
    pub missing: Vec<String>,
    /// What the user should know that is no fault (a file read past its
    /// comments).
    pub notes: Vec<String>,
    /// A switch of the user's that turns the harness's hooks off
    /// (Gemini's `hooksConfig.enabled: false`), with what to change.
    pub switched_off: Vec<String>,
}

impl Status {
    pub fn installed(&self) -> bool {
        self.entries > 0
    }

    /// Whether the file holds entries install wrote, runnable or not.
    pub fn present(&self) -> bool {
        self.entries > 0 || self.owned_not_run > 0
    }

    /// The state in one word: what is wrong, in the order a user fixes it.
    /// `UNREADABLE`: the file cannot be read; `MISSING`: the program the
    /// entries run is not there; `NOT-ON-PATH`: a shared project file's
    /// `cuecard` is not found through PATH; `NOT-RUN`: a program that is no
    /// installed cuecard binary; `HOOKS-OFF`: a switch of the user's turns
    /// the harness's hooks off; `STALE`: not what install writes now;
    /// `UNTRUSTED`: waiting on the user's trust; `UNENFORCED`: a policy the
    /// entries cannot enforce; `YOURS`: only entries of the user's; `ok`.
    pub fn label(&self) -> &'static str {
        if !self.present() {
            return if !self.problems.is_empty() && self.yours.is_empty() {
                "UNREADABLE"
            } else if !self.yours.is_empty() {
                "YOURS"
            } else {
                ""
            };
        }
        if !self.missing.is_empty() {
            "MISSING"
        } else if self.not_on_path {
            "NOT-ON-PATH"
        } else if self.owned_not_run > 0 {
            "NOT-RUN"
        } else if !self.switched_off.is_empty() {
            "HOOKS-OFF"
        } else if !self.problems.is_empty() {
            "STALE"
        } else if !self.untrusted.is_empty() {
            "UNTRUSTED"
        } else if !self.unenforced.is_empty() {
            "UNENFORCED"
        } else {
            "ok"
        }
    }
}

/// The program an entry starts.
fn program_of(handler: &Value) -> Result<String, ProgramRefused> {
    handler
        .as_object()
        .and_then(super::ownership::argv)
        .and_then(|a| a.into_iter().next())
        .ok_or(ProgramRefused::NoProgram)
}

/// The state of one target whose entries run `bin`, compared with what
/// install would write from the same context (its host, cards and
/// policy). `ctx.roots.project` is the project tree no counted program
/// may live in.
pub fn inspect(ctx: &Context, t: &ConfigFile, bin: &str) -> Status {
    let mut st = gather(ctx, t, bin);
    if st.present() {
        skills_of_the_user(t, &ctx.roots, &mut st);
    }
    st.state = st.label();
    st
}

/// The shipped skills' files in this scope's skills folder that are the
/// user's (theirs by that name, or cuecard's edited since): named, left.
fn skills_of_the_user(t: &ConfigFile, roots: &Roots, st: &mut Status) {
    let Some(dir) = (t.spec.skills_dir)(t.scope, roots) else {
        return;
    };
    for (rel, text) in super::materialise::skill_files() {
        let p = dir.join(&rel);
        let existing = std::fs::read_to_string(&p).ok();
        match super::materialise::state_of(existing.as_deref(), &text) {
            super::materialise::FileState::Edited => st.yours.push(format!(
                "yours: skill {} was edited by hand since install: cuecard leaves it (delete it and \
                 run `cuecard install` to get cuecard's again)",
                p.display()
            )),
            super::materialise::FileState::Foreign => st.yours.push(format!(
                "yours: skill {} is not cuecard's: cuecard's skill of that name is not installed",
                p.display()
            )),
            _ => {}
        }
    }
}

fn gather(ctx: &Context, t: &ConfigFile, bin: &str) -> Status {
    let roots = &ctx.roots;
    let project = roots.project.as_path();
    let mut st = Status {
        state: "",
        harness: t.spec.harness.id(),
        scope: t.scope.id(),
        path: t.path.display().to_string(),
        form: t.spec.form_name,
        exists: t.path.exists(),
        entries: 0,
        current: false,
        problems: Vec::new(),
        untrusted: Vec::new(),
        unenforced: Vec::new(),
        installed: Vec::new(),
        not_cuecard: Vec::new(),
        yours: Vec::new(),
        yours_entries: Vec::new(),
        owned_not_run: 0,
        not_on_path: false,
        missing: Vec::new(),
        switched_off: Vec::new(),
        notes: Vec::new(),
    };
    let (text, doc) = match document::load_read_only(t) {
        Ok(Some((text, doc, lossy))) => {
            if let Some(why) = lossy {
                st.notes.push(format!(
                    "read past what cuecard cannot rewrite ({why}): its entries here are checked, but \
                     install and uninstall change this file only by hand (they print what to change)"
                ));
            }
            (text, doc)
        }
        Ok(None) => return st,
        Err(e) => {
            st.problems.push(e.to_string());
            return st;
        }
    };
    // What install would write here now, from this run's context: whose
    // entries are cuecard's, and what they are compared with.
    let (wanted, _) = ctx.wanted(t.spec, &t.spec.program(t.scope, bin));
    split_by_program(&mut st, &doc, t, bin, project, &wanted);
    st.entries = st.installed.len();
    if st.entries == 0 {
        return st;
    }
    let events: Vec<String> = st.installed.iter().map(|(e, _, _)| e.clone()).collect();
    st.untrusted = (t.spec.trust)(&TrustCheck {
        scope: t.scope,
        roots,
        path: &t.path,
        events: &events,
    });
    if t.spec
        .harness
        .config()
        .is_some_and(|c| !std::ptr::eq(c, t.spec))
    {
        st.problems
            .push(format!("cuecard's entries are in the {}", t.spec.form_name));
        return st;
    }
    st.unenforced = unenforced(ctx, t, &events, &wanted);
    if wanted.is_empty() && !st.unenforced.is_empty() {
        // A decisions-only harness with no policy: install would write
        // nothing, which `unenforced` already says.
        return st;
    }
    compare_with_install(&mut st, &text, &doc, t, &wanted);
    st
}

/// cuecard's entries in `doc` into those whose program is an installed
/// cuecard binary and those whose program is not (with why, a problem).
fn split_by_program(
    st: &mut Status,
    doc: &Value,
    t: &ConfigFile,
    bin: &str,
    project: &Path,
    wanted: &[HookEntry],
) {
    let owner = document::owner(t, bin, Some(wanted));
    for (event, matcher, h) in merge::ours(doc, t.spec.layout, bin) {
        if !owner.owns(&h) {
            let words = h
                .as_object()
                .and_then(super::ownership::argv)
                .unwrap_or_default();
            st.yours.push(format!(
                "yours: {event} [{}]: `{}` runs cuecard, but install did not write it (or it was \
                 edited since); kept as it is",
                matcher.as_deref().unwrap_or("every call"),
                words.join(" ")
            ));
            let why = program_of(&h)
                .and_then(|p| super::program::resolve(&p, project))
                .err()
                .map(|e| e.to_string());
            if let Some(why) = &why {
                st.problems.push(format!(
                    "{event}: not run: not an installed cuecard binary ({why}); an entry of yours, left as it is"
                ));
            }
            st.yours_entries.push((event, h, why));
        }
    }
    let (installed, not_cuecard): (Vec<_>, Vec<_>) = merge::ours(doc, t.spec.layout, &owner)
        .into_iter()
        .map(|entry| {
            let why = program_of(&entry.2).and_then(|p| super::program::resolve(&p, project));
            (entry, why.err())
        })
        .partition(|(_, why)| why.is_none());
    st.installed = installed.into_iter().map(|(e, _)| e).collect();
    st.owned_not_run = not_cuecard.len();
    // A program that is not there (a `cargo clean`, a moved binary).
    for (_, _, h) in &st.installed {
        if let Ok(p) = program_of(h)
            && Path::new(&p).is_absolute()
            && std::fs::symlink_metadata(&p).is_err()
            && !st.missing.contains(&p)
        {
            st.problems.push(format!(
                "the program these entries run, {p}, does not exist (removed by `cargo clean`, or \
                 moved): every hook fails until it is back; put a lasting copy in place \
                 (`cargo install --path .`, or `cuecard install --self`) and run `cuecard install` \
                 from it"
            ));
            st.missing.push(p);
        }
    }
    for ((event, _, _), why) in not_cuecard {
        let why = why.unwrap_or(ProgramRefused::NoProgram);
        st.not_on_path |= matches!(why, ProgramRefused::NotOnPath(_));
        st.problems.push(format!(
            "{event}: not run: not an installed cuecard binary ({why}); left as it is{}",
            if matches!(why, ProgramRefused::NotOnPath(_)) {
                "; put the folder holding cuecard on PATH (or link it into ~/.local/bin)"
            } else {
                ""
            }
        ));
        st.not_cuecard.push((event, why.to_string()));
    }
}

/// Whether the installed entries are what install would write now
/// (`wanted`), a file cuecard owns is its unedited own (`text`), and the
/// file has the keys the harness needs for hooks.
fn compare_with_install(
    st: &mut Status,
    text: &str,
    doc: &Value,
    t: &ConfigFile,
    wanted: &[HookEntry],
) {
    let key = |e: &str, m: &Option<String>, h: &Value| format!("{e}\u{1}{m:?}\u{1}{h}");
    let mut have: Vec<String> = st.installed.iter().map(|(e, m, h)| key(e, m, h)).collect();
    let mut want: Vec<String> = wanted
        .iter()
        .map(|w| key(&w.event, &w.matcher, &Value::Object(w.handler.clone())))
        .collect();
    have.sort();
    want.sort();
    st.current = have == want;
    if !st.current {
        st.problems.push(
            "cuecard's entries differ from what install would write now (another binary path, other cards, \
             or edited by hand): run `cuecard install` again"
                .into(),
        );
    }
    if let Some(why) = t
        .spec
        .owned
        .and_then(|o| super::owned::problem(o, &t.path, text))
    {
        st.current = false;
        st.problems.push(why);
    }
    if let Some(why) = document::hooks_switched_off(t, doc) {
        let why = format!("{why}; cuecard leaves your switch as it is");
        st.problems.push(why.clone());
        st.switched_off.push(why);
    }
    for (k, v) in (t.spec.required)() {
        match document::get(doc, k) {
            Some(have) if have == &v => {}
            Some(have) => {
                st.current = false;
                let why = format!(
                    "{k} is {have} in {}: {} runs no hooks while it is, neither yours nor \
                     cuecard's; cuecard leaves your switch as it is: set it to {v} when you want \
                     hooks to run",
                    t.path.display(),
                    t.spec.harness.name()
                );
                st.problems.push(why.clone());
                st.switched_off.push(why);
            }
            None => {
                st.current = false;
                st.problems.push(format!(
                    "{k} is not set: the harness may run no hooks; run `cuecard install` again"
                ));
            }
        }
    }
}

/// The policy lines these entries cannot enforce. With a policy set, every
/// native event install registers only for decisions (Gemini's BeforeTool,
/// Qwen's PreToolUse, ..., Windsurf's pre-hooks) must be among the
/// installed events: one registered before the policy was set is missing,
/// and a deny there would pass silently. A decisions-only harness with no
/// policy has entries that never do anything.
fn unenforced(
    ctx: &Context,
    t: &ConfigFile,
    installed: &[String],
    wanted: &[merge::HookEntry],
) -> Vec<String> {
    let h = t.spec.harness;
    let policy = ctx.policy();
    let install = format!(
        "run `cuecard install --harness {} --scope {}` again",
        h.id(),
        t.scope.id()
    );
    if !policy.is_set() {
        return if h.decisions_only() {
            vec![format!(
                "no policy is set, so these entries never do anything ({} gets decisions only): \
                 set one in config.toml, or `cuecard uninstall --harness {}`",
                h.name(),
                h.id()
            )]
        } else {
            Vec::new()
        };
    }
    let mut missing: Vec<&str> = Vec::new();
    for w in wanted {
        let decision_only = harness_decides_only(h, &w.event);
        if decision_only && !installed.contains(&w.event) && !missing.contains(&w.event.as_str()) {
            missing.push(&w.event);
        }
    }
    if missing.is_empty() {
        return Vec::new();
    }
    vec![format!(
        "the policy has ask/deny lines (`cuecard policy`) but {} {} not registered here, so {} \
         does not enforce them (the entries were installed before the policy was set): {install}",
        missing.join(", "),
        if missing.len() == 1 { "is" } else { "are" },
        h.name()
    )]
}

/// Whether `native` is registered only for decisions on `h`.
fn harness_decides_only(h: crate::harness::HarnessId, native: &str) -> bool {
    crate::harness::canonical_event(h, native)
        .is_some_and(|c| crate::harness::decision_natives(h, c).contains(&native))
}
