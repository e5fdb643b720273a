//! Opaque findings (issue 26): where the shell reader cannot see what a
//! command does ([`crate::shell::opacity`]), the guard that would own the
//! effect reports `<guard>.opaque` with a plain reason, instead of nothing.
//!
//! - `destructive.opaque`: a program or script computed at run time, a bound
//!   of the reader hit, a recursive delete of a computed path, PowerShell's
//!   computed calls and .NET calls, a delete fed by the PowerShell pipeline;
//! - `secrets.opaque`: the same unknown program or script, and a read that
//!   reaches a secret by a pattern (`cat ./.e?v`, `/proc/*/environ`), out of
//!   git's object store (`git show HEAD:.env`), through an interpreter's
//!   code (`open(".env")`, `os.environ`), by a variable named at run time
//!   (`${!v}`), or the environment printed into an unknown program or file;
//! - `protected-branch.opaque`: the same unknown program or script, and git
//!   spellings that move or delete remote branches without naming them
//!   (`git push --prune`, `git update-ref refs/remotes/…`).
//!
//! The dispatcher keeps an opaque finding quiet unless a policy decides it,
//! and a policy line for the guard caps it at `ask` (`crate::policy`): a
//! person confirms what nobody can read. Only a line for the opaque id
//! itself (`destructive.opaque = "deny"`) denies.

use super::Finding;
use super::argv::{self, git_subcommand, program};
use super::effects::Kind as DestructiveKind;
use super::protected_branch::Kind as BranchKind;
use super::secret_files::classify;
use super::secrets::Kind as SecretsKind;
use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::shell::opacity::{self, Effect, Opaque};
use crate::target;

/// The line `cuecard policy --ids` shows for each guard's opaque id.
pub const DESTRUCTIVE_LINE: &str = "a command whose effect cannot be read (a program or script computed at run time, a launcher or decoder cuecard cannot follow, a path computed at run time, a reader bound hit): asks under a destructive policy, denies only when this id is set";
pub const SECRETS_LINE: &str = "a read that may reach a secret cuecard cannot name (a glob or variable that fits a secret file, git's object store, an interpreter's code, the environment printed through an unknown program, an unreadable command): asks under a secrets policy, denies only when this id is set";
pub const PROTECTED_LINE: &str = "a command that may push or move a branch cuecard cannot name (an unreadable command, `git push --prune`, `git update-ref` of a remote or protected ref): asks under a protected-branch policy, denies only when this id is set";

/// Which guard asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner {
    Destructive,
    Secrets,
    ProtectedBranch,
}

/// The opaque finding of `owner` for this call, if any.
pub fn finding(ctx: &Ctx, owner: Owner) -> Option<Finding> {
    let raw = target::shell_command(ctx)?;
    let cmds = ctx.shell_commands();
    let ps = ctx.tool() == target::ToolKind::PowerShell;
    let found = opacity::find(raw, cmds, ps);
    let own = |o: &&Opaque| match owner {
        Owner::Destructive => matches!(o.effect, Effect::Any | Effect::Delete),
        Owner::Secrets => matches!(o.effect, Effect::Any | Effect::Secret),
        Owner::ProtectedBranch => o.effect == Effect::Any,
    };
    // A secret the command names after all is a secrets `file` finding
    // (`Reach::kind`); every other finding is its guard's opaque kind.
    let (shown, reason, reach) = match found.iter().find(own) {
        Some(o) => (o.shown.clone(), o.reason.to_string(), None),
        None => match owner {
            Owner::Destructive => return None,
            Owner::Secrets => {
                let (shown, reach) = secret_reach(cmds)?;
                (shown, reach.reason().to_string(), Some(reach))
            }
            Owner::ProtectedBranch => {
                let (shown, reason) = branch_move(cmds)?;
                (shown, reason, None)
            }
        },
    };
    let shown = crate::text::sanitize(&shown, 160);
    let f = Finding::new(format!("opaque:{shown}"), format!("`{shown}` {reason}"));
    Some(match owner {
        Owner::Secrets => f
            .kind(reach.map_or(SecretsKind::Opaque, Reach::kind))
            .var("effect", "may reach a secret with")
            .var("path", shown)
            .var("kind", reason),
        Owner::Destructive => f
            .kind(DestructiveKind::Opaque)
            .var("command", shown)
            .var("reason", reason)
            .var("branch", ""),
        Owner::ProtectedBranch => f
            .kind(BranchKind::Opaque)
            .var("command", shown)
            .var("reason", reason)
            .var("branch", ""),
    })
}

