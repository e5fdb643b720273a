//! The tables of the effect model: every tool family cuecard knows, the
//! verbs that matter, the effect of each, and the forms that change nothing
//! (help, dry runs). Edit here to teach the guards a tool; `cargo xtask gen`
//! renders this file's data into `generated/effects.md`.
//!
//! A verb's `path` is a list of words the command's leading operands hold
//! in order (other words may sit between them: an option's value); a word
//! `a|b` matches either, and matches the head of `kind/name` and one item
//! of a comma list. A family with a `generic` kind also fires on any
//! delete-like verb ([`DELETE_VERBS`]) among its first words, so a resource
//! type no verb lists is still caught.

use super::{Effect, Kind};

/// A condition on a command's options and operands.
#[derive(Clone, Copy, Debug)]
pub enum Cond {
    Always,
    /// One of these options is given (`--opt`, `--opt=v` unless `v` turns
    /// it off, or a one-letter option inside a cluster).
    AnyOpt(&'static [&'static str]),
    /// One of these words is an operand (any case).
    AnyWord(&'static [&'static str]),
    /// None of these options is given (`influx delete` without a
    /// `--predicate` deletes every point; `sqitch revert` without `--to`
    /// reverts every change).
    NoOpt(&'static [&'static str]),
    /// An operand starts with one of these (any case): `cipher /w:C:\`,
    /// `format D:`.
    WordStarts(&'static [&'static str]),
    /// The first operand is one of these words (`vagrant destroy`, not
    /// `vagrant plugin … remove`).
    Lead(&'static [&'static str]),
    /// One of these words is an operand with another operand after it: a
    /// verb given no target only prints its usage (`diskutil eraseDisk`).
    WordWithTarget(&'static [&'static str]),
    /// A word (the code a runner evaluates: `rails runner '…'`, `manage.py
    /// shell -c '…'`) holds one of the first texts and none of the second
    /// (a filter makes a bulk delete a narrow one, like SQL's `WHERE`).
    CodeHas(&'static [&'static str], &'static [&'static str]),
}

/// Bulk deletes in ORM code (Active Record, Django, Sequelize, Prisma,
/// TypeORM, Mongoose, SQL in a string): what a runner's code must hold to
/// delete every row. Matched on the code in lower case without spaces.
pub const ORM_BULK_DELETES: &[&str] = &[
    ".delete_all",
    ".destroy_all",
    ".objects.all().delete()",
    ".objects.delete()",
    "drop_table",
    "drop_database",
    "truncate_all",
    "truncatetable",
    "droptable",
    ".deletemany({})",
    ".deletemany()",
    ".destroy({truncate",
    ".dropdatabase()",
];

/// Filters that make an ORM delete a narrow one (`User.where(…).delete_all`).
pub const ORM_FILTERS: &[&str] = &[
    ".where(",
    ".filter(",
    ".exclude(",
    ".find(",
    ".find_by",
    ".limit(",
    ".first",
    ".last",
    ".get(",
    "where:",
];

/// One verb of a family.
pub struct Verb {
    pub path: &'static [&'static str],
    pub cond: Cond,
    pub effect: Effect,
    pub kind: Kind,
    /// What the command does, in words (the finding's reason).
    pub what: &'static str,
}

/// A tool family: the programs (a name ending in `*` is a prefix:
/// `mkfs.*`), its verbs, and the kind its generic delete-like verbs give
/// (none: only the verbs listed count).
pub struct Family {
    pub name: &'static str,
    pub tools: &'static [&'static str],
    pub verbs: &'static [Verb],
    pub generic: Option<Kind>,
    /// Whether the family's credential commands are judged by the generic
    /// secret-printing rule ([`SECRET_NOUNS`], [`SECRET_VERBS`]).
    pub prints_secrets: bool,
    /// Options whose value is SQL the tool runs (`--sql`, `--query-string`).
    pub sql_options: &'static [&'static str],
}

