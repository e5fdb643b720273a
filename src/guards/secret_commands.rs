//! Commands that print a secret rather than read it from a file: the whole
//! environment (`printenv`, `env` or `export -p` alone), a variable whose
//! name says it holds a credential (`echo $AWS_SECRET_ACCESS_KEY`), and the
//! credential commands of CLIs (`gh auth token`, `aws secretsmanager
//! get-secret-value`, `kubectl get secret -o yaml`, `vault kv get`,
//! `op read`, ...), in a table.
//!
//! Printed means shown: output captured by a substitution
//! (`TOKEN=$(gh auth token)`), redirected to a file, or piped into a program
//! that consumes it (`gh auth token | docker login --password-stdin`) shows
//! nothing; piped into a filter (`env | grep KEY`) it is still shown.

use super::argv::{operands, program};
pub(super) use super::secret_filters::names_only;
use super::secret_filters::{FILTERS, grep_pattern, passes_on, secret_pattern};
use super::secret_network::{sends_input, sent_or_fetched};
use super::secret_printers::{
    names_a_secret_setting, only_plain_fields, pass_shows, to_output_file,
};
use crate::shell::SimpleCommand;

/// The credential commands of CLIs live in the effect model's tables
/// ([`effects::tables::SECRET_PRINTERS`]), with the generic rule for cloud
/// and platform CLIs ([`effects::secret_verb`]).
use super::effects::{self, tables, tables::SECRET_PRINTERS as PRINTERS};

/// Commands that export private keys: a secret whether shown or written to
/// a file (`gpg --export-secret-keys -a > keys.asc` copies the keyring's
/// secret out).
const EXPORTERS: &[(&str, &str, &str)] = &[
    ("gpg", "--export-secret-keys", "GnuPG private keys"),
    ("gpg", "--export-secret-subkeys", "GnuPG private keys"),
    ("gpg", "--export-secret-key", "GnuPG private keys"),
    ("gpg2", "--export-secret-keys", "GnuPG private keys"),
    ("gpg2", "--export-secret-key", "GnuPG private keys"),
    ("gpg2", "--export-secret-subkeys", "GnuPG private keys"),
];

/// Whether the word `a` is the option `n`: as it is, with `=value`, or (a
/// short option) with its value attached (`-oyaml`, `-ojsonpath=…`).
fn needs(a: &str, n: &str) -> bool {
    a.strip_prefix(n).is_some_and(|rest| {
        let off = rest.strip_prefix('=').is_some_and(|v| {
            matches!(
                v.to_ascii_lowercase().as_str(),
                "false" | "0" | "no" | "off"
            )
        });
        (rest.is_empty() || rest.starts_with('=') || n.len() == 2) && !off
    })
}

/// Words in a variable's name that say it holds a credential.
const SECRET_NAME_WORDS: &[&str] = &[
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASSWD",
    "API_KEY",
    "APIKEY",
    "PRIVATE_KEY",
    "ACCESS_KEY",
    "CREDENTIAL",
    "AUTH",
    "KEY",
    "PASS",
    "PAT",
];

/// Whether a variable's name says it holds a credential
/// (`AWS_SECRET_ACCESS_KEY`, `GITHUB_TOKEN`; not `TOKENIZERS_PARALLELISM`).
pub fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    const NOT_VALUES: &[&str] = &[
        "_FILE", "_PATH", "_URL", "_SOCK", "_DIR", "_HOST", "_PORT", "_TYPE", "_REGION",
    ];
    if NOT_VALUES.iter().any(|s| upper.ends_with(s)) {
        return false;
    }
    SECRET_NAME_WORDS.iter().any(|w| {
        upper.match_indices(w).any(|(at, _)| {
            let before = at == 0 || upper.as_bytes()[at - 1] == b'_';
            let end = at + w.len();
            let after = end == upper.len() || upper.as_bytes()[end] == b'_';
            before && after
        })
    }) || {
        // A noun joined to its owner (`PGPASSWORD`, `GITHUBTOKEN`,
        // `CLIENTSECRET`), and MySQL's `MYSQL_PWD` (a `PWD` part, not the
        // working directory `PWD` itself).
        let segs: Vec<&str> = upper.split('_').collect();
        segs.iter().any(|s| {
            ["PASSWORD", "PASSWD", "TOKEN", "SECRET"]
                .iter()
                .any(|w| s.len() > w.len() + 1 && s.ends_with(w))
        }) || segs.len() > 1 && segs.last() == Some(&"PWD")
    }
}

