//! `compaction`: warns before the harness compacts the conversation, from the
//! real context size (docs/design.md §7).
//!
//! - Size: the usage the payload carries (`context_usage`, from cuecard's
//!   OpenCode and Kilo Code plugin and pi extension), else the file the
//!   contract names for it (`usage_file`: Factory Droid's session settings),
//!   else the transcript's latest main-chain usage (Claude Code, Codex,
//!   Gemini CLI, Qwen Code, CodeBuddy Code, Copilot CLI's events log and
//!   harnesses that copy one of their formats: see [`transcript`]), or, with
//!   none, an estimate
//!   from tool calls and output sizes (see [`crate::state::estimate`]), said
//!   to be one. The session records which (`status` shows it).
//! - Window ([`window`], the one lookup): `CUECARD_CONTEXT_WINDOW` (e.g.
//!   `200000`, `200k`, `1m`), else the window the harness states (a Codex
//!   rollout's `model_context_window`, a Qwen Code record's
//!   `contextWindowSize`, Copilot's `maxPromptTokens`, a payload's `limit`,
//!   CodeBuddy Code's `models.json` and Factory Droid's settings, read once
//!   per session and model: see [`transcript::stated`]), else
//!   1,000,000 for a model whose id says 1M context (`[1m]`, `-1m`), else the
//!   table of known models ([`KNOWN_WINDOWS`]), else 200,000. The model is
//!   the one the payload names, else the session's: the last a payload
//!   named, or the one a model switch moved to (Claude Code's
//!   PostModelSwitch `to_model`, which also judges the size again against
//!   the new window). A size from a
//!   Gemini CLI chat takes the thresholds of half of it, where Gemini CLI
//!   compresses by default. The warning says which (and so does `cuecard
//!   explain`).
//! - Thresholds: `CUECARD_COMPACT_WARN` (`65,80` by default), percentages of
//!   the window. Each warns at most once per compaction cycle; both crossed at
//!   once give one warning (the higher).
//! - A cycle ends at a compaction boundary in the transcript, a sharp drop
//!   (below the first threshold after having been above it), or a
//!   SessionStart with `source: "compact"` (see `state::observe`).
//!
//! - The session's first warning, and the writes of the hand-off note and
//!   plan it sees, are recorded for the recovery (see `handoff`).
//!
//! Without session state the guard stays silent: it could not keep its
//! promise of at most two warnings per cycle.

use super::{Finding, Guard};
use crate::context::Ctx;
use crate::diag::{self, Kind};
use crate::state::estimate;
use crate::text::thousands as group;
use crate::transcript::{self, Reading};

pub const DEFAULT_WINDOW: u64 = 200_000;
pub const LARGE_WINDOW: u64 = 1_000_000;
pub const DEFAULT_THRESHOLDS: (u64, u64) = (65, 80);

pub struct Compaction;

