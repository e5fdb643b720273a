//! Declarative triggers: what a user or project card declares instead of a
//! built-in guard. A trigger is data only — tool names, path globs, regular
//! expressions — so nothing in a card can run a program, read a file other
//! than the one the call names, or reach the network.
//!
//! Regular expressions use the `regex` crate (linear time, no backtracking)
//! with a compiled-size limit; an invalid or oversized one is an error that
//! `cuecard cards check` reports and the dispatcher records.
//!
//! All conditions given must hold: `tools` and `paths` and `command` and
//! `content`; `not-paths` / `not-command` veto.

use crate::card::Bindings;
use crate::finding::Finding;
use crate::target::{Call, ToolKind};
use regex::{Regex, RegexBuilder};
use std::time::Duration;

mod glob;
pub use glob::Glob;

/// The longest pattern a card may declare.
pub const MAX_PATTERN_CHARS: usize = 1_000;
/// The compiled-program size limit for one pattern.
const REGEX_SIZE_LIMIT: usize = 1 << 20;
/// How much written content a `content:` pattern is matched against.
const MAX_CONTENT_BYTES: usize = 256 * 1024;

/// A compiled trigger.
#[derive(Debug)]
pub struct Trigger {
    pub tools: Vec<String>,
    pub paths: Vec<Glob>,
    pub not_paths: Vec<Glob>,
    /// Regular expressions, kept as text and compiled only when a call gets
    /// that far (the card's tools and paths matched): most calls never
    /// compile one. Validation compiles them all (see [`validate`]).
    pub command: Option<String>,
    pub not_command: Option<String>,
    pub content: Option<String>,
    pub once_per_session: bool,
    pub cooldown: Option<Duration>,
}

impl Trigger {
    /// Compiles the trigger keys of a card's Bindings.
    pub fn compile(b: &Bindings) -> Result<Trigger, String> {
        let scope = TriggerView(&b.triggers);
        let globs = |key| {
            scope
                .values(key)
                .map(Glob::new)
                .collect::<Result<Vec<_>, _>>()
        };
        let mut t = Trigger {
            tools: scope.tools().map(String::from).collect(),
            paths: globs("paths")?,
            not_paths: globs("not-paths")?,
            command: None,
            not_command: None,
            content: None,
            once_per_session: false,
            cooldown: None,
        };
        for (k, v) in &b.triggers {
            match k.as_str() {
                "tools" | "paths" | "not-paths" => {}
                "command" => t.command = Some(pattern(k, v)?),
                "not-command" => t.not_command = Some(pattern(k, v)?),
                "content" => t.content = Some(pattern(k, v)?),
                "once" => match v.trim() {
                    "session" => t.once_per_session = true,
                    other => return Err(format!("`once: {other}`: the only value is `session`")),
                },
                "cooldown" => t.cooldown = Some(parse_duration(v)?),
                // The card's policy, read by the dispatcher, not a trigger.
                "decision" => {}
                // A pack line, read by the policy layer.
                "effect" => {}
                _ => return Err(format!("unknown trigger key `{k}`")),
            }
        }
        Ok(t)
    }

