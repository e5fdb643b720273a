//! `cuecard cards list | show <card> | new <name> | check [<file>]`.

use super::{CommandError, ExitStatus};
use crate::card::{self, Card, Origin};
use crate::deck::sources::{self, CardScope, CardSet};
use crate::printer::Printer;
use crate::{text, tokens};
use std::path::Path;

/// Every card visible from here, after precedence (project cards only when
/// trusted).
pub(super) fn visible() -> CardSet {
    let project = crate::context::project_root_here();
    let state = crate::state::store::root_for_commands();
    let vouch = crate::trust::ProjectTrust::new(state.as_deref(), &project);
    let policy = crate::policy::load(&project, state.as_deref());
    // No parsed-card cache here: it keeps only what the hook path reads.
    sources::load_all(Some(&project), None, &vouch, &|c| policy.holds(c))
}

pub fn list(p: &Printer, json: bool) -> ExitStatus {
    let set = visible();
    let status = if set.errors.is_empty() {
        ExitStatus::Success
    } else {
        ExitStatus::Failure
    };
    if json {
        p.out(&serde_json::to_string_pretty(&list_json(&set)).unwrap_or_default());
        return status;
    }
    let mut rows: Vec<Vec<String>> = vec![
        [
            "NAME", "SCOPE", "EVENT", "MATCHER", "GUARD", "CHARS", "TOKENS",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect(),
    ];
    for (scope, c) in &set.cards {
        let text = &*shown_text(c);
        let mut scope_s = scope.label().to_string();
        if let Some(lost) = set.overridden(&c.name) {
            scope_s.push_str(&format!(" (overrides {})", lost.label()));
        }
        if !c.bindings.enabled {
            scope_s.push_str(" (disabled)");
        }
        let judge = match (&c.bindings.guard, c.bindings.triggers.is_empty()) {
            (Some(g), _) => g.clone(),
            (None, false) => "trigger".into(),
            (None, true) => "-".into(),
        };
        rows.push(vec![
            c.name.clone(),
            scope_s,
            c.bindings.events.join(","),
            c.bindings.matcher.clone(),
            judge,
            text::len16(text).to_string(),
            tokens::count(text).to_string(),
        ]);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{s:w$}", w = widths[i]))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    if !set.untrusted.is_empty() {
        out.push_str(&format!(
            "\nproject cards not trusted (inactive; review them, then `cuecard trust`): {}\n",
            set.untrusted.join(", ")
        ));
    }
    for (scope, e) in &set.errors {
        out.push_str(&format!("\n{} {e}", scope.label()));
    }
    p.out(&out);
    status
}

/// What a card's size is measured on: the text it emits, with the one fill
/// that is the same on every call put in (the skill index built into this
/// binary, for the `skill-index` guard's `{index}`); a fill that depends on
/// the call stays as written.
fn shown_text(c: &crate::card::Card) -> std::borrow::Cow<'_, str> {
    let text = c.emitted_text();
    if c.bindings.guard.as_deref() == Some("skill-index") {
        text::fill_with(text, &[], &[("index", crate::guards::skill_index::text())]).into()
    } else {
        text.into()
    }
}

/// `cards list --json` (docs/json.md).
fn list_json(set: &CardSet) -> serde_json::Value {
    use serde_json::json;
    let cards: Vec<serde_json::Value> = set
        .cards
        .iter()
        .map(|(scope, c)| {
            let text = &*shown_text(c);
            json!({
                "name": c.name,
                "scope": scope.label(),
                "overrides": set.overridden(&c.name).map(|s| s.label()),
                "enabled": c.bindings.enabled,
                "events": c.bindings.events,
                "matcher": c.bindings.matcher,
                "guard": c.bindings.guard,
                "trigger": c.bindings.has_trigger(),
                "decision": c.bindings.decision().map(|l| l.word()),
                "chars": text::len16(text),
                "tokens": tokens::count(text),
            })
        })
        .collect();
    json!({
        "cards": cards,
        "untrusted": set.untrusted,
        "errors": set.errors.iter().map(|(scope, e)| json!({
            "scope": scope.label(),
            "card": e.card,
            "message": e.message,
        })).collect::<Vec<_>>(),
    })
}

pub fn show(p: &Printer, name: &str) -> Result<ExitStatus, CommandError> {
    let set = visible();
    match set.get(name) {
        Some((_, c)) => {
            let ids = crate::policy::card_lines(c);
            let known = c
                .bindings
                .guard
                .as_deref()
                .and_then(crate::guards::effects::summary);
            if let Some(known) = known {
                p.out(&format!(
                    "{}\n\n## What it knows\n{known}\n{}",
                    c.body.trim_end(),
                    if ids.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "\n## Policy ids (advise unless set; see `cuecard policy`)\n{}",
                            ids.trim_end()
                        )
                    }
                ));
            } else if ids.is_empty() {
                p.out(&c.body);
            } else {
                // Policy ids: what `[policy]` / CUECARD_POLICY can name for
                // this card's findings (advise unless set).
                p.out(&format!(
                    "{}

## Policy ids (advise unless set; see `cuecard policy`)
{}",
                    c.body.trim_end(),
                    ids.trim_end()
                ));
            }
            Ok(ExitStatus::Success)
        }
        None => Err(match set.errors.into_iter().find(|(_, e)| e.card == name) {
            Some((_, e)) => CommandError::BrokenCard(e),
            None => CommandError::NoSuchCard {
                name: name.to_string(),
                hint: crate::suggest::hint(name, set.cards.iter().map(|(_, c)| c.name.as_str())),
            },
        }),
    }
}

