//! The one list of files any harness reads hooks, plugins, scripts,
//! extensions or skills from (issue 26, point 6). `cuecard install` writes
//! only into these places (a test in the harness layer checks every
//! harness's [`Config`](crate::harness::config::Config) paths, skills,
//! owned files and other sources against [`lookup`]), and the
//! outside-project guard reports any write to them, inside the project or
//! not: an agent that rewrites the hooks that guard it gets a word (and
//! the user's policy, if they set one).
//!
//! A low layer, so that the guard and the harness layer both read it.
//! Paths are matched on their normalised, `/`-separated form.

/// Where an entry's path is taken from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base {
    /// Anywhere: the path is a suffix (a file) or a folder anywhere in the
    /// path, so it matches under the project, under HOME and under any
    /// folder a variable moves the harness's files to.
    Any,
    /// Under the directory an environment variable names, when it is set
    /// (`CODEX_HOME`, `COPILOT_HOME`, `CLINE_DIR`, `XDG_CONFIG_HOME`, ...).
    Env(&'static str),
}

/// What a harness reads there.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Settings or a hook file (JSON, TOML, a shell rc).
    Settings,
    /// A folder of hook scripts or hook files.
    Hooks,
    /// Plugins or extensions (code the harness loads).
    Plugins,
    /// Skills (instructions, and scripts a skill runs).
    Skills,
}

impl Kind {
    /// Why a write there deserves a word.
    pub fn reason(self) -> &'static str {
        match self {
            Kind::Settings | Kind::Hooks => "the harness's own settings or hook configuration",
            Kind::Plugins => "a harness plugin or extension (code the harness loads and runs)",
            Kind::Skills => "a harness skill (instructions, and scripts, every session may load)",
        }
    }
}

/// One place: the harnesses that read it, its base, its path (relative;
/// a trailing `/` means everything under the folder), what it holds.
#[derive(Debug, Clone, Copy)]
pub struct HookPath {
    pub harness: &'static str,
    pub base: Base,
    pub path: &'static str,
    pub kind: Kind,
}

const fn any(harness: &'static str, path: &'static str, kind: Kind) -> HookPath {
    HookPath {
        harness,
        base: Base::Any,
        path,
        kind,
    }
}

const fn env(harness: &'static str, var: &'static str, path: &'static str, kind: Kind) -> HookPath {
    HookPath {
        harness,
        base: Base::Env(var),
        path,
        kind,
    }
}

use Kind::{Hooks, Plugins, Settings, Skills};