/// The secret-holding variables a word expands (`$NAME`, `${NAME}`,
/// `$env:NAME`).
pub(super) fn secret_vars(word: &str) -> Option<String> {
    for (at, _) in word.match_indices('$') {
        let rest = &word[at + 1..];
        let rest = rest
            .strip_prefix("env:")
            .or_else(|| rest.strip_prefix('{'))
            .unwrap_or(rest);
        // `${#NAME}` is its length.
        if rest.starts_with('#') {
            continue;
        }
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        // `${NAME:+word}` and `${NAME+word}` expand to the word, not the value.
        let braced = word[at + 1..].starts_with('{');
        let after = &rest[end..];
        let alternate = braced && (after.starts_with(":+") || after.starts_with('+'));
        // `${NAME:0:4}`, `${NAME: -4}`: a few characters of it;
        // `${NAME//?/*}`: every character masked.
        let part = braced
            && (after
                .strip_prefix(':')
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit() || c == ' '))
                || after.starts_with("//?/"));
        // PowerShell's presence checks turn the value into a truth value:
        // `[bool]$env:KEY`, `[string]::IsNullOrEmpty($env:KEY)`.
        let before = word[..at].to_ascii_lowercase();
        let presence = before.ends_with("[bool]")
            || before.ends_with("isnullorempty(")
            || before.ends_with("isnullorwhitespace(");
        if secret_name(&rest[..end]) && !alternate && !part && !presence {
            return Some(rest[..end].to_string());
        }
    }
    // cmd's `%NAME%`.
    let mut pieces = word.split('%');
    pieces.next();
    let mut pieces = pieces.peekable();
    while let Some(name) = pieces.next() {
        if pieces.peek().is_some()
            && !name.is_empty()
            && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
            && secret_name(name)
        {
            return Some(name.to_string());
        }
    }
    None
}

