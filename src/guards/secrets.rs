//! `secrets`: a call whose target is a secret, whatever the verb (reading,
//! copying, archiving, encoding, sending), and content or a command line
//! that carries a live-looking credential.
//!
//! Files are judged by name and place ([`super::secret_files`]); the words of
//! a command are read as paths except where the program takes text, not
//! files (`echo "… .env …"`, a `git commit -m` message, a grep pattern) or
//! where the verb neither reads a secret out nor moves it (`ls`, `touch`,
//! `rm`, `chmod`, `source`, `ssh -i`, `ssh-keygen`, `docker --env-file`).
//! Copy destinations are not sources (`cp .env.example .env` creates a
//! secret file from its template, it exposes nothing).
//!
//! The advisory never repeats the secret: it names the kind and the file.

use super::argv;
use super::secret_files::{self, SecretClass};
use super::{Finding, FindingKind, Guard};
use super::{secret_commands, secret_grammar as grammar, secret_readers as readers, secret_tokens};
use crate::context::Ctx;
use crate::shell::SimpleCommand;
use crate::target::{self, ToolKind};
use std::io::Read;

pub struct Secrets;

/// The kind of a secrets finding (policy id `secrets.<kind>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A secret file on a command line that also sends data out.
    Exfiltration,
    /// A secret file read, copied or named.
    File,
    /// A command that prints a secret.
    Printed,
    /// A live-looking credential on a command line or in written content.
    Token,
    /// A read that may reach a secret cuecard cannot name
    /// ([`super::opaque`]).
    Opaque,
}

impl Kind {
    /// Every kind, in the order the guard lists them.
    pub const ALL: &[Kind] = &[
        Kind::Exfiltration,
        Kind::File,
        Kind::Printed,
        Kind::Token,
        Kind::Opaque,
    ];

    /// The kind an id names.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::ALL.iter().copied().find(|k| k.id() == id)
    }

    /// The stable id a policy names.
    pub const fn id(self) -> &'static str {
        match self {
            Kind::Exfiltration => "exfiltration",
            Kind::File => "file",
            Kind::Printed => "printed",
            Kind::Token => "token",
            Kind::Opaque => crate::finding::OPAQUE,
        }
    }
}

impl FindingKind for Kind {
    fn id(self) -> &'static str {
        Kind::id(self)
    }
}

/// The kinds of finding (policy ids `secrets.<kind>`), one line each of
/// [`Kind::ALL`], in its order.
const KINDS: &[(&str, &str)] = &[
    (
        Kind::Exfiltration.id(),
        "a secret sent over the network: a secret file on a command line that also sends data (curl, scp, nc, ...), or a secret a command prints piped into a sender or placed into a request",
    ),
    (
        Kind::File.id(),
        "a secret file read, copied or named by a call",
    ),
    (
        Kind::Printed.id(),
        "a command that prints a secret into the conversation",
    ),
    (
        Kind::Token.id(),
        "a live-looking credential on a command line or written into a file",
    ),
    (Kind::Opaque.id(), super::opaque::SECRETS_LINE),
];

/// Programs that send data over the network: a secret file on their
/// command line is on its way out.
const SENDERS: &[&str] = &[
    "curl", "wget", "http", "https", "xh", "nc", "ncat", "netcat", "socat", "scp", "sftp", "rsync",
    "ftp", "ssh", "telnet",
];

/// How much of an `.npmrc`-style file is read to look for a token.
const HEAD_BYTES: u64 = 4 * 1024;

