//! Which files hold secrets, by name and place: `.env` files (not their
//! templates), SSH private keys, key and certificate stores, cloud and
//! registry credential files, kube configs, `.netrc`. Matching is on the
//! path's trailing components (so `~/.aws/credentials`, `$HOME/.aws/credentials`
//! and `/home/me/.aws/credentials` are the same thing), with `\` read as `/`.

/// What a path is, as far as secrets go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SecretClass {
    /// A secret whatever its contents: the kind, as the advisory names it.
    Secret(&'static str),
    /// A config file that holds secrets only when it carries a token
    /// (`.npmrc`, `.pypirc`): the caller reads its head to decide.
    IfTokens(&'static str),
}

/// The kind of a password manager's database or a credential file found by
/// its extension (`vault.kdbx`, `login.keyring`).
pub const PASSWORD_STORE: &str = "a password store or credential file";

/// Template suffixes of `.env` files: these are meant to be read and shared.
const ENV_TEMPLATES: &[&str] = &[
    "example",
    "sample",
    "template",
    "tmpl",
    "tpl",
    "dist",
    "defaults",
    "default",
    "schema",
    "ci",
    "test.example",
];

/// Extensions of private key and certificate stores.
const KEY_EXTENSIONS: &[&str] = &["pem", "key", "p12", "pfx", "ppk", "jks", "keystore", "p8"];

/// Files under `~/.ssh` that are not secret.
const SSH_PUBLIC: &[&str] = &[
    "known_hosts",
    "known_hosts.old",
    "config",
    "authorized_keys",
    "environment",
];

/// Classifies a path (absolute, relative, `~/...`, Windows or POSIX); a
/// backup copy of a secret file is the same secret.
pub fn classify(path: &str) -> Option<SecretClass> {
    classify_name(path).or_else(|| {
        let trimmed = path.trim_end_matches(['/', '\\']);
        BACKUP_SUFFIXES.iter().find_map(|s| {
            trimmed
                .strip_suffix(s)
                .filter(|rest| !rest.is_empty() && !rest.ends_with(['/', '.']))
                .and_then(classify_name)
        })
    })
}

fn classify_name(path: &str) -> Option<SecretClass> {
    let norm = path.replace('\\', "/");
    let trimmed = norm.trim_end_matches('/');
    if trimmed.is_empty() {
        return None;
    }
    let mut parts = trimmed.rsplit('/');
    let name = parts.next().unwrap_or("");
    let parent = parts.next().unwrap_or("");
    let lower = name.to_ascii_lowercase();

    // Whole credential directories.
    match name {
        ".ssh" => return Some(SecretClass::Secret("SSH keys directory")),
        ".aws" => return Some(SecretClass::Secret("AWS credentials directory")),
        ".azure" => return Some(SecretClass::Secret("Azure credentials directory")),
        ".kube" => return Some(SecretClass::Secret("Kubernetes configs directory")),
        ".gnupg" => return Some(SecretClass::Secret("GnuPG keyring")),
        // A secrets folder written as one (`git add secrets/`; the bare word
        // is a subcommand: `gcloud secrets list`).
        "secrets" | ".secrets" if norm.ends_with('/') => {
            return Some(SecretClass::Secret("a secrets folder"));
        }
        _ => {}
    }
    // Tool folders in the home directory that hold a login token.
    let at_home = |p: &str| {
        p.starts_with("~/")
            || p.starts_with("$HOME/")
            || p.starts_with("${HOME}/")
            || p.starts_with("/root/")
            || ["/home/", "/Users/"].iter().any(|h| {
                p.strip_prefix(h)
                    .is_some_and(|r| r.matches('/').count() == 1)
            })
    };
    if trimmed.ends_with(".config/gh") || matches!(name, ".codex" | ".docker") && at_home(trimmed) {
        return Some(SecretClass::Secret("a CLI's login folder"));
    }
    if parent == ".codex" && name == "auth.json" {
        return Some(SecretClass::Secret("Codex CLI login token"));
    }
    if lower == ".env" || lower.ends_with(".env") && lower.len() > 4 && !lower.starts_with('.') {
        // `example.env`, `app.sample.env`: templates too.
        let stem = lower.trim_end_matches(".env");
        if ENV_TEMPLATES.iter().any(|t| {
            stem == *t || stem.ends_with(&format!(".{t}")) || stem.ends_with(&format!("-{t}"))
        }) {
            return None;
        }
        return Some(SecretClass::Secret("environment file (.env)"));
    }
    if name == "environ"
        && (matches!(parent, "self" | "thread-self" | "$$")
            || parent.starts_with('$')
            || parent.bytes().all(|c| c.is_ascii_digit()))
        && norm.contains("/proc/")
    {
        return Some(SecretClass::Secret("a process's environment"));
    }
    if let Some(suffix) = lower
        .strip_prefix(".env.")
        .or_else(|| lower.strip_prefix(".env-"))
        .or_else(|| lower.strip_prefix(".env_"))
    {
        if ENV_TEMPLATES
            .iter()
            .any(|t| suffix == *t || suffix.ends_with(&format!(".{t}")))
        {
            return None;
        }
        return Some(SecretClass::Secret("environment file (.env)"));
    }
    if parent == ".ssh" {
        if lower.ends_with(".pub") || SSH_PUBLIC.contains(&lower.as_str()) {
            return None;
        }
        return Some(SecretClass::Secret("SSH private key"));
    }
    if matches!(
        lower.as_str(),
        "id_rsa" | "id_dsa" | "id_ecdsa" | "id_ed25519" | "id_ecdsa_sk" | "id_ed25519_sk"
    ) {
        return Some(SecretClass::Secret("SSH private key"));
    }
    if let Some((stem, ext)) = lower.rsplit_once('.')
        && KEY_EXTENSIONS.contains(&ext)
        && !stem.is_empty()
        && !public_key_stem(stem)
    {
        return Some(SecretClass::Secret("private key or certificate file"));
    }
    if parent == ".aws" && (name == "credentials" || name == "config") {
        return Some(SecretClass::Secret("AWS credentials"));
    }
    if norm.contains(".config/gcloud") || lower == "application_default_credentials.json" {
        return Some(SecretClass::Secret("Google Cloud credentials"));
    }
    if norm.contains("/.azure/") || norm.starts_with(".azure/") {
        return Some(SecretClass::Secret("Azure credentials"));
    }
    if parent == ".docker" && name == "config.json" {
        return Some(SecretClass::Secret("Docker registry credentials"));
    }
    if (parent == ".kube" && lower.starts_with("config") && !lower.ends_with(".md"))
        || lower == "kubeconfig"
        || lower.ends_with(".kubeconfig")
        || lower.starts_with("kubeconfig.y")
    {
        return Some(SecretClass::Secret("Kubernetes config"));
    }
    let gnupg_public = matches!(
        lower.as_str(),
        "gpg.conf"
            | "gpg-agent.conf"
            | "dirmngr.conf"
            | "common.conf"
            | "sshcontrol"
            | "trustdb.gpg"
            | "pubring.kbx"
            | "pubring.gpg"
    );
    // GnuPG's private keys live one folder down (`private-keys-v1.d/KEYGRIP.key`,
    // whatever the file is called).
    if name == "private-keys-v1.d"
        || norm.contains("/private-keys-v1.d/")
        || norm.starts_with("private-keys-v1.d/")
    {
        return Some(SecretClass::Secret("GnuPG private keys"));
    }
    if norm.contains(".aws/sso/cache/") || norm.contains(".aws/cli/cache/") {
        return Some(SecretClass::Secret("AWS session credentials"));
    }
    if norm.starts_with("/run/secrets/")
        || norm.starts_with("/var/run/secrets/")
        || parent == ".gnupg" && !gnupg_public
    {
        return Some(SecretClass::Secret(if parent == ".gnupg" {
            "GnuPG keyring"
        } else {
            "container secret"
        }));
    }
    // A file in a folder named for secrets (`secrets/db_password.txt`,
    // `.secrets/token`, a mounted `/etc/secret/token`), unless it is code,
    // documentation or a template.
    // (`secret/` only as an absolute path: `vault kv get secret/app` names a
    // Vault mount.)
    // Any folder above counts (`secrets/prod/stripe.txt`), but not a
    // public half (`…/secrets/public-key`: the API's encryption key).
    let folder = parent.to_ascii_lowercase();
    let above = trimmed.rsplit('/').skip(1).any(|f| {
        let f = f.to_ascii_lowercase();
        matches!(f.as_str(), "secrets" | ".secrets")
    });
    if (above || folder == "secret" && norm.starts_with('/'))
        && !not_secret_content(&lower)
        && !lower.contains("public")
    {
        return Some(SecretClass::Secret("a file in a secrets folder"));
    }
    // The private-key folder of a TLS setup (`/etc/ssl/private`,
    // `/etc/pki/tls/private/…`).
    let grandparent = parts.next().unwrap_or("");
    if name == "private" && matches!(parent, "ssl" | "tls")
        || parent == "private" && matches!(grandparent, "ssl" | "tls")
    {
        return Some(SecretClass::Secret("TLS private keys"));
    }
    let tail = trailing(&norm.to_ascii_lowercase(), 3);
    // Else a CLI's stored login in its own folder of the home directory
    // (`~/.foo/credentials`, `~/.config/foo/token`, `~/.bar/auth.json`):
    // the names tools give the file they log in with.
    // A hidden folder within the last three holds a tool's files too
    // (`~/.cache/huggingface/token`, `~/.local/share/tool/auth.json`).
    let hidden = |f: &str| f.starts_with('.') && f.len() > 1 && f != "..";
    let tool_folder = hidden(parent)
        || grandparent == ".config"
        || hidden(grandparent)
        || parts.clone().next().is_some_and(hidden);
    // A key file with no extension in a tool's folder (`~/.android/adbkey`).
    if tool_folder
        && !lower.contains('.')
        && (matches!(lower.as_str(), "key" | "adbkey" | "privkey" | "secretkey")
            || lower.ends_with("_key")
            || lower.ends_with("-key"))
        && !lower.contains("pub")
    {
        return Some(SecretClass::Secret("a private key in a tool's folder"));
    }
    // Wrangler's `.dev.vars` (and `.<stage>.vars`): dotenv lines of secrets.
    if lower.starts_with('.') && lower.ends_with(".vars") && lower.len() > 5 {
        return Some(SecretClass::Secret("environment file (dotenv)"));
    }
    super::credential_files::find(&tail, name_matches)
        .map(|f| {
            if f.if_tokens {
                SecretClass::IfTokens(f.kind)
            } else {
                SecretClass::Secret(f.kind)
            }
        })
        .or_else(|| {
            (tool_folder && LOGIN_FILE_NAMES.contains(&lower.as_str()))
                .then_some(SecretClass::Secret("a CLI's stored login"))
        })
        .or_else(|| {
            super::credential_files::by_kind(&lower, norm.ends_with('/'), !parent.is_empty())
                .map(SecretClass::Secret)
        })
}

pub use super::credential_files::CREDENTIAL_FILES;

/// What tools call the file they keep a login in (see [`classify`]: only in
/// a tool's own folder).
const LOGIN_FILE_NAMES: &[&str] = &[
    "credentials",
    "credentials.json",
    "credentials.toml",
    "credentials.yml",
    "credentials.yaml",
    "credentials.ini",
    "token",
    "token.json",
    "access-token",
    "access_token",
    "auth.json",
    "auth.toml",
    "auth.yml",
    "auth.yaml",
    "api-key",
    "api_key",
    "apikey",
];

/// Suffixes an editor, a package manager or a person gives a copy of a
/// file (`/etc/shadow-`, `id_rsa~`, `credentials.bak`): the copy holds the
/// same secret.
const BACKUP_SUFFIXES: &[&str] = &[
    "-", "~", ".bak", ".old", ".orig", ".save", ".backup", ".swp", ".prev",
];

/// The last `n` components of a path, joined by `/`.
fn trailing(path: &str, n: usize) -> String {
    let parts: Vec<&str> = path.trim_end_matches('/').rsplit('/').take(n).collect();
    parts.into_iter().rev().collect::<Vec<_>>().join("/")
}

/// Whether a path's tail ends with a table name (`a/b` matches the last two
/// components; `*` is any text within a component).
pub(super) fn name_matches(tail: &str, name: &str) -> bool {
    let mut got = tail.rsplit('/');
    name.rsplit('/')
        .all(|n| got.next().is_some_and(|g| star_match(n, g)))
}

/// `*` as any text, everything else literal.
fn star_match(pat: &str, s: &str) -> bool {
    let mut parts = pat.split('*');
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = s.strip_prefix(first) else {
        return false;
    };
    let mut pieces = parts.peekable();
    if pieces.peek().is_none() {
        return rest.is_empty();
    }
    while let Some(p) = pieces.next() {
        if pieces.peek().is_none() {
            return rest.len() >= p.len() && rest.ends_with(p);
        }
        match rest.find(p) {
            Some(at) => rest = &rest[at + p.len()..],
            None => return false,
        }
    }
    true
}

/// Whether a file's name says it holds code, documentation or a template
/// (a `secrets/` folder's `README.md`, `mod.rs`, `db.example.yml`).
fn not_secret_content(lower: &str) -> bool {
    const CODE: &[&str] = &[
        "rs",
        "py",
        "ts",
        "tsx",
        "js",
        "jsx",
        "mjs",
        "cjs",
        "go",
        "rb",
        "java",
        "kt",
        "swift",
        "c",
        "h",
        "cc",
        "cpp",
        "cs",
        "php",
        "sh",
        "md",
        "rst",
        "adoc",
        "html",
        "css",
        "gitignore",
        "gitkeep",
        "keep",
        "tf",
        "hcl",
        "lock",
        "sum",
        "mod",
    ];
    let ext = lower.rsplit_once('.').map_or("", |(_, e)| e);
    CODE.contains(&ext)
        || ["example", "sample", "template", "tmpl", "tpl"]
            .iter()
            .any(|t| lower.contains(t))
        || lower == "readme"
        || lower == "kustomization.yaml"
}

/// A key file's stem that says it is the public half (`id.pub.pem`,
/// `public.pem`, `server_pub.key`).
fn public_key_stem(stem: &str) -> bool {
    stem.ends_with(".pub")
        || stem.ends_with("_pub")
        || stem.ends_with("-pub")
        || stem.contains("public")
        || stem == "pubkey"
}

/// Whether the head of an `.npmrc`/`.pypirc`-style file carries a token.
pub fn has_token(head: &str) -> bool {
    head.lines().any(|l| {
        let l = l.trim();
        if l.starts_with('#') || l.starts_with(';') {
            return false;
        }
        let Some((key, value)) = l.split_once('=').or_else(|| l.split_once(':')) else {
            return false;
        };
        let key = key.trim().to_ascii_lowercase();
        let value = value.trim();
        (key.ends_with("_authtoken")
            || key.ends_with("_auth")
            || key == "password"
            || key == "npmauthtoken"
            || key == "token"
            || key.ends_with(":_password"))
            && !value.is_empty()
            && !value.starts_with("${")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(p: &str) -> Option<&'static str> {
        match classify(p)? {
            SecretClass::Secret(k) | SecretClass::IfTokens(k) => Some(k),
        }
    }

    #[test]
    fn secret_files_by_name_and_place() {
        for p in [
            ".env",
            "./.env",
            "backend/.env.local",
            ".env.production",
            "config/prod.env",
            "~/.ssh/id_rsa",
            "/home/dev/.ssh/id_ed25519",
            "~/.ssh",
            "$HOME/.ssh/deploy_key",
            "certs/server.pem",
            "tls/server.key",
            "client.p12",
            "~/.aws/credentials",
            "~/.aws",
            "~/.config/gcloud/application_default_credentials.json",
            "~/.azure/accessTokens.json",
            "~/.docker/config.json",
            "~/.kube/config",
            "C:\\Users\\dev\\.kube\\config",
            "~/.netrc",
            ".git-credentials",
            "/proc/self/environ",
            "prod.env",
        ] {
            assert!(kind(p).is_some(), "{p}");
        }
        assert_eq!(
            classify("~/.npmrc"),
            Some(SecretClass::IfTokens(".npmrc with an auth token"))
        );
    }

    #[test]
    fn templates_public_keys_and_lookalikes_are_not_secrets() {
        for p in [
            ".env.example",
            ".env.sample",
            ".env.template",
            "config/.env.dist",
            "src/env.ts",
            "environment.yml",
            ".envrc.md",
            "~/.ssh/id_rsa.pub",
            "~/.ssh/known_hosts",
            "~/.ssh/config",
            "docs/keys.md",
            "src/key.rs",
            "monkey",
            "README.md",
            "docker-compose.yml",
            ".dockerignore",
            "src/.environment",
            "pem",
            "example.env",
            "config/sample.env",
            "app.template.env",
        ] {
            assert_eq!(kind(p), None, "{p}");
        }
    }

    #[test]
    fn credential_files_by_table() {
        for (p, want) in [
            ("~/.cargo/credentials.toml", "Cargo registry token"),
            ("C:\\Users\\me\\.cargo\\credentials", "Cargo registry token"),
            ("/home/me/.config/gh/hosts.yml", "GitHub CLI token"),
            (
                "infra/prod.auto.tfvars",
                "Terraform variables (passwords and keys)",
            ),
            (
                "gcp/service-account-ci.json",
                "service account or OAuth client credentials",
            ),
            ("/run/secrets/token", "container secret"),
            ("~/.gnupg/secring.gpg", "GnuPG keyring"),
        ] {
            assert_eq!(kind(p), Some(want), "{p}");
        }
        for p in [
            "hosts.yml",
            "settings.xml",
            "gradle.properties",
            "keys/id.pub.pem",
            "public.pem",
            "~/.gnupg/gpg.conf",
            "terraform.tfvars.example",
            "secrets.md",
        ] {
            assert_eq!(kind(p), None, "{p}");
        }
        assert!(star_match(
            "client_secret*.json",
            "client_secret_1.apps.json"
        ));
        assert!(!star_match("*.tfvars", "x.tfvars.json"));
    }

    #[test]
    fn npmrc_tokens() {
        assert!(has_token(
            "registry=https://r.example.com\n//r.example.com/:_authToken=abc123\n"
        ));
        assert!(has_token(
            "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmc\n"
        ));
        assert!(!has_token(
            "registry=https://registry.npmjs.org/\nsave-exact=true\n"
        ));
        assert!(!has_token("//r/:_authToken=${NPM_TOKEN}\n"));
        assert!(!has_token("# _authToken=old\n"));
    }
}
