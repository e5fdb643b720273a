//! Credential files known by their names (and, for a name shared with
//! ordinary files, their folders): the table [`super::secret_files::classify`]
//! reads after its rules for `.env` files, keys and cloud folders, and
//! `generated/effects.md` lists.

/// A credential file known by its name (and, for a name shared with
/// ordinary files, its folder).
pub struct CredentialFile {
    /// Names: `a/b` is a file `b` in a folder `a`; `*` in a name is any
    /// text (`*.tfvars`, `client_secret*.json`).
    pub names: &'static [&'static str],
    /// What it holds, as the advisory names it.
    pub kind: &'static str,
    /// Secret only when its head carries a token (`.npmrc`).
    pub if_tokens: bool,
}

const fn cf(names: &'static [&'static str], kind: &'static str) -> CredentialFile {
    CredentialFile {
        names,
        kind,
        if_tokens: false,
    }
}

/// Credential files by name, besides the `.env` files, keys and cloud
/// folders judged by [`super::secret_files::classify`]; listed in
/// `generated/effects.md`.
pub const CREDENTIAL_FILES: &[CredentialFile] = &[
    cf(&[".netrc", "_netrc"], ".netrc credentials"),
    cf(&[".git-credentials"], "git credentials"),
    cf(&[".pgpass"], "PostgreSQL password file"),
    cf(&[".my.cnf", ".mylogin.cnf"], "MySQL client password file"),
    CredentialFile {
        names: &[".npmrc"],
        kind: ".npmrc with an auth token",
        if_tokens: true,
    },
    CredentialFile {
        names: &[".pypirc"],
        kind: ".pypirc with a password or token",
        if_tokens: true,
    },
    CredentialFile {
        names: &[".yarnrc.yml"],
        kind: ".yarnrc.yml with an auth token",
        if_tokens: true,
    },
    cf(
        &[".cargo/credentials", ".cargo/credentials.toml"],
        "Cargo registry token",
    ),
    cf(&[".gem/credentials"], "RubyGems API key"),
    cf(
        &["composer/auth.json", ".composer/auth.json"],
        "Composer auth tokens",
    ),
    cf(&["gh/hosts.yml", ".config/hub"], "GitHub CLI token"),
    cf(
        &[
            ".terraformrc",
            "terraform.rc",
            ".terraform.d/credentials.tfrc.json",
        ],
        "Terraform registry token",
    ),
    cf(
        &["*.tfvars", "*.tfvars.json"],
        "Terraform variables (passwords and keys)",
    ),
    cf(&[".envrc"], "direnv environment file"),
    cf(
        &[
            "etc/shadow",
            "etc/gshadow",
            "etc/master.passwd",
            "security/opasswd",
        ],
        "system password hashes",
    ),
    cf(&[".htpasswd"], "password file (.htpasswd)"),
    cf(&[".boto", ".s3cfg"], "cloud storage keys (.boto, .s3cfg)"),
    cf(&[".vault-token"], "Vault token"),
    cf(
        &[".m2/settings.xml", ".m2/settings-security.xml"],
        "Maven repository passwords",
    ),
    cf(&[".gradle/gradle.properties"], "Gradle credentials"),
    cf(
        &[
            "secrets.yml",
            "secrets.yaml",
            "secrets.json",
            "secrets.toml",
            "secrets.env",
        ],
        "secrets file",
    ),
    cf(
        &[
            "credentials.json",
            "client_secret*.json",
            "service-account*.json",
            "service_account*.json",
            "*-sa-key.json",
            "*service-account-key*.json",
        ],
        "service account or OAuth client credentials",
    ),
    cf(
        &[
            ".databrickscfg",
            ".kaggle/kaggle.json",
            ".oci/config",
            ".pulumi/credentials.json",
            "doctl/config.yaml",
            "openstack/clouds.yaml",
            "openstack/secure.yaml",
            "rclone.conf",
            "hcloud/cli.toml",
            ".fly/config.yml",
            "configstore/firebase-tools.json",
            ".netlify/config.json",
            "netlify/config.json",
            ".wrangler/config/default.toml",
            ".supabase/access-token",
            "stripe/config.toml",
            "com.vercel.cli/auth.json",
            "glab-cli/config.yml",
            "ngrok/ngrok.yml",
            ".ngrok2/ngrok.yml",
            ".snowsql/config",
            "snowflake/connections.toml",
            ".dbt/profiles.yml",
            ".passwd-s3fs",
            "scw/config.yaml",
            ".talos/config",
            ".mc/config.json",
            ".circleci/cli.yml",
            ".config/linode-cli",
            ".aliyun/config.json",
            ".doppler/.doppler.yaml",
            "doppler/.doppler.yaml",
        ],
        "platform CLI credentials",
    ),
    cf(
        &[
            ".claude/.credentials.json",
            ".gemini/oauth_creds.json",
            "github-copilot/hosts.json",
            "github-copilot/apps.json",
        ],
        "a coding agent's login token",
    ),
    cf(
        &["containers/auth.json", ".dockercfg"],
        "container registry credentials",
    ),
    cf(
        &[
            ".ivy2/.credentials",
            ".sbt/.credentials",
            "pypoetry/auth.toml",
            ".nuget/nuget/nuget.config",
        ],
        "package registry credentials",
    ),
    cf(&["git/credentials"], "git credentials"),
    cf(
        &[
            "kubernetes/admin.conf",
            "kubernetes/super-admin.conf",
            "kubernetes/kubelet.conf",
            "kubernetes/controller-manager.conf",
            "kubernetes/scheduler.conf",
            "k3s/k3s.yaml",
            "rke2/rke2.yaml",
        ],
        "Kubernetes config",
    ),
    cf(
        &["serviceaccount/token"],
        "Kubernetes service account token",
    ),
    cf(&["age/keys.txt"], "age private keys"),
    cf(
        &["*.ovpn", "wireguard/*.conf"],
        "VPN profile (holds a private key)",
    ),
    cf(
        &["key.properties", "keystore.properties"],
        "signing keystore passwords",
    ),
    cf(
        &[".renviron", ".authinfo"],
        "tokens in a tool's environment file",
    ),
    cf(
        &["*firebase-adminsdk*.json"],
        "service account or OAuth client credentials",
    ),
    cf(
        &[
            "default/login data",
            "profile */login data",
            "default/web data",
            "profile */web data",
            "default/cookies",
            "profile */cookies",
            "default/network/cookies",
            "profile */network/cookies",
            "*.default*/logins.json",
            "*.default*/key4.db",
            "*.default*/key3.db",
            "*.default*/cookies.sqlite",
            "keychains/*.keychain-db",
            "keychains/*.keychain",
        ],
        "a browser's or keychain's password store",
    ),
    // Password stores by their file kind, wherever they are.
    cf(
        &[
            "*.keyring",
            "*.keychain",
            "*.keychain-db",
            "*.kdbx",
            "*.kdb",
            "*.psafe3",
            "*.credential",
            "*.credentials",
        ],
        super::secret_files::PASSWORD_STORE,
    ),
];