    /// Evaluates the trigger on a call.
    pub fn check(&self, ctx: &Call) -> Option<Finding> {
        let tool = ctx.payload.tool_name();
        if !self.tools.is_empty() && !tool.is_some_and(|t| self.tools.iter().any(|x| x == t)) {
            return None;
        }
        let mut vars: Vec<(&'static str, String)> = Vec::new();
        if let Some(t) = tool {
            vars.push(("tool", t.to_string()));
        }
        let mut why: Vec<String> = Vec::new();
        let mut target = String::new();

        if !self.paths.is_empty() || !self.not_paths.is_empty() {
            let paths = ctx.call_paths();
            let hit = paths.iter().find(|p| {
                (self.paths.is_empty() || self.paths.iter().any(|g| g.matches(p)))
                    && !self.not_paths.iter().any(|g| g.matches(p))
            })?;
            vars.push(("path", hit.clone()));
            why.push(format!("path `{hit}` matches"));
            target = hit.clone();
        }
        if self.command.is_some() || self.not_command.is_some() {
            crate::target::shell_command(ctx)?;
            let simple = ctx.simple_commands();
            if let Some(nc) = &self.not_command
                && let Ok(nc) = regex("not-command", nc)
                && simple.iter().any(|s| nc.is_match(s))
            {
                return None;
            }
            if let Some(re) = &self.command {
                let re = regex("command", re).ok()?;
                let (cmd, m) = simple
                    .iter()
                    .find_map(|s| re.find(s).map(|m| (s.clone(), m.as_str().to_string())))?;
                why.push(format!(
                    "command `{}` matches",
                    crate::text::sanitize(&cmd, 80)
                ));
                vars.push(("command", cmd.clone()));
                vars.push(("match", m));
                if target.is_empty() {
                    target = cmd;
                }
            }
        }
        if let Some(re) = &self.content {
            let re = regex("content", re).ok()?;
            let written = crate::target::written_content(ctx);
            let (t, m) = written.iter().find_map(|(t, text)| {
                let text = crate::text::prefix_bytes(text, MAX_CONTENT_BYTES);
                re.find(text)
                    .map(|m| (t.shown.clone(), m.as_str().to_string()))
            })?;
            why.push(format!("content written to `{t}` matches"));
            if !vars.iter().any(|(k, _)| *k == "path") {
                vars.push(("path", t.clone()));
            }
            vars.push(("match", m));
            if target.is_empty() {
                target = t;
            }
        }
        if why.is_empty() {
            why.push(format!("tool `{}` listed", tool.unwrap_or("?")));
        }
        let mut f = Finding::new(target, why.join("; "));
        f.vars = vars;
        Some(f)
    }
}

/// A cheap first look, before a trigger card is evaluated at all: could it
/// fire on a call of `tool` naming `paths`? Only its tools and path globs
/// are read (no regular expression is compiled), so a project's cards that
/// concern other tools or other paths cost next to nothing. Cards without a
/// trigger always pass.
pub fn may_fire<K: AsRef<str>, V: AsRef<str>>(
    triggers: &[(K, V)],
    tool: Option<&str>,
    paths: &[String],
) -> bool {
    if !crate::card::has_trigger(triggers) {
        return true;
    }
    let s = TriggerView(triggers);
    let mut tools = s.tools().peekable();
    if tools.peek().is_some() && !tool.is_some_and(|t| tools.any(|x| x == t)) {
        return false;
    }
    let globbed = s.values("paths").next().is_some();
    if !globbed && s.values("not-paths").next().is_none() {
        return true;
    }
    let mut invalid = false;
    let mut any = |key: &str, p: &str| {
        s.values(key).any(|g| {
            glob::matches(g, p).unwrap_or_else(|| {
                invalid = true;
                false
            })
        })
    };
    let hit = paths
        .iter()
        .any(|p| (!globbed || any("paths", p)) && !any("not-paths", p));
    // An invalid glob lets the card through: its evaluation reports it.
    hit || invalid
}

/// A card's reach, precomputed when its parsed form is cached: the tools it
/// concerns and the literal starts its paths must have, as
/// `<tool>,<tool>;<prefix>,<prefix>` (an empty side: no restriction).
/// [`reach_admits`] on it is a necessary condition of [`may_fire`] that
/// needs neither the trigger keys nor a glob: most of a project's cards are
/// passed over on that alone.
pub fn reach<K: AsRef<str>, V: AsRef<str>>(triggers: &[(K, V)]) -> String {
    if !crate::card::has_trigger(triggers) {
        return ";".into();
    }
    let s = TriggerView(triggers);
    let plain = |x: &str| !x.is_empty() && !x.contains([',', ';', '\t', '\n', '\r', '\\']);
    let tools: Vec<&str> = s.tools().collect();
    let tools = if tools.iter().all(|t| plain(t)) {
        tools.join(",")
    } else {
        String::new()
    };
    let prefixes: Option<Vec<String>> = s
        .values("paths")
        .map(|g| glob::literal_prefix(g).filter(|p| plain(p)))
        .collect();
    let prefixes = prefixes.map(|p| p.join(",")).unwrap_or_default();
    format!("{tools};{prefixes}")
}

/// The call's paths as globs see them (see `glob::normalize`), made once
/// per call for [`reach_admits`].
pub fn normalized(paths: &[String]) -> Vec<String> {
    paths
        .iter()
        .map(|p| glob::normalize(p).into_owned())
        .collect()
}

/// Whether a call of `tool` naming `paths` (as [`normalized`]) is within a
/// card's [`reach`] (the call's paths are asked for only when the tool is).
pub fn reach_admits<'p>(
    reach: &str,
    tool: Option<&str>,
    paths: impl FnOnce() -> &'p [String],
) -> bool {
    // Asked of every card of the user's or the project's on every tool
    // call: plain byte comparisons, nothing allocated.
    let r = reach.as_bytes();
    // Neither list holds a `;`, and the prefixes are the shorter side.
    let Some(semi) = r.iter().rposition(|&b| b == b';') else {
        return true;
    };
    let (tools, prefixes) = (&r[..semi], &r[semi + 1..]);
    let named = |t: &str| tools.split(|&b| b == b',').any(|x| x == t.as_bytes());
    if !tools.is_empty() && !tool.is_some_and(named) {
        return false;
    }
    prefixes.is_empty()
        || paths().iter().any(|p| {
            prefixes
                .split(|&b| b == b',')
                .any(|pre| glob::has_prefix_normalized(p, pre))
        })
}

