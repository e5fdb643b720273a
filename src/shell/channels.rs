//! Side channels: ordinary tools that run a command given in one of their
//! options or in their own little language (`git -c core.sshCommand=…`,
//! `git -c alias.x='!…'`, `awk 'BEGIN{system(…)}'`, `vim -c '!…'`,
//! `tar --to-command=…`, `rsync -e …`, `ssh -o ProxyCommand=…`, `sed 'e …'`,
//! `gdb -ex 'shell …'`, `man -P …`, `zip -TT …`, `git submodule foreach …`,
//! `git bisect run …`, `git rebase -x …`), and git's own spellings of one
//! command (abbreviated long options, aliases defined with `-c`, `send-pack`
//! for `push`). Each is read into the commands it runs, so that the guards
//! judge them as if written plainly.

use super::lexer::quote;
use super::unwrap::{CodeEffect, Unwrapped};

/// What the tool `name` runs through a side channel, if anything.
pub(super) fn effects(argv: &[String], name: &str) -> Option<Unwrapped> {
    let scripts: Vec<String> = match name {
        "git" => return git(argv),
        "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk" => awk(argv),
        "vim" | "vi" | "nvim" | "ex" | "view" | "gvim" | "vimdiff" | "less" | "more" => vim(argv),
        "tar" | "gtar" | "bsdtar" => valued(
            argv,
            &[
                "--to-command",
                "--use-compress-program",
                "-I",
                "--rsh-command",
                "--info-script",
                "--new-volume-script",
                "-F",
            ],
        )
        .into_iter()
        .chain(
            argv.iter()
                .filter_map(|a| a.strip_prefix("--checkpoint-action=exec="))
                .map(str::to_string),
        )
        .collect(),
        "rsync" => valued(argv, &["-e", "--rsh", "--rsync-path"]),
        "ssh" => ssh(argv).into_iter().chain(ssh_local(argv)).collect(),
        "scp" | "sftp" => ssh(argv),
        "sed" | "gsed" => return super::sed::effects(argv),
        "gdb" => valued(argv, &["-ex", "--ex", "-eval-command", "--eval-command"])
            .into_iter()
            .filter_map(|c| {
                let c = c.trim_start();
                c.strip_prefix("shell ")
                    .or_else(|| c.strip_prefix('!'))
                    .map(str::to_string)
            })
            .collect(),
        "man" => valued(argv, &["-P", "--pager", "-H", "--html"]),
        "zip" => valued(argv, &["-TT", "--unzip-command"]),
        "make" | "gmake" => {
            return argv
                .iter()
                .any(|a| a.starts_with("--eval=") || a.starts_with("SHELL="))
                .then(|| Unwrapped::Effects(vec![CodeEffect::Shell(eval_recipes(argv))]));
        }
        _ => return None,
    };
    if scripts.is_empty() {
        return None;
    }
    Some(Unwrapped::Effects(
        scripts.into_iter().map(CodeEffect::Shell).collect(),
    ))
}

/// The values of the options `names` (`-e cmd`, `-ecmd` for one-letter
/// options, `--rsh=cmd`, `--rsh cmd`).
fn valued(argv: &[String], names: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut it = argv.iter().skip(1);
    while let Some(a) = it.next() {
        for n in names {
            if a == n {
                if let Some(v) = it.next() {
                    out.push(v.clone());
                }
                break;
            }
            if let Some(v) = a.strip_prefix(&format!("{n}=")) {
                out.push(v.to_string());
                break;
            }
            if n.len() == 2
                && !n.starts_with("--")
                && a.len() > 2
                && a.starts_with(n)
                && !a.starts_with("--")
            {
                out.push(a[2..].to_string());
                break;
            }
        }
    }
    out
}

