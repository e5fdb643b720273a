//! One file per harness: its configuration paths and shapes.

mod claude_code;
mod codebuddy;
mod codex;
mod copilot;
mod cursor;
mod devin;
mod gemini;
mod kiro;
mod qwen;

use super::spec::Spec;
use crate::harness::HarnessId;

/// The installer's spec for a harness; `None` for a harness cuecard does not
/// install into (Windsurf: nothing it prints reaches the model).
pub fn spec(h: HarnessId) -> Option<&'static Spec> {
    Some(match h {
        HarnessId::ClaudeCode => &claude_code::SPEC,
        HarnessId::Codex => &codex::SPEC,
        HarnessId::Qwen => &qwen::SPEC,
        HarnessId::CodeBuddy => &codebuddy::SPEC,
        HarnessId::Gemini => &gemini::SPEC,
        HarnessId::Copilot => &copilot::SPEC,
        HarnessId::Cursor => &cursor::SPEC,
        HarnessId::Devin => &devin::SPEC,
        HarnessId::Kiro => &kiro::SPEC,
        _ => return None,
    })
}
