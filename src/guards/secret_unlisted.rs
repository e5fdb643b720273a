//! The rule for the credential commands of CLIs no table names: what a
//! command's words MEAN, not which tool it is. A verb that reads out
//! (`get`, `show`, `print`, `reveal`, `export`, `decrypt`, `open`, ...) on a
//! noun that names a credential (`secret`, `token`, `password`,
//! `credential`, `api-key`, `access-key`, an auth or connection string, a
//! kubeconfig), or a verb that makes one (`create`, `generate`, `issue`,
//! `add`, `rotate`) on a token, key or credential (a new token is printed
//! once, at its making), or an option that asks for values (`--reveal`,
//! `--decrypt`, `--show-secrets`, `--with-decryption`, `--showsecret`).
//! Quiet: listings, deletes, stores, inspections of metadata, help; and
//! tools whose operands are names a user chose (package managers, test
//! runners, git, text tools): `cargo test get_token` names a test.
//!
//! Also a tool's setting asked for by name (`gh config get oauth_token`,
//! `git config --get github.token`, `redis-cli CONFIG GET requirepass`):
//! a secret when the name says it holds one.

use super::argv::operands;
use super::effects::{self, tables::SECRET_PRINTERS};

/// Nouns that name a credential.
const NOUNS: &[&str] = &[
    "secret",
    "secrets",
    "token",
    "tokens",
    "password",
    "passwords",
    "passwd",
    "passphrase",
    "credential",
    "credentials",
    "creds",
    "apikey",
    "apikeys",
    "accesskey",
    "accesskeys",
    "secretkey",
    "kubeconfig",
];

/// Nouns a make verb hands out once (a new token is printed at its making;
/// a new secret or password is stored, not shown).
const MADE_NOUNS: &[&str] = &[
    "token",
    "tokens",
    "credential",
    "credentials",
    "creds",
    "apikey",
    "apikeys",
    "accesskey",
    "accesskeys",
    "secretkey",
    "key",
    "keys",
    "auth",
];

/// Words before `key`/`keys` that make it a credential (`api key`,
/// `access-key`; not `ssh-key`, `gpg key`, `public key`).
const KEY_QUALIFIERS: &[&str] = &[
    "api", "access", "secret", "private", "admin", "service", "master", "account",
];

/// Verbs that read a credential out.
const READ_VERBS: &[&str] = &[
    "get", "show", "print", "reveal", "read", "export", "decrypt", "view", "cat", "dump", "fetch",
    "open", "display", "value", "values", "self", "lookup", "unseal",
];

/// Verbs that make a credential, which is printed once.
const MAKE_VERBS: &[&str] = &[
    "create",
    "generate",
    "gen",
    "add",
    "new",
    "issue",
    "mint",
    "regenerate",
    "rotate",
    "renew",
];

/// Verbs that show no value: listings, deletes, stores, metadata, help.
const QUIET_VERBS: &[&str] = &[
    "list", "ls", "delete", "del", "rm", "remove", "revoke", "set", "put", "update", "edit",
    "help", "status", "describe", "inspect", "metadata", "info", "import", "encrypt", "seal",
    "lock", "login", "logout", "verify", "validate", "public", "pub", "test", "tests", "spec",
    "check",
];

/// Options that ask for values, spelled without dashes (`--show-secrets`,
/// `--showsecret`, `--with-decryption`).
const VALUE_OPTIONS: &[&str] = &[
    "reveal",
    "revealsecrets",
    "decrypt",
    "decrypted",
    "withdecryption",
    "showsecret",
    "showsecrets",
    "showsecretvalues",
    "showvalue",
    "showvalues",
    "showtoken",
    "exposetoken",
    "showpassword",
    "showpasswords",
    "showsensitive",
    "includesecrets",
    "withsecrets",
    "unmask",
    "unmasked",
];

/// Tools whose operands are names a user chose, or text: a test runner's
/// filter, a build tool's target, an interpreter's script.
const NOT_READ_TOO: &[&str] = &[
    "pytest", "jest", "vitest", "mocha", "rspec", "phpunit", "tox", "nox", "mvn", "gradle",
    "gradlew", "ant", "sbt", "bazel", "dotnet", "ctest", "python", "python3", "node", "ruby",
    "perl", "php", "bash", "sh", "zsh", "fish", "tldr", "history", "alias", "kill", "pkill",
    "open", "xdg-open", "less", "more", "head", "tail", "sort", "uniq", "wc", "tr", "cut",
];