pub(super) const fn v(
    path: &'static [&'static str],
    cond: Cond,
    effect: Effect,
    kind: Kind,
    what: &'static str,
) -> Verb {
    Verb {
        path,
        cond,
        effect,
        kind,
        what,
    }
}

/// Delete-like verbs: a family with a generic kind fires when one of its
/// first words is one of these, or has one as a part (`delete-table`,
/// `apps:destroy`, `service-instance-delete`).
pub const DELETE_VERBS: &[&str] = &[
    "delete",
    "destroy",
    "remove",
    "rm",
    "rb",
    "terminate",
    "purge",
    "drop",
    "wipe",
    "erase",
    "truncate",
    "flush",
    "flushall",
    "flushdb",
    "expunge",
    "deletefile",
    "rmdir",
    "rmdirs",
    "uninstall",
    "del",
    "deletion",
    "deprovision",
    "decommission",
    "teardown",
];

/// Delete-like verbs that also start a joined API name
/// (`DeleteInstance`, `TerminateInstances`, `deleteBucket`): a leading
/// word that starts with one of these, followed by an upper-case letter,
/// is a delete too.
pub const DELETE_API_PREFIXES: &[&str] = &[
    "Delete",
    "delete",
    "Destroy",
    "destroy",
    "Remove",
    "remove",
    "Terminate",
    "terminate",
    "Purge",
    "purge",
    "Drop",
    "drop",
    "Truncate",
    "truncate",
];

/// Options that take the next word as their value, per tool: that word is
/// no help or dry-run option (`git clean -e --dry-run -f` cleans).
pub const VALUE_OPTIONS: &[(&str, &[&str])] = &[(
    "git",
    &[
        "-e",
        "--exclude",
        "-o",
        "--push-option",
        "--repo",
        "-m",
        "-C",
        "-c",
    ],
)];

/// Tools whose help is the word `help` at the end (`aws s3 rm help`).
pub const HELP_LAST: &[&str] = &["aws", "aws-vault", "eb", "sam"];

/// Words that make `reset` a database reset (`heroku pg:reset`, `supabase
/// db reset`) rather than a restart (`gcloud compute instances reset`).
pub const DATA_NOUNS: &[&str] = &[
    "db",
    "database",
    "databases",
    "pg",
    "postgres",
    "postgresql",
    "mysql",
    "redis",
    "data",
    "table",
    "tables",
];

/// Objects a delete-like verb may remove without losing data: local
/// configuration, a login, a cache, a label.
pub const HARMLESS_OBJECTS: &[&str] = &[
    "config",
    "configuration",
    "configurations",
    "context",
    "contexts",
    "plugin",
    "plugins",
    "component",
    "components",
    "extension",
    "extensions",
    "alias",
    "aliases",
    "cache",
    "caches",
    "tag",
    "tags",
    "label",
    "labels",
    "auth",
    "login",
    "logout",
    "session",
    "sessions",
    "completion",
    "reaction",
    "comment",
    "assignee",
    "reviewer",
    "cdn",
    "afd",
    "invalidation",
];

/// Options that only ask for help: the command does nothing else.
pub const HELP_OPTIONS: &[&str] = &[
    "--help",
    "-help",
    "-?",
    "/?",
    "--usage",
    "-usage",
    // The AWS CLI prints a request or response skeleton and calls nothing.
    "--generate-cli-skeleton",
];

