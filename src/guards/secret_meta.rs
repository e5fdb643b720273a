//! What a credential command shows of a secret besides its value: its
//! metadata (a policy, tags, versions, when it was last used), a listing of
//! names, or a test of whether a variable is set. These carry no value,
//! whatever tool or language spells them (ninth round, docs/decisions.md).

/// The words of a command's leading plain words, split at `-`, `:`, `_`,
/// `.` and lower-cased (`get-iam-policy` is `get iam policy`).
fn parts(words: &[String]) -> Vec<String> {
    words
        .iter()
        .flat_map(|w| {
            w.split(['-', ':', '_', '.'])
                .map(str::to_ascii_lowercase)
                .collect::<Vec<_>>()
        })
        .filter(|p| !p.is_empty())
        .collect()
}

/// Whether the command's words ask for a credential's metadata, never its
/// value: its access policy (`gcloud secrets get-iam-policy`, `vault policy
/// read`, `aws secretsmanager get-resource-policy`), tags (`aws ssm
/// list-tags-for-resource`), last use (`aws iam get-access-key-last-used`),
/// its versions' or ids' listing (`az keyvault secret list-versions`,
/// `gcloud secrets versions list`, `list-secret-version-ids`), deleted
/// entries (`list-deleted`), an audit log's list, or `metadata` itself.
pub(super) fn metadata(tool: &str, words: &[String]) -> bool {
    let ps = parts(words);
    // (Azure's `policy` is a shared access policy that holds keys: `az iot
    // hub policy show`.)
    let policy = tool != "az" && (ps.iter().any(|p| p == "policy" || p == "policies"));
    let has = |w: &str| ps.iter().any(|p| p == w);
    let listed = has("list") || has("ls");
    has("metadata")
        || policy
        || has("tags")
        || (has("last") && has("used"))
        || (listed && (has("versions") || has("ids") || has("deleted") || has("audit")))
}

/// Whether the command lists credentials: outside Azure, whose `keys list`
/// and `connection-string list` print values (and the tables, which name
/// the listings that do: `netlify env:list`, `chamber list -e`), a
/// listing of keys, tokens or passwords gives their names, ids and dates
/// (`gcloud iam service-accounts keys list`, `scw iam api-key list`,
/// `pscale password list`, `wrangler kv key list`, `linode-cli
/// object-storage keys-list`).
pub(super) fn listing(tool: &str, words: &[String], args: &[String]) -> bool {
    // (A listing told to show values does: `vercel env ls --decrypt`.)
    const ASKS: &[&str] = &[
        "decrypt",
        "reveal",
        "show-secret",
        "show-value",
        "showsecret",
        "expose",
        "unmask",
        "plain",
        "expand",
    ];
    let asks = args.iter().any(|a| {
        a.starts_with('-') && {
            let a = a.to_ascii_lowercase();
            ASKS.iter().any(|k| a.contains(k)) && !a.ends_with("=false")
        }
    });
    if tool == "az" || asks {
        return false;
    }
    let ps = parts(words);
    let value = ps.iter().any(|p| {
        matches!(
            p.as_str(),
            "get" | "show" | "print" | "reveal" | "read" | "export" | "download" | "value"
        )
    });
    !value && ps.iter().any(|p| p == "list" || p == "ls")
}

/// Whether each `$env:NAME` of a PowerShell line is only tested, not shown:
/// `[bool]$env:K`, `[string]::IsNullOrEmpty($env:K)`, `if ($env:K) {…}`,
/// `-not $env:K`, `!$env:K`, `$null -eq $env:K`.
pub(super) fn ps_env_tested(command: &str, name: &str) -> bool {
    let lower = command.to_ascii_lowercase();
    let needle = format!("$env:{}", name.to_ascii_lowercase());
    let mut any = false;
    for (i, _) in lower.match_indices(&needle) {
        any = true;
        let before = lower[..i].trim_end();
        let after = lower[i + needle.len()..].trim_start();
        let tested = before.ends_with("[bool]")
            || before.ends_with("isnullorempty(")
            || before.ends_with("isnullorwhitespace(")
            || before.ends_with("-not")
            || before.ends_with('!')
            || before.ends_with("-eq")
            || before.ends_with("-ne")
            || after.starts_with("-eq")
            || after.starts_with("-ne")
            || (after.starts_with(')')
                && ["if (", "if(", "elseif (", "elseif(", "while (", "while("]
                    .iter()
                    .any(|k| before.ends_with(k)));
        if !tested {
            return false;
        }
    }
    any
}

