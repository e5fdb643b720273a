//! The generic rule for the credential commands of the cloud and platform
//! CLIs (see [`super::tables::SECRET_NOUNS`]): a word naming a credential
//! with a verb that shows or makes it.

use super::{family, has_opt, leading_words, plain_word, tables};

/// The generic secret-printing rule of a cloud or platform CLI: its first
/// words name a credential ([`tables::SECRET_NOUNS`]: keys, a connection
/// string, a SAS, a token, a password, a publishing profile; `key` after
/// `access`/`api`/`admin`/...) and a verb that shows, makes or hands it out
/// ([`tables::SECRET_VERBS`]), or a secret's value is asked for (`secret
/// show`, `--show-values`). Returns the words that say so. A login or a
/// delete prints nothing.
pub fn secret_verb(tool: &str, args: &[String]) -> Option<String> {
    family(tool).filter(|f| f.prints_secrets)?;
    let words = leading_words(args, 6);
    let lead: Vec<&String> = words.iter().take_while(|w| plain_word(w)).take(5).collect();
    let shown = || {
        lead.iter()
            .map(|w| w.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    };
    if has_opt(args, tables::SECRET_OPTIONS) {
        return Some(shown());
    }
    if lead
        .iter()
        .any(|w| matches!(w.as_str(), "login" | "logout" | "set-password"))
    {
        return None;
    }
    let parts: Vec<String> = lead
        .iter()
        .flat_map(|w| w.split(['-', ':', '_', '.']).map(str::to_string))
        .collect();
    // A made-up value (`get-random-password`) is no secret yet; a public
    // key (`get-public-key`) is none; a value stored (`put-secret-value`,
    // `update-secret`, `put-parameter`) from a file or a variable is
    // written, and the reply names it (typed on the line, it is carried).
    let stored = |p: &str| matches!(p, "put" | "update") && !literal_value(args);
    if parts.iter().any(|p| {
        tables::DELETE_VERBS.contains(&p.as_str())
            || matches!(p.as_str(), "set" | "random" | "public")
            || stored(p)
    }) {
        return None;
    }
    // Entra ID lists a credential's metadata, never its value (`az ad sp
    // credential list`).
    if lead.iter().any(|w| w.as_str() == "ad")
        && parts.iter().any(|p| p == "credential")
        && parts.iter().any(|p| p == "list")
    {
        return None;
    }
    // AWS IAM's listings and a registry token's details give a credential's
    // id and dates, never its value (`aws iam list-access-keys`, `az acr
    // token show`); `az acr token credential generate` makes one.
    // (A global option's value may come first: `aws --profile prod iam …`.)
    if lead
        .windows(2)
        .any(|w| tool == "aws" && w[0].as_str() == "iam" && w[1].starts_with("list-"))
        || lead.windows(3).any(|w| {
            w[0].as_str() == "acr"
                && w[1].as_str() == "token"
                && matches!(w[2].as_str(), "list" | "show")
        })
    {
        return None;
    }
    // SSH, GPG and deploy keys a platform holds are public halves (`gh
    // ssh-key list`, `doctl compute ssh-key get`, `gh repo deploy-key
    // list`).
    if parts.windows(2).any(|w| {
        matches!(w[0].as_str(), "ssh" | "gpg" | "pgp" | "deploy")
            && matches!(w[1].as_str(), "key" | "keys")
    }) || parts
        .iter()
        .any(|p| matches!(p.as_str(), "sshkey" | "sshkeys" | "gpgkey"))
    {
        return None;
    }
    // An API Gateway key's value is printed only when asked for
    // (`aws apigateway get-api-key --include-value`).
    if tool == "aws"
        && lead.iter().any(|w| w.starts_with("get-api-key"))
        && !args.iter().any(|a| a.starts_with("--include-value"))
    {
        return None;
    }
    // A cluster's credentials merged into the kube config are written, not
    // printed (`az aks get-credentials`, `gcloud container clusters
    // get-credentials`), unless the file is the screen (`--file -`).
    if parts
        .windows(2)
        .any(|w| w[0] == "get" && w[1] == "credentials")
        && lead.iter().any(|w| {
            matches!(
                w.as_str(),
                "aks" | "clusters" | "cluster" | "kubernetes" | "connectedk8s" | "container"
            )
        })
        && !args
            .windows(2)
            .any(|w| matches!(w[0].as_str(), "--file" | "-f") && w[1] == "-")
        && !args.iter().any(|a| a == "--file=-")
    {
        return None;
    }
    let verb = parts
        .iter()
        .any(|p| tables::SECRET_VERBS.contains(&p.as_str()));
    // A key pair made or downloaded hands out its private half (`aws ec2
    // create-key-pair`, `aws lightsail download-default-key-pair`).
    let key_pair = parts
        .windows(2)
        .any(|w| w[0] == "key" && w[1].starts_with("pair"))
        && parts
            .iter()
            .any(|p| matches!(p.as_str(), "create" | "download" | "export"));
    // `key list`, `key show`, `list-key`: a service's access keys (a Key
    // Vault's keys are not exported by a listing).
    let key_listed = !lead.iter().any(|w| w.contains("keyvault") || w == &"kms")
        && parts.windows(2).any(|w| {
            (w[0] == "key" && matches!(w[1].as_str(), "list" | "show"))
                || (matches!(w[0].as_str(), "list" | "show") && w[1] == "key")
        });
    let noun = parts.iter().enumerate().any(|(i, p)| {
        tables::SECRET_NOUNS.contains(&p.as_str())
            // An auth string (`get-auth-string`: Memorystore's AUTH).
            || (p == "string" && i > 0 && parts[i - 1] == "auth")
            || (p == "key"
                && i > 0
                && matches!(
                    parts[i - 1].as_str(),
                    "access"
                        | "api"
                        | "admin"
                        | "query"
                        | "shared"
                        | "account"
                        | "primary"
                        | "secondary"
                ))
    });
    let secret_value = parts.iter().any(|p| p == "secret" || p == "secrets")
        && parts.iter().any(|p| {
            matches!(
                p.as_str(),
                "show" | "get" | "access" | "download" | "reveal" | "read" | "value"
            )
        });
    let token = parts.iter().any(|p| p == "auth") && parts.iter().any(|p| p == "token");
    let lead_words: Vec<String> = lead.iter().map(|w| w.to_string()).collect();
    let named = crate::guards::secret_meta::named_for_value(&lead_words);
    (verb && noun || key_listed || key_pair || secret_value || token || named).then(shown)
}

/// Whether a stored secret's value is typed on the command line
/// (`--secret-string '{"pw":"…"}'`), not read from a file (`file://`) or a
/// variable.
fn literal_value(args: &[String]) -> bool {
    const VALUE: &[&str] = &["--secret-string", "--secret-binary", "--value"];
    args.iter().enumerate().any(|(i, a)| {
        let value = if VALUE.contains(&a.as_str()) {
            args.get(i + 1).map(String::as_str)
        } else {
            VALUE
                .iter()
                .find_map(|o| a.strip_prefix(o).and_then(|r| r.strip_prefix('=')))
        };
        value.is_some_and(|v| {
            !v.is_empty()
                && !v.starts_with("file://")
                && !v.starts_with("fileb://")
                && !v.starts_with('$')
        })
    })
}
