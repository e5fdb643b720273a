//! `askuser-recommended`: the `(Recommended)` convention in AskUserQuestion
//! option labels. A recommended option ends its label with exactly
//! ` (Recommended)`; a single-select question has at most one; a
//! recommendation does not sit on an option that destroys work.
//!
//! Well-formedness findings: a lower-case `(recommended)`, a non-canonical
//! marker (`[Recommended]`, `(Rec)`, `( Recommended )`, a marker that does
//! not end the label), several recommendations in a single-select question,
//! a recommendation on a destructive option. With `CUECARD_STRICT=1` these
//! become a deny the user opted into: `permissionDecision: "deny"` with a
//! reason listing them. The gentle nudge (a single-select question with two
//! or more real options and no recommendation) is advice only, never a deny.

use super::{Finding, Guard};
use crate::context::Ctx;
use crate::text;
use serde_json::Value;

pub struct AskUserRecommended;

/// The canonical marker.
const CANONICAL: &str = "(Recommended)";

/// Most questions and options looked at (AskUserQuestion allows 4 and 4;
/// the bound keeps a hostile payload cheap).
const MAX_QUESTIONS: usize = 8;
const MAX_OPTIONS: usize = 16;

impl Guard for AskUserRecommended {
    fn name(&self) -> &'static str {
        "askuser-recommended"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["findings"]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        if ctx.tool() != crate::target::ToolKind::AskUser {
            return None;
        }
        let questions = ctx.payload.tool_input()?.get("questions")?.as_array()?;
        let issues = review(questions);
        if issues.is_empty() {
            return None;
        }
        let listed = listing(issues.iter());
        let wellformed: Vec<&Issue> = issues.iter().filter(|i| i.wellformed).collect();
        let mut f = Finding::new(
            format!("askuser:{listed}"),
            format!("{} finding(s): {listed}", issues.len()),
        )
        .var("findings", listed);
        if !wellformed.is_empty() && ctx.flag("CUECARD_STRICT") {
            let wellformed = listing(wellformed.into_iter());
            f.deny = Some(format!(
                "cuecard strict mode (CUECARD_STRICT=1): the AskUserQuestion options are not well-formed: {}. \
                 End the recommended option's label with exactly \" (Recommended)\", at most once per \
                 single-select question and never on a destructive option, then ask again.",
                wellformed
            ));
        }
        Some(f)
    }
}

/// Lists issues grouped by question: `Q1 "Database": a; b. Q2 "Tests": c`.
fn listing<'a>(issues: impl Iterator<Item = &'a Issue>) -> String {
    let mut out = String::new();
    let mut last: Option<&str> = None;
    for i in issues {
        if last == Some(i.question.as_str()) {
            out.push_str("; ");
        } else {
            if last.is_some() {
                out.push_str(". ");
            }
            out.push_str(&i.question);
            out.push_str(": ");
            last = Some(&i.question);
        }
        out.push_str(&i.text);
    }
    out
}

/// One thing found about the questions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issue {
    /// Which question (`Q1 "Database"`).
    pub question: String,
    pub text: String,
    /// A well-formedness finding (denied in strict mode); false for the nudge.
    pub wellformed: bool,
}

/// How a label marks a recommendation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mark {
    None,
    Canonical,
    LowerCase,
    /// `[Recommended]`, `(Rec)`, `( Recommended )`, `Recommended:`, or the
    /// canonical marker somewhere other than the end.
    NonCanonical,
}