/// Data formats a credential is kept in (or none): a name with another
/// extension is code, documentation or markup (`token.rs`, `password.md`).
pub const DATA_EXTENSIONS: &[&str] = &[
    "txt",
    "json",
    "yaml",
    "yml",
    "toml",
    "ini",
    "conf",
    "cfg",
    "env",
    "properties",
    "xml",
    "dat",
    "b64",
    "base64",
];

/// Last words of a file's stem that say the file IS a credential
/// (`db-password.txt`, `github_token`, `.secrets.json`,
/// `prod-credentials.json`); `tokens` is left out (design tokens), and so
/// is `secret` (`secret.yaml` is a Kubernetes manifest, often a chart's
/// template).
pub const STEM_NOUNS: &[&str] = &[
    "token",
    "password",
    "passwd",
    "passphrase",
    "secrets",
    "credential",
    "credentials",
    "creds",
    "apikey",
    "secretkey",
    "accesskey",
];

/// Words before `key`/`keys` that make it a credential (`api_key.txt`,
/// `private-key.asc`, `access-keys.json`).
pub const KEY_QUALIFIERS: &[&str] = &[
    "api",
    "access",
    "secret",
    "private",
    "master",
    "encryption",
    "signing",
    "service",
];

/// Key stores by extension beyond the common ones (PKCS#12 and #8 spelled
/// out, a Windows private key, a .NET strong-name key, a BouncyCastle
/// keystore).
pub const MORE_KEY_EXTENSIONS: &[&str] = &["pkcs12", "pkcs8", "pk8", "pvk", "snk", "bks"];

