//! The working directory a command runs in, as far as the command line
//! tells: `cd`, `pushd` and `popd` move it for the commands after them,
//! subshells `( … )` and substitutions keep their moves to themselves, and a
//! nested script (`bash -c`) starts where its wrapper runs.
//!
//! Bounded: a directory longer than [`MAX_DIR`] bytes is unknown, and the
//! `pushd` stack keeps its last [`MAX_STACK`] entries. A directory is shared
//! (`Rc`) by the commands that run in it.

use std::rc::Rc;

/// The longest directory followed.
pub const MAX_DIR: usize = 1024;
/// The deepest `pushd` stack kept.
pub const MAX_STACK: usize = 64;

/// Spellings of the directory a command runs in (true) and of the
/// repository's top, where the call starts (false).
pub(crate) const HERE: [(&str, bool); 6] = [
    ("$PWD", true),
    ("${PWD}", true),
    ("$(pwd)", true),
    ("`pwd`", true),
    ("$(git rev-parse --show-toplevel)", false),
    ("`git rev-parse --show-toplevel`", false),
];

/// Where a command runs, relative to the call's working directory.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Cwd {
    /// The call's own working directory.
    #[default]
    Start,
    /// A directory as written: absolute (`/srv`, `~/x`, `$HOME/x`, `C:/x`) or
    /// relative to the call's directory (`..`, `build/out`), to be resolved
    /// like any path the command names.
    Dir(Rc<str>),
    /// A directory the command line does not tell (`cd "$X"`, `cd -`,
    /// `popd` with nothing pushed): paths relative to it may be anywhere.
    Unknown,
}

/// The programs that change the directory, by lower-case name.
const CHANGERS: &[&str] = &[
    "cd",
    "chdir",
    "pushd",
    "popd",
    "set-location",
    "sl",
    "push-location",
    "pop-location",
];

/// Whether a program name may change the directory (a cheap test before the
/// command is read further).
pub(super) fn may_change(name: &str) -> bool {
    CHANGERS.iter().any(|c| name.eq_ignore_ascii_case(c))
}

/// The variables a directory may start with and still be resolved (the
/// environment names them).
const KNOWN_DIRS: &[&str] = &[
    "HOME",
    "TMPDIR",
    "TMP",
    "TEMP",
    "USERPROFILE",
    "CLAUDE_PROJECT_DIR",
    "GEMINI_PROJECT_DIR",
    "CURSOR_PROJECT_DIR",
];

impl Cwd {
    /// The directory after moving to `dir` as written.
    pub fn join(&self, dir: &str) -> Cwd {
        // The repository's top: the project root, where the call starts (or
        // above it, still in the project).
        if dir == "$(git rev-parse --show-toplevel)" {
            return Cwd::Start;
        }
        let joined = self.joined(dir);
        match &joined {
            Cwd::Dir(d) if d.len() > MAX_DIR => Cwd::Unknown,
            _ => joined,
        }
    }

    fn joined(&self, dir: &str) -> Cwd {
        if dir.contains('`') || dir.contains("$(") || dir.contains('*') || dir.contains('?') {
            return Cwd::Unknown;
        }
        // A variable anywhere but at the start cannot be resolved, nor one
        // at the start that is not a well-known directory.
        if dir.get(1..).is_some_and(|rest| rest.contains('$')) {
            return Cwd::Unknown;
        }
        if let Some(var) = dir.strip_prefix('$') {
            // `${NAME}`, PowerShell's `$env:NAME`.
            let var = var.trim_start_matches('{');
            let var = var.strip_prefix("env:").unwrap_or(var);
            let name_end = var
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(var.len());
            if !KNOWN_DIRS.contains(&&var[..name_end]) {
                return Cwd::Unknown;
            }
        }
        let dir = dir.replace('\\', "/");
        let absolute = dir.starts_with('/')
            || dir.starts_with('~')
            || dir.starts_with('$')
            || dir.as_bytes().get(1) == Some(&b':');
        if absolute {
            return Cwd::Dir(dir.into());
        }
        match self {
            Cwd::Start => Cwd::Dir(dir.into()),
            Cwd::Dir(d) => Cwd::Dir(format!("{}/{dir}", d.trim_end_matches('/')).into()),
            Cwd::Unknown => Cwd::Unknown,
        }
    }