/// Options of a tool that come before its subcommand and take the next
/// word as their value (`aws --profile prod …`, `gh --repo o/r …`): the
/// value is no word of the verb (`aws --output delete-x sts …` deletes
/// nothing).
pub const GLOBAL_VALUE_OPTIONS: &[(&str, &[&str])] = &[
    ("kubectl", super::platforms::KUBECTL_VALUE_OPTIONS),
    ("oc", super::platforms::KUBECTL_VALUE_OPTIONS),
    ("k", super::platforms::KUBECTL_VALUE_OPTIONS),
    ("kubecolor", super::platforms::KUBECTL_VALUE_OPTIONS),
    (
        "aws",
        &[
            "--profile",
            "--output",
            "--region",
            "--query",
            "--endpoint-url",
            "--color",
            "--ca-bundle",
            "--cli-read-timeout",
            "--cli-connect-timeout",
            "--cli-binary-format",
        ],
    ),
    (
        "gcloud",
        &[
            "--project",
            "--format",
            "--account",
            "--configuration",
            "--verbosity",
            "--billing-project",
            "--impersonate-service-account",
        ],
    ),
    ("az", &["--subscription", "--output", "-o", "--query"]),
    ("gh", &["-R", "--repo", "--hostname"]),
    ("glab", &["-R", "--repo"]),
];

/// Options that make a command preview what it would do (a value such as
/// `none` or `false` turns them off: `--dry-run=none`).
pub const DRY_RUN_OPTIONS: &[&str] = &[
    "--dry-run",
    "--dryrun",
    "--dry_run",
    "-dry-run",
    "--preview-only",
    "--what-if",
    "-whatif",
    "--simulate",
    "--no-act",
    "--noop",
    // An ORM's schema command told to print its SQL instead of running it
    // (MikroORM's `schema:drop --dump`, Doctrine's `--dump-sql`).
    "--dump",
    "--dump-sql",
];

/// Tools (or `tool:subcommand`) that have no dry run of their own: a
/// `--dry-run` on them changes nothing of what they do.
pub const NO_DRY_RUN: &[&str] = &[
    "git:reset",
    "git:checkout",
    "git:restore",
    "git:switch",
    "git:stash",
    "git:branch",
    "git:update-ref",
    "git:reflog",
    "git:filter-branch",
    "git:filter-repo",
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "duckdb",
    "sqlcmd",
    "mongosh",
    "mongo",
    "redis-cli",
    "dropdb",
    "rm",
    "dd",
    "shred",
    "mkfs",
];

/// Storage verbs that delete one object; they fire only with a recursive
/// or batch option or a wildcard.
pub const SINGLE_OBJECT_VERBS: &[&str] = &[
    "rm",
    "del",
    "deletefile",
    "delete-object",
    "delete-blob",
    "delete-file-version",
];

/// Tools whose one-letter `-n` (or other letter) is their dry run.
pub const DRY_RUN_SHORT: &[(&str, char)] = &[
    ("rclone", 'n'),
    ("zfs", 'n'),
    ("zpool", 'n'),
    ("rsync", 'n'),
    ("restic", 'n'),
    ("gsutil", 'n'),
    ("mke2fs", 'n'),
    ("mkfs.ext2", 'n'),
    ("mkfs.ext3", 'n'),
    ("mkfs.ext4", 'n'),
    // Each documents the letter as its own dry run: wipefs(8) `-n`
    // (`--no-act`), LVM's `-t` (`--test`), sfdisk(8) `-n`, sgdisk(8) `-P`
    // (`--pretend`), mkfs.xfs(8) `-N`, e2fsck(8)/xfs_repair(8) `-n`
    // (no modify), borg's `-n`, s3cmd's `-n`, apt-get's `-s`.
    ("wipefs", 'n'),
    ("lvremove", 't'),
    ("vgremove", 't'),
    ("pvremove", 't'),
    ("lvreduce", 't'),
    ("sfdisk", 'n'),
    ("sgdisk", 'P'),
    ("mkfs.xfs", 'N'),
    ("e2fsck", 'n'),
    ("xfs_repair", 'n'),
    ("borg", 'n'),
    ("s3cmd", 'n'),
    ("apt-get", 's'),
    // Task runners print the commands a target would run: make(1) `-n`
    // (`--just-print`, `--recon`), rake's `-n` (`--dry-run`).
    ("make", 'n'),
    ("gmake", 'n'),
    ("rake", 'n'),
];