/// Every place, by harness.
pub const TABLE: &[HookPath] = &[
    // Claude Code (and what others read of it: Copilot, Qwen, CodeBuddy...).
    any("claude-code", ".claude/settings.json", Settings),
    any("claude-code", ".claude/settings.local.json", Settings),
    any("claude-code", "managed-settings.json", Settings),
    any("claude-code", ".claude/hooks/", Hooks),
    any("claude-code", ".claude/plugins/", Plugins),
    any("claude-code", ".claude/skills/", Skills),
    any("claude-code", ".claude-plugin/", Plugins),
    any("claude-code", "hooks/hooks.json", Hooks),
    // Codex CLI (CODEX_HOME, else ~/.codex).
    any("codex", ".codex/hooks.json", Settings),
    any("codex", ".codex/config.toml", Settings),
    any("codex", ".codex/hooks/", Hooks),
    any("codex", ".codex/plugins/", Plugins),
    any("codex", ".codex-plugin/", Plugins),
    any("codex", ".agents/skills/", Skills),
    env("codex", "CODEX_HOME", "hooks.json", Settings),
    env("codex", "CODEX_HOME", "config.toml", Settings),
    env("codex", "CODEX_HOME", "hooks/", Hooks),
    env("codex", "CODEX_HOME", "plugins/", Plugins),
    // Cursor.
    any("cursor", ".cursor/hooks.json", Settings),
    any("cursor", ".cursor/hooks/", Hooks),
    any("cursor", ".cursor/skills/", Skills),
    // Copilot CLI (COPILOT_HOME, else ~/.copilot; the project's .github).
    any("copilot", ".github/hooks/", Hooks),
    any("copilot", ".github/skills/", Skills),
    any("copilot", ".copilot/hooks/", Hooks),
    any("copilot", ".copilot/skills/", Skills),
    any("copilot", ".copilot/installed-plugins/", Plugins),
    any("copilot", ".copilot/config.json", Settings),
    any("copilot", ".copilot/settings.json", Settings),
    any("copilot", ".github/copilot/settings.json", Settings),
    env("copilot", "COPILOT_HOME", "hooks/", Hooks),
    env("copilot", "COPILOT_HOME", "skills/", Skills),
    env("copilot", "COPILOT_HOME", "settings.json", Settings),
    env("copilot", "COPILOT_HOME", "config.json", Settings),
    env("copilot", "COPILOT_HOME", "installed-plugins/", Plugins),
    env("copilot", "COPILOT_HOME", "config.json", Settings),
    env("copilot", "COPILOT_HOME", "settings.json", Settings),
    // Qwen Code.
    any("qwen", ".qwen/settings.json", Settings),
    any("qwen", ".qwen/skills/", Skills),
    // Gemini CLI: settings, trusted folders, extensions (each with hooks).
    any("gemini", ".gemini/settings.json", Settings),
    any("gemini", ".gemini/trustedFolders.json", Settings),
    any("gemini", ".gemini/extensions/", Plugins),
    any("gemini", ".gemini/skills/", Skills),
    // CodeBuddy Code.
    any("codebuddy", ".codebuddy/settings.json", Settings),
    any("codebuddy", ".codebuddy/settings.local.json", Settings),
    any("codebuddy", ".codebuddy/skills/", Skills),
    // Factory Droid.
    any("factory", ".factory/settings.json", Settings),
    any("factory", ".factory/settings.local.json", Settings),
    any("factory", ".factory/hooks.json", Settings),
    any("factory", ".factory/skills/", Skills),
    // Qoder.
    any("qoder", ".qoder/settings.json", Settings),
    any("qoder", ".qoder/settings.local.json", Settings),
    any("qoder", ".qoder/skills/", Skills),
    // Crush: its JSON configs (project, user, data directory) can all hold
    // hooks, and a crushrc is run as Bash.
    any("crush", "crush.json", Settings),
    any("crush", ".crush.json", Settings),
    any("crush", "crushrc", Settings),
    any("crush", ".crushrc", Settings),
    any("crush", ".crush/skills/", Skills),
    any("crush", ".config/crush/skills/", Skills),
    env("crush", "XDG_CONFIG_HOME", "crush/skills/", Skills),
    // Antigravity CLI: the user's root (~/.gemini/config) and the
    // project's customization roots, each with a hooks.json, plugins and
    // skills.
    any("antigravity", ".gemini/config/hooks.json", Settings),
    any("antigravity", ".gemini/config/plugins/", Plugins),
    any("antigravity", ".gemini/config/skills/", Skills),
    any("antigravity", ".agents/hooks.json", Settings),
    any("antigravity", ".agents/plugins/", Plugins),
    any("antigravity", ".agent/hooks.json", Settings),
    any("antigravity", "_agents/hooks.json", Settings),
    any("antigravity", "_agent/hooks.json", Settings),
    // Devin CLI (~/.config/devin; the project's .devin).
    any("devin", ".devin/config.json", Settings),
    any("devin", ".devin/config.local.json", Settings),
    any("devin", ".devin/hooks.v1.json", Settings),
    any("devin", ".devin/skills/", Skills),
    any("devin", ".config/devin/config.json", Settings),
    any("devin", ".config/devin/skills/", Skills),
    // Kiro CLI: hook files, the agent file's hooks (older form), settings.
    any("kiro", ".kiro/hooks/", Hooks),
    any("kiro", ".kiro/agents/", Hooks),
    any("kiro", ".kiro/settings/", Settings),
    any("kiro", ".kiro/skills/", Skills),
    // Windsurf.
    any("windsurf", ".windsurf/hooks.json", Settings),
    any("windsurf", ".codeium/windsurf/hooks.json", Settings),
    // OpenCode and Kilo: plugins are code they load (XDG_CONFIG_HOME, else
    // ~/.config; the project's .opencode / .kilo).
    any("opencode", ".opencode/plugins/", Plugins),
    any("opencode", ".opencode/plugin/", Plugins),
    any("opencode", ".opencode/skills/", Skills),
    any("opencode", ".config/opencode/plugins/", Plugins),
    any("opencode", ".config/opencode/plugin/", Plugins),
    any("opencode", ".config/opencode/skills/", Skills),
    env("opencode", "XDG_CONFIG_HOME", "opencode/plugins/", Plugins),
    env("opencode", "XDG_CONFIG_HOME", "opencode/plugin/", Plugins),
    env("opencode", "XDG_CONFIG_HOME", "opencode/skills/", Skills),
    any("kilo", ".kilo/plugins/", Plugins),
    any("kilo", ".kilo/plugin/", Plugins),
    any("kilo", ".kilo/skills/", Skills),
    any("kilo", ".config/kilo/plugins/", Plugins),
    any("kilo", ".config/kilo/plugin/", Plugins),
    any("kilo", ".config/kilo/skills/", Skills),
    env("kilo", "XDG_CONFIG_HOME", "kilo/plugins/", Plugins),
    env("kilo", "XDG_CONFIG_HOME", "kilo/plugin/", Plugins),
    env("kilo", "XDG_CONFIG_HOME", "kilo/skills/", Skills),
    // pi: extensions are code it loads (~/.pi/agent; the project's .pi).
    any("pi", ".pi/extensions/", Plugins),
    any("pi", ".pi/agent/extensions/", Plugins),
    any("pi", ".pi/skills/", Skills),
    any("pi", ".pi/agent/skills/", Skills),
    // Cline: hook scripts named after their event, in every folder it reads.
    any("cline", ".clinerules/hooks/", Hooks),
    any("cline", ".cline/hooks/", Hooks),
    any("cline", "Documents/Cline/Hooks/", Hooks),
    env("cline", "CLINE_DIR", "hooks/", Hooks),
];