/// Whether `env`'s words are only options and assignments: with no command
/// to run, it prints the whole environment (`env -0`, `env -u PATH`, `env
/// FOO=bar`).
fn env_prints(args: &[String]) -> bool {
    // `env -i NAME=v` prints only what it was given.
    if args
        .iter()
        .take_while(|a| !a.contains('='))
        .any(|a| matches!(a.as_str(), "-i" | "--ignore-environment" | "-"))
    {
        return false;
    }
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if matches!(a.as_str(), "-u" | "--unset" | "-C" | "--chdir" | "-P") {
            i += 2;
        } else if a.starts_with('-') {
            if a.starts_with("-S") || a.starts_with("--split-string") {
                return false;
            }
            i += 1;
        } else if a.split_once('=').is_some_and(|(n, _)| {
            !n.is_empty() && n.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
        }) {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// A secret a command prints or sends.
pub struct Printed {
    /// The command as it may be shown: its program and the words that make
    /// it print, never a value it was given (`printenv | curl` when sent).
    pub shown: String,
    /// What the secret is, as the advisory names it.
    pub kind: String,
    /// Sent over the network (piped into a sender, or placed into a
    /// request's URL or body) rather than shown in the conversation.
    pub sent: bool,
}

/// What `cmd` prints or sends that is secret, given the command its output
/// is piped into (if any).
pub fn printed(cmd: &SimpleCommand, after: &[SimpleCommand]) -> Option<Printed> {
    if effects::inert(cmd) {
        return None;
    }
    // `-o name` prints only the objects' names (`kubectl get secret/x -o
    // name`), `-o wide` the listing's columns, `-o custom-columns=…` the
    // columns asked for (a value only when one reads `.data`).
    if matches!(program(cmd).as_str(), "kubectl" | "oc" | "k" | "kubecolor")
        && output_format(cmd.args()).is_some_and(|f| {
            matches!(f, "name" | "wide")
                || f.strip_prefix("custom-columns=").is_some_and(|spec| {
                    let spec = spec.to_ascii_lowercase();
                    !spec.contains(".data") && !spec.contains("stringdata")
                })
        })
    {
        return None;
    }
    // A listing told to print names only (`doppler secrets --only-names`).
    if effects::has_opt(cmd.args(), tables::NAMES_ONLY_OPTIONS) {
        return None;
    }
    let chain: Vec<&SimpleCommand> = after.iter().take_while(|c| c.piped).collect();
    // Through filters, the program the output ends in: a consumer shows
    // nothing (`env | grep KEY | wc -l`, `wg genkey | tee k | wg pubkey`).
    let consumer = chain
        .iter()
        .find(|c| !passes_on(c) || sends_input(c))
        .or(chain.first())
        .copied();
    // The filters' output written to a file (`env | grep KEY > keys.txt`).
    if chain.last().is_some_and(|last| {
        stdout_to_file(last) && chain.iter().all(|c| FILTERS.contains(&program(c).as_str()))
    }) {
        return None;
    }
    let kind = printed_kind(cmd, consumer)?;
    // A secret sent in the request itself (its URL or body) has left,
    // whatever the response goes through (`curl "…?key=$K" | jq .x`).
    let sent_itself = sent_or_fetched(&program(cmd), cmd.args()).is_some_and(|(_, sent)| sent);
    // Keeping only the names (`env | cut -d= -f1`, `awk -F= '{print $1}'`,
    // `sed 's/=.*//'`) shows no value.
    if chain.iter().any(|c| names_only(c)) && !sent_itself {
        return None;
    }
    // A filter that keeps only lines naming no credential (`env | grep
    // ^CARGO`) shows none; a line of `ps e` is a whole process, its
    // environment and all.
    if let Some(pattern) = chain.iter().find_map(|c| grep_pattern(c))
        && !secret_pattern(&pattern)
        && program(cmd) != "ps"
        && !sent_itself
    {
        return None;
    }
    // A projection that keeps only fields holding no credential
    // (`aws sts assume-role … --query AssumedRoleUser.Arn`, `… | jq -r
    // .metadata.name`).
    if super::secret_filters::own_projection(cmd.args())
        .into_iter()
        .chain(
            chain
                .iter()
                .filter_map(|c| super::secret_filters::filter_projection(c)),
        )
        .any(|p| super::secret_filters::projection_hides(&p))
        && !sent_itself
    {
        return None;
    }
    let prog = program(cmd);
    let shown = match PRINTERS.iter().find(|pr| pr.program == prog) {
        Some(_) => {
            let ops = operands(cmd.args());
            let mut words = vec![prog.clone()];
            words.extend(
                ops.iter()
                    .take(3)
                    .filter(|o| {
                        o.bytes()
                            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b':')
                    })
                    .map(|o| o.to_string()),
            );
            words.join(" ")
        }
        None => prog.clone(),
    };
    // Sent rather than shown: name the program that sends it.
    // Through filters that pass it on (`… | base64 | curl -d @- URL`).
    let sender = chain
        .iter()
        .find(|c| !passes_on(c) || sends_input(c))
        .filter(|next| sends_input(next));
    let (shown, sent) = match sender {
        Some(next) => (format!("{shown} | {}", program(next)), true),
        None => (
            shown,
            sent_or_fetched(&prog, cmd.args()).is_some_and(|(_, sent)| sent),
        ),
    };
    Some(Printed { shown, kind, sent })
}

/// The value of a cluster client's output option (`-o wide`, `-owide`,
/// `-o=name`, `--output=custom-columns=…`).
fn output_format(args: &[String]) -> Option<&str> {
    args.iter().enumerate().find_map(|(i, a)| {
        if matches!(a.as_str(), "-o" | "--output") {
            return args.get(i + 1).map(String::as_str);
        }
        a.strip_prefix("--output=")
            .or_else(|| a.strip_prefix("-o="))
            .or_else(|| a.strip_prefix("-o").filter(|r| !r.is_empty()))
    })
}

/// Whether a command's standard output goes to a file (not another
/// descriptor: `2>/dev/null` hides no output).
fn stdout_to_file(cmd: &SimpleCommand) -> bool {
    cmd.redirects.iter().any(|r| {
        let fd = r.op.trim_end_matches(|c: char| !c.is_ascii_digit());
        let stdout = !r.op.starts_with(|c: char| c.is_ascii_digit()) || fd == "1";
        r.writes_file() && stdout && !r.target.starts_with("/dev/std")
    })
}

/// The environment printer a container runs (`docker exec app env`,
/// `kubectl exec pod -- printenv`, `docker compose exec web env`): the
/// container's environment is where its secrets are handed in, so it is
/// judged like the same command run here.
fn container_env(prog: &str, args: &[String]) -> Option<SimpleCommand> {
    if !crate::shell::container_tool(prog) {
        return None;
    }
    // The shell reader's reading of what runs in the container; the first
    // word of it that is an environment printer (`sh -c env` included).
    let inside = crate::shell::container_command(args)?;
    let cmd = inside.command();
    let at = cmd
        .iter()
        .position(|a| matches!(crate::shell::program_name(a).as_str(), "env" | "printenv"))?;
    Some(SimpleCommand {
        argv: cmd[at..].to_vec(),
        ..SimpleCommand::default()
    })
}

/// A tool's setting that is a credential, asked for by name (`npm config
/// get //registry.npmjs.org/:_authToken`), or a container's environment
/// asked for through a format (`docker inspect -f '{{.Config.Env}}' api`).
fn config_secret(prog: &str, args: &[String]) -> Option<&'static str> {
    let ops = operands(args);
    match prog {
        "npm" | "pnpm" | "yarn" if ops.first() == Some(&"config") && ops.get(1) == Some(&"get") => {
            ops[2..]
                .iter()
                .any(|o| {
                    let o = o.to_ascii_lowercase();
                    o.contains("_auth") || o.contains("token") || o.contains("password")
                })
                .then_some("package registry token")
        }
        // `inspect` of any object kind (`docker container inspect`), the
        // format in any spelling (`-f X`, `--format=X`, `-fX`).
        "docker" | "podman" | "nerdctl" if ops.iter().take(2).any(|o| *o == "inspect") => {
            let format = |a: &str| {
                ["--format=", "-f"]
                    .iter()
                    .any(|p| a.strip_prefix(p).is_some_and(|v| v.contains(".Env")))
            };
            (args
                .windows(2)
                .any(|w| matches!(w[0].as_str(), "-f" | "--format") && w[1].contains(".Env"))
                || args.iter().any(|a| format(a)))
            .then_some("a container's environment")
        }
        // `at -c JOB` prints the job's script, which starts by exporting
        // the environment it was queued with.
        "at" if super::argv::has_flag(args, 'c', &[]) => Some("a queued job's environment"),
        _ => None,
    }
}