    /// `path` as seen from this directory: absolute paths as they are,
    /// relative ones joined to it. `None` when the directory is unknown and
    /// the path relative.
    pub fn resolve(&self, path: &str) -> Option<String> {
        // `$PWD/x`, `$(pwd)/x`: the directory the command runs in; `$(git
        // rev-parse --show-toplevel)/x`: the repository's top, where the
        // call starts.
        for (var, here) in HERE {
            if let Some(rest) = path.strip_prefix(var)
                && (rest.is_empty() || rest.starts_with('/'))
            {
                let rest = rest.trim_start_matches('/');
                let rest = if rest.is_empty() { "." } else { rest };
                return if here {
                    self.resolve(rest)
                } else {
                    Some(rest.to_string())
                };
            }
        }
        let absolute = path.starts_with('/')
            || path.starts_with('\\')
            || path.starts_with('~')
            || path.starts_with('$')
            || path.starts_with('%')
            || path.as_bytes().get(1) == Some(&b':');
        match self {
            _ if absolute => Some(path.to_string()),
            Cwd::Start => Some(path.to_string()),
            Cwd::Dir(d) => Some(format!("{}/{path}", d.trim_end_matches('/'))),
            Cwd::Unknown => None,
        }
    }

    /// The directory after `argv` (a `cd`, `pushd`, `popd`, ... with its
    /// wrappers peeled off) runs; `stack` is the `pushd` stack.
    pub(super) fn after(&self, argv: &[String], stack: &mut Vec<Cwd>) -> Cwd {
        let name = argv
            .first()
            .map(|w| super::program_name(w))
            .unwrap_or_default();
        let operand = argv
            .iter()
            .skip(1)
            .find(|a| !(a.starts_with('-') && a.len() > 1) || a.eq_ignore_ascii_case("-path"))
            .map(String::as_str);
        let operand = match operand {
            Some(p) if p.eq_ignore_ascii_case("-path") || p.eq_ignore_ascii_case("/d") => argv
                .iter()
                .skip_while(|a| !a.eq_ignore_ascii_case(p))
                .nth(1)
                .map(String::as_str),
            o => o,
        };
        match name.as_str() {
            "popd" | "pop-location" => stack.pop().unwrap_or(Cwd::Unknown),
            "pushd" | "push-location" => {
                if stack.len() >= MAX_STACK {
                    stack.remove(0);
                }
                stack.push(self.clone());
                match operand {
                    Some(d) => self.join(d),
                    None => Cwd::Unknown, // swaps the top two entries
                }
            }
            _ => match operand {
                None => Cwd::Dir("~".into()),
                Some("-") => Cwd::Unknown,
                Some(d) => self.join(d),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn moves_are_joined_and_unknowns_stay_unknown() {
        let mut stack = Vec::new();
        let c = Cwd::Start.after(&w(&["cd", ".."]), &mut stack);
        assert_eq!(c, Cwd::Dir("..".into()));
        let c = c.after(&w(&["cd", "-P", "x"]), &mut stack);
        assert_eq!(c, Cwd::Dir("../x".into()));
        assert_eq!(c.resolve("build"), Some("../x/build".into()));
        assert_eq!(c.resolve("/abs"), Some("/abs".into()));
        let c = c.after(&w(&["pushd", "/tmp/../etc"]), &mut stack);
        assert_eq!(c, Cwd::Dir("/tmp/../etc".into()));
        let c = c.after(&w(&["popd"]), &mut stack);
        assert_eq!(c, Cwd::Dir("../x".into()));
        assert_eq!(c.after(&w(&["popd"]), &mut stack), Cwd::Unknown);
        assert_eq!(Cwd::Start.join("\"$X\""), Cwd::Unknown);
        assert_eq!(Cwd::Start.join("a/$X"), Cwd::Unknown);
        assert_eq!(Cwd::Start.join("$HOME/x"), Cwd::Dir("$HOME/x".into()));
        assert_eq!(
            Cwd::Start.join("$env:USERPROFILE"),
            Cwd::Dir("$env:USERPROFILE".into())
        );
        assert_eq!(Cwd::Unknown.resolve("x"), None);
        assert_eq!(Cwd::Unknown.resolve("~/x"), Some("~/x".into()));
        assert_eq!(
            Cwd::Start.after(&w(&["cd"]), &mut stack),
            Cwd::Dir("~".into())
        );
        assert_eq!(
            Cwd::Start.after(&w(&["Set-Location", "-Path", "C:\\x"]), &mut stack),
            Cwd::Dir("C:/x".into())
        );
    }
}