/// Documentation kept beside hooks is not configuration (a skill's
/// `SKILL.md` is: it is what the harness loads).
const DOCS: &[&str] = &[".md", ".markdown", ".txt", ".rst"];

/// The entry that `path` (absolute, normalised, `/`-separated) falls
/// under, if any; `var` reads the environment.
pub fn lookup(path: &str, var: &dyn Fn(&str) -> Option<String>) -> Option<&'static HookPath> {
    let lower = path.to_ascii_lowercase();
    let doc = DOCS.iter().any(|d| lower.ends_with(d));
    TABLE.iter().find(|e| {
        let hit = match e.base {
            Base::Any => {
                let rel = format!("/{}", e.path);
                if e.path.ends_with('/') {
                    path.contains(&rel)
                } else {
                    path.ends_with(&rel)
                }
            }
            Base::Env(v) => var(v).filter(|d| d.starts_with('/')).is_some_and(|d| {
                let full = format!("{}/{}", d.trim_end_matches('/'), e.path);
                if e.path.ends_with('/') {
                    path.starts_with(&full)
                } else {
                    path == full
                }
            }),
        };
        hit && !(doc && e.kind != Kind::Skills)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_env(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn what_the_guard_missed_is_in() {
        for p in [
            "/p/.opencode/plugins/evil.js",
            "/p/.kilo/plugins/x.js",
            "/p/.clinerules/hooks/PostToolUse",
            "/h/.gemini/extensions/x/hooks.json",
            "/h/.gemini/extensions/x/hooks/hooks.json",
            "/p/.claude/settings.json",
            "/p/.claude/skills/x/SKILL.md",
            "/h/.config/crush/crush.json",
        ] {
            assert!(lookup(p, &no_env).is_some(), "{p}");
        }
        for p in [
            "/p/src/settings.json",
            "/p/src/mycrush.json",
            "/p/.claude/commands/x.md",
            "/p/.claude/hooks/README.md",
            "/p/opencode/plugins.js",
        ] {
            assert!(lookup(p, &no_env).is_none(), "{p}");
        }
        let env = |k: &str| (k == "CODEX_HOME").then(|| "/opt/codex".to_string());
        assert!(lookup("/opt/codex/hooks.json", &env).is_some());
        assert!(lookup("/opt/codex/other.json", &env).is_none());
    }
}
