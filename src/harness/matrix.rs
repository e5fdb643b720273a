//! The harness × event matrix (design.md §5): for every canonical event,
//! one line, and on it one cell per harness in the registry's order:
//! `XX` the harness has a row for the event (in its own file, with the
//! native name, the delivery and the evidence), `__` it has no such event.
//!
//! This is where a new event is placed on every harness at once: an event
//! of `events!` with no line here fails
//! `every_harness_accounts_for_every_event`, naming it, and a line whose
//! cells disagree with the harnesses' rows fails the same test, naming the
//! harness. A new harness in `harnesses!` is a new column: each line's
//! array has [`HarnessId::COUNT`] cells, so the compiler refuses the table
//! until the column is there.
//!
//! Columns, in `harnesses!` order: cc claude-code, cx codex, qw qwen,
//! cb codebuddy, ge gemini, co copilot, cu cursor, de devin, ki kiro,
//! fa factory, qo qoder, oc opencode, kl kilo, pi pi, cl cline, cr crush,
//! ag antigravity, ws windsurf.

use super::HarnessId;
use crate::event::Event;

/// One cell: whether a harness has the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// The harness's file has a row for it.
    Row,
    /// The harness has no such event.
    Absent,
}

const XX: Cell = Cell::Row;
const __: Cell = Cell::Absent;

/// One line per canonical event, in the event table's order.
#[rustfmt::skip]
pub const MATRIX: &[(Event, [Cell; HarnessId::COUNT])] = &[
    //                                 cc  cx  qw  cb  ge  co  cu  de  ki  fa  qo  oc  kl  pi  cl  cr  ag  ws
    (Event::SessionStart,             [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, __, XX, __]),
    (Event::Setup,                    [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::UserPromptSubmit,         [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, __, XX, XX]),
    (Event::UserPromptExpansion,      [XX, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::PreToolUse,               [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]),
    (Event::PreSkillShellCommand,     [XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::PermissionRequest,        [XX, XX, XX, XX, __, XX, __, XX, __, __, __, XX, XX, __, __, __, __, __]),
    (Event::PermissionDenied,         [XX, __, XX, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::PostToolUse,              [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, __, XX, XX]),
    (Event::PostToolUseFailure,       [XX, __, XX, XX, __, XX, XX, __, __, __, XX, __, __, __, __, __, __, __]),
    (Event::PostToolBatch,            [XX, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::Notification,             [XX, __, XX, XX, XX, XX, __, __, __, XX, XX, __, __, __, __, __, __, __]),
    (Event::MessageDisplay,           [XX, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::SubagentStart,            [XX, XX, XX, XX, __, XX, XX, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::SubagentStop,             [XX, XX, XX, XX, __, XX, XX, __, __, XX, XX, __, __, __, __, __, __, __]),
    (Event::TaskCreated,              [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::TaskCompleted,            [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::Stop,                     [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, XX, __, __, __, XX, __, XX, XX]),
    (Event::StopFailure,              [XX, __, XX, XX, __, __, __, __, __, __, __, __, __, __, XX, __, __, __]),
    (Event::TeammateIdle,             [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::InstructionsLoaded,       [XX, __, XX, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::ConfigChange,             [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::CwdChanged,               [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::DirectoryAdded,           [XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::FileChanged,              [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::WorktreeCreate,           [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::WorktreeRemove,           [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::PreCompact,               [XX, XX, XX, XX, XX, XX, XX, __, __, XX, XX, XX, XX, XX, __, __, __, __]),
    (Event::PostCompact,              [XX, XX, XX, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::Elicitation,              [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::ElicitationResult,        [XX, __, __, XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::PreModelSwitch,           [XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::PostModelSwitch,          [XX, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __, __]),
    (Event::SessionEnd,               [XX, XX, XX, XX, XX, XX, XX, XX, __, XX, XX, __, __, XX, XX, __, __, __]),
    (Event::Interrupt,                [__, XX, __, __, __, __, __, __, __, __, __, __, __, __, XX, __, __, __]),
];

/// The cell of harness `h` on event `e`, `None` when the event has no line.
pub fn cell(h: HarnessId, e: Event) -> Option<Cell> {
    let column = HarnessId::ALL.iter().position(|x| *x == h)?;
    MATRIX
        .iter()
        .find(|(event, _)| *event == e)
        .map(|(_, cells)| cells[column])
}
