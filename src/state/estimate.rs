//! The context-size estimate for calls without a usable transcript (docs/design.md
//! §7): a base for the system prompt and tools, a per-call overhead, and the
//! bytes of tool inputs, tool outputs and prompts, converted to tokens with a
//! ratio that starts at 4 bytes per token and is calibrated with the real
//! tokenizer (tiktoken, o200k_base) only on calls whose byte-based estimate
//! is already near a threshold: loading it costs hundreds of milliseconds.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Tokens assumed for the system prompt, tool definitions and first prompt.
pub const BASE_TOKENS: u64 = 15_000;
/// Tokens per tool call for its framing (call, ids, result wrapper).
pub const PER_CALL_TOKENS: u64 = 60;
/// The default ratio, in tokens per 1,000 bytes.
pub const DEFAULT_PER_KB: u64 = 250;
/// How close (percentage points below a threshold) counts as near.
pub const NEAR_POINTS: u64 = 5;
/// Calls between two calibrations, at least.
pub const CALIBRATE_EVERY: u64 = 25;
/// The most text the tokenizer is run on in one calibration.
pub const MAX_SAMPLE_BYTES: usize = 64 * 1024;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Estimate {
    /// Tool calls and prompts seen in the current cycle.
    #[serde(default)]
    pub calls: u64,
    /// Bytes of text seen in the current cycle.
    #[serde(default)]
    pub bytes: u64,
    /// Tokens per 1,000 bytes (0 means the default).
    #[serde(default)]
    pub per_kb: u64,
    /// The call count at the last calibration.
    #[serde(default)]
    pub calibrated_at: Option<u64>,
}

impl Estimate {
    pub fn ratio(&self) -> u64 {
        if self.per_kb == 0 {
            DEFAULT_PER_KB
        } else {
            self.per_kb
        }
    }

    pub fn tokens(&self) -> u64 {
        BASE_TOKENS + self.calls * PER_CALL_TOKENS + self.bytes * self.ratio() / 1000
    }

    /// Adds one call's text.
    pub fn add(&mut self, bytes: u64) {
        self.calls += 1;
        self.bytes += bytes;
    }

    /// After a compaction the context holds roughly the base and a summary.
    pub fn reset(&mut self) {
        self.calls = 0;
        self.bytes = 0;
    }

    /// Whether a calibration is allowed now.
    pub fn may_calibrate(&self) -> bool {
        self.calibrated_at
            .is_none_or(|at| self.calls >= at + CALIBRATE_EVERY)
    }

    /// Calibrates the ratio with `sample` counted by the tokenizer.
    pub fn calibrate(&mut self, sample: &str) {
        if sample.len() < 256 {
            return;
        }
        let tokens = crate::tokens::count(sample) as u64;
        let per_kb = (tokens * 1000 / sample.len() as u64).clamp(100, 1000);
        self.per_kb = per_kb;
        self.calibrated_at = Some(self.calls);
    }
}

/// The bytes of text in a JSON value (strings and keys), bounded in depth
/// by serde_json's own limit.
pub fn text_bytes(v: &Value) -> u64 {
    match v {
        Value::String(s) => s.len() as u64,
        Value::Array(a) => a.iter().map(text_bytes).sum(),
        Value::Object(o) => o.iter().map(|(k, v)| k.len() as u64 + text_bytes(v)).sum(),
        Value::Number(_) => 4,
        _ => 1,
    }
}

/// Up to `max` bytes of the strings in `v`, joined, for calibration.
pub fn sample(v: &Value, max: usize, out: &mut String) {
    if out.len() >= max {
        return;
    }
    match v {
        Value::String(s) => {
            let room = max - out.len();
            out.push_str(crate::text::prefix16(s, room));
            out.push('\n');
        }
        Value::Array(a) => a.iter().for_each(|x| sample(x, max, out)),
        Value::Object(o) => o.values().for_each(|x| sample(x, max, out)),
        _ => {}
    }
}