impl Guard for Secrets {
    fn name(&self) -> &'static str {
        "secrets"
    }
    fn events(&self) -> &'static [&'static str] {
        &["PreToolUse"]
    }
    fn placeholders(&self) -> &'static [&'static str] {
        &["kind", "path", "effect"]
    }
    fn kinds(&self) -> &'static [(&'static str, &'static str)] {
        KINDS
    }
    fn check(&self, ctx: &Ctx) -> Option<Finding> {
        if let Some(command) = target::shell_command(ctx) {
            let cmds = ctx.shell_commands();
            // A verb of a pack the user added (`[effects]` in config.toml):
            // the user's word on their own tool comes before the generic
            // rules (the secret-store rule would take `vaultctl reveal`).
            let packs = super::effects::packs::of(ctx);
            for c in cmds.iter().filter(|_| !packs.is_empty()) {
                let (tool, args) = super::effects::tool(c);
                // The pack's id is one of KINDS (checked when it was read),
                // and each of them is a Kind (`kinds_tests`).
                if let Some(p) = super::effects::packs::hit(&packs, "secrets", &tool, args)
                    && !super::effects::inert_args(&tool, args)
                    && let Some(kind) = Kind::from_id(p.kind)
                {
                    let shown = format!("{tool} {}", p.words.join(" "));
                    return Some(
                        Finding::new(
                            format!("secrets:pack:{shown}"),
                            format!("`{shown}` is `secrets.{}` by your [effects] pack", p.kind),
                        )
                        .kind(kind)
                        .var("effect", "handles a secret with")
                        .var("path", shown)
                        .var("kind", "a secret (your [effects] pack)"),
                    );
                }
            }
            for (i, c) in cmds.iter().enumerate() {
                let fed = fed_literal(&cmds[..i], c);
                if let Some((word, kind)) = secret_in_command(ctx, fed.as_ref().unwrap_or(c))
                    && !super::secret_filters::env_names_only(c, &word, kind, &cmds[i + 1..])
                {
                    let sends = cmds
                        .iter()
                        .any(|c| SENDERS.contains(&super::argv::program(c).as_str()));
                    let f = file_finding(ctx, &word, kind);
                    return Some(if sends { f.kind(Kind::Exfiltration) } else { f });
                }
                if let Some(p) = secret_commands::printed(c, &cmds[i + 1..])
                    && !super::secret_meta::shown_only_tested(command, &p.kind)
                {
                    let (verb, effect, kind) = if p.sent {
                        (
                            "sent",
                            "sends a secret over the network with",
                            Kind::Exfiltration,
                        )
                    } else {
                        ("printed", "prints a secret with", Kind::Printed)
                    };
                    let message = if p.sent {
                        format!("`{}` sends {} over the network", p.shown, p.kind)
                    } else {
                        format!("`{}` prints {} into the conversation", p.shown, p.kind)
                    };
                    return Some(
                        Finding::new(format!("secrets:{verb}:{}", p.shown), message)
                            .kind(kind)
                            .var("effect", effect)
                            .var("path", p.shown)
                            .var("kind", p.kind),
                    );
                }
            }
            if let Some((name, kind)) = super::secret_relay::relayed(command, cmds) {
                let shown = format!("${name}");
                return Some(
                    Finding::new(
                        format!("secrets:printed:{shown}"),
                        format!("`{shown}` holds {kind} and is printed into the conversation"),
                    )
                    .kind(Kind::Printed)
                    .var("effect", "prints a secret with")
                    .var("path", shown)
                    .var("kind", kind),
                );
            }
            if let Some(kind) = secret_tokens::find(command)
                .or_else(|| secret_tokens::header_credential(command))
                .or_else(|| secret_tokens::password_option(command, cmds))
            {
                return Some(
                    Finding::new(
                        format!("secrets:command:{kind}"),
                        format!("the command line carries a live-looking {kind}"),
                    )
                    .kind(Kind::Token)
                    .var("effect", "carries a live-looking credential on")
                    .var("path", "the command line")
                    .var("kind", kind),
                );
            }
            return super::opaque::finding(ctx, super::opaque::Owner::Secrets);
        }
        match ctx.tool() {
            ToolKind::Read => {
                // One file, or several (`file_paths`: a harness whose read
                // tool takes a list, Cline's `read_files`): each is judged.
                let first = ctx
                    .payload
                    .input_str("file_path")
                    .or_else(|| ctx.payload.input_str("notebook_path"));
                let more = ctx
                    .payload
                    .tool_input()
                    .and_then(|i| i.get("file_paths"))
                    .and_then(serde_json::Value::as_array)
                    .into_iter()
                    .flatten()
                    .filter_map(serde_json::Value::as_str);
                return first
                    .into_iter()
                    .chain(more)
                    .find_map(|p| judge_path(ctx, p).map(|kind| file_finding(ctx, p, kind)));
            }
            ToolKind::Grep => {
                // Names or counts of the matching files show no line of
                // them. (Without a mode, Claude Code's `Grep` lists names,
                // but the search tools of other harnesses, read as the same
                // kind, print lines: only a mode given counts.)
                let mode = ctx.payload.input_str("output_mode");
                if matches!(mode, Some("files_with_matches" | "count")) {
                    return None;
                }
                if let Some(p) = ctx.payload.input_str("path")
                    && let Some(kind) = judge_path(ctx, p)
                {
                    return Some(file_finding(ctx, p, kind));
                }
                // A glob that picks secret files (`.env*`, `**/*.pem`).
                let glob = ctx.payload.input_str("glob")?;
                let last = glob.rsplit('/').next().unwrap_or(glob);
                return [last.replace('*', ""), last.replace('*', "x")]
                    .iter()
                    .find_map(|g| judge_path(ctx, g).map(|kind| file_finding(ctx, glob, kind)));
            }
            _ => {}
        }
        for (t, content) in target::written_content(ctx) {
            // A credential written into a secret file (a `.env`, a key file)
            // is where it belongs; into anything else, it is a leak waiting
            // for a commit.
            if secret_files::classify(&t.shown).is_some() {
                continue;
            }
            if let Some(kind) = secret_tokens::find(&content) {
                return Some(
                    Finding::new(
                        format!("secrets:{}:{kind}", t.shown),
                        format!(
                            "content written to {} carries a live-looking {kind}",
                            t.shown
                        ),
                    )
                    .kind(Kind::Token)
                    .var("effect", "writes a live-looking credential into")
                    .var("path", t.shown)
                    .var("kind", kind),
                );
            }
        }
        None
    }
}