/// A credential file known by what it is rather than by a table name: a
/// data file whose name ends in a credential noun, an ASCII-armoured
/// private key, an SSH private key under another name (`id_ed25519_work`,
/// `ssh_host_rsa_key`). `lower` is the file's name in lower case, `dir` a
/// path given with a trailing `/` (a folder: not judged here), `in_folder`
/// whether the path names a folder before the file.
pub fn by_kind(lower: &str, dir: bool, in_folder: bool) -> Option<&'static str> {
    if dir || lower.contains("example") || lower.contains("sample") || lower.contains("template") {
        return None;
    }
    // SSH private keys under another name.
    let ssh_key = ["id_rsa", "id_ed25519", "id_ecdsa", "id_dsa"]
        .iter()
        .any(|k| {
            lower
                .strip_prefix(k)
                .is_some_and(|r| r.starts_with(['_', '-', '.']) && !r.ends_with(".pub"))
        })
        || lower.starts_with("ssh_host_") && lower.ends_with("_key");
    if ssh_key {
        return Some("SSH private key");
    }
    let (stem, ext) = match lower.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s, e),
        _ => (lower, ""),
    };
    if MORE_KEY_EXTENSIONS.contains(&ext) {
        return Some("private key or certificate file");
    }
    let words: Vec<&str> = stem
        .split(['-', '_', '.', ' '])
        .filter(|w| !w.is_empty())
        .collect();
    let last = words.last().copied().unwrap_or("");
    let before = words
        .len()
        .checked_sub(2)
        .and_then(|i| words.get(i))
        .copied();
    let public = words
        .iter()
        .any(|w| matches!(*w, "pub" | "public" | "baseline"));
    if public {
        return None;
    }
    // An ASCII-armoured private key (`signing-key.asc`, `private.asc`).
    if ext == "asc" {
        return (matches!(last, "key" | "keys" | "private" | "secret")
            || words
                .iter()
                .any(|w| matches!(*w, "private" | "secret" | "sec")))
        .then_some("private key or certificate file");
    }
    if !(ext.is_empty() || DATA_EXTENSIONS.contains(&ext)) {
        return None;
    }
    // A JSON key is a cloud service account's key file (`sa-key.json`,
    // `bq-service-account.json`, `firebase-serviceaccount.json`).
    let json_key = ext == "json"
        && (last == "key"
            || last == "serviceaccount"
            || last == "account" && before == Some("service"));
    let noun = STEM_NOUNS.contains(&last)
        || json_key
        || matches!(last, "key" | "keys") && before.is_some_and(|b| KEY_QUALIFIERS.contains(&b));
    // Without an extension a word is a file only as a path (`deploy/github_token`):
    // a bare `get_token` is a test's name, `"API_TOKEN"` a variable's, and
    // `token/` may be a folder.
    (noun && (!ext.is_empty() || in_folder && words.len() > 1))
        .then_some("a file named for the credential it holds")
}

/// Whether a file no name rule classifies may still be key material by
/// its contents: a certificate bundle, an armoured or base64 text, a text
/// file, or a file with no extension in a keys or certificates folder
/// (`certs/server.crt` that bundles its key, `keys/deploy`). Only these
/// have their head read ([`private_key_block`]); other files are not
/// opened.
pub fn may_hold_key(path: &str) -> bool {
    let norm = path.replace('\\', "/").to_ascii_lowercase();
    let mut parts = norm.trim_end_matches('/').rsplit('/');
    let name = parts.next().unwrap_or("");
    let parent = parts.next().unwrap_or("");
    match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => matches!(
            ext,
            "crt" | "cer" | "cert" | "asc" | "txt" | "b64" | "base64" | "bundle" | "chain"
        ),
        _ => matches!(
            parent,
            "keys" | "key" | "certs" | "cert" | "ssl" | "tls" | "certificates" | "private"
        ),
    }
}