impl Guard for Compaction {
    fn name(&self) -> &'static str {
        "compaction"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PostToolUse", "UserPromptSubmit", "PostModelSwitch"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["tokens", "window", "percent", "basis"]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        let mut s = ctx.session_mut()?;
        // The hand-off note and plan this call writes, for the recovery.
        super::handoff::record_writes(ctx, &mut s);
        let (t1, t2) = thresholds();
        let reading = measure(ctx.payload, |p| ctx.resolve(p));
        let mut compacts_at = None;
        let (tokens, stated_window, record_model, measured) = match reading {
            Some((Ok(Reading::Boundary { id }), _)) => {
                if s.compaction.last_boundary.as_deref() != Some(id.as_str()) {
                    s.compaction.last_boundary = Some(id);
                    s.new_compaction_cycle("compact_boundary");
                    s.estimate.reset();
                }
                return None;
            }
            Some((Ok(Reading::Usage(u)), from)) => {
                // Already judged (one message, several lines), unless the
                // model, and with it the window, changed since.
                if s.compaction.last_record.as_deref() == Some(u.record.as_str())
                    && ctx.event.event != crate::event::Event::PostModelSwitch
                {
                    return None;
                }
                s.compaction.last_record = Some(u.record);
                compacts_at = u.compacts_at;
                (u.tokens, u.window, u.model, Some(from))
            }
            _ => (s.estimate.tokens(), None, None, None),
        };
        s.compaction.source = Some(measured.map_or("estimate", Measured::source).to_string());
        // Harnesses whose payload names no model (Gemini CLI, Qwen Code):
        // the one their usage record names, for `status`.
        if s.model.is_none()
            && let Some(m) = record_model.as_deref().filter(|m| !m.is_empty())
        {
            s.model = Some(crate::text::sanitize(m, 100));
        }
        // The window the harness's configuration states: read once per
        // session and model, then kept in the session's state.
        let key = s
            .model
            .clone()
            .or(ctx.payload.model().map(str::to_string))
            .or(record_model.clone());
        if let Some(key) = key.as_deref() {
            refresh_stated(ctx, &mut s, key);
        }
        let config = s
            .compaction
            .stated
            .as_ref()
            .filter(|st| {
                key.as_deref().map(|k| crate::text::sanitize(k, 100)) == Some(st.model.clone())
            })
            .and_then(Stated::config);
        let (window, window_from) = window(
            s.model.as_deref(),
            ctx.payload.model(),
            record_model.as_deref(),
            stated_window.map(Stated::record).or(config),
            compacts_at,
        );
        let mut tokens = tokens;
        if measured.is_none() {
            let next = if s.compaction.warned == 0 { t1 } else { t2 };
            let near = percent(tokens, window) + estimate::NEAR_POINTS >= next;
            if near && s.compaction.warned < 2 && s.estimate.may_calibrate() {
                let mut sample = String::new();
                for key in ["tool_response", "tool_input", "prompt"] {
                    if let Some(v) = ctx.payload.raw.get(key) {
                        estimate::sample(v, estimate::MAX_SAMPLE_BYTES, &mut sample);
                    }
                }
                s.estimate.calibrate(&sample);
                tokens = s.estimate.tokens();
            }
        }
        let pct = percent(tokens, window);
        if s.compaction.above_first && pct < t1 {
            s.new_compaction_cycle("sharp drop in measured size");
            if measured.is_some() {
                s.estimate.reset();
            }
        }
        if pct >= t1 {
            s.compaction.above_first = true;
        }
        s.compaction.last_tokens = Some(tokens);
        let level = if pct >= t2 {
            2
        } else if pct >= t1 {
            1
        } else {
            0
        };
        if level == 0 || level <= s.compaction.warned {
            return None;
        }
        if let Err(refused) = s.compaction.advance(level) {
            diag::record(Kind::StateTransition, refused.to_string());
            return None;
        }
        s.handoff.warned(crate::state::handoff::now_ms());
        let threshold = if level == 2 { t2 } else { t1 };
        let basis = format!(
            "{}; window: {window_from}",
            match measured {
                Some(m) => m.basis(),
                None => "an estimate from tool calls and output sizes: no usable transcript",
            }
        );
        let about = if measured.is_some() { "" } else { "about " };
        let mut f = Finding::new(
            format!("compaction:{}:{level}", s.compaction.number),
            format!(
                "{pct}% of a {}-token window reaches the {threshold}% threshold ({basis})",
                group(window)
            ),
        )
        .var("tokens", group(tokens))
        .var("window", group(window))
        .var("percent", pct.to_string())
        .var("basis", basis.as_str());
        f.user_note = Some(format!(
            "cuecard: context {about}{pct}% full ({} of {} tokens); consider noting what to keep before it is compacted.",
            group(tokens),
            group(window)
        ));
        f.warning = true;
        Some(f)
    }
}

/// Reads the window the harness's model configuration states for `model`
/// (`model_config`, set by its contract) unless the session already holds
/// the answer for this model: one read per session and model, not per call.
fn refresh_stated(ctx: &Ctx, s: &mut crate::state::Session, model: &str) {
    let Some((format, files)) = ctx.payload.model_config() else {
        return;
    };
    let Some(format) = transcript::stated::Format::parse(format) else {
        return;
    };
    let key = crate::text::sanitize(model, 100);
    if s.compaction
        .stated
        .as_ref()
        .is_some_and(|st| st.model == key)
    {
        return;
    }
    let files: Vec<_> = files.iter().map(|f| ctx.resolve(f)).collect();
    s.compaction.stated = Some(transcript::stated::lookup(format, &files, model));
}

/// [`refresh_stated`] for `explain`, which has no session.
fn stated_now(
    payload: &crate::payload::Payload,
    model: Option<&str>,
) -> Option<transcript::stated::StatedWindow> {
    let (format, files) = payload.model_config()?;
    let format = transcript::stated::Format::parse(format)?;
    let files: Vec<_> = files.iter().map(std::path::PathBuf::from).collect();
    Some(transcript::stated::lookup(format, &files, model?))
}