/// Programs that name files without reading them.
const NOT_READING: &[&str] = &[
    "ls",
    "echo",
    "printf",
    "rm",
    "rmdir",
    "touch",
    "mkdir",
    "chmod",
    "chown",
    "stat",
    "test",
    "[",
    "[[",
    "cd",
    "which",
    "find",
    "fd",
    "du",
    "wc",
    "file",
    "unlink",
    "shred",
    "ssh-add",
    "ssh",
    "ssh-keygen",
    "export",
    "unset",
    "alias",
];

/// Programs that print the files they are given: a path computed at run
/// time in their words may be a secret one.
const READERS: &[&str] = &[
    "cat",
    "bat",
    "batcat",
    "head",
    "tail",
    "less",
    "more",
    "strings",
    "xxd",
    "od",
    "hexdump",
    "base64",
    "base32",
    "tac",
    "nl",
    "sort",
    "uniq",
    "cut",
    "source",
    ".",
    "type",
    "gc",
    "get-content",
];

/// A path that starts at a directory variable every session has (`$HOME`,
/// `$TMPDIR`, ...) and spells the rest.
fn ordinary_var(w: &str) -> bool {
    // PowerShell's automatic variables name fixed places (the profile
    // script, the running script's folder, the home folder); its variable
    // names are case-insensitive.
    let rest = [
        "$home",
        "${home}",
        "$pwd",
        "${pwd}",
        "$tmpdir",
        "${tmpdir}",
        "$oldpwd",
        "$profile",
        "$psscriptroot",
        "$pscommandpath",
        "$pshome",
        "$env:userprofile",
        "$env:temp",
        "$env:tmp",
    ]
    .iter()
    .fold(w.to_ascii_lowercase(), |acc, k| acc.replace(k, ""));
    !opacity::computed(&rest)
}

/// Names a pattern or a computed part of a path is tried against: what the
/// secret-file table calls secret, in its common spellings.
/// (`credentials.json` and `secrets.yml` are secrets by name, but a
/// `*.json` or `*.yml` pattern is ordinary: they are no samples.)
const SAMPLE_NAMES: &[&str] = &[
    ".env",
    ".env.local",
    ".env.production",
    "id_rsa",
    "id_ed25519",
    "id_ecdsa",
    "credentials",
    ".netrc",
    ".npmrc",
    ".pgpass",
    ".pypirc",
    ".git-credentials",
    "hosts.yml",
    "environ",
    ".ssh",
    ".aws",
    "server.key",
    "cert.pem",
    "kubeconfig",
    "config.json",
];

/// How a command may reach a secret that no path on its line spells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// A pattern or a computed path that fits a secret file.
    GlobRead,
    /// A secret file read out of git's object store.
    GitStore,
    /// An object of git's store named at run time.
    GitComputed,
    /// An interpreter's code that opens a secret file.
    CodeFile,
    /// An interpreter's code that reads the whole environment.
    CodeEnv,
    /// A variable whose name is computed at run time (`${!v}`).
    Indirect,
    /// The whole environment sent through a program or into a file.
    EnvOut,
}

impl Reach {
    /// What the command does, in words (the finding's reason).
    fn reason(self) -> &'static str {
        match self {
            Reach::GlobRead => {
                "reads a file named by a pattern or variable that fits a secret file; which file is known only at run time"
            }
            Reach::GitStore => "reads a secret file out of git's object store",
            Reach::GitComputed => "reads an object of git's store named at run time",
            Reach::CodeFile => "runs code that opens a secret file",
            Reach::CodeEnv => "runs code that reads the whole environment",
            Reach::Indirect => "prints a variable whose name is computed at run time",
            Reach::EnvOut => {
                "sends the whole environment through a program or into a file cuecard does not read"
            }
        }
    }

    /// The finding's kind: a secret the command names after all (`git show
    /// HEAD:.env`, `open(".env")`) is a plain secret-file finding, not an
    /// opaque one.
    fn kind(self) -> SecretsKind {
        match self {
            Reach::GitStore | Reach::CodeFile => SecretsKind::File,
            _ => SecretsKind::Opaque,
        }
    }
}