/// Whether a PowerShell listing of the environment keeps only the names
/// (`(Get-ChildItem Env:).Name`, `… | Select-Object -ExpandProperty Name`,
/// `(dir env:).Key`, `… | ForEach-Object Name`).
pub(super) fn ps_env_names(command: &str) -> bool {
    let lower = command.to_ascii_lowercase().replace(' ', "");
    [
        ").name",
        ").key",
        "-expandpropertyname",
        "-expandpropertykey",
    ]
    .iter()
    .any(|k| lower.contains(k))
        || [
            "foreach-objectname",
            "%name",
            "selectname",
            "select-objectname",
        ]
        .iter()
        .any(|k| lower.ends_with(k))
}

/// Whether a store's `set` is given its values on the line (`doppler secrets
/// set LOG_LEVEL=debug`, `infisical secrets set K=v`, `heroku config:set
/// K=v`): what it echoes back was typed there, no stored secret is shown.
pub(super) fn set_typed(words: &[String], args: &[String]) -> bool {
    let ps = parts(words);
    ps.iter().any(|p| p == "set")
        && !ps
            .iter()
            .any(|p| matches!(p.as_str(), "get" | "show" | "print"))
        && args.iter().any(|a| {
            a.split_once('=').is_some_and(|(k, v)| {
                !k.starts_with('-') && !k.is_empty() && !v.is_empty() && !v.contains("$(")
            })
        })
}

/// Whether a `get` names only variables that hold no secret (`heroku
/// config:get NODE_ENV`, `doppler secrets get LOG_LEVEL --plain`): the
/// variables named are the ones shown, and none is a credential.
pub(super) fn plain_get(words: &[String], args: &[String]) -> bool {
    let ps = parts(words);
    let named: Vec<&String> = args
        .iter()
        .filter(|a| {
            a.contains('_')
                && a.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                && a.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
        })
        .collect();
    ps.iter().any(|p| p == "get")
        && !named.is_empty()
        && !named.iter().any(|n| {
            // A connection URL or DSN carries its password (`DATABASE_URL`).
            super::secret_commands::secret_name(n)
                || ["_URL", "_URI", "_DSN"].iter().any(|e| n.ends_with(e))
                || n.contains("CONNECTION")
        })
}

/// Whether a subcommand is named for the value it prints and no verb
/// makes, sets or changes it (`neonctl connection-string main`, `argocd
/// admin initial-password`, `x auth-token`): a compound word (joined by
/// `-` or `:`, not a variable's `_`) whose last part is the credential.
pub(super) fn named_for_value(lead: &[String]) -> bool {
    let ps = parts(lead);
    let named = lead.iter().any(|w| {
        let ws: Vec<String> = w
            .split(['-', ':'])
            .filter(|p| !p.is_empty())
            .map(str::to_ascii_lowercase)
            .collect();
        // The words before it qualify the credential (`initial-password`,
        // `connection-string`), not a verb (`describe-secret`) nor a
        // resource's name (`grafana-admin-password`).
        let qualified = ws[..ws.len().saturating_sub(1)].iter().all(|q| {
            matches!(
                q.as_str(),
                "connection"
                    | "auth"
                    | "initial"
                    | "admin"
                    | "root"
                    | "master"
                    | "access"
                    | "bootstrap"
                    | "client"
                    | "api"
                    | "db"
                    | "database"
            )
        });
        ws.len() > 1
            && qualified
            && ws.last().is_some_and(|l| {
                matches!(l.as_str(), "password" | "token" | "secret" | "apikey")
                    || l == "string" && matches!(ws[ws.len() - 2].as_str(), "connection" | "auth")
            })
    });
    named
        && !ps.iter().any(|p| {
            matches!(
                p.as_str(),
                "set"
                    | "reset"
                    | "change"
                    | "update"
                    | "rotate"
                    | "revoke"
                    | "forgot"
                    | "new"
                    | "create"
                    | "delete"
                    | "remove"
                    | "rm"
                    | "list"
                    | "ls"
                    | "help"
                    | "generate"
                    | "add"
                    | "issue"
                    | "login"
                    | "logout"
            )
        })
}

/// A PowerShell variable only tested (`[bool]$env:K`) or the environment's
/// names only (`(Get-ChildItem Env:).Name`): no value shown.
pub(super) fn shown_only_tested(command: &str, kind: &str) -> bool {
    kind.strip_prefix("the environment variable ")
        .is_some_and(|name| ps_env_tested(command, name))
        || kind.starts_with("the whole environment") && ps_env_names(command)
}

/// Ruby's tests of a name on `ENV` (`ENV.key?("K")`, `ENV.keys`): no value
/// read (Deno's `Deno.env.toObject()` and Bun's `Bun.env` are whole).
pub(super) const NAME_TESTS: &[&str] = &[".key?", ".include?", ".has_key?", ".member?", ".keys"];