fn plain(w: &str) -> bool {
    !w.is_empty()
        && w.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b':' | b'_'))
}

/// Whether an option asks for values, and is not turned off
/// (`--show-secrets=false`, `--no-reveal`).
fn value_option(a: &str) -> Option<&'static str> {
    let body = a.strip_prefix("--").or_else(|| a.strip_prefix('-'))?;
    let (name, value) = body.split_once('=').unwrap_or((body, ""));
    if matches!(
        value.to_ascii_lowercase().as_str(),
        "false" | "0" | "no" | "off"
    ) {
        return None;
    }
    let norm: String = name
        .chars()
        .filter(|c| *c != '-' && *c != '_')
        .flat_map(char::to_lowercase)
        .collect();
    VALUE_OPTIONS.iter().copied().find(|o| *o == norm)
}

/// Whether the tool is one the other rules decide for (a table printer,
/// a cloud family's own rule, a secret store) or whose operands are not
/// subcommands.
fn decided_elsewhere(tool: &str) -> bool {
    tool.is_empty()
        || SECRET_PRINTERS.iter().any(|p| p.program == tool)
        || effects::family(tool).is_some_and(|f| f.prints_secrets)
        || super::secret_stores::is_store(tool)
        || effects::unlisted::NOT_READ.contains(&tool)
        || NOT_READ_TOO.contains(&tool)
}

/// What an unlisted CLI's command prints that is secret, by its words.
pub fn prints(tool: &str, args: &[String]) -> Option<String> {
    // (A shell's or PowerShell's test names a variable: `[[ -v K ]]`,
    // `Test-Path Env:K`.)
    if decided_elsewhere(tool)
        || !tool.bytes().any(|b| b.is_ascii_alphanumeric())
        || tool == "test-path"
    {
        return None;
    }
    let lead: Vec<String> = operands(args)
        .into_iter()
        .take_while(|w| plain(w))
        .take(4)
        .map(str::to_ascii_lowercase)
        .collect();
    let parts: Vec<&str> = lead
        .iter()
        .flat_map(|w| w.split(['-', ':', '_']))
        .filter(|p| !p.is_empty())
        .collect();
    let noun_at = |i: usize| {
        let p = parts[i];
        let prev = if i > 0 { parts[i - 1] } else { "" };
        NOUNS.contains(&p)
            || matches!(p, "key" | "keys") && KEY_QUALIFIERS.contains(&prev)
            || p == "string" && matches!(prev, "auth" | "connection")
    };
    let noun = (0..parts.len()).any(noun_at);
    let shown = || format!("credentials ({tool} {})", lead.join(" "));
    // An option that asks for the values: of a credential the words name,
    // or one the option names itself (`scalingo env --reveal`).
    if args.iter().take_while(|a| *a != "--").any(|a| {
        value_option(a).is_some_and(|o| {
            noun || o.contains("secret")
                || o.contains("token")
                || o.contains("password")
                || o.contains("decrypt")
                || o == "reveal"
        })
    }) {
        return Some(shown());
    }
    if parts.iter().any(|p| QUIET_VERBS.contains(p)) {
        return None;
    }
    // A decrypter prints the plain text it was asked for (`eyaml decrypt -f
    // secure.eyaml`).
    if parts.iter().take(3).any(|p| *p == "decrypt") {
        return Some(shown());
    }
    let read = parts.iter().any(|p| READ_VERBS.contains(p));
    let made = parts.iter().any(|p| MAKE_VERBS.contains(p))
        && (0..parts.len()).any(|i| {
            MADE_NOUNS.contains(&parts[i]) && (!matches!(parts[i], "key" | "keys") || noun_at(i))
        });
    // A subcommand named for the value it prints, with no verb at all
    // (`neonctl connection-string main`, `argocd admin initial-password`).
    let named = super::secret_meta::named_for_value(&lead);
    ((read && noun) || made || named).then(shown)
}