/// A secret reached in a way no path on the command line spells.
fn secret_reach(cmds: &[SimpleCommand]) -> Option<(String, Reach)> {
    for (i, c) in cmds.iter().enumerate() {
        let shown = || argv::shown(c);
        if c.argv.iter().any(|w| w.contains("${!")) {
            return Some((shown(), Reach::Indirect));
        }
        let prog = program(c);
        if let Some((sub, rest)) = git_subcommand(c) {
            if let Some(r) = git_store(sub, rest) {
                return Some((shown(), r));
            }
            continue;
        }
        if env_dump(c) {
            // Into a pipeline that no selector narrows (`env | sort | grep
            // ^CARGO` is the secrets guard's own call).
            let chain: Vec<&SimpleCommand> = cmds[i + 1..].iter().take_while(|n| n.piped).collect();
            let into_unknown = !chain.is_empty()
                && !chain.iter().any(|n| super::secret_commands::names_only(n))
                && !chain.iter().any(|n| {
                    matches!(
                        program(n).as_str(),
                        "grep"
                            | "egrep"
                            | "fgrep"
                            | "rg"
                            | "wc"
                            | "select-string"
                            | "findstr"
                            | "sls"
                    )
                });
            let to_file = c.redirects.iter().any(|r| {
                r.op.contains('>') && !r.target.starts_with('&') && r.target != "/dev/null"
            });
            if into_unknown || to_file || c.captured {
                return Some((shown(), Reach::EnvOut));
            }
        }
        if let Some(code) = interpreter_code(c) {
            if code_opens_secret(&code) {
                return Some((shown(), Reach::CodeFile));
            }
            if super::secret_code_env::code_reads_env(&code) {
                return Some((shown(), Reach::CodeEnv));
            }
        }
        if NOT_READING.contains(&prog.as_str()) {
            continue;
        }
        let reader = READERS.contains(&prog.as_str());
        let cloud =
            super::effects::family(&prog).is_some_and(|f| f.name == "Cloud and platform CLIs");
        let args = c.args();
        // (`grep -l '^K=' .env*` names the files, printing no line.)
        if super::secret_grammar::search_prints_no_line(&prog, args) {
            continue;
        }
        for (k, w) in args.iter().enumerate().filter(|(_, a)| !a.starts_with('-')) {
            // The option a value belongs to: the word before it, or for a
            // cloud CLI's list of values, the last option before it.
            let prev = k.checked_sub(1).map(|p| args[p].as_str());
            let last_option = args[..k].iter().rev().find(|a| a.starts_with('-'));
            if super::opaque_words::option_value_not_read(prev, w, false)
                || cloud
                    && super::opaque_words::option_value_not_read(
                        last_option.map(String::as_str),
                        w,
                        true,
                    )
            {
                continue;
            }
            let glob = w.contains(['*', '?', '[']);
            // A remote pattern (`s3://bucket/*`) names no local file; a
            // bare wildcard (`*`, `*.*`) given to a program that is not a
            // reader is an argument, not a file read (`SELECT * FROM t`).
            if w.contains("://") || !reader && w.chars().all(|ch| matches!(ch, '*' | '?' | '.')) {
                continue;
            }
            // A `find` substituted for the word finds what its name test
            // allows (`cat $(find . -name foo)` reads files named `foo`).
            let fits = match super::opaque_words::found_by_find(w) {
                Some(found) => found
                    .iter()
                    .any(|f| fits_secret(f) || classify(f).is_some()),
                None => fits_secret(w),
            };
            // (`twine upload dist/*`: every file of a plain folder.)
            let whole_folder = !reader && super::secret_meta::whole_plain_folder(w);
            if (glob && !whole_folder || reader && opacity::computed(w) && !ordinary_var(w)) && fits
            {
                return Some((shown(), Reach::GlobRead));
            }
        }
        for r in &c.redirects {
            if r.op.ends_with('<')
                && fits_secret(&r.target)
                && !super::secret_unlisted::stores_input(c)
            {
                return Some((shown(), Reach::GlobRead));
            }
        }
    }
    None
}

/// git commands that read a file out of the object store.
fn git_store(sub: &str, rest: &[String]) -> Option<Reach> {
    match sub {
        "show" | "cat-file" | "archive" | "grep" | "blame" | "diff" | "log" | "whatchanged" => {}
        _ => return None,
    }
    let mut after_dd = false;
    for w in rest {
        if w == "--" {
            after_dd = true;
            continue;
        }
        if after_dd {
            if classify(w).is_some()
                && (matches!(sub, "blame" | "grep")
                    || matches!(sub, "log" | "diff" | "show" | "whatchanged")
                        && git_shows_patch(sub, rest))
            {
                return Some(Reach::GitStore);
            }
            continue;
        }
        if w.starts_with('-') {
            continue;
        }
        if let Some((_, path)) = w.split_once(':')
            && (classify(path).is_some() || fits_secret(path))
        {
            return Some(Reach::GitStore);
        }
        if sub == "cat-file" && opacity::computed(w) {
            return Some(Reach::GitComputed);
        }
        if matches!(sub, "blame") && classify(w).is_some() {
            return Some(Reach::GitStore);
        }
    }
    None
}