/// What a `$(…)` word's command prints that is secret, when the word is
/// printed as it is.
pub(super) fn substitution_prints(word: &str) -> Option<String> {
    let start = word.find("$(")?;
    let inner = &word[start + 2..];
    let end = inner.rfind(')')?;
    let cmds = crate::shell::parse(&inner[..end]);
    cmds.iter().enumerate().find_map(|(i, c)| {
        let mut c = c.clone();
        c.captured = false;
        printed(&c, &cmds[i + 1..]).map(|p| p.kind)
    })
}

/// Wrappers that hand their words to another tool unchanged: `kubecolor`
/// and the `k` alias are kubectl, `terragrunt` runs terraform's verbs.
const SAME_AS: &[(&str, &str)] = &[
    ("kubecolor", "kubectl"),
    ("k", "kubectl"),
    ("terragrunt", "terraform"),
];

fn printed_kind(cmd: &SimpleCommand, piped_into: Option<&SimpleCommand>) -> Option<String> {
    let prog = program(cmd);
    let prog = SAME_AS
        .iter()
        .find(|(w, _)| *w == prog)
        .map_or(prog, |(_, t)| (*t).to_string());
    if super::secret_cmdlets::help(&prog) {
        return None;
    }
    if let Some((_, _, kind)) = EXPORTERS
        .iter()
        .find(|(p, opt, _)| *p == prog && cmd.args().iter().any(|a| a == opt))
    {
        return Some(kind.to_string());
    }
    if let Some((what, _)) = sent_or_fetched(&prog, cmd.args()) {
        return Some(what);
    }
    if cmd.captured || stdout_to_file(cmd) {
        return None;
    }
    if let Some(next) = piped_into
        && !FILTERS.contains(&program(next).as_str())
        && !sends_input(next)
    {
        return None;
    }
    if let Some(inner) = container_env(&prog, cmd.args()) {
        return printed_kind(&inner, piped_into);
    }
    if let Some(kind) = super::secret_shells::env_listing(cmd, &prog) {
        return Some(kind.into());
    }
    // An unquoted heredoc's variables expand before `cat` prints the body
    // (`cat <<EOF` … `$NPM_TOKEN` … `EOF`), as `echo "$NPM_TOKEN"` would.
    if matches!(prog.as_str(), "cat" | "tee")
        && cmd.heredoc_expands
        && let Some(v) = cmd.heredoc.as_deref().and_then(secret_vars)
    {
        return Some(format!("the environment variable {v}"));
    }
    if let Some(kind) = config_secret(&prog, cmd.args()) {
        return Some(kind.into());
    }
    let args = cmd.args();
    let ops = operands(args);
    match prog.as_str() {
        // BSD-style `ps e` (`ps auxe`, `ps eww`) shows each process's
        // environment; `ps -e` is every process.
        "ps" if args.first().is_some_and(|a| {
            !a.starts_with('-') && a.contains('e') && a.bytes().all(|b| b.is_ascii_alphabetic())
        }) =>
        {
            return Some("the processes' environments (tokens and keys among them)".into());
        }
        // A service manager's or a terminal multiplexer's environment.
        "systemctl" | "tmux"
            if ops
                .first()
                .is_some_and(|o| matches!(*o, "show-environment" | "showenv")) =>
        {
            return Some("the whole environment (tokens and keys among it)".into());
        }
        "launchctl" if ops.first() == Some(&"getenv") => {
            return ops
                .get(1)
                .filter(|v| secret_name(v))
                .map(|v| format!("the environment variable {v}"));
        }
        "printenv" if ops.is_empty() => {
            return Some("the whole environment (tokens and keys among it)".into());
        }
        "printenv" => {
            return ops
                .iter()
                .find(|v| secret_name(v))
                .map(|v| format!("the environment variable {v}"));
        }
        "env" if env_prints(args) => {
            return Some("the whole environment (tokens and keys among it)".into());
        }
        "env" | "export" | "declare" | "typeset" | "set"
            if ops.is_empty()
                && args.iter().all(|a| {
                    // `-p`, `-x`, `-0` and their clusters (`declare -px`).
                    a.strip_prefix('-')
                        .is_some_and(|f| !f.is_empty() && f.chars().all(|c| "px0".contains(c)))
                }) =>
        {
            if prog == "set" && !args.is_empty() {
                return None;
            }
            return Some("the whole environment (tokens and keys among it)".into());
        }
        // `declare -p GITHUB_TOKEN` prints `declare -x GITHUB_TOKEN="…"`.
        "declare" | "typeset" | "local" | "readonly" if args.iter().any(|a| a == "-p") => {
            return ops
                .iter()
                .find(|v| secret_name(v))
                .map(|v| format!("the environment variable {v}"));
        }
        _ if let Some(v) = super::secret_code::prints_secret_var(&prog, args).or_else(|| {
            super::secret_code::heredoc_prints(&prog, args, cmd.heredoc.as_deref())
        }) =>
        {
            return Some(format!("the environment variable {v}"));
        }
        // jq's `env` and `$ENV` are the environment (`jq -n env`,
        // `jq -rn env.GITHUB_TOKEN`).
        "jq" | "gojq" | "jaq" => {
            let filter = ops.first().map(|f| f.trim()).unwrap_or("");
            let rest = filter
                .strip_prefix("$ENV")
                .or_else(|| filter.strip_prefix("env"));
            match rest.map(|r| r.trim_start()) {
                Some("") => {
                    return Some("the whole environment (tokens and keys among it)".into());
                }
                // `env | keys` is the names only.
                Some(r) if r.starts_with('|') && !r.contains("keys") => {
                    return Some("the whole environment (tokens and keys among it)".into());
                }
                Some(r) if !r.starts_with('|') => {
                    let name = r.trim_start_matches(['.', '[', '"']);
                    let name = &name[..name
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                        .unwrap_or(name.len())];
                    if secret_name(name) {
                        return Some(format!("the environment variable {name}"));
                    }
                }
                _ => {}
            }
        }
        // A key made and printed (`age-keygen`, not `-y`, its public half).
        "age-keygen" if !args.iter().any(|a| a == "-y") && !to_output_file(&prog, args) => {
            return Some("a new private key".into());
        }
        // `pass NAME` is `pass show NAME`.
        "pass" | "gopass" if pass_shows(args) => {
            return Some("password-store secret".into());
        }
        // PowerShell's `Env:` drive: the whole of it, a pattern over it
        // (`gci env:*TOKEN*`), or one variable (`Get-Item Env:API_KEY`).
        "get-childitem" | "gci" | "dir" | "ls" | "get-item" | "gi" | "get-content" | "gc"
        | "type" | "cat" => {
            for o in &ops {
                let Some(rest) = o
                    .get(..4)
                    .filter(|p| p.eq_ignore_ascii_case("env:"))
                    .map(|_| &o[4..])
                else {
                    continue;
                };
                if rest.is_empty() || rest == "*" || rest.contains('*') && secret_pattern(rest) {
                    return Some("the whole environment (tokens and keys among it)".into());
                }
                if secret_name(rest) {
                    return Some(format!("the environment variable {rest}"));
                }
            }
        }
        // A PowerShell statement that is only a variable prints it
        // (`$env:OPENAI_API_KEY`).
        _ if ops.is_empty()
            && cmd
                .argv
                .first()
                .and_then(|w| {
                    w.get(..5)
                        .filter(|p| p.eq_ignore_ascii_case("$env:"))
                        .map(|_| &w[5..])
                })
                .is_some_and(secret_name) =>
        {
            return Some(format!("the environment variable {}", &cmd.argv[0][5..]));
        }
        "echo" | "printf" | "print" | "write-output" | "write-host" | "say" => {
            if let Some(v) = args.iter().find_map(|a| secret_vars(a)) {
                return Some(format!("the environment variable {v}"));
            }
            // A substitution's output printed (`echo $(gcloud auth
            // print-access-token)`): what the captured command prints.
            return args.iter().find_map(|a| substitution_prints(a));
        }
        _ => {}
    }
    // The words may follow an option's value (`kubectl -n prod get
    // secret`); `secret/name` names the kind and the object at once, and
    // `configmaps,secrets` lists several kinds.
    let words = effects::leading_words(args, 6);
    // A secret's metadata carries no value (`vault kv metadata get`,
    // `gcloud secrets get-iam-policy`, `az keyvault secret list-versions`).
    if super::secret_meta::metadata(&prog, &words) {
        return None;
    }
    let listing = super::secret_meta::listing(&prog, &words, args);
    if super::secret_meta::set_typed(&words, args) || super::secret_meta::plain_get(&words, args) {
        return None;
    }
    PRINTERS
        .iter()
        .find_map(|pr| {
            let hit = pr.program == prog
                && effects::path_matches(&words, pr.words)
                && (pr.needs.is_empty()
                    || args.iter().any(|a| pr.needs.iter().any(|n| needs(a, n))))
                && !to_output_file(&prog, args)
                && names_a_secret_setting(&prog, &words)
                && !only_plain_fields(&prog, &words, args);
            hit.then(|| pr.kind.to_string())
        })
        .or_else(|| {
            effects::secret_verb(&prog, args)
                .filter(|_| !listing)
                .map(|w| format!("credentials ({prog} {w})"))
        })
        .or_else(|| super::secret_cmdlets::prints(&prog, args))
        .or_else(|| super::secret_stores::store_prints(&prog, args))
        .or_else(|| super::secret_unlisted::prints(&prog, args).filter(|_| !listing))
        .or_else(|| super::secret_unlisted::setting(&prog, args))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn judge(line: &str) -> Option<String> {
        let cmds = parse(line);
        for (i, c) in cmds.iter().enumerate() {
            if let Some(p) = printed(c, &cmds[i + 1..]) {
                return Some(p.kind);
            }
        }
        None
    }

    #[test]
    fn printed_secrets() {
        for line in [
            "printenv",
            "env",
            "env | grep -i key",
            "printenv GITHUB_TOKEN",
            "echo $AWS_SECRET_ACCESS_KEY",
            "echo \"token: ${GITHUB_TOKEN}\"",
            "gh auth token",
            "aws secretsmanager get-secret-value --secret-id prod/db",
            "kubectl get secret db -o yaml",
            "kubectl -n prod get secret db -ojson",
            "kubectl get secret db -ojsonpath={.data.password}",
            "kubectl get secrets --output=yaml",
            "vault kv get secret/app",
            "op read op://vault/item/password",
            "export -p",
            "gpg --export-secret-keys -a > keys.asc",
        ] {
            assert!(judge(line).is_some(), "{line}");
        }
    }

    #[test]
    fn used_not_printed() {
        for line in [
            "printenv HOME",
            "env NODE_ENV=test npm test",
            "export GH_TOKEN=$(gh auth token)",
            "gh auth token | docker login ghcr.io -u x --password-stdin",
            "kubectl get secrets",
            "kubectl describe secret db",
            "echo $HOME",
            "echo $TOKENIZERS_PARALLELISM",
            "echo $GITHUB_TOKEN_FILE",
            "echo $SSH_AUTH_SOCK",
            "echo $KEYBOARD_LAYOUT",
            "curl -H \"Authorization: Bearer $GITHUB_TOKEN\" https://api.github.com",
            "aws s3 ls",
            "gh auth status",
            "echo $API_KEY > .env.local",
            "set -euo pipefail",
            "env | sort | grep ^CARGO",
            "printenv | grep -E '^(PATH|HOME)='",
            "env | grep -c .",
        ] {
            assert_eq!(judge(line), None, "{line}");
        }
    }
}