/// `make --eval='x: ; cmd' x`: the recipes after `;` (a computed makefile
/// otherwise: the whole text is read as a script).
fn eval_recipes(argv: &[String]) -> String {
    argv.iter()
        .filter_map(|a| {
            a.strip_prefix("--eval=")
                .or_else(|| a.strip_prefix("SHELL="))
        })
        .map(|t| t.split_once(';').map_or(t, |(_, r)| r).to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `ssh -o ProxyCommand=cmd`, `-oLocalCommand=cmd`, `-o 'ProxyCommand cmd'`.
fn ssh(argv: &[String]) -> Vec<String> {
    valued(argv, &["-o"])
        .into_iter()
        .filter_map(|o| {
            let (k, v) = o.split_once(['=', ' '])?;
            matches!(
                k.to_ascii_lowercase().as_str(),
                "proxycommand" | "localcommand" | "knownhostscommand"
            )
            .then(|| v.trim().to_string())
        })
        .collect()
}

/// awk's program text: the string literals it hands to `system()`, to a
/// pipe into a command or `getline` from one (every literal of such a
/// program is read as a script: the command is among them).
fn awk(argv: &[String]) -> Vec<String> {
    let Some(prog) = argv
        .iter()
        .skip(1)
        .find(|a| !a.starts_with('-') && !a.contains('=') || a.contains("system"))
    else {
        return Vec::new();
    };
    if !(prog.contains("system")
        || prog.contains("| \"")
        || prog.contains("|\"")
        || prog.contains("|&")
        || prog.contains("| getline")
        || prog.contains("\" |"))
    {
        return Vec::new();
    }
    // `system("rm -rf " $0)`: a literal joined to a field or variable ends
    // in a word computed at run time.
    let mut out = literals(prog);
    let mut from = 0;
    for lit in out.iter_mut() {
        let quoted = format!("\"{lit}\"");
        let Some(at) = prog[from..].find(&quoted).map(|a| from + a + quoted.len()) else {
            continue;
        };
        from = at;
        let next = prog[at..].trim_start().chars().next();
        if next.is_some_and(|c| c == '$' || c.is_ascii_alphabetic() || c == '_') {
            lit.push_str(" $AWK_VALUE");
        }
    }
    out
}

/// The `"…"` literals of a program text.
fn literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut esc = false;
    for c in text.chars() {
        match (&mut cur, c) {
            (Some(s), _) if esc => {
                s.push(c);
                esc = false;
            }
            (Some(_), '\\') => esc = true,
            (Some(s), '"') => {
                out.push(std::mem::take(s));
                cur = None;
            }
            (Some(s), _) => s.push(c),
            (None, '"') => cur = Some(String::new()),
            (None, _) => {}
        }
    }
    out
}

/// vim/ex/less: a `-c`/`+`/`--cmd` command (or a word) that starts with
/// `!` or `:!` runs the rest in a shell; so does `:call system('…')`.
fn vim(argv: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for a in argv.iter().skip(1) {
        let t = a
            .trim_start_matches('+')
            .trim_start_matches(':')
            .trim_start();
        let t = t.strip_prefix("-c").map_or(t, str::trim_start);
        if let Some(cmd) = t.strip_prefix('!') {
            out.push(cmd.to_string());
        } else if let Some(rest) = t.strip_prefix("sil").and_then(|r| r.split_once('!')) {
            out.push(rest.1.to_string());
        } else if t.contains("system(") {
            out.extend(single_or_double(t));
        }
    }
    out
}

/// Literals in `'…'` or `"…"`.
fn single_or_double(text: &str) -> Vec<String> {
    let mut out = literals(text);
    out.extend(literals(&text.replace('\'', "\"")));
    out
}

/// Git's options that take the next word (before the subcommand).
const GIT_GLOBAL_VALUED: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--config-env",
];

/// Config keys whose value git runs as a shell command.
fn runs_value(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    matches!(
        k.as_str(),
        "core.sshcommand"
            | "core.pager"
            | "core.editor"
            | "core.fsmonitor"
            | "core.askpass"
            | "sequence.editor"
            | "diff.external"
            | "gpg.program"
            | "gpg.ssh.program"
            | "credential.helper"
            | "uploadpack.packobjectshook"
            | "core.gitproxy"
    ) || k.starts_with("pager.")
        || k.starts_with("filter.")
        || (k.starts_with("remote.") && (k.ends_with(".uploadpack") || k.ends_with(".receivepack")))
        || (k.starts_with("difftool.") || k.starts_with("mergetool.")) && k.ends_with(".cmd")
        || k.starts_with("alias.")
}

/// Long options of the git subcommands whose abbreviations matter to the
/// guards (git accepts any unambiguous prefix of a long option).
const GIT_LONG: &[(&str, &[&str])] = &[
    (
        "push",
        &[
            "force",
            "force-with-lease",
            "force-if-includes",
            "delete",
            "mirror",
            "prune",
            "all",
            "tags",
            "follow-tags",
            "atomic",
            "no-verify",
            "verify",
            "set-upstream",
            "dry-run",
            "porcelain",
            "quiet",
            "verbose",
            "progress",
            "repo",
            "receive-pack",
            "exec",
            "push-option",
            "signed",
            "thin",
            "no-thin",
            "recurse-submodules",
            "ipv4",
            "ipv6",
        ],
    ),
    (
        "reset",
        &[
            "hard",
            "soft",
            "mixed",
            "merge",
            "keep",
            "quiet",
            "no-quiet",
            "patch",
            "pathspec-from-file",
            "pathspec-file-nul",
            "recurse-submodules",
            "no-refresh",
            "refresh",
        ],
    ),
    (
        "clean",
        &[
            "force",
            "dry-run",
            "quiet",
            "interactive",
            "exclude",
            "exclude-standard",
        ],
    ),
    (
        "checkout",
        &[
            "force",
            "quiet",
            "progress",
            "ours",
            "theirs",
            "track",
            "detach",
            "orphan",
            "merge",
            "patch",
            "conflict",
            "overwrite-ignore",
            "ignore-other-worktrees",
            "recurse-submodules",
        ],
    ),
    (
        "branch",
        &[
            "delete",
            "force",
            "move",
            "copy",
            "list",
            "all",
            "remotes",
            "verbose",
            "quiet",
            "track",
            "set-upstream-to",
            "unset-upstream",
            "contains",
            "merged",
            "no-merged",
            "show-current",
            "edit-description",
        ],
    ),
    (
        "stash",
        &["include-untracked", "all", "keep-index", "quiet", "patch"],
    ),
    (
        "restore",
        &[
            "source", "staged", "worktree", "ours", "theirs", "merge", "patch", "quiet",
        ],
    ),
];

