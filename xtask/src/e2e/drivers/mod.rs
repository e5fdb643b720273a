//! One driver per real harness CLI the e2e runs, keyed by harness id:
//! how it is configured inside the run's HOME and project and started
//! non-interactively against the mock, how a run resumes its session, where
//! its transcripts are, and how it loads a plugin directory. The pins are in
//! each driver's file; `harness::HARNESSES` lists them.

mod claude_code;
mod cline;
mod codebuddy;
mod codex;
mod copilot;
mod factory;
mod gemini;
mod kilo;
mod opencode;
mod pi;
mod qwen;

use super::harness::{Env, Harness, Invocation, RunDirs};
use std::path::{Path, PathBuf};

pub use claude_code::HARNESS as CLAUDE_CODE;
pub use cline::HARNESS as CLINE;
pub use codebuddy::HARNESS as CODEBUDDY;
pub use codex::HARNESS as CODEX;
pub use copilot::HARNESS as COPILOT;
pub use factory::HARNESS as FACTORY;
pub use gemini::HARNESS as GEMINI;
pub use kilo::HARNESS as KILO;
pub use opencode::HARNESS as OPENCODE;
pub use pi::HARNESS as PI;
pub use qwen::HARNESS as QWEN;

/// What the e2e needs to drive one harness CLI.
pub trait Driver: Sync {
    /// The harness id, as `cuecard install --harness` takes it.
    fn id(&self) -> &'static str;
    /// Writes the harness's configuration (everything but cuecard's own
    /// hooks) and returns (argv of the first run, extra env).
    fn configure(
        &self,
        dirs: &RunDirs,
        base_url: &str,
        inv: &Invocation,
    ) -> Result<(Vec<String>, Env), String>;
    /// The first run's argv with the prompt replaced, made to resume the
    /// last session (default: `--continue`).
    fn resume(&self, mut argv: Vec<String>, _prompt: &str) -> Vec<String> {
        argv.push("--continue".to_string());
        argv
    }
    /// Where the harness writes its transcripts in the run.
    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf>;
    /// Where the harness writes `.log` files that report hook failures (read
    /// with the transcripts, for the hook-error check).
    fn log_roots(&self, _dirs: &RunDirs) -> Vec<PathBuf> {
        Vec::new()
    }
    /// Whether its transcripts include `.json` files (besides `.jsonl`).
    fn transcripts_in_json(&self) -> bool {
        false
    }
    /// Where a run builds cuecard's plugin for this harness (`None`: the
    /// e2e loads none for it): a directory passed on the command line, or
    /// the one the harness loads extensions from.
    fn plugin_dir(&self, _dirs: &RunDirs) -> Option<PathBuf> {
        None
    }
    /// Installs the plugin built in `dir` the way a user would, before the
    /// run (none: the harness loads it from where it was built).
    fn load_plugin(
        &self,
        _hbin: &Path,
        _dirs: &RunDirs,
        _env: &Env,
        _dir: &Path,
    ) -> Result<(), String> {
        Ok(())
    }
    /// The arguments that load the plugin directory (none: it loads none
    /// from the command line).
    fn plugin_argv(&self, _dir: &Path) -> Vec<String> {
        Vec::new()
    }
}

/// An environment variable for a driver's extra env.
fn kv(k: &str, v: &str) -> (String, String) {
    (k.to_string(), v.to_string())
}

/// An argument.
fn s(v: &str) -> String {
    v.to_string()
}

static DRIVERS: &[&dyn Driver] = &[
    &claude_code::ClaudeCode,
    &codex::Codex,
    &gemini::Gemini,
    &qwen::Qwen,
    &copilot::Copilot,
    &opencode::Opencode,
    &kilo::Kilo,
    &cline::Cline,
    &pi::Pi,
    &codebuddy::CodeBuddy,
    &factory::Factory,
];

/// The driver of a harness the e2e runs.
pub fn of(h: &Harness) -> Result<&'static dyn Driver, String> {
    DRIVERS
        .iter()
        .copied()
        .find(|d| d.id() == h.id)
        .ok_or_else(|| format!("no e2e driver for harness {}", h.id))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_pinned_harness_has_one_driver() {
        for h in super::super::harness::HARNESSES {
            let n = super::DRIVERS.iter().filter(|d| d.id() == h.id).count();
            assert_eq!(n, 1, "{}", h.id);
        }
        assert_eq!(super::DRIVERS.len(), super::super::harness::HARNESSES.len());
    }
}