/// The command `xargs` runs with the words a literal `echo`/`printf`
/// before it hands over (`echo /etc/shadow | xargs cat` reads
/// `/etc/shadow`): the shell reader's [`crate::shell::fed_words`].
fn fed_literal(before: &[SimpleCommand], c: &SimpleCommand) -> Option<SimpleCommand> {
    let prev = before.last().filter(|_| c.fed && c.piped)?;
    let mut argv = c.argv.clone();
    argv.extend(crate::shell::fed_words(&prev.argv)?);
    Some(SimpleCommand { argv, ..c.clone() })
}

fn file_finding(ctx: &Ctx, raw: &str, kind: &'static str) -> Finding {
    let shown = target::target_for(ctx, raw).shown;
    Finding::new(
        format!("secrets:{shown}"),
        format!("the call targets {shown} ({kind})"),
    )
    .kind(Kind::File)
    .var("effect", "reads, copies or sends")
    .var("path", shown)
    .var("kind", kind)
}

/// The kind of secret a path holds, reading the head of `.npmrc`-style
/// files (bounded) to see whether they carry a token.
fn judge_path(ctx: &Ctx, raw: &str) -> Option<&'static str> {
    let head = || {
        let path = target::target_for(ctx, raw).path;
        let mut head = Vec::new();
        crate::fsutil::open_regular(&path, true)
            .ok()?
            .0
            .take(HEAD_BYTES)
            .read_to_end(&mut head)
            .ok()?;
        Some(String::from_utf8_lossy(&head).into_owned())
    };
    match secret_files::classify(raw) {
        Some(SecretClass::Secret(kind)) => Some(kind),
        Some(SecretClass::IfTokens(kind)) => secret_files::has_token(&head()?).then_some(kind),
        // Key material by its header, in a file whose name says nothing
        // (`certs/server.crt` bundling its key, `keys/deploy`).
        None if super::credential_files::may_hold_key(raw) => {
            super::credential_files::private_key_block(&head()?)
                .then_some("a private key (by its header)")
        }
        None => None,
    }
}

