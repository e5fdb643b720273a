//! `cuecard plugin build`: a harness's plugin directory, written whole
//! into an empty directory from the harness's [`PluginFormat`] and the
//! shipped cards' Bindings, through the same entry builder as every
//! settings install ([`super::entries::build`]), with this binary copied
//! in as `bin/cuecard`. Nothing in it names this machine: entries start
//! the copy through the variable the harness expands for its plugin root.

use super::entries;
use super::error::InstallError;
use super::merge;
use super::style::Style;
use crate::harness::config::{Config, Form, Host, PATH_PROGRAM, Shell};
use crate::harness::plugin::{META, PluginFormat};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What a build wrote.
pub struct Built {
    pub format: &'static PluginFormat,
    /// Files written, relative to the directory, in order.
    pub files: Vec<PathBuf>,
    /// Registrations the harness does not get (nothing it prints there
    /// reaches the model): canonical event and cards.
    pub skipped: Vec<entries::Skipped>,
}

/// A plugin's files (relative path, content) and the registrations it
/// leaves out.
pub type Files = (Vec<(PathBuf, String)>, Vec<entries::Skipped>);

/// The files of `spec`'s plugin (relative path, content), without the
/// binary.
pub fn files(spec: &Config) -> Result<Files, InstallError> {
    let format = spec
        .plugin
        .ok_or(InstallError::NoPluginFormat(spec.harness))?;
    let regs = crate::registration::shipped();
    // A plugin's hook commands run through `sh` or no shell: the Unix form.
    let (mut wanted, skipped) = entries::build(spec, PATH_PROGRAM, Host::Unix, &regs);
    for e in &mut wanted {
        rebase(spec, format, &mut e.handler);
    }
    let mut hooks = (spec.skeleton)();
    merge::install(&mut hooks, spec.layout, PATH_PROGRAM, &wanted)?;
    let render = |v: &Value| Style::new_file().render(v);
    let mut out = vec![
        (
            PathBuf::from(format.manifest),
            render(&(format.manifest_json)(&META)),
        ),
        (PathBuf::from(format.hooks), render(&hooks)),
    ];
    out.push((PathBuf::from("README.md"), readme(spec, format)));
    if let Some((path, f)) = format.marketplace {
        out.push((PathBuf::from(path), render(&f(&META))));
    }
    if let Some(dir) = format.skills {
        for (rel, text) in super::materialise::skill_files() {
            out.push((Path::new(dir).join(rel), text));
        }
    }
    Ok((out, skipped))
}

/// The plugin's README: what it is, what it runs, where its state goes.
fn readme(spec: &Config, format: &PluginFormat) -> String {
    format!(
        "# {name} {version}\n\n{desc}\n\nThis {harness} plugin registers one hook entry per event \
         the shipped cards bind (see `{hooks}`); each runs the cuecard binary shipped in `bin/`, \
         which reads the hook's payload, evaluates the cards and prints at most one short answer. \
         It reaches no network host, spawns no process on the hook path, and always exits 0, so a \
         broken configuration never blocks the agent. Use: {usage}.\n",
        name = META.name,
        version = META.version,
        desc = META.description,
        harness = spec.harness.name(),
        hooks = format.hooks,
        usage = format.usage,
    )
}

/// Points a handler built for `cuecard` through PATH at the plugin's own
/// copy: the exec form's `command`, or the program word of each command
/// line, double-quoted so the shell expands the root variable.
fn rebase(spec: &Config, format: &PluginFormat, h: &mut serde_json::Map<String, Value>) {
    let program = format.program();
    match spec.form {
        Form::Exec => {
            h.insert("command".into(), Value::from(program));
        }
        Form::Shell { .. } | Form::PerShell(_) => {
            for (key, shell) in spec.shells(Host::Unix) {
                // The plugin ships this machine's Unix binary: a line for
                // another shell (Copilot's `powershell`) would name a
                // program the plugin does not have.
                if shell != Shell::Posix {
                    h.remove(key);
                    continue;
                }
                if let Some(line) = h.get(key).and_then(Value::as_str)
                    && let Some(rest) = line.strip_prefix(PATH_PROGRAM)
                {
                    let line = format!("\"{program}\"{rest}");
                    h.insert(key.into(), Value::from(line));
                }
            }
        }
    }
}

/// Writes `spec`'s plugin into `dir` (absent or empty), with `binary`
/// copied to `bin/cuecard`.
pub fn build(spec: &Config, dir: &Path, binary: &Path) -> Result<Built, InstallError> {
    let format = spec
        .plugin
        .ok_or(InstallError::NoPluginFormat(spec.harness))?;
    check_empty(dir)?;
    let (files, skipped) = files(spec)?;
    let mut written = Vec::new();
    for (rel, text) in &files {
        super::fsio::write_atomic(&dir.join(rel), text, None)?;
        written.push(rel.clone());
    }
    let rel_bin = PathBuf::from(format!("bin/cuecard{}", std::env::consts::EXE_SUFFIX));
    let dest = dir.join(&rel_bin);
    std::fs::create_dir_all(dir.join("bin")).map_err(|error| InstallError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    std::fs::copy(binary, &dest).map_err(|error| InstallError::Copying {
        from: binary.to_path_buf(),
        to: dest.clone(),
        error,
    })?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o755)).map_err(
            |error| InstallError::Io {
                path: dest.clone(),
                error,
            },
        )?;
    }
    written.push(rel_bin);
    Ok(Built {
        format,
        files: written,
        skipped,
    })
}

/// A plugin is written only into a directory that does not exist yet or is
/// empty, and never through a symlink: nothing of the user's is replaced.
fn check_empty(dir: &Path) -> Result<(), InstallError> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(error) => Err(InstallError::Io {
            path: dir.to_path_buf(),
            error,
        }),
        Ok(m) if m.file_type().is_symlink() => {
            Err(InstallError::PluginDirSymlink(dir.to_path_buf()))
        }
        Ok(m) if !m.is_dir() => Err(InstallError::NotADirectory(dir.to_path_buf())),
        Ok(_) => {
            let mut it = std::fs::read_dir(dir).map_err(|error| InstallError::Io {
                path: dir.to_path_buf(),
                error,
            })?;
            if it.next().is_some() {
                Err(InstallError::NotEmpty(dir.to_path_buf()))
            } else {
                Ok(())
            }
        }
    }
}