/// Whether a file's head holds a private key block (PEM, OpenSSH or PGP).
pub fn private_key_block(head: &str) -> bool {
    head.match_indices("-----BEGIN ").any(|(at, m)| {
        let line = head[at + m.len()..].lines().next().unwrap_or("");
        line.ends_with("PRIVATE KEY-----") || line.ends_with("PRIVATE KEY BLOCK-----")
    })
}
/// [`CREDENTIAL_FILES`] by the last component of a name, built once a
/// process on first use: a path's last component picks the few rows whose
/// literal last component it is; a name whose last component has a `*` is
/// tried only on a last component that begins and ends as its pattern does
/// (a linear scan tried every name on every path).
struct Index {
    /// A literal last component: the rows (their index in the table) and
    /// names that end with it.
    by_last: std::collections::HashMap<&'static str, Vec<(usize, &'static str)>>,
    /// The names whose last component has a `*`: their row, the name, and
    /// the text before the last component's first `*` and after its last.
    starred: Vec<(usize, &'static str, &'static str, &'static str)>,
}

static INDEX: std::sync::LazyLock<Index> = std::sync::LazyLock::new(|| {
    let mut index = Index {
        by_last: std::collections::HashMap::new(),
        starred: Vec::new(),
    };
    for (row, f) in CREDENTIAL_FILES.iter().enumerate() {
        for &name in f.names {
            let last = name.rsplit('/').next().unwrap_or(name);
            match (last.split_once('*'), last.rsplit_once('*')) {
                (Some((head, _)), Some((_, tail))) => index.starred.push((row, name, head, tail)),
                _ => index.by_last.entry(last).or_default().push((row, name)),
            }
        }
    }
    index
});

/// The first row of [`CREDENTIAL_FILES`] one of whose names `matches` the
/// path's `tail` (lower case, its last components joined by `/`): what
/// scanning the table in order finds, since a name can only match a path
/// whose last component is its own, or begins and ends as it does.
pub fn find(tail: &str, matches: impl Fn(&str, &str) -> bool) -> Option<&'static CredentialFile> {
    let last = tail.rsplit('/').next().unwrap_or(tail);
    let index = &*INDEX;
    let starred = index
        .starred
        .iter()
        .filter(|(_, _, head, end)| {
            last.len() >= head.len() + end.len() && last.starts_with(head) && last.ends_with(end)
        })
        .map(|&(row, name, _, _)| (row, name));
    index
        .by_last
        .get(last)
        .into_iter()
        .flatten()
        .copied()
        .chain(starred)
        .filter(|(_, name)| matches(tail, name))
        .map(|(row, _)| row)
        .min()
        .map(|row| &CREDENTIAL_FILES[row])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::guards::secret_files::name_matches;

    /// The index finds the row scanning the table in order finds, for
    /// every name (its `*` as nothing, as one letter, as several), the
    /// same under a folder, a backup copy, and paths no row names.
    #[test]
    fn the_index_finds_what_a_scan_finds() {
        let scan = |tail: &str| {
            CREDENTIAL_FILES
                .iter()
                .position(|f| f.names.iter().any(|n| name_matches(tail, n)))
        };
        let row = |f: &'static CredentialFile| {
            CREDENTIAL_FILES
                .iter()
                .position(|g| g.names == f.names && g.kind == f.kind)
        };
        let mut tails: Vec<String> = ["", "x", "src/main.rs", "a/b/c", "token", ".env"]
            .map(String::from)
            .to_vec();
        for f in CREDENTIAL_FILES {
            for n in f.names {
                for star in ["", "x", "ab.cd"] {
                    let t = n.replace('*', star);
                    tails.push(format!("home/{t}"));
                    tails.push(format!("{t}.bak"));
                    tails.push(format!("x{t}"));
                    tails.push(t);
                }
            }
        }
        let mut found = 0;
        for t in &tails {
            let want = scan(t);
            assert_eq!(find(t, name_matches).and_then(row), want, "{t:?}");
            found += usize::from(want.is_some());
        }
        assert!(found > CREDENTIAL_FILES.len(), "the paths reach the rows");
    }
}