fn percent(tokens: u64, window: u64) -> u64 {
    (u128::from(tokens) * 100 / u128::from(window.max(1))) as u64
}

/// The two thresholds, in percent.
pub fn thresholds() -> (u64, u64) {
    match std::env::var("CUECARD_COMPACT_WARN") {
        Ok(v) if !v.trim().is_empty() => parse_thresholds(&v).unwrap_or_else(|| {
            diag::record(
                Kind::BadConfig,
                format!(
                    "CUECARD_COMPACT_WARN={:?} is not `low,high` percentages; using 65,80",
                    crate::text::sanitize(&v, 40)
                ),
            );
            DEFAULT_THRESHOLDS
        }),
        _ => DEFAULT_THRESHOLDS,
    }
}

/// `60,85` (or one value: a single threshold).
pub fn parse_thresholds(v: &str) -> Option<(u64, u64)> {
    let nums: Vec<u64> = v
        .split(',')
        .map(|p| p.trim().trim_end_matches('%').parse::<u64>().ok())
        .collect::<Option<_>>()?;
    let (a, b) = match nums[..] {
        [a] => (a, a),
        [a, b] => (a, b),
        _ => return None,
    };
    ((1..=100).contains(&a) && (a..=100).contains(&b)).then_some((a, b))
}

/// The harness's own count first (the payload's `context_usage`), then its
/// transcript; `None` when the payload offers neither.
fn measure(
    payload: &crate::payload::Payload,
    resolve: impl Fn(&str) -> std::path::PathBuf,
) -> Option<(Result<Reading, transcript::Problem>, Measured)> {
    if let Some(u) = transcript::from_payload(&payload.raw) {
        return Some((Ok(Reading::Usage(u)), Measured::Payload));
    }
    if let Some(p) = payload.usage_file() {
        let read = transcript::agents::measure_factory(&resolve(p));
        return Some((read, Measured::Transcript));
    }
    payload
        .transcript_path()
        .map(|p| (transcript::measure(&resolve(p)), Measured::Transcript))
}

/// For `cuecard explain` (which has no session state): what this payload
/// measures, and the window and where it comes from.
pub fn explain(payload: &crate::payload::Payload) -> String {
    let cwd = crate::target::cwd_of(payload);
    let resolve = |p: &str| {
        let p = std::path::Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.join(p)
        }
    };
    let mut compacts_at = None;
    let (size, stated, model) = match measure(payload, resolve) {
        Some((Ok(Reading::Usage(u)), m)) => {
            compacts_at = u.compacts_at;
            (
                format!("{} tokens, {}", group(u.tokens), m.basis()),
                u.window,
                u.model,
            )
        }
        Some((Ok(Reading::Boundary { .. }), _)) => (
            "a compaction boundary is the newest record".into(),
            None,
            None,
        ),
        Some((Ok(Reading::Nothing), _)) => (
            "no usage record in the transcript's tail: the session's estimate".into(),
            None,
            None,
        ),
        Some((Err(e), _)) => (
            format!("{}: the session's estimate", e.describe()),
            None,
            None,
        ),
        None => (
            "no usage in the payload and no transcript: the session's estimate".into(),
            None,
            None,
        ),
    };
    let config = stated_now(payload, payload.model().or(model.as_deref()));
    let (window, from) = window(
        None,
        payload.model(),
        model.as_deref(),
        stated
            .map(Stated::record)
            .or(config.as_ref().and_then(Stated::config)),
        compacts_at,
    );
    format!(
        "compaction: size {size}; window {} tokens ({from})",
        group(window)
    )
}

/// A window the harness states: in its usage record (`from` empty) or its
/// model configuration (`from` names the key and file; see
/// [`transcript::stated`]).
#[derive(Debug, Clone, Copy)]
pub struct Stated<'a> {
    pub tokens: u64,
    pub from: &'a str,
    /// Only an upper bound (a compaction limit): the model's own window,
    /// when smaller, wins.
    pub at_most: bool,
}

impl Stated<'_> {
    /// A window a usage record states.
    pub fn record(tokens: u64) -> Stated<'static> {
        Stated {
            tokens,
            from: "",
            at_most: false,
        }
    }
    /// The one a configuration stated, as the session recorded it.
    pub fn config(s: &transcript::stated::StatedWindow) -> Option<Stated<'_>> {
        Some(Stated {
            tokens: s.tokens?,
            from: &s.from,
            at_most: s.at_most,
        })
    }
}