/// Whether a history or diff verb prints the lines of the paths it is
/// given: `log` and `whatchanged` only when a patch is asked for (`-p`,
/// `-U3`, `--word-diff`); `diff` and `show` unless their output is only
/// names or counts (`--stat`, `--name-only`, `-s`). A path after `--`
/// otherwise only filters which commits or files are named
/// (`git log --oneline -- .env` prints commit lines).
fn git_shows_patch(sub: &str, rest: &[String]) -> bool {
    let opts = rest
        .iter()
        .take_while(|w| *w != "--")
        .filter(|w| w.starts_with('-'));
    let mut asked = false;
    let mut names_only = false;
    for o in opts {
        let name = o.split_once('=').map_or(o.as_str(), |(n, _)| n);
        match name {
            "-p" | "-u" | "--patch" | "--patch-with-stat" | "--patch-with-raw" | "--word-diff"
            | "--color-words" | "--cc" | "--full-diff" | "--unified" | "--textconv" => asked = true,
            "--stat" | "--numstat" | "--shortstat" | "--name-only" | "--name-status"
            | "--summary" | "--dirstat" | "--compact-summary" | "-s" | "--no-patch" | "--quiet"
            | "--raw" => names_only = true,
            _ if name.starts_with("-U") || name.starts_with("-L") || name.starts_with("--stat") => {
                if name.starts_with("--stat") {
                    names_only = true
                } else {
                    asked = true
                }
            }
            _ => {}
        }
    }
    asked || matches!(sub, "diff" | "show") && !names_only
}

/// Whether a pattern or a path with computed parts could name a secret
/// file: each such part is tried against [`SAMPLE_NAMES`].
fn fits_secret(word: &str) -> bool {
    let parts: Vec<&str> = word.split('/').collect();
    let mut candidates: Vec<String> = vec![String::new()];
    for (k, part) in parts.iter().enumerate() {
        let options: Vec<String> = if part.contains(['*', '?', '[']) || opacity::computed(part) {
            // A directory part stands for a process (`/proc/*/environ`); the
            // last part for a secret file's name.
            let names: &[&str] = if k + 1 < parts.len() {
                &["self", "1"]
            } else {
                SAMPLE_NAMES
            };
            // A leading wildcard does not match a leading dot (the shell's
            // rule: `*` leaves `.env` out).
            let dot_ok = !part.starts_with(['*', '?', '[']);
            names
                .iter()
                .filter(|n| (dot_ok || !n.starts_with('.')) && glob_match(part, n))
                .map(|n| n.to_string())
                .collect()
        } else {
            vec![part.to_string()]
        };
        let mut next = Vec::new();
        for c in &candidates {
            for o in &options {
                if next.len() >= 256 {
                    break;
                }
                next.push(if k == 0 {
                    o.clone()
                } else {
                    format!("{c}/{o}")
                });
            }
        }
        candidates = next;
    }
    candidates.iter().any(|c| classify(c).is_some())
}