/// Whether a word names every file of a plain folder (`dist/*`,
/// `./packages/**`): a program that is not a reader works on the project's
/// files, not on a secret one's name. A folder that holds keys by its name
/// (`~/.ssh/*`, `secrets/*`) or stands for any (`$D/*`) does not count.
pub(super) fn whole_plain_folder(word: &str) -> bool {
    let Some((dir, last)) = word.rsplit_once('/') else {
        return false;
    };
    let name = dir.rsplit('/').next().unwrap_or(dir).to_ascii_lowercase();
    last.chars().all(|ch| ch == '*')
        && !name.contains(['*', '?', '[', '$'])
        && super::secret_files::classify(dir).is_none()
        && ![
            ".ssh",
            ".gnupg",
            ".aws",
            ".azure",
            ".kube",
            ".docker",
            ".config",
            "secrets",
            ".secrets",
            "secret",
            "keys",
            "private",
            "certs",
            "ssl",
            "tls",
            "credentials",
            "~",
            "",
        ]
        .contains(&name.as_str())
}

/// Programs whose standard input shows no line of it: counters, digests,
/// secret scanners, and programs that do not read their input. Not the
/// secrets guard's quiet programs, which are about operands: `tee < .env` prints its
/// input and `ssh host sh < .env` sends it.
pub(super) const INPUT_UNSHOWN: &[&str] = &[
    "wc",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "sha512sum",
    "b2sum",
    "cksum",
    "gitleaks",
    "trufflehog",
    "detect-secrets",
    "printenv",
    "echo",
    "printf",
    "touch",
    "rm",
    "mkdir",
    "ls",
    "stat",
    "test",
    "[",
    "[[",
    "cd",
    "true",
    "false",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn w(s: &str) -> Vec<String> {
        s.split(' ').map(str::to_string).collect()
    }

    #[test]
    fn metadata_words() {
        for line in [
            "secrets get-iam-policy x",
            "policy read app",
            "ssm list-tags-for-resource",
            "iam get-access-key-last-used",
            "keyvault secret list-versions",
            "secrets versions list x",
            "secretsmanager list-secret-version-ids",
        ] {
            assert!(metadata("x", &w(line)), "{line}");
        }
        for line in [
            "secrets versions access latest",
            "kv get secret/app",
            "secret show",
        ] {
            assert!(!metadata("x", &w(line)), "{line}");
        }
    }

    #[test]
    fn listings() {
        assert!(listing("scw", &w("iam api-key list"), &[]));
        assert!(listing("linode-cli", &w("object-storage keys-list"), &[]));
        assert!(!listing("az", &w("storage account keys list"), &[]));
        assert!(!listing("x", &w("token get"), &[]));
        assert!(set_typed(
            &w("secrets set"),
            &w("secrets set LOG_LEVEL=debug")
        ));
        assert!(!set_typed(&w("secrets get"), &w("secrets get X")));
        assert!(plain_get(&w("config:get"), &w("config:get NODE_ENV -a x")));
        assert!(!plain_get(
            &w("config:get"),
            &w("config:get STRIPE_SECRET_KEY")
        ));
        assert!(named_for_value(&w("connection-string main")));
        assert!(named_for_value(&w("admin initial-password")));
        assert!(!named_for_value(&w("reset-password")));
        assert!(!named_for_value(&w("snowflake_password")));
        assert!(!named_for_value(&w("describe-secret")));
        assert!(!named_for_value(&w(
            "secrets describe grafana-admin-password"
        )));
        assert!(whole_plain_folder("dist/*"));
        assert!(whole_plain_folder("./packages/**"));
        assert!(!whole_plain_folder("~/.ssh/*"));
        assert!(!whole_plain_folder("secrets/*"));
        assert!(!whole_plain_folder("*.pem"));
    }

    #[test]
    fn powershell_tests() {
        assert!(ps_env_tested("[bool]$env:GH_TOKEN", "GH_TOKEN"));
        assert!(ps_env_tested(
            "if ($env:ARM_CLIENT_SECRET) { 'set' } else { 'missing' }",
            "ARM_CLIENT_SECRET"
        ));
        assert!(ps_env_tested(
            "[string]::IsNullOrEmpty($env:NPM_TOKEN)",
            "NPM_TOKEN"
        ));
        assert!(!ps_env_tested("$env:NPM_TOKEN", "NPM_TOKEN"));
        assert!(!ps_env_tested("if ($env:T) { $env:T }", "T"));
        assert!(ps_env_names("(Get-ChildItem Env:).Name"));
        assert!(!ps_env_names("Get-ChildItem Env:"));
    }
}