/// The window the thresholds are taken of, and where it came from: the one
/// lookup the guard and `cuecard explain` share. The models, newest word
/// first: the session's recorded model (a payload's `model`, or a
/// model-switch event, kept in session state), the payload's own, the one
/// the usage record names; `stated` is the window the harness itself states
/// (a Codex rollout, a Qwen Code record, the `limit` a plugin passes from
/// the model's metadata, CodeBuddy Code's `models.json`, Factory Droid's
/// settings); `compacts_at`, where the harness that wrote the
/// usage compacts. Order: `CUECARD_CONTEXT_WINDOW`, the stated window, a
/// model id that says 1M, the table of known models, the default.
pub fn window(
    session_model: Option<&str>,
    payload_model: Option<&str>,
    record_model: Option<&str>,
    stated: Option<Stated<'_>>,
    compacts_at: Option<(u64, &'static str)>,
) -> (u64, String) {
    compaction_point(
        window_and_source(&[session_model, payload_model, record_model], stated),
        compacts_at,
    )
}

/// The window the thresholds are taken of: the model's, or, for a harness
/// that compacts well before it is full (Gemini CLI at 50%), that share of
/// it, so the warnings come before the compaction. A configured
/// `CUECARD_CONTEXT_WINDOW` is taken as the user's compaction point.
fn compaction_point(
    (window, from): (u64, String),
    compacts_at: Option<(u64, &'static str)>,
) -> (u64, String) {
    match compacts_at {
        Some((pct, who)) if from != "CUECARD_CONTEXT_WINDOW" && (1..100).contains(&pct) => (
            window * pct / 100,
            format!(
                "{who} compacts at {pct}% of the {}-token window ({from})",
                group(window)
            ),
        ),
        _ => (window, from),
    }
}

/// Where a measured size came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measured {
    /// The payload's own `context_usage` (cuecard's OpenCode plugin).
    Payload,
    /// The harness's transcript.
    Transcript,
}

impl Measured {
    fn basis(self) -> &'static str {
        match self {
            Measured::Payload => "measured: the usage the harness reported",
            Measured::Transcript => "measured from the transcript",
        }
    }
    /// The session's record of it (`cuecard status`).
    fn source(self) -> &'static str {
        match self {
            Measured::Payload => "measured (harness usage)",
            Measured::Transcript => "measured (transcript)",
        }
    }
}

/// Context windows of well-known models, by id prefix (after any
/// `provider/` part), longest match first, from the vendors' model pages.
/// A model not here, and not saying 1M in its id, gets the default.
pub const KNOWN_WINDOWS: &[(&str, u64)] = &[
    ("claude-", 200_000),
    ("gpt-5", 272_000),
    ("gpt-4.1", 1_047_576),
    ("gpt-4o", 128_000),
    ("o3", 200_000),
    ("o4-mini", 200_000),
    ("gemini-1.5-pro", 2_097_152),
    ("gemini-", 1_048_576),
    ("qwen3-coder-plus", 1_000_000),
    ("qwen3-coder-flash", 1_000_000),
    ("qwen3-coder", 262_144),
    ("deepseek-", 128_000),
    ("glm-4.6", 200_000),
    ("glm-4.5", 128_000),
    ("kimi-k2", 131_072),
    ("grok-code-fast", 256_000),
];

/// The window a known model has, and the table entry that matched.
pub fn known_window(model: &str) -> Option<(u64, &'static str)> {
    let m = model.to_ascii_lowercase();
    let id = m.rsplit('/').next().unwrap_or(&m);
    // Factory Droid names a custom model `custom:<model>[-<n>]`.
    let id = id.strip_prefix("custom:").unwrap_or(id);
    KNOWN_WINDOWS
        .iter()
        .filter(|(prefix, _)| id.starts_with(prefix))
        .max_by_key(|(prefix, _)| prefix.len())
        .map(|(prefix, w)| (*w, *prefix))
}