/// A tool's own long spellings of a dry run that are not dry runs on every
/// tool (`--test` is a test selector elsewhere): LVM's `--test`, sgdisk's
/// `--pretend`, apt-get's `--just-print`/`--recon`, Ansible's `--check`.
pub const DRY_RUN_OWN_LONG: &[(&str, &[&str])] = &[
    ("lvremove", &["--test"]),
    ("vgremove", &["--test"]),
    ("pvremove", &["--test"]),
    ("lvreduce", &["--test"]),
    ("sgdisk", &["--pretend"]),
    ("apt-get", &["--just-print", "--recon"]),
    ("make", &["--just-print", "--recon"]),
    ("gmake", &["--just-print", "--recon"]),
    ("ansible-playbook", &["--check"]),
    ("ansible", &["--check"]),
    // Migration tools told to write the SQL out instead of running it:
    // Alembic's offline mode, Flyway's `-dryRunOutput=FILE`.
    ("alembic", &["--sql"]),
    ("flyway", &["-dryrunoutput"]),
];

/// Parts of a credential command's words that name what it prints.
pub const SECRET_NOUNS: &[&str] = &[
    "keys",
    "credential",
    "credentials",
    "sas",
    "password",
    "passwords",
    "token",
    "tokens",
    "publishing",
    "connection",
    "appsettings",
    "rbac",
    "passphrase",
    "apikey",
    "apikeys",
    "accesskey",
    "accesskeys",
];

/// Parts that say the command shows, makes or hands out what it names.
pub const SECRET_VERBS: &[&str] = &[
    "list",
    "show",
    "get",
    "print",
    "export",
    "download",
    "generate",
    "reset",
    "create",
    "regenerate",
    "renew",
    "access",
    "read",
    "view",
    "fetch",
    "value",
    "values",
    "issue",
    "open",
    "reveal",
    "decrypt",
];

/// Options that make a credential command print the value.
pub const SECRET_OPTIONS: &[&str] = &[
    "--show-values",
    "--expose-token",
    "--show-token",
    "--with-decryption",
    "--reveal",
    "--show-secrets",
    "--show-secret",
    "--decrypt",
    "--showsecret",
];

/// Cloud instance metadata endpoints that hand out credentials: (host,
/// a path fragment that marks the credential route).
pub const METADATA_CREDENTIALS: &[(&str, &str)] = &[
    ("169.254.169.254", "security-credentials"),
    ("169.254.169.254", "/token"),
    ("169.254.169.254", "identity"),
    ("169.254.169.254", "api/token"),
    ("169.254.170.2", ""),
    ("metadata.google.internal", "token"),
    ("metadata.google.internal", "service-accounts"),
    ("metadata", "service-accounts"),
    ("100.100.100.200", "ram/security-credentials"),
];

/// Every tool family, in the order they are tried (the first family a
/// tool belongs to wins): platforms and clusters (`platforms.rs`),
/// single tools (`tools.rs`), then services and machines (`services.rs`).
pub fn families() -> impl Iterator<Item = &'static Family> {
    super::platforms::PLATFORMS
        .iter()
        .chain(super::tools::TOOLS.iter())
        .chain(super::services::SERVICES.iter())
}

/// Tools that carry SQL as an operand after these words (`bq query 'DROP
/// …'`, `turso db shell db 'DELETE …'`).
pub const SQL_OPERANDS: &[(&str, &[&str])] = &[
    ("bq", &["query"]),
    ("turso", &["db", "shell"]),
    ("wrangler", &["d1", "execute"]),
    ("supabase", &["db", "query"]),
    ("databricks", &["sql"]),
    ("snow", &["sql"]),
    ("atlas", &["schema", "apply"]),
];

/// Commands that print a credential: the program, the words its operands
/// start with, an option one of which it needs to print the value (empty:
/// none), and what it prints. Word patterns as in [`Verb::path`].
pub struct Printer {
    pub program: &'static str,
    pub words: &'static [&'static str],
    pub needs: &'static [&'static str],
    pub kind: &'static str,
}

