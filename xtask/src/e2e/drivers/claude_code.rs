//! Claude Code: `claude -p` with the Anthropic base URL on the mock; user
//! settings as given; `--plugin-dir` loads a plugin directory.

use super::{Driver, kv, s};
use crate::e2e::harness::{Env, Harness, Invocation, RunDirs, write_json};
use std::path::{Path, PathBuf};

/// The pinned CLI (see `harness::HARNESSES`).
pub const HARNESS: Harness = Harness {
    id: "claude-code",
    package: "@anthropic-ai/claude-code",
    pinned: "2.1.332",
    bin: "claude",
    in_ci: true,
};

pub struct ClaudeCode;

impl Driver for ClaudeCode {
    fn id(&self) -> &'static str {
        HARNESS.id
    }

    fn configure(
        &self,
        dirs: &RunDirs,
        base_url: &str,
        inv: &Invocation,
    ) -> Result<(Vec<String>, Env), String> {
        if !inv.user_settings.is_null() {
            write_json(&dirs.home.join(".claude/settings.json"), inv.user_settings)?;
        }
        let mut argv = vec![
            s("-p"),
            s(inv.prompt),
            s("--output-format"),
            s("json"),
            s("--allowedTools"),
            s("Bash,Write,Edit,Read"),
            s("--max-turns"),
            s("12"),
        ];
        if let Some(m) = inv.model {
            argv.extend([s("--model"), s(m)]);
        }
        Ok((
            argv,
            vec![
                kv("ANTHROPIC_BASE_URL", base_url),
                kv("ANTHROPIC_API_KEY", "sk-ant-e2e-dummy"),
                kv("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1"),
                kv("DISABLE_TELEMETRY", "1"),
                kv("DISABLE_AUTOUPDATER", "1"),
                kv("DISABLE_ERROR_REPORTING", "1"),
                kv("IS_SANDBOX", "1"),
            ],
        ))
    }

    fn transcript_roots(&self, dirs: &RunDirs) -> Vec<PathBuf> {
        vec![dirs.home.join(".claude/projects")]
    }
    fn plugin_dir(&self, dirs: &RunDirs) -> Option<PathBuf> {
        Some(dirs.root.join("plugin"))
    }

    fn plugin_argv(&self, dir: &Path) -> Vec<String> {
        vec!["--plugin-dir".into(), dir.to_string_lossy().to_string()]
    }
}
