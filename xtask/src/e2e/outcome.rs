//! What one run left behind, and the questions the scenarios ask of it:
//! which model requests carry which card's text, hook errors anywhere.

use super::mock::Captured;
use serde_json::Value;

/// One model request, flattened to its text.
pub struct Req {
    pub seq: usize,
    /// The reply's label (`turn2`, `default`, `side`, `rule1`, ...).
    pub reply: String,
    /// Every string of the body, whitespace-normalised, joined.
    pub text: String,
}

pub struct Outcome {
    pub requests: Vec<Req>,
    /// Exit codes of each invocation (`None`: killed at the timeout).
    pub exits: Vec<Option<i32>>,
    pub stdout: String,
    pub stderr: String,
    /// The harness's transcripts, concatenated.
    pub transcripts: String,
    /// The run's project directory (empty until the runner sets it), for
    /// checks that look at what is on disk after the run.
    pub project: std::path::PathBuf,
}

/// Collapses runs of whitespace, so that a card's text is found however a
/// harness re-wrapped or indented it.
pub fn normalise(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut space = false;
    for c in s.chars() {
        if c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out
}

fn strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            out.push_str(s);
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

impl Outcome {
    pub fn new(
        captured: Vec<Captured>,
        exits: Vec<Option<i32>>,
        stdout: String,
        stderr: String,
        transcripts: String,
    ) -> Outcome {
        let requests = captured
            .iter()
            .filter(|c| c.is_model_request())
            .map(|c| {
                let mut s = String::new();
                strings(&c.body, &mut s);
                Req {
                    seq: c.seq,
                    reply: c.reply.clone(),
                    text: normalise(&s),
                }
            })
            .collect();
        Outcome {
            requests,
            exits,
            stdout,
            stderr,
            transcripts,
            project: std::path::PathBuf::new(),
        }
    }

    /// The model requests that contain `needle` (normalised).
    pub fn containing(&self, needle: &str) -> Vec<&Req> {
        let n = normalise(needle);
        self.requests
            .iter()
            .filter(|r| r.text.contains(&n))
            .collect()
    }

    /// The first model request containing `needle`.
    pub fn first_with(&self, needle: &str) -> Option<&Req> {
        self.containing(needle).into_iter().next()
    }

    /// The most times `needle` occurs within one request (history carries
    /// every injection made so far, so this counts injections).
    pub fn max_occurrences(&self, needle: &str) -> usize {
        let n = normalise(needle);
        self.requests
            .iter()
            .map(|r| r.text.matches(&n).count())
            .max()
            .unwrap_or(0)
    }

    /// The request answered with the reply whose label is `label`.
    pub fn answered_with(&self, label: &str) -> Option<&Req> {
        self.requests.iter().find(|r| r.reply == label)
    }

    /// Hook errors anywhere: the harness's output, its transcripts, or the
    /// model requests (a harness may echo a hook failure to the model).
    pub fn hook_errors(&self) -> Vec<String> {
        const PATTERNS: &[&str] = &[
            "hook error",
            "hook failed",
            "hooks failed",
            "hook json output validation failed",
            "validation failed",
            "non-blocking status code",
            "blocking error",
            "stop failed",
            "hook_error",
            "hook execution failed",
            "failed to run hook",
            "invalid hook output",
            "hook returned",
            "hook timed out",
            // Cline's log (measured on 3.0.65).
            "invalid json control output",
            "hook command timed out",
        ];
        let mut found = Vec::new();
        let sources: Vec<(&str, String)> = vec![
            ("harness stdout", self.stdout.to_lowercase()),
            ("harness stderr", self.stderr.to_lowercase()),
            ("transcript", self.transcripts.to_lowercase()),
            (
                "model request",
                self.requests
                    .iter()
                    .map(|r| r.text.to_lowercase())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
        ];
        // A call cuecard denied on purpose comes back to the model as a hook
        // error or a blocking error carrying the reason (Claude Code,
        // Gemini CLI): such a report, with cuecard's policy mark beside it,
        // is the deny working, not a failure. A failed hook never carries
        // the mark beside those words (validation failures are never excused).
        const DENY_SHAPED: &[&str] = &[
            "hook error",
            "blocking error",
            "hook returned",
            "hook_error",
        ];
        let mark = super::scenarios::POLICY_MARK.to_lowercase();
        for (place, text) in &sources {
            for p in PATTERNS {
                for (i, _) in text.match_indices(p) {
                    let lo = floor(text, i.saturating_sub(80));
                    let hi = floor(text, (i + p.len() + 80).min(text.len()));
                    let wide_lo = floor(text, i.saturating_sub(400));
                    let wide_hi = floor(text, (i + p.len() + 400).min(text.len()));
                    if DENY_SHAPED.contains(p) && text[wide_lo..wide_hi].contains(&mark) {
                        continue;
                    }
                    found.push(format!("{place}: …{}…", text[lo..hi].replace('\n', " ")));
                    break;
                }
            }
        }
        // Claude Code records each hook run's errors in its transcript.
        let t = self.transcripts.replace(' ', "");
        if let Some(i) = t
            .find("\"hookErrors\":[")
            .filter(|&i| t[i + 14..].chars().next().is_some_and(|c| c != ']'))
        {
            let hi = floor(&t, (i + 200).min(t.len()));
            found.push(format!("transcript: …{}…", &t[i..hi]));
        }
        found
    }
}

fn floor(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalising_finds_rewrapped_text() {
        assert_eq!(normalise("  a\n  b\t\tc "), "a b c");
        let cap = Captured {
            seq: 1,
            api: "anthropic".into(),
            path: "/v1/messages".into(),
            body: serde_json::json!({"messages": [{"content": "x: the card\n   text here; the card text here"}]}),
            reply: "turn0".into(),
            tool: None,
        };
        let o = Outcome::new(
            vec![cap],
            vec![Some(0)],
            String::new(),
            String::new(),
            String::new(),
        );
        assert_eq!(o.first_with("the card text here").map(|r| r.seq), Some(1));
        assert_eq!(o.max_occurrences("the card text"), 2);
        assert!(o.hook_errors().is_empty());
    }

    #[test]
    fn a_deny_is_told_apart_from_a_hook_failure() {
        let o = |t: &str| {
            Outcome::new(
                Vec::new(),
                vec![Some(0)],
                String::new(),
                String::new(),
                t.to_string(),
            )
        };
        let deny = "PreToolUse:Bash hook error: [cuecard] cuecard policy: destructive.outside-project = deny";
        assert!(
            o(deny).hook_errors().is_empty(),
            "{:?}",
            o(deny).hook_errors()
        );
        assert_eq!(
            o("PreToolUse:Bash hook error: exit 1").hook_errors().len(),
            1
        );
        let invalid = "hook JSON output validation failed: cuecard policy";
        assert!(!o(invalid).hook_errors().is_empty());
    }

    #[test]
    fn clines_log_line_for_a_hook_that_printed_no_json_is_a_hook_error() {
        let log = r#"{"level":40,"msg":"hook command returned invalid JSON control output: bash /p/.clinerules/hooks/PostToolUse (JSON Parse error)"}"#;
        let o = Outcome::new(
            Vec::new(),
            vec![Some(0)],
            String::new(),
            String::new(),
            log.to_string(),
        );
        assert_eq!(o.hook_errors().len(), 1, "{:?}", o.hook_errors());
    }
}