/// A tool's setting asked for by name whose name says it holds a
/// credential: `TOOL config get NAME`, `TOOL config --get NAME`, `TOOL
/// config NAME` (one name, no value: git and composer print it), `redis-cli
/// CONFIG GET NAME`.
pub fn setting(tool: &str, args: &[String]) -> Option<String> {
    if tool.is_empty() {
        return None;
    }
    let ops = operands(args);
    let (first, rest) = ops.split_first()?;
    if !first.eq_ignore_ascii_case("config") {
        return None;
    }
    let getter = |w: &str| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "get" | "get-value" | "show" | "print"
        )
    };
    let rest: Vec<&str> = match rest.split_first() {
        Some((g, more)) if getter(g) => more.to_vec(),
        _ => rest.to_vec(),
    };
    // A name and a value is a write (`git config user.password x`).
    let [name] = rest.as_slice() else {
        return None;
    };
    if args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--unset" | "--unset-all" | "--add" | "--replace-all" | "--edit" | "--list" | "-l"
        )
    }) {
        return None;
    }
    credential_setting(name).then(|| format!("a credential setting ({tool} config {name})"))
}

/// Whether a setting's name says it holds a credential: its last part
/// (`github.token`, `npmAuthToken`, `requirepass`), or, for a setting
/// keyed by a host (`github-oauth.github.com`, `http-basic.example.org`),
/// its first part.
fn credential_setting(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let segs: Vec<&str> = lower
        .split(['.', ':', '/'])
        .filter(|s| !s.is_empty())
        .collect();
    let names = |s: &str| {
        [
            "token", "password", "passwd", "secret", "apikey", "api_key", "api-key", "oauth",
        ]
        .iter()
        .any(|w| s.contains(w))
            || s.ends_with("pass")
            || s.ends_with("auth")
            || s.ends_with("_key") && !s.contains("sign")
    };
    const HOST_ENDS: &[&str] = &[
        "com", "org", "net", "io", "dev", "co", "cloud", "app", "internal", "local",
    ];
    let last = segs.last().copied().unwrap_or("");
    names(last)
        || segs.len() >= 3
            && HOST_ENDS.contains(&last)
            && segs
                .first()
                .is_some_and(|s| names(s) || s.contains("basic") || *s == "bearer")
}

/// Whether a command stores or logs in with a secret it reads on its
/// input, showing none of it: a login told to read its password or token
/// there (`--password-stdin`, `--with-token`), or a store verb on a
/// credential noun (`gh secret set K`, `x token add`, `x password put`).
pub fn stores_input(cmd: &crate::shell::SimpleCommand) -> bool {
    stores(cmd.args())
}

/// Whether a store verb's made object is printed back (`kubectl create
/// secret … -o yaml`): then what it read is shown.
fn echoes(args: &[String]) -> bool {
    args.iter().enumerate().any(|(i, a)| {
        let v = match a.as_str() {
            "-o" | "--output" => args.get(i + 1).map(String::as_str),
            _ => a
                .strip_prefix("--output=")
                .or_else(|| a.strip_prefix("-o").filter(|r| !r.is_empty())),
        };
        v.is_some_and(|v| !matches!(v, "name" | "none" | "table" | "wide"))
    })
}

/// Whether a command stores a secret from the files it names (`gcloud
/// secrets versions add K --data-file=f`, `aws secretsmanager
/// put-secret-value --secret-string file://f`, `vault kv put p k=@f`, `az
/// keyvault secret set --file f`, `gh secret set -f .env`): the file goes to
/// the store, none of it to the screen, unless the made object is printed
/// back.
pub fn stores_files(cmd: &crate::shell::SimpleCommand) -> bool {
    let args = cmd.args();
    stores(args) && !echoes(args)
}

fn stores(args: &[String]) -> bool {
    if args.iter().any(|a| {
        matches!(
            a.as_str(),
            "--password-stdin" | "--token-stdin" | "--with-token" | "--secret-stdin"
        )
    }) {
        return true;
    }
    let parts: Vec<String> = operands(args)
        .into_iter()
        .take_while(|w| plain(w))
        .take(3)
        .flat_map(|w| {
            w.split(['-', ':', '_'])
                .map(str::to_ascii_lowercase)
                .collect::<Vec<_>>()
        })
        .collect();
    let has = |ws: &[&str]| parts.iter().any(|p| ws.contains(&p.as_str()));
    has(&["set", "put", "store", "import", "create", "add", "login"])
        && (has(NOUNS) || has(&["key", "keys", "kv", "parameter", "variable", "variables"]))
}

