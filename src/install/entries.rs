//! The hook entries a harness gets, derived from the Bindings
//! (`registration::shipped`) through the harness contract's tables: its
//! event names, its matcher syntax, which events reach its model.
//!
//! Cards that several canonical events send to the same native event (Qwen
//! and Gemini carry PreToolUse cards on their after-tool event) share one
//! entry: one process per call, one answer.

use super::error::InstallError;
use super::merge::HookEntry;
use super::shell_words;
use crate::harness::config::{Config, Form, Host, Shell};
use crate::harness::{self, HarnessId};
use crate::registration::{self, Registration};
use crate::target::ToolKind;
use serde_json::{Map, Value};

/// A registration the harness does not get, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    pub event: &'static str,
    pub cards: Vec<String>,
}

impl Skipped {
    /// Why `h` does not get it, for install's and plugin build's report:
    /// the harness has no such event (Crush's SessionStart), or drops what
    /// a hook prints there.
    pub fn why(&self, h: HarnessId) -> String {
        let absent = crate::event::Event::parse(self.event)
            .is_some_and(|e| h.spec().natives(e).next().is_none());
        if absent {
            format!("{} has no such event", h.name())
        } else {
            format!(
                "{} does not deliver what a hook prints there to the model",
                h.name()
            )
        }
    }
}

/// The command line of one entry: the binary, `dispatch`, the contract
/// (none for Claude Code), the native event, the cards.
pub fn argv(h: HarnessId, bin: &str, native: &str, cards: &[String]) -> Vec<String> {
    let mut v = vec![bin.to_string(), "dispatch".to_string()];
    if h != HarnessId::ClaudeCode {
        v.push("--contract".into());
        v.push(h.id().into());
    }
    v.push(native.to_string());
    v.extend(cards.iter().cloned());
    v
}

/// The entries for the cards visible from `project`: the shipped cards,
/// and the events and matchers the user's and the project's trusted cards
/// need (see `registration::for_install`). A run that has a
/// [`super::context::Context`] asks it instead ([`Context::wanted`]), which
/// reads the cards and the policy once.
///
/// [`Context::wanted`]: super::context::Context::wanted
pub fn for_harness(
    spec: &Config,
    bin: &str,
    host: Host,
    project: &std::path::Path,
) -> (Vec<HookEntry>, Vec<Skipped>) {
    let state = crate::state::store::root_for_commands();
    // With a policy set (docs/design.md §4a), the cards are also registered where
    // the harness honours a decision but drops context; without one
    // nothing changes.
    let decide = crate::policy::load(project, state.as_deref()).is_set();
    build_deciding(
        spec,
        bin,
        host,
        &registration::for_install(project, state.as_deref()),
        decide,
    )
}

/// The program word as written for `shell` on `host`: a Windows path for
/// `sh` (Git Bash; Copilot's `bash` key written on a Windows host) with
/// forward slashes, which Git Bash reads as the same path and `sh` never
/// takes for escapes.
fn program_for(shell: Shell, host: Host, program: &str) -> String {
    if shell == Shell::Posix && host == Host::Windows {
        program.replace('\\', "/")
    } else {
        program.to_string()
    }
}

/// Refuses a program path that a shell the harness runs entries through on
/// `host` would interpret (docs/design.md §9; the characters follow the shell, see
/// [`shell_words::unsafe_chars`]). The exec form takes any path.
pub fn check_program(spec: &Config, host: Host, program: &str) -> Result<(), InstallError> {
    for (_, shell) in spec.shells(host) {
        shell_words::check_safe(shell, &program_for(shell, host, program))?;
    }
    Ok(())
}

/// The entries for a set of registrations, rendered for `host`.
pub fn build(
    spec: &Config,
    bin: &str,
    host: Host,
    regs: &[Registration],
) -> (Vec<HookEntry>, Vec<Skipped>) {
    build_deciding(spec, bin, host, regs, false)
}