/// The context window in tokens, and where it came from (for the warning
/// and `cuecard explain`).
fn window_and_source(models: &[Option<&str>], stated: Option<Stated<'_>>) -> (u64, String) {
    if let Ok(v) = std::env::var("CUECARD_CONTEXT_WINDOW")
        && !v.trim().is_empty()
    {
        match parse_window(&v) {
            Some(w) => return (w, "CUECARD_CONTEXT_WINDOW".into()),
            None => diag::record(
                Kind::BadConfig,
                format!(
                    "CUECARD_CONTEXT_WINDOW={:?} is not a token count; ignored",
                    crate::text::sanitize(&v, 40)
                ),
            ),
        }
    }
    if let Some(st) = stated {
        let said = if st.from.is_empty() {
            "stated by the harness".to_string()
        } else {
            format!("stated by the harness: {}", st.from)
        };
        if st.at_most
            && let Some((w, from)) = model_window(models)
            && w < st.tokens
        {
            return (
                w,
                format!(
                    "{from}, below the {}",
                    said.replacen("stated by the harness: ", "", 1)
                ),
            );
        }
        return (st.tokens, said);
    }
    model_window(models).unwrap_or((DEFAULT_WINDOW, "the default".into()))
}

/// The window the model ids say: 1M in the id, else the table.
fn model_window(models: &[Option<&str>]) -> Option<(u64, String)> {
    if let Some(m) = models.iter().flatten().find(|m| says_1m(m)) {
        return Some((
            LARGE_WINDOW,
            format!("the model id {} says 1M", crate::text::sanitize(m, 60)),
        ));
    }
    models
        .iter()
        .flatten()
        .find_map(|m| known_window(m).map(|(w, _)| (w, m)))
        .map(|(w, m)| (w, format!("known model {}", crate::text::sanitize(m, 60))))
}

/// `200000`, `200_000`, `200k`, `1m` (at least 1,000 tokens).
pub fn parse_window(v: &str) -> Option<u64> {
    let v = v.trim().to_ascii_lowercase().replace(['_', ','], "");
    let (digits, mul) = if let Some(d) = v.strip_suffix('k') {
        (d, 1_000)
    } else if let Some(d) = v.strip_suffix('m') {
        (d, 1_000_000)
    } else {
        (v.as_str(), 1)
    };
    let n: u64 = digits.trim().parse().ok()?;
    n.checked_mul(mul).filter(|w| *w >= 1_000)
}

/// Whether a model id says it has a 1M-token context (`claude-sonnet-4[1m]`,
/// `…-1m`).
pub fn says_1m(model: &str) -> bool {
    let m = model.to_ascii_lowercase();
    m.contains("[1m]")
        || m.split(|c: char| !c.is_ascii_alphanumeric())
            .any(|t| t == "1m" || t == "1000k")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(models: &[Option<&str>], stated: Option<u64>) -> u64 {
        window_and_source(models, stated.map(Stated::record)).0
    }

    #[test]
    fn config_parsing() {
        assert_eq!(parse_thresholds("60,85"), Some((60, 85)));
        assert_eq!(parse_thresholds(" 70% "), Some((70, 70)));
        assert_eq!(parse_thresholds("85,60"), None);
        assert_eq!(parse_thresholds("0,50"), None);
        assert_eq!(parse_thresholds("a,b"), None);
        assert_eq!(parse_window("200k"), Some(200_000));
        assert_eq!(parse_window("1M"), Some(1_000_000));
        assert_eq!(parse_window("150_000"), Some(150_000));
        assert_eq!(parse_window("12"), None);
        assert!(says_1m("claude-sonnet-4-5[1m]"));
        assert!(says_1m("claude-opus-4-6-1m"));
        assert!(!says_1m("claude-sonnet-4-5-20250929"));
        assert_eq!(window(&[Some("x[1m]")], None), LARGE_WINDOW);
        assert_eq!(window(&[None], Some(258_400)), 258_400);
        assert_eq!(window(&[Some("gpt-5")], None), 272_000);
        assert_eq!(window(&[Some("mock-model")], None), DEFAULT_WINDOW);
        assert_eq!(
            known_window("google/gemini-2.5-pro"),
            Some((1_048_576, "gemini-"))
        );
        assert_eq!(
            known_window("qwen3-coder-plus-2025-07-22"),
            Some((1_000_000, "qwen3-coder-plus"))
        );
        assert_eq!(
            known_window("anthropic/claude-sonnet-4-5").unwrap().0,
            200_000
        );
        assert_eq!(
            window_and_source(&[None, Some("gemini-2.5-flash")], None).1,
            "known model gemini-2.5-flash"
        );
        assert_eq!(group(1_234_567), "1,234,567");
        assert_eq!(group(999), "999");
    }
}
