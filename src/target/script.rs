//! Scripts a shell call runs (`bash ./scripts/cleanup.sh`, `sh tools/reset.sh`,
//! `./deploy.sh`, `source env.sh`, `python3 scripts/wipe.py`): the file is read
//! from disk, bounded, without following a link in its last place, never run,
//! and its commands are judged like the call's own (issue 27). A script the
//! agent wrote earlier in the session is on disk by then and is read the
//! same way. One level only: a script's own scripts are not opened.

use super::Call;
use crate::shell::{self, SimpleCommand};

/// The largest script read; a larger one is not judged.
const MAX_SCRIPT: u64 = 64 * 1024;
/// At most this many scripts per call.
const MAX_SCRIPTS: usize = 4;

/// The language a script is written in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
    Shell,
    /// An interpreter and its option that takes code (`python3 -c`).
    Code(&'static str, &'static str),
}

/// Adds the commands of the scripts `cmds` run to `cmds`.
pub fn add_scripts(ctx: &Call, cmds: &mut Vec<SimpleCommand>) {
    let mut found = Vec::new();
    for c in cmds.iter() {
        if let Some((raw, lang)) = script_of(c)
            && let Some(resolved) = c.cwd.resolve(&raw)
        {
            found.push((resolved, lang));
        }
        if found.len() == MAX_SCRIPTS {
            break;
        }
    }
    for (raw, lang) in found {
        let t = super::target_for(ctx, &raw);
        let Some(text) = read_script(&t.path) else {
            continue;
        };
        let lang = match lang {
            Some(l) => l,
            None => match by_shebang(&text) {
                Some(l) => l,
                None => continue,
            },
        };
        match lang {
            Lang::Shell => cmds.extend(shell::parse(&text)),
            Lang::Code(interp, opt) => {
                let quoted = format!("'{}'", text.replace('\'', r"'\''"));
                cmds.extend(shell::parse(&format!("{interp} {opt} {quoted}")));
            }
        }
    }
}

/// The script a command runs and its language, when the command names it
/// (`None`: read the shebang).
fn script_of(c: &SimpleCommand) -> Option<(String, Option<Lang>)> {
    let first = c.argv.first()?;
    let prog = shell::program_name(first);
    let args = c.args();
    let operand = || -> Option<&String> {
        let mut i = 0;
        while let Some(a) = args.get(i) {
            if a == "-c" || a == "-e" || a == "-m" || a == "--eval" || a == "-" {
                return None;
            }
            if a == "-o" || a == "+o" || a == "--rcfile" || a == "--init-file" {
                i += 2;
            } else if a.starts_with('-') || a.starts_with('+') {
                i += 1;
            } else {
                return Some(a);
            }
        }
        None
    };
    let by_ext = |p: &str| -> Option<Lang> {
        let lower = p.to_ascii_lowercase();
        if lower.ends_with(".sh") || lower.ends_with(".bash") || lower.ends_with(".zsh") {
            Some(Lang::Shell)
        } else if lower.ends_with(".py") {
            Some(Lang::Code("python3", "-c"))
        } else if lower.ends_with(".js") || lower.ends_with(".cjs") || lower.ends_with(".mjs") {
            Some(Lang::Code("node", "-e"))
        } else if lower.ends_with(".rb") {
            Some(Lang::Code("ruby", "-e"))
        } else if lower.ends_with(".pl") {
            Some(Lang::Code("perl", "-e"))
        } else {
            None
        }
    };
    match prog.as_str() {
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "source" | "." => {
            operand().map(|p| (p.clone(), Some(Lang::Shell)))
        }
        "python" | "python3" | "node" | "ruby" | "perl" => {
            let p = operand()?;
            by_ext(p).map(|l| (p.clone(), Some(l)))
        }
        // `./deploy.sh`, `scripts/reset.sh`, `bin/setup`: a path of the
        // project's own, not a system program.
        _ if first.contains('/')
            && !["/usr/", "/bin/", "/sbin/", "/opt/", "/nix/", "/snap/"]
                .iter()
                .any(|d| first.starts_with(d)) =>
        {
            Some((first.clone(), by_ext(first)))
        }
        _ => None,
    }
}

/// The language a shebang names.
fn by_shebang(text: &str) -> Option<Lang> {
    let line = text.lines().next()?.strip_prefix("#!")?;
    let mut words = line.split_whitespace();
    let mut prog = shell::program_name(words.next()?);
    if prog == "env" {
        prog = shell::program_name(words.find(|w| !w.starts_with('-'))?);
    }
    match prog.as_str() {
        "bash" | "sh" | "zsh" | "dash" | "ksh" => Some(Lang::Shell),
        p if p.starts_with("python") => Some(Lang::Code("python3", "-c")),
        "node" => Some(Lang::Code("node", "-e")),
        "ruby" => Some(Lang::Code("ruby", "-e")),
        "perl" => Some(Lang::Code("perl", "-e")),
        _ => None,
    }
}

/// The script's text: a regular file (a link in its last place refused, a
/// FIFO not waited on), at most [`MAX_SCRIPT`] bytes, UTF-8.
fn read_script(path: &std::path::Path) -> Option<String> {
    crate::fsutil::read_text_whole(path, false, MAX_SCRIPT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_a_fifo_or_a_large_file_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.sh");
        std::fs::write(&real, "rm -rf /srv\n").unwrap();
        assert_eq!(read_script(&real).as_deref(), Some("rm -rf /srv\n"));
        #[cfg(unix)]
        {
            let link = dir.path().join("link.sh");
            std::os::unix::fs::symlink(&real, &link).unwrap();
            assert_eq!(read_script(&link), None, "a link is not followed");
            let fifo = dir.path().join("fifo.sh");
            let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
            assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
            assert_eq!(read_script(&fifo), None, "a FIFO is not waited on");
        }
        let big = dir.path().join("big.sh");
        std::fs::write(&big, "#".repeat(MAX_SCRIPT as usize + 1)).unwrap();
        assert_eq!(read_script(&big), None);
    }

    #[test]
    fn which_words_name_a_script() {
        let of = |line: &str| {
            let cmds = shell::parse(line);
            script_of(&cmds[0]).map(|(p, _)| p)
        };
        assert_eq!(of("bash -eu ./x.sh").as_deref(), Some("./x.sh"));
        assert_eq!(of("bash -o pipefail x.sh").as_deref(), Some("x.sh"));
        assert_eq!(of("source env.sh").as_deref(), Some("env.sh"));
        assert_eq!(of("./deploy.sh prod").as_deref(), Some("./deploy.sh"));
        assert_eq!(of("python3 -m pytest"), None);
        assert_eq!(of("python3 tool.txt"), None);
        assert_eq!(of("/usr/bin/env ls"), None);
        assert_eq!(of("ls scripts/"), None);
    }
}
