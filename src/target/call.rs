//! What is computed from a tool call alone, whatever event a card is judged
//! for: the payload and its lazily computed parts (the project root, the
//! paths the call names, its tool's kind, its shell commands and what they
//! write, the files it writes). The contexts of one call share one (see
//! [`crate::context::Ctx::for_event`]).

use super::{Target, ToolKind};
use crate::payload::Payload;
use crate::shell::SimpleCommand;
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// How many parent directories the project-root search climbs at most.
const MAX_ROOT_DEPTH: usize = 64;

pub struct Call<'a> {
    pub payload: &'a Payload,
    memo: Memo,
}

/// A call's lazily computed parts: none depends on the event, so the cheap
/// look at the user's and project's cards and every guard of every event
/// share one of each.
#[derive(Default)]
struct Memo {
    /// The kind of tool the call uses (see [`ToolKind`]): read once from
    /// its name, asked by every guard and trigger card that tells tools
    /// apart.
    tool: OnceCell<ToolKind>,
    project_root: OnceCell<PathBuf>,
    /// The paths the call names, relative to the project root where inside
    /// it: computed once, read by every trigger card.
    call_paths: OnceCell<Vec<String>>,
    /// The shell command's simple commands (see
    /// [`super::shell_commands`]): parsed once, read by every guard
    /// that looks at commands and by trigger cards.
    shell_commands: OnceCell<Vec<SimpleCommand>>,
    /// The same, words joined, for `command:` patterns.
    simple_commands: OnceCell<Vec<String>>,
    /// What each of them writes (see [`crate::shell::write_paths`]): read
    /// once, by the guards that judge where a write lands and by the
    /// hand-off's record of what a call wrote.
    shell_write_paths: OnceCell<Vec<Vec<String>>>,
    /// The files the call writes (see [`super::write_targets`]):
    /// resolved once, read by several guards and by trigger cards.
    write_targets: OnceCell<Vec<Target>>,
}

impl<'a> Call<'a> {
    pub fn new(payload: &'a Payload) -> Self {
        Call {
            payload,
            memo: Memo::default(),
        }
    }

    /// The kind of tool the call uses (its canonical name read once).
    pub fn tool(&self) -> ToolKind {
        *self
            .memo
            .tool
            .get_or_init(|| ToolKind::of(self.payload.tool_name()))
    }

    /// The files the call writes, resolved on first use.
    pub fn write_targets(&self) -> &[Target] {
        self.memo
            .write_targets
            .get_or_init(|| super::write_targets(self))
    }

    /// The paths the call names (see [`super::call_paths`]),
    /// computed on first use.
    pub fn call_paths(&self) -> &[String] {
        self.memo.call_paths.get_or_init(|| super::call_paths(self))
    }

    /// The simple commands of the call's shell command, read with the
    /// quoting rules of its shell (wrappers and chains split, see
    /// [`crate::shell`]); parsed once.
    pub fn shell_commands(&self) -> &[SimpleCommand] {
        self.memo
            .shell_commands
            .get_or_init(|| super::shell_commands(self))
    }

    /// Each of [`Call::shell_commands`], its words joined by spaces.
    pub fn simple_commands(&self) -> &[String] {
        self.memo.simple_commands.get_or_init(|| {
            self.shell_commands()
                .iter()
                .map(|s| s.argv.join(" "))
                .collect()
        })
    }

    /// The paths each of [`Call::shell_commands`] writes (same index), as
    /// the command spells them ([`crate::shell::write_paths`]); read on
    /// first use, so a call no guard asks about pays nothing.
    pub fn shell_write_paths(&self) -> &[Vec<String>] {
        self.memo.shell_write_paths.get_or_init(|| {
            self.shell_commands()
                .iter()
                .map(|c| {
                    crate::shell::write_paths(c)
                        .into_iter()
                        .map(str::to_string)
                        .collect()
                })
                .collect()
        })
    }

    /// An environment variable.
    pub fn var(&self, key: &str) -> Option<String> {
        std::env::var(key).ok()
    }

    /// An on/off environment switch: 1, true, yes, on (any case).
    pub fn flag(&self, key: &str) -> bool {
        crate::env::flag(key)
    }

    /// The call's working directory (the payload's `cwd`, else the harness's
    /// project variable, else this process's).
    pub fn cwd(&self) -> PathBuf {
        cwd_of(self.payload)
    }

    /// The project root: the git root above the call's `cwd` (a `.git`
    /// directory or file), else the `cwd` itself. Found without spawning git.
    pub fn project_root(&self) -> &Path {
        self.memo
            .project_root
            .get_or_init(|| find_project_root(&self.cwd()))
    }

    /// Fixes the project root before anything reads it: the session's
    /// root as its first call found it (see `state::pin`). A root already
    /// read stays.
    pub fn fix_project_root(&self, root: PathBuf) {
        let _ = self.memo.project_root.set(root);
    }

    /// Resolves a path the payload names: absolute as is, relative to `cwd`.
    pub fn resolve(&self, path: &str) -> PathBuf {
        let p = Path::new(path);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.cwd().join(p)
        }
    }
}

/// A payload's working directory: its `cwd`, else the harness's project
/// variable, else this process's.
pub fn cwd_of(payload: &Payload) -> PathBuf {
    if let Some(c) = payload.cwd() {
        return PathBuf::from(c);
    }
    for key in [
        "CLAUDE_PROJECT_DIR",
        "GEMINI_PROJECT_DIR",
        "CURSOR_PROJECT_DIR",
    ] {
        if let Some(v) = std::env::var_os(key).filter(|v| !v.is_empty()) {
            return PathBuf::from(v);
        }
    }
    std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."))
}

/// Walks up from `start` to the first directory holding `.git`, stopping
/// below HOME: a repository in HOME or above it (`git init ~`) never makes
/// HOME part of a project (issue 26).
pub fn find_project_root(start: &Path) -> PathBuf {
    let home = ["HOME", "USERPROFILE"]
        .iter()
        .find_map(|k| std::env::var_os(k).filter(|v| !v.is_empty()))
        .map(PathBuf::from)
        .filter(|h| h.is_absolute());
    let mut dir = start;
    for _ in 0..MAX_ROOT_DEPTH {
        if home.as_deref().is_some_and(|h| h.starts_with(dir)) {
            break;
        }
        if dir.join(".git").symlink_metadata().is_ok() {
            return dir.to_path_buf();
        }
        match dir.parent() {
            Some(p) => dir = p,
            None => break,
        }
    }
    start.to_path_buf()
}

/// The project root for commands run by a person: the git root above the
/// current directory.
pub fn project_root_here() -> std::path::PathBuf {
    let cwd = std::env::current_dir().unwrap_or_else(|_| std::path::PathBuf::from("."));
    find_project_root(&cwd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_is_the_git_dir_or_file_above_cwd() {
        let t = tempfile::tempdir().unwrap();
        let sub = t.path().join("a/b");
        std::fs::create_dir_all(&sub).unwrap();
        assert_eq!(find_project_root(&sub), sub, "no git root: cwd itself");
        std::fs::write(t.path().join("a/.git"), "gitdir: elsewhere").unwrap();
        assert_eq!(
            find_project_root(&sub),
            t.path().join("a"),
            "a .git file (worktree) counts"
        );
    }
}
