//! Kilo Code's CLI (`@kilocode/cli`), a fork of OpenCode whose plugin API is
//! OpenCode's (7.7.7, read in its bundled source and measured by the e2e):
//! the same plugin hooks (`experimental.chat.system.transform`,
//! `chat.message`, `tool.execute.before`/`after`, the `session.compacted`
//! event), the same tool ids and input keys, the same loader glob
//! (`{plugin,plugins}/*.{ts,js}` inside every config directory). Only the
//! directories differ: Kilo scans `~/.config/kilo/` and a project's `.kilo/`
//! (and the legacy `.kilocode/`), never `.opencode/`, so OpenCode's plugin
//! file is not picked up and Kilo gets its own registration.
//!
//! Everything but the paths is OpenCode's: the event rows, tools, translation
//! and plugin template live in [`super::opencode`] and are used from there.

use super::HarnessId;
use super::config::{self, Config, OwnedFile, Roots, Scope};
use super::opencode as oc;
use super::table::Spec;
use std::path::{Path, PathBuf};

pub static SPEC: Spec = Spec {
    harness: HarnessId::Kilo,
    id: "kilo",
    name: "Kilo Code",
    config: Some(&CONFIG),
    ..oc::SPEC
};

static CONFIG: Config = Config {
    presence: config::Presence {
        dir: |r| oc::user_dir(r, "kilo"),
        programs: &["kilo"],
    },
    harness: HarnessId::Kilo,
    path,
    skills_dir,
    notes,
    owned: Some(&PLUGIN_FILE),
    ..oc::CONFIG
};

/// The plugin file: OpenCode's template, its entries calling
/// `cuecard dispatch --contract kilo`.
static PLUGIN_FILE: OwnedFile = OwnedFile {
    what: "Kilo Code plugin",
    comment: "//",
    render: oc::plugin_js,
    entries_line: oc::ENTRIES_LINE,
};

fn path(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        oc::user_dir(r, "kilo").join("plugins/cuecard.js"),
        r.project.join(".kilo/plugins/cuecard.js"),
    )
}

fn skills_dir(scope: Scope, r: &Roots) -> Option<PathBuf> {
    config::user_or_project(
        scope,
        oc::user_dir(r, "kilo").join("skills"),
        r.project.join(".kilo/skills"),
    )
}

fn notes(_: Scope, _: &Path) -> Vec<String> {
    vec![
        "Kilo Code loads plugins when it starts: restart running sessions to pick this one up"
            .into(),
    ]
}