/// The full long option `word` abbreviates for `sub`, if it is an
/// unambiguous abbreviation (not already a full name).
fn expand_long(sub: &str, word: &str) -> Option<String> {
    let opts = GIT_LONG.iter().find(|(s, _)| *s == sub)?.1;
    let body = word.strip_prefix("--")?;
    let (name, value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (body, None),
    };
    let (neg, bare) = match name.strip_prefix("no-") {
        Some(b) if !opts.contains(&name) => ("no-", b),
        _ => ("", name),
    };
    if bare.is_empty() || opts.contains(&bare) {
        return None;
    }
    let matches: Vec<&&str> = opts.iter().filter(|o| o.starts_with(bare)).collect();
    // git prefers an exact prefix of several only when unambiguous; `--for`
    // matches `force` and two more: ambiguous to git, but every reading is a
    // force push, so the first (shortest) stands for all.
    let full = match matches.as_slice() {
        [] => return None,
        [one] => **one,
        many if many.iter().all(|m| m.starts_with("force")) => "force",
        _ => return None,
    };
    Some(match value {
        Some(v) => format!("--{neg}{full}={v}"),
        None => format!("--{neg}{full}"),
    })
}

/// git: a command run through `-c key=value` (an alias, a pager, an ssh
/// command), an alias defined with `-c alias.x=…` and used, an abbreviated
/// long option, `send-pack` (a push by another name), `submodule foreach`,
/// `bisect run`, `rebase -x`.
fn git(argv: &[String]) -> Option<Unwrapped> {
    let mut i = 1;
    let mut config: Vec<(String, String)> = Vec::new();
    let mut globals: Vec<String> = Vec::new();
    while let Some(a) = argv.get(i) {
        if a == "-c" {
            if let Some(kv) = argv.get(i + 1) {
                let (k, v) = kv.split_once('=').unwrap_or((kv, "true"));
                config.push((k.to_string(), v.to_string()));
                if !k.to_ascii_lowercase().starts_with("alias.") {
                    globals.push(a.clone());
                    globals.push(kv.clone());
                }
            }
            i += 2;
        } else if GIT_GLOBAL_VALUED.contains(&a.as_str()) {
            globals.extend(argv[i..(i + 2).min(argv.len())].iter().cloned());
            i += 2;
        } else if a.starts_with('-') {
            globals.push(a.clone());
            i += 1;
        } else {
            break;
        }
    }
    let sub = argv.get(i)?.as_str();
    let rest = &argv[i + 1..];
    let join = |words: &[String]| words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ");
    // An alias defined on this command line and used.
    if let Some((_, v)) = config
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(&format!("alias.{sub}")))
    {
        let script = match v.strip_prefix('!') {
            Some(shell) => format!("{shell} {}", join(rest)),
            None => format!("git {} {v} {}", join(&globals), join(rest)),
        };
        return Some(Unwrapped::Script(script));
    }
    let mut effects: Vec<CodeEffect> = config
        .iter()
        .filter(|(k, v)| {
            runs_value(k) && !k.to_ascii_lowercase().starts_with("alias.") && !v.is_empty()
        })
        .map(|(_, v)| CodeEffect::Shell(v.trim_start_matches('!').to_string()))
        .collect();
    match sub {
        "config" => {
            if let Some(stored) = git_config(rest) {
                effects.push(CodeEffect::Shell(stored));
            }
        }
        "send-pack" => {
            let words: Vec<String> = rest
                .iter()
                .filter(|w| !w.starts_with("--receive-pack") && !w.starts_with("--exec"))
                .cloned()
                .collect();
            return Some(Unwrapped::Script(format!(
                "git {} push {}",
                join(&globals),
                join(&words)
            )));
        }
        "submodule" if rest.iter().any(|w| w == "foreach") => {
            if let Some(s) = rest
                .iter()
                .skip_while(|w| *w != "foreach")
                .skip(1)
                .find(|w| !w.starts_with('-'))
            {
                effects.push(CodeEffect::Shell(s.clone()));
            }
        }
        "bisect" if rest.first().is_some_and(|w| w == "run") && rest.len() > 1 => {
            effects.push(CodeEffect::Argv(rest[1..].to_vec()));
        }
        "rebase" => {
            let mut it = rest.iter();
            while let Some(w) = it.next() {
                if w == "-x" || w == "--exec" {
                    if let Some(s) = it.next() {
                        effects.push(CodeEffect::Shell(s.clone()));
                    }
                } else if let Some(s) = w.strip_prefix("--exec=") {
                    effects.push(CodeEffect::Shell(s.to_string()));
                }
            }
        }
        _ => {}
    }
    // Abbreviated long options: read as the full spelling.
    let mut changed = false;
    let words: Vec<String> = rest
        .iter()
        .map(|w| match expand_long(sub, w) {
            Some(full) => {
                changed = true;
                full
            }
            None => w.clone(),
        })
        .collect();
    if changed {
        let mut script = format!("git {} {sub} {}", join(&globals), join(&words));
        for e in &effects {
            if let CodeEffect::Shell(s) = e {
                script.push('\n');
                script.push_str(s);
            }
        }
        return Some(Unwrapped::Script(script));
    }
    (!effects.is_empty()).then_some(Unwrapped::Effects(effects))
}