/// Programs whose arguments are text, or that use or manage a secret file
/// without reading it out or moving it.
const QUIET_PROGRAMS: &[&str] = &[
    "wc",
    // Its operands are variables' names (`printenv HOME KUBECONFIG`).
    "printenv",
    "test-path",
    "echo",
    "printf",
    "touch",
    "rm",
    "unlink",
    "rmdir",
    "shred",
    "chmod",
    "chown",
    "chgrp",
    "ls",
    // PowerShell's listings and path tests.
    "get-childitem",
    "gci",
    "dir",
    "get-item",
    "gi",
    "resolve-path",
    "split-path",
    "stat",
    "test",
    "[",
    "[[",
    "mkdir",
    "source",
    ".",
    "export",
    "set",
    "unset",
    "cd",
    "pushd",
    "which",
    "ssh",
    "ssh-add",
    "ssh-keygen",
    "ssh-copy-id",
    "docker",
    "docker-compose",
    "podman",
    "dotenv",
    "env-cmd",
    "direnv",
    "gitleaks",
    "trufflehog",
    "detect-secrets",
    "git-secrets",
    "kubectl",
    "helm",
    "terraform",
    // Encryption tools manage a secret file (their decrypting and
    // exporting forms are printers: `sops -d`, `gpg --export-secret-keys`).
    "sops",
    "age",
    "age-keygen",
    "rage",
    "ansible-vault",
    "gpg",
    "gpg2",
    // Writers of their operands (`tee -a .env` prints its input, not the
    // file), and what prints a file's name, type, size or digest.
    "tee",
    "truncate",
    "realpath",
    "readlink",
    "basename",
    "dirname",
    "file",
    "du",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "shasum",
    "b2sum",
    "cksum",
    "code",
    "vi",
    "subl",
    "micro",
    "hx",
    "vim",
    "nvim",
    "nano",
    "emacs",
];

/// Programs whose first operand is a pattern, not a file.
const PATTERN_FIRST: &[&str] = &["grep", "egrep", "fgrep", "rg", "ag", "ack", "sed", "awk"];

/// Programs whose last operand is a destination, not a source.
const DEST_LAST: &[&str] = &["cp", "mv", "rsync", "install", "ln", "scp"];

/// Options whose value is not a file that is read (outputs, messages).
const VALUE_NOT_READ: &[&str] = &["-o", "--output", "-m", "--message", "-e", "--regexp"];

/// Long options whose value is text a person reads (a title, a body, a
/// comment), not a file: `gh pr create --body ".env"` names `.env` in prose
/// and reads nothing (`--body-file .env` still does).
const TEXT_OPTIONS: &[&str] = &[
    "--body",
    "--comment",
    "--title",
    "--description",
    "--message",
    "--subject",
    "--note",
    "--notes",
    "--summary",
    "--text",
    "--reason",
];

