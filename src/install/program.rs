//! Whether the program of an entry is an installed cuecard binary, before
//! `verify` counts the entry as installed or `doctor` runs it. A cloned
//! repository can name its own `./bin/cuecard` in the harness files it
//! ships; cuecard never runs project code, so an entry counts only when its
//! program resolves (absolute path, links resolved, a bare name through the
//! absolute entries of PATH) to a regular file outside the project tree,
//! owned by the user or by root.

use std::fmt;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

/// Why an entry's program is not an installed cuecard binary.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProgramRefused {
    /// The entry names no program.
    NoProgram,
    /// A relative path: it resolves against the project the harness runs in.
    Relative(String),
    /// A bare name PATH does not find.
    NotOnPath(String),
    /// The path cannot be resolved (links followed).
    Unresolvable {
        path: PathBuf,
        kind: ErrorKind,
    },
    /// The resolved file cannot be read.
    Unreadable {
        path: PathBuf,
        kind: ErrorKind,
    },
    NotRegularFile(PathBuf),
    /// The file is in the project tree, where a repository could put one.
    InsideProject(PathBuf),
    /// Owned by someone other than the user or root.
    ForeignOwner {
        path: PathBuf,
        uid: u32,
    },
}

impl fmt::Display for ProgramRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ProgramRefused as R;
        match self {
            R::NoProgram => f.write_str("no program"),
            R::Relative(program) => write!(
                f,
                "{program} is a relative path (it resolves against the project the harness runs in)"
            ),
            R::NotOnPath(program) => write!(f, "{program} is not on PATH"),
            R::Unresolvable { path, kind } => {
                write!(f, "{} cannot be resolved ({kind})", path.display())
            }
            R::Unreadable { path, kind } => {
                write!(f, "{} cannot be read ({kind})", path.display())
            }
            R::NotRegularFile(path) => write!(f, "{} is not a regular file", path.display()),
            R::InsideProject(path) => write!(f, "{} is inside the project", path.display()),
            R::ForeignOwner { path, uid } => {
                write!(f, "{} is owned by another user (uid {uid})", path.display())
            }
        }
    }
}

/// The resolved program, or why the entry is not an installed cuecard.
pub fn resolve(program: &str, project: &Path) -> Result<PathBuf, ProgramRefused> {
    let given = Path::new(program);
    let found = if given.is_absolute() {
        given.to_path_buf()
    } else if program.contains('/') || program.contains('\\') {
        return Err(ProgramRefused::Relative(program.to_string()));
    } else {
        on_path(program).ok_or_else(|| ProgramRefused::NotOnPath(program.to_string()))?
    };
    let project = std::fs::canonicalize(project).unwrap_or_else(|_| project.to_path_buf());
    let real = match std::fs::canonicalize(&found) {
        Ok(real) => real,
        // A program that is not there (a binary that moved) runs nothing:
        // counted, so that verify calls the entry stale, unless it names a
        // place in the project, where the repository could put one.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !found.starts_with(&project) => {
            return Ok(found);
        }
        Err(e) => {
            return Err(ProgramRefused::Unresolvable {
                path: found,
                kind: e.kind(),
            });
        }
    };
    let meta = std::fs::metadata(&real).map_err(|e| ProgramRefused::Unreadable {
        path: real.clone(),
        kind: e.kind(),
    })?;
    if !meta.is_file() {
        return Err(ProgramRefused::NotRegularFile(real));
    }
    if real.starts_with(&project) {
        return Err(ProgramRefused::InsideProject(real));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let me = crate::fsutil::euid();
        if meta.uid() != me && meta.uid() != 0 {
            return Err(ProgramRefused::ForeignOwner {
                path: real,
                uid: meta.uid(),
            });
        }
    }
    Ok(real)
}

/// A bare program name looked up in PATH's absolute directories (a relative
/// entry, `.` among them, would find the project's own files); on Windows
/// `<name>.exe` too, as the shells there find it.
pub fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let names: Vec<String> = if cfg!(windows) {
        vec![name.to_string(), format!("{name}.exe")]
    } else {
        vec![name.to_string()]
    };
    std::env::split_paths(&path)
        .filter(|d| d.is_absolute())
        .flat_map(|d| names.iter().map(move |n| d.join(n)).collect::<Vec<_>>())
        .find(|p| p.is_file())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn only_a_file_outside_the_project_counts() {
        let t = tempfile::tempdir().unwrap();
        let project = t.path().join("project");
        let bin = t.path().join("opt/cuecard");
        std::fs::create_dir_all(project.join("bin")).unwrap();
        std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
        std::fs::write(&bin, "").unwrap();
        std::fs::write(project.join("bin/cuecard"), "").unwrap();
        let ok = resolve(bin.to_str().unwrap(), &project).unwrap();
        assert_eq!(ok, std::fs::canonicalize(&bin).unwrap());
        let inside = project.join("bin/cuecard");
        assert!(
            resolve(inside.to_str().unwrap(), &project)
                .unwrap_err()
                .to_string()
                .contains("inside")
        );
        assert!(
            resolve("./bin/cuecard", &project)
                .unwrap_err()
                .to_string()
                .contains("relative")
        );
        // A link outside the project to a file inside it is inside.
        let link = t.path().join("opt/link-cuecard");
        std::os::unix::fs::symlink(&inside, &link).unwrap();
        assert!(
            resolve(link.to_str().unwrap(), &project)
                .unwrap_err()
                .to_string()
                .contains("inside")
        );
        assert!(resolve(t.path().join("opt").to_str().unwrap(), &project).is_err());
        // A program that is not there runs nothing: outside the project it
        // counts (verify calls it stale), inside it does not.
        assert!(resolve("/no/such/cuecard", &project).is_ok());
        let missing = project.join("tools/cuecard");
        assert!(resolve(missing.to_str().unwrap(), &project).is_err());
    }
}