/// Reviews AskUserQuestion's `questions[]`.
pub fn review(questions: &[Value]) -> Vec<Issue> {
    let mut out = Vec::new();
    for (qi, q) in questions.iter().take(MAX_QUESTIONS).enumerate() {
        let name = question_name(qi, q);
        let multi = q.get("multiSelect").and_then(Value::as_bool) == Some(true);
        let options: Vec<&str> = q
            .get("options")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .take(MAX_OPTIONS)
                    .filter_map(|o| o.get("label").and_then(Value::as_str))
                    .collect()
            })
            .unwrap_or_default();
        let mut marked = 0;
        let mut real = 0;
        for label in &options {
            let mark = mark_of(label);
            let shown = text::sanitize(label.trim(), 32);
            if !is_other(label) {
                real += 1;
            }
            if mark == Mark::None {
                continue;
            }
            marked += 1;
            match mark {
                Mark::LowerCase => out.push(wf(
                    &name,
                    format!("\"{shown}\" has a lower-case (recommended)"),
                )),
                Mark::NonCanonical => {
                    out.push(wf(&name, format!("\"{shown}\" has a non-canonical marker")))
                }
                _ => {}
            }
            if let Some(word) = destructive_word(label) {
                out.push(wf(
                    &name,
                    format!("\"{shown}\" is recommended but destructive ({word})"),
                ));
            }
        }
        if !multi && marked > 1 {
            out.push(wf(
                &name,
                format!("{marked} options marked recommended in a single-select question"),
            ));
        }
        if !multi && marked == 0 && real >= 2 {
            out.push(Issue {
                question: name.clone(),
                text: format!("{real} options, none marked {CANONICAL}"),
                wellformed: false,
            });
        }
    }
    out
}

fn wf(question: &str, text: String) -> Issue {
    Issue {
        question: question.to_string(),
        text,
        wellformed: true,
    }
}

fn question_name(i: usize, q: &Value) -> String {
    let label = q
        .get("header")
        .and_then(Value::as_str)
        .filter(|h| !h.trim().is_empty())
        .or_else(|| q.get("question").and_then(Value::as_str));
    match label {
        Some(l) => format!("Q{} \"{}\"", i + 1, text::sanitize(l.trim(), 40)),
        None => format!("Q{}", i + 1),
    }
}

/// "Other" (and "Other: ...") is the escape hatch, not a real option.
fn is_other(label: &str) -> bool {
    let l = label.trim().to_ascii_lowercase();
    l == "other" || l.starts_with("other:") || l.starts_with("other (") || l.starts_with("other -")
}

/// How `label` marks a recommendation, if it does.
fn mark_of(label: &str) -> Mark {
    let t = label.trim();
    if let Some(head) = t.strip_suffix(CANONICAL) {
        if head.ends_with(' ') && !has_marker(head) {
            return Mark::Canonical;
        }
        return Mark::NonCanonical;
    }
    if t.contains("(recommended)") {
        return Mark::LowerCase;
    }
    if has_marker(t) {
        return Mark::NonCanonical;
    }
    Mark::None
}

/// Whether `s` carries a recommendation marker in any spelling: a bracketed
/// `rec`/`recommend(ed)`, or a `Recommended:`/`- Recommended` word marker.
///
/// Linear in `s` (a label is payload text): each opener's closer is the
/// next one after it, found once for every opener before it ([`Closers`]),
/// and the trimmed end of a bracket's text depends on its closer alone, so
/// it is measured once per closer; `((((…)` costs one pass, not one scan
/// to the closer per opener.
fn has_marker(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut closers = Closers::default();
    for (i, c) in b.iter().enumerate() {
        let kind = match c {
            b'(' => 0,
            b'[' => 1,
            b'{' => 2,
            b'<' => 3,
            _ => continue,
        };
        let Some((close, end)) = closers.after(&lower, kind, i + 1) else {
            continue;
        };
        let start = inner_start(&lower, i + 1, close);
        let inner = if start < end { &lower[start..end] } else { "" };
        if matches!(
            inner,
            "rec" | "rec'd" | "recommend" | "recommended" | "recommendation"
        ) {
            return true;
        }
    }
    let t = lower.trim();
    t.starts_with("recommended:")
        || t.starts_with("recommended -")
        || t.starts_with("recommended –")
        || t.starts_with("recommended —")
        || t.ends_with("- recommended")
        || t.ends_with("– recommended")
        || t.ends_with("— recommended")
        || t.ends_with(", recommended")
        || t.ends_with("recommended!")
        || t.starts_with("⭐")
}

/// Per bracket kind, the next closer found and where the text before it
/// ends once trimmed, or that there is none left.
#[derive(Default)]
struct Closers {
    found: [Option<Search>; 4],
}

/// Where a search for a closer started, and the closer with the trimmed
/// end of the text before it, if there was one.
type Search = (usize, Option<(usize, usize)>);