const fn p(
    program: &'static str,
    words: &'static [&'static str],
    needs: &'static [&'static str],
    kind: &'static str,
) -> Printer {
    Printer {
        program,
        words,
        needs,
        kind,
    }
}

#[rustfmt::skip]
pub const SECRET_PRINTERS: &[Printer] = &[
    p("gh", &["auth", "token"], &[], "GitHub token"),
    p("gh", &["auth", "status"], &["-t", "--show-token"], "GitHub token"),
    p("glab", &["auth", "status"], &["-t", "--show-token"], "GitLab token"),
    p("aws", &["secretsmanager", "get-secret-value"], &[], "AWS secret"),
    p("aws", &["ssm", "get-parameter"], &["--with-decryption"], "AWS parameter"),
    p("aws", &["ssm", "get-parameters"], &["--with-decryption"], "AWS parameter"),
    p("aws", &["ssm", "get-parameters-by-path"], &["--with-decryption"], "AWS parameter"),
    p("aws", &["sts", "get-session-token"], &[], "AWS session credentials"),
    p("aws", &["sts", "assume-role"], &[], "AWS session credentials"),
    p("aws", &["sts", "assume-role-with-web-identity"], &[], "AWS session credentials"),
    p("aws", &["configure", "get"], &[], "AWS credentials"),
    p("aws", &["configure", "export-credentials"], &[], "AWS credentials"),
    p("aws", &["ecr", "get-login-password"], &[], "registry password"),
    p("aws", &["ecr-public", "get-login-password"], &[], "registry password"),
    p("aws", &["codeartifact", "get-authorization-token"], &[], "package registry token"),
    p("aws", &["kms", "decrypt"], &[], "decrypted secret"),
    p("aws", &["iam", "create-access-key"], &[], "AWS access key"),
    p("gcloud", &["auth", "print-access-token"], &[], "Google Cloud token"),
    p("gcloud", &["auth", "print-identity-token"], &[], "Google Cloud token"),
    p("gcloud", &["auth", "application-default", "print-access-token"], &[], "Google Cloud token"),
    p("gcloud", &["secrets", "versions", "access"], &[], "Google Cloud secret"),
    p("gcloud", &["iam", "service-accounts", "keys", "create"], &[], "service account key"),
    p("az", &["account", "get-access-token"], &[], "Azure token"),
    p("az", &["keyvault", "secret", "show"], &[], "Azure Key Vault secret"),
    p("az", &["acr", "login"], &["--expose-token"], "registry token"),
    p("az", &["iot", "hub|dps", "policy", "show|list"], &[], "IoT access keys"),
    p("az", &["staticwebapp", "secrets", "list"], &[], "deployment token"),
    p("kubectl", &["get", "secret|secrets"], &["-o", "--output", "--template"], "Kubernetes secret"),
    p("kubectl", &["config", "view"], &["--raw"], "Kubernetes credentials"),
    p("kubectl", &["view-secret"], &[], "Kubernetes secret"),
    p("kubectl", &["create", "token"], &[], "Kubernetes token"),
    p("oc", &["get", "secret|secrets"], &["-o", "--output", "--template"], "OpenShift secret"),
    p("oc", &["whoami"], &["-t", "--show-token"], "OpenShift token"),
    p("oc", &["extract", "secret|secrets"], &[], "OpenShift secret"),
    p("vault", &["kv", "get"], &[], "Vault secret"),
    p("vault", &["read"], &[], "Vault secret"),
    p("vault", &["print", "token"], &[], "Vault token"),
    p("vault", &["token", "create|lookup"], &[], "Vault token"),
    p("op", &["read"], &[], "1Password secret"),
    p("op", &["item", "get"], &["--reveal", "--fields"], "1Password secret"),
    p("bw", &["get"], &[], "Bitwarden secret"),
    p("bws", &["secret", "get|list"], &[], "Bitwarden secret"),
    p("pass", &["show"], &[], "password-store secret"),
    p("secret-tool", &["lookup"], &[], "keyring secret"),
    p("doppler", &["secrets"], &[], "Doppler secrets"),
    p("infisical", &["secrets"], &[], "Infisical secrets"),
    p("infisical", &["export"], &[], "Infisical secrets"),
    p("heroku", &["config"], &[], "Heroku config vars"),
    p("heroku", &["config:get"], &[], "Heroku config var"),
    p("heroku", &["auth:token"], &[], "Heroku token"),
    p("heroku", &["pg:credentials|pg:credentials:url|redis:credentials"], &[], "database credentials"),
    p("doctl", &["auth", "token"], &[], "DigitalOcean token"),
    p("flyctl", &["auth", "token"], &[], "Fly.io token"),
    p("fly", &["auth", "token"], &[], "Fly.io token"),
    p("vercel", &["env", "pull"], &[], "Vercel environment"),
    p("netlify", &["env:list|env:get"], &["--plain", "--json"], "Netlify environment"),
    p("railway", &["variables"], &[], "Railway variables"),
    p("security", &["find-generic-password"], &["-w", "-g"], "keychain password"),
    p("security", &["find-internet-password"], &["-w", "-g"], "keychain password"),
    p("npm", &["token", "create"], &[], "npm token"),
    p("terraform", &["output"], &["-raw", "-json"], "Terraform outputs (sensitive ones among them)"),
    p("tofu", &["output"], &["-raw", "-json"], "OpenTofu outputs (sensitive ones among them)"),
    p("doctl", &["registry", "docker-config"], &[], "registry credentials"),
    p("docker-credential-desktop", &["get"], &[], "registry credentials"),
    p("docker-credential-osxkeychain", &["get"], &[], "registry credentials"),
    p("docker-credential-wincred", &["get"], &[], "registry credentials"),
    p("docker-credential-pass", &["get"], &[], "registry credentials"),
    p("docker-credential-secretservice", &["get"], &[], "registry credentials"),
    p("docker-credential-ecr-login", &["get"], &[], "registry credentials"),
    p("docker-credential-gcloud", &["get"], &[], "registry credentials"),
    p("git", &["credential", "fill"], &[], "git credentials"),
    p("git", &["credential-store|credential-cache|credential-osxkeychain|credential-manager|credential-manager-core|credential-libsecret|credential-wincred", "get"], &[], "git credentials"),
    // Decrypters: what they print is the secret the file was encrypted to
    // keep (an output file given instead is not shown: OUTPUT_OPTIONS).
    p("sops", &[], &["-d", "--decrypt"], "decrypted secrets (sops)"),
    p("sops", &["decrypt"], &[], "decrypted secrets (sops)"),
    p("ansible-vault", &["view"], &[], "decrypted Ansible Vault"),
    p("ansible-vault", &["decrypt"], &["--output"], "decrypted Ansible Vault"),
    p("age", &[], &["-d", "--decrypt"], "decrypted file (age)"),
    p("rage", &[], &["-d", "--decrypt"], "decrypted file (age)"),
    p("gpg", &[], &["-d", "--decrypt"], "decrypted file (GnuPG)"),
    p("gpg2", &[], &["-d", "--decrypt"], "decrypted file (GnuPG)"),
    // Password managers and secret stores.
    p("bw", &["list", "items"], &[], "Bitwarden vault items"),
    p("bw", &["unlock|login"], &["--raw"], "Bitwarden session key"),
    p("bw", &["export"], &["--raw"], "Bitwarden vault"),
    p("lpass", &["show|export"], &[], "LastPass secret"),
    p("keepassxc-cli", &["show"], &["-s", "--show-protected", "-a", "--attributes"], "KeePassXC secret"),
    p("keepassxc-cli", &["export"], &[], "KeePassXC database"),
    p("gopass", &["show|cat"], &[], "gopass secret"),
    p("security", &["dump-keychain"], &["-d"], "keychain passwords"),
    p("chamber", &["read|export|env"], &[], "chamber secrets"),
    p("chamber", &["list"], &["-e", "--expand"], "chamber secrets"),
    p("aws-vault", &["export"], &[], "AWS session credentials"),
    p("conjur", &["variable", "get|value"], &[], "Conjur secret"),
    p("akeyless", &["get-secret-value|get-dynamic-secret-value"], &[], "Akeyless secret"),
    p("berglas", &["access"], &[], "Berglas secret"),
    p("buildkite-agent", &["secret", "get"], &[], "Buildkite secret"),
    p("glab", &["variable", "get|export"], &[], "GitLab CI/CD variables"),
    p("pulumi", &[], &["--show-secrets"], "Pulumi secrets"),
    p("pulumi", &["config", "get"], &[], "Pulumi config value"),
    p("kubectl", &["config", "view"], &["--flatten"], "Kubernetes credentials"),
    p("gcloud", &["config", "config-helper"], &[], "Google Cloud token"),
    p("keyring", &["get"], &[], "keyring secret"),
    p("wg", &["genkey|showconf"], &[], "WireGuard private key"),
    p("wg", &["show"], &["private-key"], "WireGuard private key"),
    p("openssl", &["genrsa|genpkey"], &[], "a new private key"),
    p("gcloud", &["kms", "decrypt"], &[], "decrypted secret"),
    p("terraform", &["state", "pull"], &[], "Terraform state (secrets in plain text)"),
    p("terraform", &["show"], &["-json"], "Terraform state (secrets in plain text)"),
    p("tofu", &["state", "pull"], &[], "OpenTofu state (secrets in plain text)"),
    p("tofu", &["show"], &["-json"], "OpenTofu state (secrets in plain text)"),
    p("helm", &["secrets", "view|decrypt|dec"], &[], "decrypted Helm secrets"),
    p("ejson", &["decrypt"], &[], "decrypted secrets (ejson)"),
    p("dotenvx", &["get"], &[], "decrypted environment (dotenvx)"),
    p("dotenvx", &["decrypt"], &["--stdout"], "decrypted environment (dotenvx)"),
    p("dotenv", &["get|list"], &[], "environment file values"),
    p("op", &["document", "get"], &[], "1Password document"),
    p("op", &["inject"], &[], "1Password secrets"),
    p("get-secret", &[], &["-AsPlainText", "-asplaintext"], "SecretManagement secret"),
    p("convertfrom-securestring", &[], &["-AsPlainText", "-asplaintext"], "a secure string's plain text"),
];