/// What a card's trigger keys say about which calls it concerns: its tools
/// (with the defaults `paths:`/`content:` and `command:` imply) and its path
/// globs, read straight from the keys (nothing is allocated). Shared by
/// [`Trigger::compile`] and [`may_fire`], so the cheap look and the
/// evaluation cannot disagree.
struct TriggerView<'a, K, V>(&'a [(K, V)]);

impl<'a, K: AsRef<str>, V: AsRef<str>> TriggerView<'a, K, V> {
    /// The listed values of every `key:` line.
    fn values(&self, key: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let triggers: &'a [(K, V)] = self.0;
        triggers
            .iter()
            .filter(move |(k, _)| k.as_ref() == key)
            .flat_map(|(_, v)| list(v.as_ref()))
    }

    fn has(&self, key: &str) -> bool {
        self.0.iter().any(|(k, _)| k.as_ref() == key)
    }

    /// The tools the card concerns (none: any tool): those `tools:` lists,
    /// else shell tools for `command:` and file-writing tools for `paths:`
    /// or `content:` (their canonical names, [`ToolKind::names`]).
    fn tools(&self) -> impl Iterator<Item = &'a str> + 'a {
        let implied = self.values("tools").next().is_none();
        let shell = implied && self.has("command");
        let files = implied && (self.values("paths").next().is_some() || self.has("content"));
        self.values("tools")
            .chain(ToolKind::names(ToolKind::is_shell).filter(move |_| shell))
            .chain(ToolKind::names(ToolKind::writes_files).filter(move |_| files))
    }
}

/// Checks a card's trigger keys (patterns compile, values are known).
pub fn validate(card: &crate::card::Card) -> Result<(), String> {
    if card.bindings.triggers.is_empty() {
        return Ok(());
    }
    let t = Trigger::compile(&card.bindings)?;
    for (key, p) in [
        ("command", &t.command),
        ("not-command", &t.not_command),
        ("content", &t.content),
    ] {
        if let Some(p) = p {
            regex(key, p)?;
        }
    }
    let on_tool_event = card
        .bindings
        .events
        .iter()
        .any(|e| crate::event::lookup(e).is_some_and(|s| s.is_tool_event()));
    if card.bindings.has_trigger() && !on_tool_event {
        return Err(
            "tools/paths/command/content triggers need a tool event (PreToolUse, PostToolUse, ...)"
                .into(),
        );
    }
    Ok(())
}

/// The items of a list value (`a, b` or `a | b`), trimmed; a separator
/// inside `{...}` belongs to a glob's alternatives, not to the list.
fn list(v: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0usize;
    v.split(move |c: char| {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' | '|' => return depth == 0,
            _ => {}
        }
        false
    })
    .map(str::trim)
    .filter(|s| !s.is_empty())
}

/// A pattern's text, unwrapped from backticks and bounded in length.
fn pattern(key: &str, v: &str) -> Result<String, String> {
    let v = v.trim();
    let v = v
        .strip_prefix('`')
        .and_then(|p| p.strip_suffix('`'))
        .unwrap_or(v);
    if v.chars().count() > MAX_PATTERN_CHARS {
        return Err(format!(
            "`{key}` pattern is longer than {MAX_PATTERN_CHARS} characters"
        ));
    }
    Ok(v.to_string())
}

pub fn regex(key: &str, pattern: &str) -> Result<Regex, String> {
    let pattern = self::pattern(key, pattern)?;
    RegexBuilder::new(&pattern)
        .size_limit(REGEX_SIZE_LIMIT)
        .dfa_size_limit(REGEX_SIZE_LIMIT)
        .nest_limit(64)
        .build()
        .map_err(|e| {
            let first = e
                .to_string()
                .lines()
                .last()
                .unwrap_or("invalid")
                .trim()
                .to_string();
            format!("`{key}` is not a valid regular expression: {first}")
        })
}