impl Closers {
    const CLOSE: [u8; 4] = [b')', b']', b'}', b'>'];

    /// The first closer of `kind` at or after `from`, and the end of the
    /// bracket text before it with trailing blanks, `!`, `.` and `*`
    /// trimmed (as `trim`, `trim_end_matches(['!', '.', '*'])`, `trim`).
    fn after(&mut self, s: &str, kind: usize, from: usize) -> Option<(usize, usize)> {
        let b = s.as_bytes();
        if let Some((searched, hit)) = self.found[kind] {
            match hit {
                // None from an earlier start: none from a later one either.
                None if searched <= from => return None,
                Some((close, end)) if close >= from => return Some((close, end)),
                _ => {}
            }
        }
        let close = b[from..]
            .iter()
            .position(|x| *x == Self::CLOSE[kind])
            .map(|n| from + n);
        let hit = close.map(|c| (c, trimmed_end(s, from, c)));
        self.found[kind] = Some((from, hit));
        hit
    }
}

/// Where `s[from..close]` ends after trailing whitespace, then `!`, `.` and
/// `*`, then whitespace again are trimmed (never before `from`).
fn trimmed_end(s: &str, from: usize, close: usize) -> usize {
    let t = s[from..close]
        .trim_end()
        .trim_end_matches(['!', '.', '*'])
        .trim_end();
    from + t.len()
}

/// Where the text of a bracket opened at `from` starts once leading
/// whitespace, then `*` and `⭐`, then whitespace are trimmed (never past
/// `close`).
fn inner_start(s: &str, from: usize, close: usize) -> usize {
    let rest = &s[from..close];
    let a = rest.len() - rest.trim_start().len();
    let r = rest[a..].trim_start_matches(['*', '⭐']);
    let r = r.trim_start();
    from + rest.len() - r.len()
}