/// The first word of `c` that names a secret the command reads or moves.
fn secret_in_command(ctx: &Ctx, c: &SimpleCommand) -> Option<(String, &'static str)> {
    // Input redirections read their file, whatever the program, unless
    // it stores or logs in with what it reads (`gh secret set K < token.txt`).
    for r in &c.redirects {
        let op = r.op.trim_start_matches(|ch: char| ch.is_ascii_digit());
        // (A counter's input shows no line: `wc -c < ~/.ssh/id_rsa`.)
        let counts = c.argv.first().is_some_and(|p| {
            super::secret_meta::INPUT_UNSHOWN.contains(&crate::shell::program_name(p).as_str())
        });
        if op != "<" || counts || super::secret_unlisted::stores_input(c) {
            continue;
        }
        // (A constant substitution, `< $(echo .env)`, arrives read by the
        // shell reader.)
        if let Some(kind) = judge_path(ctx, &r.target) {
            return Some((r.target.clone(), kind));
        }
    }
    let program = crate::shell::program_name(c.argv.first()?);
    // A command run in a container (`docker exec app cat /run/secrets/db`,
    // `podman run -v ~/.ssh:/k alpine cat /k/id_rsa`): a secret read there
    // is read all the same.
    if let Some(argv) = crate::shell::container_tool(&program)
        .then(|| crate::shell::container_command(c.args()))
        .flatten()
        .map(|inside| inside.command().to_vec())
        .filter(|argv| !argv.is_empty())
    {
        // A shell in the container runs its script (`docker exec app sh -c
        // 'cat .env'`).
        if let [sh, dash_c, script, ..] = argv.as_slice()
            && matches!(
                crate::shell::program_name(sh).as_str(),
                "sh" | "bash" | "zsh" | "ash" | "dash"
            )
            && dash_c == "-c"
        {
            return crate::shell::parse(script)
                .iter()
                .find_map(|inner| secret_in_command(ctx, inner));
        }
        let inner = SimpleCommand {
            argv,
            redirects: Vec::new(),
            ..c.clone()
        };
        return secret_in_command(ctx, &inner);
    }
    // A container copy moves the file itself, either way.
    for w in super::secret_copies::container_copy(&program, c.args()) {
        if let Some(kind) = judge_path(ctx, w) {
            return Some((w.to_string(), kind));
        }
    }
    // (An editor run without a screen that prints its file is a reader.)
    if QUIET_PROGRAMS.contains(&program.as_str()) && !grammar::editor_prints(&program, c.args()) {
        return None;
    }
    let args = c.args();
    // (A version control's `add secrets` stages files: not a store.)
    if !matches!(program.as_str(), "git" | "hg" | "jj" | "sl" | "svn" | "dvc")
        && !grammar::is_reader(&program)
        && (super::secret_unlisted::stores_files(c)
            || super::secret_meta::metadata(&program, &super::effects::leading_words(args, 6)))
    {
        return None;
    }
    // What openssl prints of a key depends on its subcommand and options.
    if program == "openssl" && readers::openssl_quiet(args) {
        return None;
    }
    // Counting, testing or naming the files that match prints no line of
    // them (`grep -c '^API_KEY=' .env` is how the card says to check).
    if grammar::search_prints_no_line(&program, args) {
        return None;
    }
    // A reader told to print nothing of what it reads (`diff -q`, `cmp -s`).
    if grammar::silent(&program, args) {
        return None;
    }
    if program == "git" {
        // Staging or committing a secret file publishes it, and `diff
        // --no-index` prints two files; other git verbs (`rm --cached`,
        // `check-ignore`, `log -- .env`) do not read it out.
        let sub = args.iter().find(|a| !a.starts_with('-'))?;
        let files_diffed = sub == "diff"
            && args.iter().any(|a| a == "--no-index")
            && !argv::has_flag(args, 'q', &["quiet", "name-only", "name-status", "stat"]);
        if sub != "add" && sub != "commit" && sub != "stash" && !files_diffed {
            return None;
        }
    }
    // Operands and option values, in order.
    let mut operands: Vec<&str> = Vec::new();
    let mut skip_next = false;
    let mut after_dashdash = false;
    let mut pattern_given = false;
    for a in args {
        if skip_next {
            skip_next = false;
            continue;
        }
        if !after_dashdash && a == "--" {
            after_dashdash = true;
            continue;
        }
        if !after_dashdash && a.starts_with('-') && a.len() > 1 {
            // Key material used to log in or verify (`scp -i key`, `curl
            // --cert c.pem`) is not read out.
            if let Some(next) = readers::auth_option(&program, a) {
                skip_next = next;
                continue;
            }
            // A reader's own grammar says which of its options take a
            // value (`less -m f` is a flag, `grep -m 1 f` a count).
            if let Some(next) = grammar::value_next(&program, a) {
                pattern_given |= grammar::gives_pattern(&program, a);
                skip_next = next;
                continue;
            }
            let name = a.split_once('=').map_or(a.as_str(), |(n, _)| n);
            if TEXT_OPTIONS.contains(&name) {
                skip_next = !a.contains('=');
                continue;
            }
            if VALUE_NOT_READ.contains(&a.as_str()) {
                skip_next = true;
                if matches!(a.as_str(), "-e" | "--regexp") {
                    pattern_given = true;
                }
                continue;
            }
            // `--file=.env`, `-d@.env`: check the attached value.
            if let Some((_, v)) = a.split_once('=') {
                operands.push(v);
            } else if let Some(v) = a.strip_prefix("-d").or_else(|| a.strip_prefix("-T"))
                && !v.is_empty()
            {
                operands.push(v);
            }
            continue;
        }
        operands.push(a);
    }
    if PATTERN_FIRST.contains(&program.as_str()) && !pattern_given && !operands.is_empty() {
        operands.remove(0);
    }
    // Braces arrive expanded by the shell reader (`cp .env{,.bak}` is `cp
    // .env .env.bak`), so a copy's destination is the last word.
    let mut words: Vec<String> = operands.iter().map(|w| w.to_string()).collect();
    if DEST_LAST.contains(&program.as_str()) && words.len() > 1 {
        words.pop();
    }
    // An edit in place (`sed -i 's/^DEBUG=.*/DEBUG=1/' .env`, `perl -pi -e
    // … .env`) prints nothing of its files, as the Edit tool does not.
    if readers::edits_in_place(&program, args) {
        words.clear();
    }
    let members = match program.as_str() {
        "tar" | "gtar" | "bsdtar" => readers::tar_members(args),
        "sed" | "gsed" => readers::sed_reads(args),
        _ => Vec::new(),
    };
    // A substitution that only echoes constants (`cat $(echo .env)`) comes
    // read by the shell reader: its output is the word.
    for word in words.iter().chain(&members) {
        for candidate in path_candidates(word, grammar::is_reader(&program)) {
            if let Some(kind) = judge_path(ctx, candidate) {
                // A password manager opening its own database
                // (`keepassxc-cli ls vault.kdbx`) is judged by its verb.
                if kind == secret_files::PASSWORD_STORE && super::secret_stores::is_store(&program)
                {
                    continue;
                }
                return Some((candidate.to_string(), kind));
            }
            // From the directory the command moved to (`cd ~/.aws && cat
            // credentials`).
            if c.cwd != crate::shell::Cwd::Start
                && let Some(moved) = c.cwd.resolve(candidate)
                && let Some(kind) = judge_path(ctx, &moved)
            {
                return Some((moved, kind));
            }
        }
    }
    None
}

