//! A harness's plugin (or extension) format: where its manifest and hook
//! file go in the plugin directory, how an entry names the binary shipped
//! inside it, and where skills and a marketplace file go. Each harness's
//! own file fills one beside its contract; `cuecard plugin build`
//! (`install::plugin`) writes the directory from it and the Bindings.

use serde_json::Value;

/// What a plugin's manifest says about itself.
#[derive(Debug, Clone)]
pub struct Meta {
    pub name: &'static str,
    pub version: &'static str,
    pub description: &'static str,
}

/// The plugin cuecard ships: its name, this build's version.
pub const META: Meta = Meta {
    name: "cuecard",
    version: env!("CARGO_PKG_VERSION"),
    description: "Short guidance cards carried into the model's context at the moments they matter.",
};

/// A file's content from the plugin's description.
pub type Render = fn(&Meta) -> Value;

/// One harness's plugin layout.
pub struct PluginFormat {
    /// The manifest, relative to the plugin directory.
    pub manifest: &'static str,
    /// Its content.
    pub manifest_json: Render,
    /// The hook file, relative to the plugin directory.
    pub hooks: &'static str,
    /// How an entry names the plugin directory: a variable the harness
    /// expands (`${CLAUDE_PLUGIN_ROOT}`); the binary is `<root>/bin/cuecard`.
    pub root: &'static str,
    /// Where skills go (`skills/<name>/SKILL.md`), `None` when the format
    /// carries none.
    pub skills: Option<&'static str>,
    /// A marketplace file listing the plugin, so a repository holding the
    /// directory can be published (path, content).
    pub marketplace: Option<(&'static str, Render)>,
    /// What the user does with the directory.
    pub usage: &'static str,
}

impl PluginFormat {
    /// The program an entry starts: the binary inside the plugin.
    pub fn program(&self) -> String {
        format!("{}/bin/cuecard", self.root)
    }
}