/// Options that send a printer's output to a file instead of the screen
/// (`sops -d --output plain.yaml f`, `gpg -o out -d f.gpg`); `-` and
/// `/dev/stdout` still print.
pub const OUTPUT_OPTIONS: &[(&str, &[&str])] = &[
    ("sops", &["--output"]),
    ("ansible-vault", &["--output"]),
    ("age", &["-o", "--output"]),
    ("rage", &["-o", "--output"]),
    ("gpg", &["-o", "--output"]),
    ("gpg2", &["-o", "--output"]),
    ("op", &["--out-file", "-o"]),
    ("gcloud", &["--out-file", "--plaintext-file"]),
    ("openssl", &["-out"]),
    ("age-keygen", &["-o", "--output"]),
    ("ejson", &["-o"]),
    ("bw", &["--output"]),
];

/// Printers that print one setting named by the word after their words
/// (`aws configure get region`, `terraform output -raw vpc_id`): a secret
/// only when the name says so (`aws_secret_access_key`, `dbPassword`,
/// `kube_config`); without a name, the row's own condition decides
/// (`terraform output -json` prints them all).
pub const SETTING_GETTERS: &[(&str, &[&str])] = &[
    ("aws", &["configure", "get"]),
    ("pulumi", &["config", "get"]),
    ("terraform", &["output"]),
    ("tofu", &["output"]),
];

/// Options that make a secret lister print names only (`doppler secrets
/// --only-names`).
pub const NAMES_ONLY_OPTIONS: &[&str] = &["--only-names", "--names-only", "--keys-only"];