/// [`build`], and with `decide`, an entry on each native event where the
/// harness honours a decision but drops context ([`harness::decision_natives`]).
pub fn build_deciding(
    spec: &Config,
    bin: &str,
    host: Host,
    regs: &[Registration],
    decide: bool,
) -> (Vec<HookEntry>, Vec<Skipped>) {
    let h = spec.harness;
    // Group by native event, keeping first-seen order.
    let mut groups: Vec<(&'static str, &'static str, Vec<&Registration>)> = Vec::new();
    let mut skipped = Vec::new();
    for r in regs {
        let mut deciding = if decide {
            harness::decision_natives(h, r.event)
        } else {
            Vec::new()
        };
        // An event judged as a Bash call (Claude Code's
        // PreSkillShellCommand) gets only the cards that look at shell calls.
        deciding.retain(|n| {
            harness::canonical_event(h, n) == Some(r.event) || admits_shell(&r.matcher)
        });
        let context = harness::native_event(h, r.event);
        for native in deciding.iter().copied().chain(context) {
            match groups.iter_mut().find(|g| g.0 == native) {
                Some(g) => g.2.push(r),
                None => groups.push((native, r.event, vec![r])),
            }
        }
        if context.is_none() && deciding.is_empty() {
            skipped.push(Skipped {
                event: r.event,
                cards: r.cards.clone(),
            });
        }
    }
    let entries = groups
        .into_iter()
        .map(|(native, canonical, rs)| {
            let mut matcher = crate::card::matcher_union(rs.iter().map(|r| r.matcher.as_str()));
            // An event judged as a shell call (Claude Code's
            // PreSkillShellCommand): only the shell tools' names. An event
            // that carries another's cards (PreToolUse's riding on a
            // harness's PostToolUse) keeps their whole matcher.
            let judged_as_shell = harness::canonical_event(h, native)
                .and_then(crate::event::Event::parse)
                .is_some_and(|e| e.judged_as() != e && e.judged_as().name() == canonical);
            if judged_as_shell {
                matcher = shell_only(&matcher);
            }
            let mut cards: Vec<String> = Vec::new();
            for r in &rs {
                for c in &r.cards {
                    if !cards.contains(c) {
                        cards.push(c.clone());
                    }
                }
            }
            let matcher = harness::native_matcher(h, canonical, &matcher).filter(|m| !m.is_empty());
            let mut handler = handler(
                spec,
                host,
                &argv(h, bin, native, &cards),
                matcher.as_deref(),
            );
            if spec.layout == super::merge::Layout::List {
                handler = list_item(native, matcher.as_deref(), handler);
            }
            HookEntry {
                event: native.to_string(),
                handler,
                matcher,
                cards,
            }
        })
        .collect();
    (entries, skipped)
}

/// Whether a canonical tool matcher admits a shell call (`Bash` or
/// `PowerShell`, the tool names a skill's shell command is judged under).
fn admits_shell(matcher: &str) -> bool {
    let m = matcher.trim();
    m.is_empty()
        || m == "*"
        || m.split('|')
            .any(|a| ToolKind::of(Some(a.trim())).is_shell())
}

/// The shell tools a canonical matcher admits, as a matcher.
fn shell_only(matcher: &str) -> String {
    let all = matches!(matcher.trim(), "" | "*");
    ToolKind::names(ToolKind::is_shell)
        .filter(|t| all || matcher.split('|').any(|a| a.trim() == *t))
        .collect::<Vec<_>>()
        .join("|")
}

/// One item of a [`Layout::List`](super::merge::Layout::List) file (Kiro V3):
/// `{name, trigger, matcher, action: {type, command}, timeout, enabled}`,
/// from the handler built for the same entry.
fn list_item(
    trigger: &str,
    matcher: Option<&str>,
    mut h: Map<String, Value>,
) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("name".into(), Value::from(format!("cuecard {trigger}")));
    m.insert("trigger".into(), Value::from(trigger));
    if let Some(mt) = matcher {
        m.insert("matcher".into(), Value::from(mt));
    }
    let mut action = Map::new();
    action.insert("type".into(), Value::from("command"));
    if let Some(c) = h.remove("command") {
        action.insert("command".into(), c);
    }
    m.insert("action".into(), Value::Object(action));
    for (k, v) in h {
        m.insert(k, v);
    }
    m.insert("enabled".into(), Value::Bool(true));
    m
}

/// One handler object for `host`, keys in the order the harness's docs show
/// them: the exec form as `command` + `args`; a shell form as one command
/// line per key, quoted for the shell behind that key on `host`.
pub fn handler(
    spec: &Config,
    host: Host,
    argv: &[String],
    matcher: Option<&str>,
) -> Map<String, Value> {
    let mut m = Map::new();
    if spec.typed {
        m.insert("type".into(), Value::from("command"));
    }
    match spec.form {
        Form::Exec => {
            m.insert("command".into(), Value::from(argv[0].clone()));
            m.insert("args".into(), Value::from(argv[1..].to_vec()));
        }
        Form::Shell { .. } | Form::PerShell(_) => {
            for (key, shell) in spec.shells(host) {
                let mut words = argv.to_vec();
                words[0] = program_for(shell, host, &argv[0]);
                m.insert(key.into(), Value::from(shell_words::command(shell, &words)));
            }
        }
    }
    if spec.layout == super::merge::Layout::Flat
        && let Some(mt) = matcher
    {
        m.insert("matcher".into(), Value::from(mt));
    }
    if let Some((k, v)) = spec.timeout_value() {
        m.insert(k.into(), v);
    }
    m
}