/// A shell glob (`*`, `?`, `[…]`; `$…` and `` `…` `` parts match anything)
/// against a name.
fn glob_match(pat: &str, name: &str) -> bool {
    let p: Vec<char> = pat.chars().collect();
    let n: Vec<char> = name.chars().collect();
    // Computed parts (`$x`, `${x}`, `$(…)`) become `*`.
    let mut q: Vec<char> = Vec::new();
    let mut i = 0;
    while i < p.len() {
        match p[i] {
            '$' | '`' => {
                q.push('*');
                i += 1;
                let mut depth = 0i32;
                while i < p.len() {
                    match p[i] {
                        '(' | '{' => depth += 1,
                        ')' | '}' => {
                            depth -= 1;
                            if depth <= 0 {
                                i += 1;
                                break;
                            }
                        }
                        '`' => {
                            i += 1;
                            break;
                        }
                        c if depth == 0
                            && !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '!') =>
                        {
                            break;
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            c => {
                q.push(c);
                i += 1;
            }
        }
    }
    matches(&q, &n)
}

/// Glob matching, iterative with one backtrack point (linear-ish).
fn matches(p: &[char], n: &[char]) -> bool {
    let (mut pi, mut ni) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ni < n.len() {
        if pi < p.len() && p[pi] == '[' {
            if let Some(end) = p[pi..].iter().position(|&c| c == ']').map(|e| pi + e) {
                let set = &p[pi + 1..end];
                let (neg, set) = match set.first() {
                    Some('!' | '^') => (true, &set[1..]),
                    _ => (false, set),
                };
                let c = n[ni];
                let mut hit = false;
                let mut k = 0;
                while k < set.len() {
                    if k + 2 < set.len() && set[k + 1] == '-' {
                        hit |= set[k] <= c && c <= set[k + 2];
                        k += 3;
                    } else {
                        hit |= set[k] == c;
                        k += 1;
                    }
                }
                if hit != neg {
                    pi = end + 1;
                    ni += 1;
                    continue;
                }
            }
        } else if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
            continue;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ni));
            pi += 1;
            continue;
        }
        match star {
            Some((sp, sn)) => {
                pi = sp + 1;
                ni = sn + 1;
                star = Some((sp, sn + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Programs that print the whole environment.
fn env_dump(c: &SimpleCommand) -> bool {
    let args = c.args();
    match program(c).as_str() {
        "env" | "printenv" => args.iter().all(|a| a.starts_with('-')),
        "set" | "typeset" => args.is_empty(),
        "export" | "declare" => args.iter().all(|a| a.starts_with('-')),
        "compgen" => args.iter().any(|a| a == "-v" || a == "-e"),
        _ => false,
    }
}

/// An interpreter's one-line code (`python -c`, `node -e`, `ruby -e`,
/// `perl -e`).
fn interpreter_code(c: &SimpleCommand) -> Option<String> {
    let prog = program(c);
    let lang = prog.trim_end_matches(|ch: char| ch.is_ascii_digit() || ch == '.');
    let flags: &[&str] = match lang {
        "python" | "pypy" => &["-c"],
        "node" | "nodejs" | "bun" | "ruby" | "perl" => &["-e", "-p", "-E", "--eval", "--print"],
        "php" => &["-r"],
        "lua" | "luajit" | "rscript" | "Rscript" => &["-e"],
        // Julia's `ENV`, Elixir's `System.get_env()`, Groovy's `System.getenv()`.
        "julia" => &["-e", "-E", "--eval", "--print"],
        "elixir" | "groovy" => &["-e"],
        "deno" => &["eval"],
        "awk" | "gawk" | "mawk" | "nawk" => return super::secret_code::awk_program(c.args()),
        _ => return None,
    };
    let args = c.args();
    let k = args.iter().position(|a| {
        flags.contains(&a.as_str())
            || (a.len() > 2
                && a.starts_with('-')
                && !a.starts_with("--")
                && flags.iter().any(|f| a.ends_with(&f[1..])))
    });
    // No script file named (`python3 - <<'PY'`): the heredoc is the code.
    match k {
        Some(k) => args.get(k + 1).cloned(),
        None if args.iter().all(|a| a.starts_with('-')) => c.heredoc.clone(),
        None => None,
    }
}

/// Code with a string literal that names a secret file.
fn code_opens_secret(code: &str) -> bool {
    let quoted = |q: char| {
        code.split(q)
            .skip(1)
            .step_by(2)
            .any(|lit| !lit.is_empty() && lit.len() < 200 && classify(lit).is_some())
    };
    quoted('"') || quoted('\'')
}

/// git spellings that may move or delete a protected remote branch
/// without naming it.
fn branch_move(cmds: &[SimpleCommand]) -> Option<(String, String)> {
    for c in cmds {
        let Some((sub, rest)) = git_subcommand(c) else {
            continue;
        };
        match sub {
            "push" if rest.iter().any(|w| w == "--prune") => {
                return Some((
                    argv::shown(c),
                    "deletes the remote branches that are gone locally: which ones is known only at run time".into(),
                ));
            }
            "update-ref" => {
                let refs: Vec<&String> = rest.iter().filter(|w| !w.starts_with('-')).collect();
                if refs.first().is_some_and(|r| {
                    r.starts_with("refs/remotes/")
                        || r.strip_prefix("refs/heads/")
                            .is_some_and(|b| super::protected_branch::is_protected(b, ""))
                }) {
                    return Some((
                        argv::shown(c),
                        "moves a remote-tracking or protected branch by plumbing, outside `git push`".into(),
                    ));
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_that_fit_a_secret_file() {
        for w in [
            "./.e?v",
            "./.en*",
            "./.[e]nv",
            "/proc/*/environ",
            "/proc/$$/environ",
            "~/.ssh/id_*",
            "~/.aws/cred*",
            "/proc/[0-9]*/environ",
            "$f",
        ] {
            assert!(fits_secret(w), "{w}");
        }
        for w in ["*.rs", "src/*.py", "README*", "$OUT/build.log"] {
            assert!(!fits_secret(w), "{w}");
        }
    }
}