/// `30s`, `10m`, `2h`, `1d`, or plain seconds.
pub fn parse_duration(v: &str) -> Result<Duration, String> {
    let v = v.trim();
    let (num, unit) = v.split_at(v.find(|c: char| !c.is_ascii_digit()).unwrap_or(v.len()));
    let n: u64 = num
        .parse()
        .map_err(|_| format!("`cooldown: {v}` must be like 30s, 10m, 2h"))?;
    let secs = match unit.trim() {
        "" | "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        _ => return Err(format!("`cooldown: {v}` must be like 30s, 10m, 2h")),
    };
    Ok(Duration::from_secs(secs))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bindings(triggers: &[(&str, &str)]) -> Vec<(String, String)> {
        triggers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn the_cheap_look_follows_tools_paths_and_their_defaults() {
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let paths = bindings(&[("paths", "area1/**"), ("not-paths", "area1/gen/**")]);
        assert!(may_fire(&paths, Some("Write"), &p(&["area1/x.rs"])));
        assert!(!may_fire(&paths, Some("Write"), &p(&["src/lib.rs"])));
        assert!(!may_fire(&paths, Some("Write"), &p(&["area1/gen/x.rs"])));
        assert!(
            !may_fire(&paths, Some("Bash"), &p(&["area1/x.rs"])),
            "`paths:` defaults to the file-writing tools"
        );
        let command = bindings(&[("command", "^make")]);
        assert!(may_fire(&command, Some("Bash"), &[]));
        assert!(
            !may_fire(&command, Some("Write"), &[]),
            "`command:` means shell tools"
        );
        let listed = bindings(&[("tools", "Read, Grep"), ("paths", "*.lock")]);
        assert!(may_fire(&listed, Some("Read"), &p(&["deep/Cargo.lock"])));
        assert!(!may_fire(&listed, Some("Write"), &p(&["deep/Cargo.lock"])));
        let broken = bindings(&[("paths", "a[b")]);
        assert!(
            may_fire(&broken, Some("Write"), &p(&["x"])),
            "an invalid glob is left to the evaluation, which reports it"
        );
        assert!(may_fire(&bindings(&[("once", "session")]), None, &[]));
        // A comma inside `{...}` is a glob's, not the list's.
        let braces = bindings(&[("paths", "src/**/*.{ts,tsx}, docs/*.md")]);
        assert!(may_fire(&braces, Some("Write"), &p(&["src/a/b.tsx"])));
        assert!(may_fire(&braces, Some("Write"), &p(&["docs/x.md"])));
        assert!(!may_fire(&braces, Some("Write"), &p(&["src/a/b.js"])));
        assert_eq!(
            list("a/{b,c}/x, d | e").collect::<Vec<_>>(),
            ["a/{b,c}/x", "d", "e"]
        );
    }

    #[test]
    fn the_reach_never_passes_over_a_card_that_may_fire() {
        let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let cards = [
            bindings(&[("paths", "area1/**"), ("not-paths", "area1/gen/**")]),
            bindings(&[("paths", "*.lock")]),
            bindings(&[("paths", "src/ma*/x, docs/**")]),
            bindings(&[("paths", "a/{b,c}/x")]),
            bindings(&[("command", "^make")]),
            bindings(&[("tools", "Read, Grep"), ("paths", "deep/*.lock")]),
            bindings(&[("content", "TODO")]),
            bindings(&[("not-paths", "vendor/**")]),
            bindings(&[("once", "session")]),
        ];
        let tools = [Some("Write"), Some("Bash"), Some("Read"), None];
        let calls = [
            p(&["area1/x.rs"]),
            p(&["area1/gen/x.rs"]),
            p(&["deep/Cargo.lock"]),
            p(&["src/main/x"]),
            p(&["docs/a.md"]),
            p(&["a/c/x"]),
            p(&["vendor/x.go"]),
            p(&["/abs/area1/x"]),
            p(&["./area1\\x.rs"]),
            p(&[" docs\\a.md "]),
            p(&[]),
        ];
        let mut passed_over = 0;
        for b in &cards {
            let r = reach(b);
            for t in tools {
                for c in &calls {
                    let n = normalized(c);
                    if may_fire(b, t, c) {
                        assert!(reach_admits(&r, t, || &n), "{b:?} ({r}) on {t:?} {c:?}");
                    } else if !reach_admits(&r, t, || &n) {
                        passed_over += 1;
                    }
                }
            }
        }
        assert!(
            passed_over > 50,
            "the reach decides most calls: {passed_over}"
        );
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("30s").unwrap(), Duration::from_secs(30));
        assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("2h").unwrap(), Duration::from_secs(7200));
        assert!(parse_duration("soon").is_err());
    }

    #[test]
    fn regexes_are_bounded() {
        assert!(
            regex("command", "(a+)+$").is_ok(),
            "linear engine: no catastrophe to fear"
        );
        assert!(regex("command", "(").is_err());
        assert!(regex("command", &"a".repeat(2_000)).is_err());
        assert!(
            regex("command", "\\w{1000}{1000}").is_err(),
            "compiled size limit"
        );
    }
}