/// The paths a word may name: itself, after a curl-style `@`, after `=@`
/// (`-F file=@.env`), a `host:path` remote, and the operand of `--x=path`.
/// A word with a space is a file name when the program is a reader
/// (`files`: `cat "my secrets.pem"`), else only when it starts like a path.
fn path_candidates(word: &str, files: bool) -> Vec<&str> {
    let mut out = Vec::with_capacity(2);
    let at = word.starts_with('@');
    let w = word.strip_prefix('@').unwrap_or(word);
    // A sentence is no path, but curl's `@file` is one, spaces and all, and
    // so is a word that starts like one (`~/Library/Application Support/…`).
    let drive = w.as_bytes().get(1) == Some(&b':')
        && w.as_bytes().first().is_some_and(u8::is_ascii_alphabetic)
        && matches!(w.as_bytes().get(2), Some(b'\\' | b'/'));
    let rooted = (drive
        || ["/", "~/", "$HOME/", "${HOME}/", "$env:"]
            .iter()
            .any(|p| w.starts_with(p)))
        && !w.contains('\n');
    if w.contains(' ') && !at && !rooted && (!files || w.contains('\n')) {
        return out;
    }
    // A URL names something on another machine (`curl https://x/.env`).
    if w.split_once("://").is_some_and(|(scheme, _)| {
        !scheme.eq_ignore_ascii_case("file")
            && scheme
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'+')
    }) {
        return out;
    }
    out.push(w);
    if let Some((_, after)) = w.split_once("=@") {
        out.push(after);
    } else if let Some((_, after)) = w.split_once('=') {
        out.push(after);
    }
    if let Some((host, path)) = w.split_once(':')
        && !host.contains('/')
        && host.len() > 1
    {
        out.push(path);
    }
    out
}
