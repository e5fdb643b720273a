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
    let mut package_scripts = Vec::new();
    let mut makes = Vec::new();
    for c in cmds.iter() {
        if let Some((file, targets)) = super::make::make_call(c)
            && let Some(resolved) = c.cwd.resolve(&file)
        {
            makes.push((resolved, targets));
        }
        if let Some((raw, lang)) = script_of(c)
            && let Some(resolved) = c.cwd.resolve(&raw)
        {
            found.push((resolved, lang));
        }
        if let Some(name) = package_script(c)
            && let Some(manifest) = c.cwd.resolve("package.json")
        {
            package_scripts.push((manifest, name));
        }
        if found.len() + package_scripts.len() + makes.len() >= MAX_SCRIPTS {
            break;
        }
    }
    for (makefile, targets) in makes {
        let t = super::target_for(ctx, &makefile);
        if let Some(text) = read_script(&t.path) {
            cmds.extend(shell::parse(&super::make::recipes(&text, &targets)));
        }
    }
    for (manifest, name) in package_scripts {
        let t = super::target_for(ctx, &manifest);
        if let Some(text) = read_script(&t.path)
            && let Ok(json) = serde_json::from_str::<serde_json::Value>(&text)
            && let Some(script) = json
                .get("scripts")
                .and_then(|s| s.get(name.as_str()))
                .and_then(serde_json::Value::as_str)
        {
            cmds.extend(shell::parse(script));
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

/// The name of the `package.json` script a package manager runs (`npm run
/// db:reset`, `pnpm run clean`, `yarn clean`, `bun run wipe`).
fn package_script(c: &SimpleCommand) -> Option<String> {
    let prog = shell::program_name(c.argv.first()?);
    let ops: Vec<&String> = c.args().iter().filter(|a| !a.starts_with('-')).collect();
    let name = match (prog.as_str(), ops.first().map(|s| s.as_str())) {
        ("npm" | "pnpm" | "yarn" | "bun", Some("run" | "run-script")) => ops.get(1)?,
        // `yarn clean`, `pnpm clean`: a script unless a verb of the tool.
        ("yarn" | "pnpm", Some(w)) if !PM_VERBS.contains(&w) => ops.first()?,
        _ => return None,
    };
    Some(name.to_string())
}

/// Package-manager verbs that are not a script's name.
const PM_VERBS: &[&str] = &[
    "install",
    "i",
    "add",
    "remove",
    "rm",
    "uninstall",
    "update",
    "up",
    "upgrade",
    "test",
    "build",
    "start",
    "ci",
    "publish",
    "link",
    "why",
    "list",
    "ls",
    "outdated",
    "audit",
    "init",
    "create",
    "dlx",
    "exec",
    "x",
    "info",
    "view",
    "config",
    "cache",
    "store",
    "workspace",
    "workspaces",
    "set",
    "version",
    "pack",
    "import",
    "dedupe",
    "prune",
    "patch",
    "login",
    "logout",
    "whoami",
    "help",
    "env",
    "node",
    "bin",
    "root",
    "licenses",
    "fetch",
    "rebuild",
    "unlink",
    "global",
    "plugin",
    "constraints",
    "explain",
    "npm",
    "owner",
    "tag",
];

/// Database clients that run a file of SQL (`psql -f x.sql`, `mysql db <
/// x.sql`, `sqlcmd -i x.sql`): the options that name it.
const SQL_FILE_CLIENTS: &[(&str, &[&str])] = &[
    ("psql", &["-f", "--file"]),
    ("mysql", &["--execute-file"]),
    ("mariadb", &["--execute-file"]),
    ("sqlite3", &[]),
    ("duckdb", &["-f"]),
    ("clickhouse-client", &["--queries-file"]),
    ("cockroach", &["--file", "-f"]),
    ("mysqlsh", &["-f", "--file"]),
    ("cqlsh", &["-f", "--file"]),
    ("sqlcmd", &["-i"]),
    ("snowsql", &["-f", "--filename"]),
];

/// The script a command runs and its language, when the command names it
/// (`None`: read the shebang).
fn script_of(c: &SimpleCommand) -> Option<(String, Option<Lang>)> {
    let mut first = c.argv.first()?;
    let mut prog = shell::program_name(first);
    let mut args = c.args();
    // `npx tsx x.ts`, `bunx ts-node x.ts`: the package runner's tool.
    if matches!(prog.as_str(), "npx" | "bunx" | "pnpx") {
        let k = args.iter().position(|a| !a.starts_with('-'))?;
        first = &args[k];
        prog = shell::program_name(first);
        args = &args[k + 1..];
    }
    let stdin = || {
        c.redirects
            .iter()
            .find(|r| r.op == "<")
            .map(|r| r.target.clone())
    };
    if let Some((_, opts)) = SQL_FILE_CLIENTS.iter().find(|(p, _)| *p == prog) {
        let named = args.iter().enumerate().find_map(|(i, a)| {
            opts.iter().find_map(|o| {
                if a == o {
                    args.get(i + 1).cloned()
                } else {
                    a.strip_prefix(o)
                        .and_then(|r| r.strip_prefix('='))
                        .map(str::to_string)
                }
            })
        });
        // The SQL is judged as if given with `-c`.
        return named
            .or_else(stdin)
            .map(|p| (p, Some(Lang::Code("psql", "-c"))));
    }
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
        } else if [".js", ".cjs", ".mjs", ".ts", ".mts", ".cts"]
            .iter()
            .any(|e| lower.ends_with(e))
        {
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
        // `bash -n x.sh` only checks the syntax: nothing runs.
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh"
            if args
                .iter()
                .take_while(|a| a.starts_with('-'))
                .any(|a| !a.starts_with("--") && a.contains('n'))
                || args.windows(2).any(|w| w[0] == "-o" && w[1] == "noexec") =>
        {
            None
        }
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "source" | "." => operand()
            .cloned()
            // `bash < setup.sh`: the script is the shell's input.
            .or_else(|| {
                let code_given = args
                    .iter()
                    .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('c'));
                (prog != "source" && prog != "." && !code_given)
                    .then(stdin)
                    .flatten()
            })
            .map(|p| (p, Some(Lang::Shell))),
        "python" | "python3" | "node" | "ruby" | "perl" | "tsx" | "ts-node" | "bun" => {
            let p = operand()?;
            by_ext(p).map(|l| (p.clone(), Some(l)))
        }
        // `deno run -A scripts/wipe.ts`.
        "deno" => {
            let p = args
                .iter()
                .skip_while(|a| *a != "run")
                .skip(1)
                .find(|a| !a.starts_with('-'))?;
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