/// The rules of this module and the file kinds, for the generated effects
/// page.
pub fn markdown() -> String {
    let list = super::effects::code_list;
    use super::credential_files as cf;
    format!(
        "\nGeneric, for any other CLI (not a package manager, test runner, build tool, git or a \
         text tool): a noun naming a credential ({}; `key` after {}; `auth string`, `connection \
         string`) with a verb that reads it out ({}), or a verb that makes one ({}) on a token, \
         key or credential; `decrypt` alone; or an option that asks for values ({}, dashes \
         ignored; not `=false`). Quiet whatever the noun: {}. A tool's setting asked for by name \
         (`config get NAME`, `config --get NAME`, `config NAME`) is a secret when its name's \
         last part names a credential, or its first part for a setting keyed by a host \
         (`github-oauth.github.com`). A secret fed on the input of a store or a login \
         (`--password-stdin`, `secret set`) is used, not shown.\n\nCredential files by what \
         they are: a data file ({}, or none when a folder is named) whose name ends in {} (or \
         `key`/`keys` after {}), not a template; an ASCII-armoured private key (`.asc` named \
         `key` or `private`); an SSH private key under another name (`id_rsa_*`, \
         `ssh_host_*_key`); key stores by extension {}.\n",
        list(NOUNS),
        list(KEY_QUALIFIERS),
        list(READ_VERBS),
        list(MAKE_VERBS),
        list(VALUE_OPTIONS),
        list(QUIET_VERBS),
        list(cf::DATA_EXTENSIONS),
        list(cf::STEM_NOUNS),
        list(cf::KEY_QUALIFIERS),
        list(cf::MORE_KEY_EXTENSIONS),
    )
}

#[cfg(test)]
mod tests {
    use super::{prints, setting};

    fn words(line: &str) -> (String, Vec<String>) {
        let w: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        (w[0].clone(), w[1..].to_vec())
    }

    #[test]
    fn a_read_verb_on_a_credential_noun_of_any_cli() {
        for line in [
            "mytool secrets print",
            "acme-cli token show --profile prod",
            "xcloud api-key reveal ci",
            "xcloud apikey create --name ci",
            "ops access-key generate",
            "store auth-string get cache",
            "acme env --reveal",
            "box secret inspect --showsecret db",
            "seal decrypt -f secure.yaml",
        ] {
            let (t, a) = words(line);
            assert!(prints(&t, &a).is_some(), "{line}");
        }
        for line in [
            "mytool secrets list",
            "mytool secrets print --help",
            "acme-cli token delete abc",
            "box secret inspect db",
            "box secret inspect --showsecret=false db",
            "ops ssh-key create",
            "xcloud secret create db",
            "cargo test get_token",
            "pytest -k test_show_password",
            "acme env",
            "mytool gpg-key get",
        ] {
            let (t, a) = words(line);
            // `--help` is set aside before this rule (effects::inert).
            if line.contains("--help") {
                continue;
            }
            assert!(prints(&t, &a).is_none(), "{line}");
        }
    }

    #[test]
    fn a_setting_named_for_a_credential() {
        for line in [
            "gh config get oauth_token",
            "git config --get hub.token",
            "redis-cli CONFIG GET requirepass",
            "composer config --global gitlab-token.gitlab.example.com",
            "poetry config http-basic.internal.example.org",
        ] {
            let (t, a) = words(line);
            assert!(setting(&t, &a).is_some(), "{line}");
        }
        for line in [
            "gh config get git_protocol",
            "git config --get credential.helper",
            "git config --get user.signingkey",
            "git config user.password hunter22",
            "redis-cli CONFIG GET maxmemory",
            "git config --unset hub.token",
        ] {
            let (t, a) = words(line);
            assert!(setting(&t, &a).is_none(), "{line}");
        }
    }
}