const TEMPLATE: &str = r#"<!-- A cuecard card. The name of this file (without .md) is the card's name. -->
# {title}

## Advisory
<!-- What reaches the model when the card fires: short, states what was seen
     and suggests; it does not command. Placeholders: {path}, {command},
     {match}, {tool} (filled from the call, sanitised). -->
`{path}` was changed. Consider checking the team's notes for this area first.

## Procedure
<!-- The full procedure, read on demand through the `Full procedure:` pointer. -->
1. Describe the steps here.

## Bindings
<!-- event: PreToolUse or PostToolUse for tool calls; SessionStart or
     UserPromptSubmit for cards without a trigger.
     Triggers (data only, all that are given must match):
       tools: Write|Edit          canonical tool names
       paths: migrations/**        globs on the target path, relative to the project root
       not-paths: migrations/README.md
       command: ^git push         regular expression on each simple command
       not-command: --dry-run
       content: TODO\(\w+\)       regular expression on the text being written
       once: session              at most once per session
       cooldown: 10m              not again within this time
     enabled: false switches off a shipped card of the same name. -->
- event: PreToolUse
- paths: {example_glob}
"#;

pub fn new(p: &Printer, name: &str, project: bool) -> Result<ExitStatus, CommandError> {
    if !card::is_valid_name(name) {
        return Err(CommandError::BadCardName);
    }
    let dir = if project {
        sources::project_dir(&crate::context::project_root_here())
    } else {
        sources::user_dir().ok_or(CommandError::NoUserConfigDir)?
    };
    let path = dir.join(format!("{name}.md"));
    if path.exists() {
        return Err(CommandError::CardExists(path));
    }
    // A name already in use replaces that card (issue 33): say so before
    // the user writes a template over a shipped guard by accident.
    if let Some((_, src)) = crate::card::embedded::sources()
        .into_iter()
        .find(|(n, _)| *n == name)
    {
        let title = src
            .lines()
            .find_map(|l| l.strip_prefix("# "))
            .unwrap_or(name);
        p.err(&format!(
            "warning: `{name}` is the name of a shipped card (\"{}\"): this card replaces it wherever it is active. \
             To add a card of your own, pick another name; to switch the shipped one off, keep the name and write `- enabled: false` in its Bindings.",
            title.trim()
        ));
    } else if project && let Some((scope, _)) = visible().get(name) {
        p.err(&format!(
            "warning: a {} card named `{name}` exists: this project card replaces it once trusted",
            scope.label()
        ));
    }
    let title = name.replace('-', " ");
    let body = TEMPLATE
        .replace("{title}", &title)
        .replace("{example_glob}", "migrations/**");
    if let Err(error) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, body)) {
        return Err(CommandError::CannotWrite { path, error });
    }
    let mut msg = format!(
        "wrote {}\nedit it, then run `cuecard cards check {}`",
        path.display(),
        path.display()
    );
    if project {
        msg.push_str(" and `cuecard trust` (project cards are inactive until trusted)");
    }
    msg.push_str(
        "\nif it binds an event or tool cuecard is not registered for yet, run `cuecard install --harness <id>` again (`cuecard verify` says STALE until then)",
    );
    p.out(&msg);
    Ok(ExitStatus::Success)
}

/// Words that make an Advisory read as an order rather than advice.
const ORDER_WORDS: &[&str] = &["you must", "you have to", "you need to", "you shall"];
const SHOUTED: &[&str] = &["ALWAYS", "NEVER", "MUST", "DO NOT", "IMPORTANT", "CRITICAL"];

/// Findings of `cards check` for one card source.
pub fn check_source(name: &str, src: &str, origin: Origin) -> (Vec<String>, Vec<String>) {
    let mut warnings = Vec::new();
    if src.len() as u64 > sources::MAX_CARD_BYTES {
        let too_large = format!(
            "larger than {} KiB: the dispatcher will not load it",
            sources::MAX_CARD_BYTES / 1024
        );
        return (vec![too_large], warnings);
    }
    if src
        .chars()
        .any(|c| c.is_control() && c != '\n' && c != '\t' && c != '\r')
    {
        warnings
            .push("contains control characters; they are removed before the card is used".into());
    }
    let src = text::clean_block(src);
    // Every problem at once (issue 33), then what only the full parse sees.
    let mut errors = crate::deck::validate::problems(&src);
    let mut add = |m: String| {
        if !errors.iter().any(|e| e.starts_with(&m)) {
            errors.push(m);
        }
    };
    match crate::deck::validate::parse_checked(name, &src, origin) {
        Ok(card) => {
            if let Err(e) = crate::trigger::validate(&card) {
                add(e);
            }
            for line in card.bindings.effects() {
                if let Err(why) = crate::policy::packs::parse_line(line) {
                    add(format!("`- effect: {line}`: {why}"));
                }
            }
            audit_wording(&card, &mut warnings);
        }
        Err(e) => add(e.message),
    }
    (errors, warnings)
}

fn audit_wording(card: &Card, warnings: &mut Vec<String>) {
    let text = card.emitted_text();
    let chars = text::len16(text);
    let toks = tokens::count(text);
    if chars > 1_500 {
        warnings.push(format!(
            "the Advisory is {chars} characters ({toks} tokens); advisories work best under ~1,000"
        ));
    }
    let lower = text.to_lowercase();
    for w in ORDER_WORDS {
        if lower.contains(w) {
            warnings.push(format!(
                "the Advisory says \"{w}\": state what was seen and suggest, rather than command"
            ));
        }
    }
    for w in SHOUTED {
        if text
            .split(|c: char| !c.is_ascii_alphabetic() && c != ' ')
            .any(|seg| seg.contains(w))
        {
            warnings.push(format!(
                "the Advisory shouts \"{w}\": advisories inform; capitals read as orders"
            ));
        }
    }
}

pub fn check(p: &Printer, file: Option<&Path>) -> ExitStatus {
    let targets = match file {
        Some(f) => vec![(f.display().to_string(), f.to_path_buf(), CardScope::User)],
        None => card_files(),
    };
    // The [effects] packs of the config files (issue 27): checked with the
    // cards, as they feed the same guards.
    let packs = if file.is_none() {
        crate::policy::packs::check_files(&crate::context::project_root_here())
    } else {
        Vec::new()
    };
    if targets.is_empty() && packs.is_empty() {
        p.out("no user or project cards to check");
        return ExitStatus::Success;
    }
    let mut failed = 0;
    let mut out = String::new();
    let ok = p.state("ok", 0);
    let invalid = p.state("INVALID", 0);
    let (error, warning) = (p.state("error:", 0), p.state("warning:", 0));
    for (shown, result) in packs {
        match result {
            Ok(n) => out.push_str(&format!(
                "{shown} [effects]: {ok} ({})\n",
                crate::text::count(n, "verb", "verbs")
            )),
            Err(e) => {
                failed += 1;
                out.push_str(&format!("{shown} [effects]: {invalid}\n  {error} {e}\n"));
            }
        }
    }
    for (shown, path, scope) in targets {
        let (errors, warnings) = check_file(&path, scope);
        if errors.is_empty() {
            out.push_str(&format!("{shown}: {ok}\n"));
        } else {
            failed += 1;
            out.push_str(&format!("{shown}: {invalid}\n"));
        }
        for e in errors {
            out.push_str(&format!("  {error} {e}\n"));
        }
        for w in warnings {
            out.push_str(&format!("  {warning} {w}\n"));
        }
    }
    p.out(&out);
    if failed > 0 {
        ExitStatus::Failure
    } else {
        ExitStatus::Success
    }
}

/// Every `.md` file of the user's and this project's card directories, by
/// name within each: (shown path, path, scope).
fn card_files() -> Vec<(String, std::path::PathBuf, CardScope)> {
    let mut targets = Vec::new();
    let mut dirs = Vec::new();
    if let Some(d) = sources::user_dir() {
        dirs.push((d, CardScope::User));
    }
    dirs.push((
        sources::project_dir(&crate::context::project_root_here()),
        CardScope::Project,
    ));
    for (d, scope) in dirs {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        let mut files: Vec<_> = rd
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        files.sort();
        for p in files {
            targets.push((p.display().to_string(), p, scope));
        }
    }
    targets
}

/// One card file's errors and warnings (a file too large or unreadable is
/// one error).
fn check_file(path: &Path, scope: CardScope) -> (Vec<String>, Vec<String>) {
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    match std::fs::metadata(path) {
        Ok(m) if m.len() > sources::MAX_CARD_BYTES => (
            vec![format!(
                "larger than {} KiB: the dispatcher will not load it",
                sources::MAX_CARD_BYTES / 1024
            )],
            vec![],
        ),
        Ok(_) => match std::fs::read_to_string(path) {
            Ok(src) => {
                let origin = if scope == CardScope::Project {
                    Origin::Project(path.to_path_buf())
                } else {
                    Origin::User(path.to_path_buf())
                };
                check_source(&name, &src, origin)
            }
            Err(e) => (vec![format!("cannot be read as UTF-8 text: {e}")], vec![]),
        },
        Err(e) => (vec![format!("cannot be read: {e}")], vec![]),
    }
}