/// Environment variables whose value a program runs as a command.
const COMMAND_VARS: &[&str] = &[
    "GIT_SSH_COMMAND",
    "GIT_SSH",
    "GIT_EXTERNAL_DIFF",
    "GIT_PAGER",
    "PAGER",
    "MANPAGER",
    "SYSTEMD_PAGER",
    "GIT_EDITOR",
    "GIT_SEQUENCE_EDITOR",
    "EDITOR",
    "VISUAL",
    "LESSOPEN",
    "LESSCLOSE",
    "BASH_ENV",
    "ENV",
    "PROMPT_COMMAND",
    "GIT_ASKPASS",
    "SSH_ASKPASS",
    "SUDO_ASKPASS",
    "GIT_PROXY_COMMAND",
    "RSYNC_RSH",
];

/// The command in an assignment `NAME=value` whose program runs the value
/// (`GIT_SSH_COMMAND='…'`), if it is one.
pub(super) fn env_command(word: &str) -> Option<String> {
    let (name, value) = word.split_once('=')?;
    if !COMMAND_VARS.contains(&name) || value.is_empty() {
        return None;
    }
    // `LESSOPEN='|cmd %s'`: the pipe marks a command.
    Some(value.trim_start_matches('|').to_string())
}

/// The words of a brace expansion used as a command (`{rm,-rf,~/x}`).
pub(super) fn brace_words(word: &str) -> Option<Vec<String>> {
    let inner = word.strip_prefix('{')?.strip_suffix('}')?;
    if !inner.contains(',') || inner.contains(['{', '}', ' ']) {
        return None;
    }
    Some(inner.split(',').map(str::to_string).collect())
}

/// `git config [--global|--file f|...] key value`: a stored command, run
/// later by git, judged now.
fn git_config(rest: &[String]) -> Option<String> {
    let mut words = Vec::new();
    let mut it = rest.iter();
    while let Some(w) = it.next() {
        if matches!(
            w.as_str(),
            "-f" | "--file" | "--blob" | "--type" | "--default" | "--comment"
        ) {
            it.next();
        } else if !w.starts_with('-') {
            words.push(w);
        }
    }
    let (key, value) = (words.first()?, words.get(1)?);
    // `git config alias.ship 'push -f origin main'`: a git alias is a git
    // command stored under a name the guards cannot read where it is used
    // (a later call's `git ship`), so it is judged where it is defined.
    if key.to_ascii_lowercase().starts_with("alias.") && !value.starts_with('!') {
        return Some(format!("git {value}"));
    }
    runs_value(key).then(|| value.trim_start_matches('!').to_string())
}

/// `ssh localhost 'cmd'`: a remote command that runs on this machine.
fn ssh_local(argv: &[String]) -> Option<String> {
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        if a.starts_with('-') {
            let last = a.chars().last().unwrap_or('-');
            i += if a.len() == 2 && "bcDEeFIiJLlmOoPpQRSWw".contains(last) {
                2
            } else {
                1
            };
            continue;
        }
        break;
    }
    let host = argv.get(i)?;
    let host = host.rsplit('@').next().unwrap_or(host);
    let local = matches!(host, "localhost" | "::1" | "0.0.0.0" | "ip6-localhost")
        || host.starts_with("127.");
    (local && argv.len() > i + 1).then(|| argv[i + 1..].join(" "))
}
