//! `cuecard report [--session <id> | <transcript.jsonl>] [-o FILE] [--open]`:
//! one self-contained HTML page (docs/report.md). A transcript is replayed
//! as `cuecard replay` does it (in a private state directory); a session
//! is read from the state, as `cuecard status` reads it; with neither, the
//! index of recent sessions.

use super::{CommandError, ExitStatus};
use crate::cli::ReportArgs;
use crate::printer::Printer;
use crate::report;
use crate::state::Store;
use std::path::{Path, PathBuf};

pub fn run(p: &Printer, a: ReportArgs) -> Result<ExitStatus, CommandError> {
    // Where the page goes is settled before a replay points the state root
    // at its private directory.
    let default_dir = || {
        Store::open()
            .ok()
            .and_then(|s| s.dir("reports").ok())
            .ok_or(CommandError::ReportNowhere)
    };
    let (html, name) = if let Some(t) = &a.transcript {
        let dir = match &a.output {
            Some(_) => None,
            None => Some(default_dir()?),
        };
        let r = super::replay::load(Some(t))?;
        let stem = t
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "transcript".into());
        let page = report::html::report(&report::from_replay(&r));
        (
            page,
            dir.map(|d| d.join(format!("replay-{}.html", file_safe(&stem)))),
        )
    } else {
        let store = Store::open().map_err(|_| CommandError::NoStateDir)?;
        let dir = match &a.output {
            Some(_) => None,
            None => Some(default_dir()?),
        };
        match &a.session {
            Some(id) => {
                let wanted = super::status::wanted_part(Some(id));
                let found = super::status::sessions_of(&store, wanted.as_deref());
                let Some((stem, s)) = found.into_iter().next() else {
                    return Err(CommandError::ReportNoSession(id.clone()));
                };
                let page = report::html::report(&report::from_session(&s));
                (
                    page,
                    dir.map(|d| d.join(format!("session-{}.html", file_safe(&stem)))),
                )
            }
            None => {
                let all: Vec<_> = super::status::sessions_of(&store, None)
                    .into_iter()
                    .map(|(_, s)| s)
                    .collect();
                let page = report::index::page_of(&all, &store.root().to_string_lossy());
                (page, dir.map(|d| d.join("index.html")))
            }
        }
    };
    let path = match (&a.output, name) {
        (Some(o), _) if o.as_os_str() == "-" => {
            p.out(html.trim_end());
            return Ok(ExitStatus::Success);
        }
        (Some(o), _) => o.clone(),
        (None, Some(n)) => n,
        (None, None) => return Err(CommandError::ReportNowhere),
    };
    write_private(&path, &html).map_err(|error| CommandError::CannotWrite {
        path: path.clone(),
        error,
    })?;
    p.out(&format!("wrote {}", path.display()));
    if a.open {
        open(&path)?;
    }
    Ok(ExitStatus::Success)
}

/// A name as a file name part: letters, digits, `-`, `_`, `.`; at most 80.
fn file_safe(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .take(80)
        .collect()
}

/// Writes the page readable by its owner only (it names files, commands
/// and prompts of the session).
fn write_private(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut o = std::fs::OpenOptions::new();
    o.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut o, 0o600);
    o.open(path)?.write_all(text.as_bytes())
}

/// Opens `path` in a browser: the first command of `$BROWSER` (a
/// `:`-separated list; `%s` stands for the file, else it is added last),
/// else the platform's opener. Waits for it (a terminal browser keeps the
/// terminal until it quits).
fn open(path: &Path) -> Result<(), CommandError> {
    let file = path.to_string_lossy().into_owned();
    let (program, args): (String, Vec<String>) = match std::env::var("BROWSER").ok().and_then(|b| {
        b.split(':')
            .map(str::trim)
            .find(|c| !c.is_empty())
            .map(String::from)
    }) {
        Some(cmd) => {
            let mut words: Vec<String> = cmd.split_whitespace().map(String::from).collect();
            let program = words.remove(0);
            if words.iter().any(|w| w.contains("%s")) {
                words = words.into_iter().map(|w| w.replace("%s", &file)).collect();
            } else {
                words.push(file.clone());
            }
            (program, words)
        }
        None if cfg!(target_os = "macos") => ("open".into(), vec![file]),
        None if cfg!(windows) => (
            "cmd".into(),
            vec!["/c".into(), "start".into(), String::new(), file],
        ),
        None => ("xdg-open".into(), vec![file]),
    };
    let started = std::process::Command::new(&program)
        .args(&args)
        .stdin(std::process::Stdio::null())
        .status();
    match started {
        Ok(_) => Ok(()),
        Err(error) => Err(CommandError::ReportOpen {
            program: PathBuf::from(program).display().to_string(),
            error,
        }),
    }
}
