//! `stop`: the opt-in end-of-turn card. Any context on Claude Code's Stop
//! keeps the agent running, so it fires only when the user asked for it
//! (`CUECARD_STOP_CARD=1`), never while a Stop hook is already keeping the
//! agent going (`stop_hook_active`), and at most once per session.

use super::{Finding, Guard};
use crate::context::Ctx;

pub struct Stop;

impl Guard for Stop {
    fn name(&self) -> &'static str {
        "stop"
    }
    fn events(&self) -> &'static [&'static str] {
        &["Stop"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &[]
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        if !ctx.flag("CUECARD_STOP_CARD") {
            return None;
        }
        if ctx.payload.stop_hook_active() {
            return None;
        }
        if ctx.once_spent(&"stop-card".into()) {
            return None;
        }
        let mut f = Finding::new("stop", "CUECARD_STOP_CARD is on and no Stop hook is active");
        f.once = Some("stop-card".into());
        Some(f)
    }
}