/// The destructive word in a label, if any (whole words only: a "dropdown"
/// is not a drop).
fn destructive_word(label: &str) -> Option<&'static str> {
    const WORDS: &[(&str, &str)] = &[
        ("delete", "delete"),
        ("deletes", "delete"),
        ("deleting", "delete"),
        ("remove", "remove"),
        ("removes", "remove"),
        ("removing", "remove"),
        ("drop", "drop"),
        ("drops", "drop"),
        ("dropping", "drop"),
        ("wipe", "wipe"),
        ("wiping", "wipe"),
        ("reset", "reset"),
        ("resetting", "reset"),
        ("overwrite", "overwrite"),
        ("overwrites", "overwrite"),
        ("overwriting", "overwrite"),
        ("destroy", "destroy"),
        ("destroying", "destroy"),
        ("purge", "purge"),
        ("purging", "purge"),
        ("erase", "erase"),
        ("erasing", "erase"),
        ("truncate", "truncate"),
        ("discard", "discard"),
        ("discarding", "discard"),
        ("nuke", "nuke"),
        ("force-push", "force-push"),
        ("--force", "force"),
        ("rm", "rm"),
    ];
    let lower = label.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .collect();
    for (i, w) in words.iter().enumerate() {
        if let Some((_, name)) = WORDS.iter().find(|(k, _)| k == w) {
            return Some(name);
        }
        if *w == "force" && matches!(words.get(i + 1), Some(&"push" | &"pushing")) {
            return Some("force-push");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn q(labels: &[&str], multi: bool) -> Value {
        json!({
            "question": "Which approach should we take?",
            "header": "Approach",
            "multiSelect": multi,
            "options": labels.iter().map(|l| json!({"label": l, "description": "d"})).collect::<Vec<_>>(),
        })
    }
    fn issues(labels: &[&str], multi: bool) -> Vec<Issue> {
        review(&[q(labels, multi)])
    }

    #[test]
    fn canonical_questions_are_clean() {
        assert!(issues(&["Postgres (Recommended)", "SQLite", "Other"], false).is_empty());
        assert!(
            issues(
                &["Unit tests (Recommended)", "E2E (Recommended)", "Lint"],
                true
            )
            .is_empty()
        );
        assert!(
            issues(&["Yes"], false).is_empty(),
            "one real option: no nudge"
        );
        assert!(
            issues(
                &["Keep the dropdown (Recommended)", "Use radio buttons"],
                false
            )
            .is_empty()
        );
        assert!(
            issues(&["Use the recommended defaults", "Customise"], false).len() == 1,
            "prose is not a marker: nudge only"
        );
    }

    #[test]
    fn markers_by_form() {
        assert_eq!(mark_of("Postgres (Recommended)"), Mark::Canonical);
        assert_eq!(mark_of("Postgres (recommended)"), Mark::LowerCase);
        for l in [
            "Postgres [Recommended]",
            "Postgres (Rec)",
            "Postgres ( Recommended )",
            "(Recommended) Postgres",
            "Postgres (RECOMMENDED)",
            "Recommended: Postgres",
            "Postgres - recommended",
            "Postgres(Recommended)",
        ] {
            assert_eq!(mark_of(l), Mark::NonCanonical, "{l}");
        }
        assert_eq!(mark_of("Follow the recommended path"), Mark::None);
    }

    #[test]
    fn findings_are_wellformedness_or_nudge() {
        let i = issues(&["A (recommended)", "B"], false);
        assert_eq!(i.len(), 1);
        assert!(i[0].wellformed && i[0].text.contains("lower-case"));

        let i = issues(&["A (Recommended)", "B (Recommended)"], false);
        assert!(
            i.iter()
                .any(|x| x.wellformed && x.text.contains("2 options marked"))
        );

        let i = issues(
            &["Reset to origin/main (Recommended)", "Stash changes"],
            false,
        );
        assert!(
            i.iter()
                .any(|x| x.wellformed && x.text.contains("destructive (reset)"))
        );

        let i = issues(
            &["Force push the branch (Recommended)", "Open a new PR"],
            false,
        );
        assert!(i.iter().any(|x| x.text.contains("force-push")));

        let i = issues(&["Postgres", "SQLite", "Other"], false);
        assert_eq!(i.len(), 1);
        assert!(
            !i[0].wellformed,
            "the nudge is not a well-formedness finding"
        );

        assert!(
            issues(&["Postgres", "Other"], false).is_empty(),
            "Other is not a real option"
        );
        assert!(
            issues(&["Postgres", "SQLite"], true).is_empty(),
            "multi-select: no nudge"
        );
    }

    #[test]
    fn labels_from_the_payload_are_sanitised() {
        let i = issues(&["A\u{1b}[31m`x` (recommended)\nB", "C"], false);
        assert!(!i[0].text.contains('\u{1b}') && !i[0].text.contains('\n'));
    }
}

#[cfg(test)]
mod linear {
    use proptest::prelude::*;

    /// The scan the linear one replaced: each opener looks for its closer
    /// in the rest of the label.
    fn per_opener(s: &str) -> bool {
        let lower = s.to_ascii_lowercase();
        let b = lower.as_bytes();
        for (i, c) in b.iter().enumerate() {
            let close = match c {
                b'(' => b')',
                b'[' => b']',
                b'{' => b'}',
                b'<' => b'>',
                _ => continue,
            };
            let Some(len) = b[i + 1..].iter().position(|x| *x == close) else {
                continue;
            };
            let inner = lower[i + 1..i + 1 + len]
                .trim()
                .trim_end_matches(['!', '.', '*'])
                .trim_start_matches(['*', '⭐'])
                .trim();
            if matches!(
                inner,
                "rec" | "rec'd" | "recommend" | "recommended" | "recommendation"
            ) {
                return true;
            }
        }
        false
    }

    proptest! {
        #[test]
        fn judges_as_a_scan_per_opener(
            parts in proptest::collection::vec(
                proptest::sample::select(vec![
                    "(", ")", "[", "]", "{", "}", "<", ">", " ", "\u{a0}", "*", "⭐", "!", ".",
                    "rec", "Recommended", "recommend", "rec'd", "x", "é",
                ]),
                0..24,
            )
        ) {
            let s = parts.concat();
            let t = s.to_ascii_lowercase();
            let t = t.trim();
            let words = t.starts_with("recommended") || t.ends_with("recommended")
                || t.ends_with("recommended!") || t.starts_with("⭐");
            if !words {
                prop_assert_eq!(super::has_marker(&s), per_opener(&s), "{}", s);
            }
        }
    }
}
