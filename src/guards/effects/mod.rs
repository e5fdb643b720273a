//! The effect model: what a command does, as data. The tables in
//! [`tables`] name tool families, their verbs (subcommand words and the
//! options that matter), the effect each has and the finding kind it gives;
//! generic rules cover a whole family (a cloud CLI's delete-like verbs) so
//! that a resource type no table lists is still caught. This module holds
//! the matching: which tool a command runs (through `npx`, `bundle exec`,
//! `php artisan`, ...), whether it is only a help or dry-run form, and which
//! table entry it hits. The tables are `const` data, read in place on every
//! call; nothing is built per call. `cargo xtask gen` renders them into
//! `generated/effects.md`.

pub mod data_options;
pub mod mcp;
pub mod mcp_verbs;
pub mod packs;
mod page;
mod platforms;
mod runners;
mod secret_verbs;
mod services;
pub mod tables;
mod tools;
pub mod unlisted;
pub mod wholesale;

pub use runners::tool;

pub use page::{code_list, markdown, summary};
pub use secret_verbs::secret_verb;

use super::argv::operands;

mod family_index;
mod forge_api;
use crate::shell::SimpleCommand;
pub use family_index::family;

pub use tables::{Family, Verb, families};

/// What a command does to data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Deletes data for good (files, a database, a bucket, a cloud resource).
    DeletesData,
    /// Throws away uncommitted work or unmerged commits.
    DiscardsWork,
    /// Overwrites or erases a disk, a partition table or a file system.
    WipesDisk,
    /// Prints a secret (a key, token, password or connection string).
    ShowsSecret,
}

impl Effect {
    pub const fn label(self) -> &'static str {
        match self {
            Effect::DeletesData => "deletes data",
            Effect::DiscardsWork => "discards work",
            Effect::WipesDisk => "wipes a disk",
            Effect::ShowsSecret => "prints a secret",
        }
    }
}

/// The kind of a destructive finding (policy id `destructive.<kind>`), by
/// domain: files (`OutsideProject`, `Project`, `Disk`), git (`GitDiscard`),
/// data (`Database`), infrastructure (`Infrastructure`, `Cluster`,
/// `CloudStorage`, `CloudResource`: the tables' own), and what cannot be
/// read (`Opaque`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    OutsideProject,
    Project,
    GitDiscard,
    Database,
    Infrastructure,
    Cluster,
    CloudStorage,
    CloudResource,
    Disk,
    /// A command whose effect cannot be read: the reader's own findings
    /// are [`crate::guards::opaque`]'s; a pack may name it too.
    Opaque,
}

impl Kind {
    /// Every kind of the destructive guard.
    pub const DESTRUCTIVE: &[Kind] = &[
        Kind::OutsideProject,
        Kind::Project,
        Kind::GitDiscard,
        Kind::Database,
        Kind::Infrastructure,
        Kind::Cluster,
        Kind::CloudStorage,
        Kind::CloudResource,
        Kind::Disk,
        Kind::Opaque,
    ];

    /// The kind an id names.
    pub fn from_id(id: &str) -> Option<Kind> {
        Kind::DESTRUCTIVE.iter().copied().find(|k| k.id() == id)
    }

    /// The stable id a policy names.
    pub const fn id(self) -> &'static str {
        match self {
            Kind::OutsideProject => "outside-project",
            Kind::Project => "project",
            Kind::GitDiscard => "git-discard",
            Kind::Database => "database",
            Kind::Infrastructure => "infrastructure",
            Kind::Cluster => "cluster",
            Kind::CloudStorage => "cloud-storage",
            Kind::CloudResource => "cloud-resource",
            Kind::Disk => "disk",
            Kind::Opaque => crate::finding::OPAQUE,
        }
    }
}

impl crate::finding::FindingKind for Kind {
    fn id(self) -> &'static str {
        Kind::id(self)
    }
}

/// What a judge found: the kind, the target (the repeat rule's key) and
/// what the command does, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub kind: Kind,
    pub target: String,
    pub reason: String,
}

impl Hit {
    pub fn new(kind: Kind, target: impl Into<String>, reason: impl Into<String>) -> Hit {
        Hit {
            kind,
            target: target.into(),
            reason: reason.into(),
        }
    }
}

/// Whether the command only shows help or only previews (a dry run): such
/// a form changes nothing, whatever its verb (`terraform destroy -help`,
/// `kubectl delete ns x --dry-run=client`, `git clean --force=false`
/// is not this: it is a flag turned off, see [`super::argv::has_flag`]).
pub fn inert(cmd: &SimpleCommand) -> bool {
    let (tool, args) = tool(cmd);
    inert_args(&tool, args)
}

/// [`inert`] on a tool and its words.
pub fn inert_args(tool: &str, args: &[String]) -> bool {
    // A version query given alone names no target (`dropdb --version`,
    // `mkfs.xfs -V`, `vault version`): the tool prints its version.
    if let [only] = args
        && matches!(only.as_str(), "--version" | "-V" | "-version" | "version")
    {
        return true;
    }
    let ops = operands(args);
    if ops.first() == Some(&"help")
        || ops.last() == Some(&"help") && tables::HELP_LAST.contains(&tool)
    {
        return true;
    }
    // A `--dry-run` the tool does not have is no dry run (`git reset --hard
    // --dry-run` resets, `psql … --dry-run` runs the SQL).
    let first = ops.first().copied().unwrap_or("");
    // git's reflog has no dry run (`git reflog -n 10` counts entries),
    // except its `expire` and `delete` (`--dry-run`, `-n`).
    let reflog_dry =
        tool == "git" && first == "reflog" && matches!(ops.get(1), Some(&("expire" | "delete")));
    let own_dry_run = reflog_dry
        || !tables::NO_DRY_RUN.iter().any(|t| {
            *t == tool
                || t.strip_prefix(tool)
                    .and_then(|r| r.strip_prefix(':'))
                    .is_some_and(|sub| sub == first)
        });
    let takes_value = tables::VALUE_OPTIONS
        .iter()
        .find(|(t, _)| *t == tool)
        .map_or(&[][..], |(_, o)| *o);
    // The last word wins: `--dry-run --no-dry-run` runs.
    let mut dry = false;
    let mut skip = false;
    for (i, a) in args.iter().enumerate() {
        if std::mem::take(&mut skip) {
            continue;
        }
        if a == "--" {
            break;
        }
        if takes_value.contains(&a.as_str()) {
            skip = true;
            continue;
        }
        let lower = a.to_ascii_lowercase();
        let (name, value) = match lower.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (lower.as_str(), None),
        };
        if tables::HELP_OPTIONS.contains(&name)
            && value.is_none_or(|v| !matches!(v, "false" | "0" | "no" | "off"))
        {
            return true;
        }
        if own_dry_run
            && name
                .strip_prefix("--no-")
                .is_some_and(|n| tables::DRY_RUN_OPTIONS.contains(&format!("--{n}").as_str()))
        {
            dry = false;
            continue;
        }
        // `-h` is help unless a value follows it (`psql -h host`,
        // `dropdb -h db app`).
        if name == "-h" && args.get(i + 1).is_none_or(|n| n.starts_with('-')) {
            return true;
        }
        if tables::DRY_RUN_OWN_LONG
            .iter()
            .any(|(t, o)| *t == tool && o.contains(&name))
        {
            dry = true;
            continue;
        }
        // An ORM's `--dump` prints the SQL, and runs it too when told to
        // (`schema:drop --run --dump`, Doctrine's `--dump-sql --force`).
        if matches!(name, "--dump" | "--dump-sql")
            && args
                .iter()
                .any(|w| matches!(w.as_str(), "--run" | "-r" | "--force" | "-f" | "--execute"))
        {
            continue;
        }
        if own_dry_run
            && tables::DRY_RUN_OPTIONS.contains(&name)
            && value.is_none_or(|v| !matches!(v, "none" | "false" | "0" | "no" | "off"))
            && !(name == "-whatif" && value == Some("$false"))
        {
            dry = true;
            continue;
        }
        if own_dry_run
            && let Some(short) = tables::DRY_RUN_SHORT
                .iter()
                .find(|(t, _)| *t == tool)
                .map(|(_, c)| *c)
            && let Some(cluster) = a.strip_prefix('-')
            && !cluster.starts_with('-')
            && cluster.chars().all(|c| c.is_ascii_alphanumeric())
            && cluster.contains(short)
        {
            dry = true;
        }
    }
    dry
}

/// The leading words of a command's operands, lower-case: the words that
/// name its subcommand and object (`gcloud sql instances delete x`). Stops
/// after `n` words.
pub fn leading_words(args: &[String], n: usize) -> Vec<String> {
    operands(args)
        .into_iter()
        .take(n)
        .map(str::to_ascii_lowercase)
        .collect()
}

/// Whether a word of the command matches a table word: itself, one of
/// `a|b` alternatives, the head of `kind/name` (`ns/prod`) or one of a
/// comma list (`configmaps,secrets`).
fn word_matches(word: &str, pattern: &str) -> bool {
    pattern.split('|').any(|p| {
        word == p
            || word.strip_prefix(p).is_some_and(|r| r.starts_with('/'))
            // A kind with its API group (`cluster.postgresql.cnpg.io`).
            || word
                .split_once('.')
                .is_some_and(|(head, group)| head == p && group.contains('.'))
            || (word.contains(',') && word.split(',').any(|w| w == p))
    })
}

/// Whether `path` occurs in order among `words` (other words may sit
/// between them: an option's value, `kubectl -n prod delete ns x`).
pub fn path_matches(words: &[String], path: &[&str]) -> bool {
    let mut it = words.iter();
    path.iter().all(|p| it.by_ref().any(|w| word_matches(w, p)))
}

/// Whether one of `opts` is given: as it is, as `--opt=value`, or (a
/// one-letter option) inside a cluster (`-fv` holds `-v`).
pub fn has_opt(args: &[String], opts: &[&str]) -> bool {
    args.iter().take_while(|a| *a != "--").any(|a| {
        opts.iter().any(|o| {
            if a == o {
                return true;
            }
            let short = o.len() == 2 && o.starts_with('-') && !o.starts_with("--");
            if short {
                // In a cluster of one-letter options (`-fv` holds `-v`).
                return a.len() > 2
                    && a.starts_with('-')
                    && !a.starts_with("--")
                    && a[1..].chars().all(|c| c.is_ascii_alphanumeric())
                    && a[1..].contains(&o[1..]);
            }
            let lower = a.to_ascii_lowercase();
            if lower == *o {
                return true;
            }
            lower
                .strip_prefix(o)
                .and_then(|r| r.strip_prefix('='))
                .is_some_and(|v| !matches!(v, "false" | "0" | "no" | "off"))
        })
    })
}

/// The table entry (or the family's generic rule) a command hits.
pub fn lookup(tool: &str, args: &[String]) -> Option<(&'static Family, Hit)> {
    let fam = family(tool)?;
    let words = leading_words(&without_global_values(tool, args), 6);
    for v in fam.verbs {
        if path_matches(&words, v.path)
            && v.cond.holds(args)
            && !harmless_before(&words, v.path)
            && !(fam.name == "Kubernetes" && name_read_as_kind(&words, v.path))
        {
            let target = format!("{tool}:{}", v.path.join(" "));
            return Some((fam, Hit::new(v.kind, target, v.what)));
        }
    }
    let kind = fam.generic?;
    // `gh api -X DELETE PATH` of something disposable or a relation (a
    // label, a follow, a star, a reaction): no data is lost.
    if matches!(tool, "gh" | "glab")
        && words.first().is_some_and(|w| w == "api")
        && forge_api::disposable(args)
    {
        return None;
    }
    let verb = generic_verb(&words).or_else(|| api_delete(args))?;
    let kind = if kind == Kind::CloudResource && words.iter().take(3).any(|w| storage_word(w)) {
        Kind::CloudStorage
    } else {
        kind
    };
    if (kind == Kind::CloudStorage && single_object_delete(&words, &verb) || one_record(&verb))
        && !many_objects(args)
    {
        return None;
    }
    let shown: Vec<&str> = words
        .iter()
        .take_while(|w| plain_word(w))
        .take(4)
        .map(String::as_str)
        .collect();
    let reason = format!(
        "{} through {tool}'s `{verb}` (a managed resource: there is no undo)",
        match kind {
            Kind::CloudStorage => "deletes cloud storage",
            Kind::Cluster => "deletes a cluster or what runs in it",
            _ => "deletes a resource",
        }
    );
    Some((
        fam,
        Hit::new(kind, format!("{tool}:{}", shown.join(" ")), reason),
    ))
}

/// Whether a row's kind (`delete KIND`) matched only a later word: `kubectl
/// delete statefulset kafka` names a statefulset called kafka, not a Kafka
/// cluster. The kind is the word right after the verb (option values are
/// already left out), or the head of `kind/name`.
fn name_read_as_kind(words: &[String], path: &[&str]) -> bool {
    let [verb, kind] = path else {
        return false;
    };
    words
        .iter()
        .position(|w| word_matches(w, verb))
        .and_then(|i| words.get(i + 1))
        .is_some_and(|w| !word_matches(w, kind))
}

/// Whether a word before a verb's first word names something local or
/// disposable (`helm plugin uninstall diff`, `helm repo remove x`): the
/// verb removes that, not what the row means.
fn harmless_before(words: &[String], path: &[&str]) -> bool {
    let Some(first) = path.first() else {
        return false;
    };
    words
        .iter()
        .take_while(|w| !word_matches(w, first))
        .any(|w| tables::HARMLESS_OBJECTS.contains(&w.as_str()) || w == "repo")
}

/// The words without the values of the tool's options that take one
/// ([`tables::GLOBAL_VALUE_OPTIONS`]): `aws --profile route53 sts …` names
/// no Route 53 verb.
fn without_global_values<'a>(tool: &str, args: &'a [String]) -> std::borrow::Cow<'a, [String]> {
    let Some((_, opts)) = tables::GLOBAL_VALUE_OPTIONS
        .iter()
        .find(|(t, _)| *t == tool)
    else {
        return std::borrow::Cow::Borrowed(args);
    };
    let mut out = Vec::with_capacity(args.len());
    let mut skip = false;
    for a in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if opts.contains(&a.as_str()) {
            skip = true;
            continue;
        }
        out.push(a.clone());
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a storage verb deletes one object (`aws s3 rm s3://b/key`,
/// `gsutil rm gs://b/o`, `az storage blob delete`): that alone stays quiet,
/// like `rm file` (see [`many_objects`]).
fn single_object_delete(words: &[String], verb: &str) -> bool {
    let before = words
        .iter()
        .position(|w| w == verb)
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| words.get(i))
        .map_or("", String::as_str);
    tables::SINGLE_OBJECT_VERBS.contains(&verb)
        || (verb == "delete" && matches!(before, "blob" | "object" | "file"))
}

/// What a delete verb joined to one of these removes is one record of a
/// data store, by its key (see [`one_record`]).
const ONE_RECORD_NOUNS: &[&str] = &[
    "item",
    "row",
    "document",
    "doc",
    "message",
    "entity",
    "attribute",
    "attributes",
];

/// Whether a delete verb names one record of a data store as its object
/// (`aws dynamodb delete-item`, `aws sqs delete-message`, `x
/// delete-document`): one item by its key, as SQL's `DELETE … WHERE` and
/// one storage object are, not the table, queue or collection that holds
/// it. A plural (`delete-items`, `batch-delete-…`) stays a delete of many.
fn one_record(verb: &str) -> bool {
    let parts: Vec<&str> = verb.split(['-', ':', '_', '.']).collect();
    parts.iter().all(|p| !p.eq_ignore_ascii_case("batch"))
        && parts
            .last()
            .is_some_and(|p| ONE_RECORD_NOUNS.iter().any(|n| p.eq_ignore_ascii_case(n)))
        && parts
            .iter()
            .any(|p| tables::DELETE_VERBS.contains(&p.to_ascii_lowercase().as_str()))
}

/// Whether a storage delete reaches many objects: recursive, every
/// version, a wildcard, or a batch pattern.
fn many_objects(args: &[String]) -> bool {
    has_opt(
        args,
        &[
            "-r",
            "-R",
            "--recursive",
            "-a",
            "--all-versions",
            "--include",
            "--pattern",
            "--versions",
        ],
    ) || operands(args).iter().any(|o| o.contains(['*', '?']))
}

/// A word that names a subcommand or a resource type, not a value.
fn plain_word(w: &str) -> bool {
    !w.is_empty()
        && w.bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b':' | b'_'))
}

/// Words that place a cloud CLI's command in its object storage.
fn storage_word(w: &str) -> bool {
    matches!(
        w,
        "s3" | "s3api"
            | "storage"
            | "os"
            | "blob"
            | "bucket"
            | "buckets"
            | "object"
            | "r2"
            // A platform's file store (`databricks fs rm dbfs:/…`).
            | "fs"
    )
}

/// The delete-like verb among a family's leading words, if any: a word or
/// a part of one (`delete-table`, `apps:destroy`, `service-instance-delete`)
/// in [`tables::DELETE_VERBS`], or `reset` of a database (`pg:reset`, `db
/// reset`); none when a word names something local or disposable
/// ([`tables::HARMLESS_OBJECTS`]: `config`, `context`, `cache`, ...).
pub fn generic_verb(words: &[String]) -> Option<String> {
    // An endpoint the reader took for an operand (`s5cmd --endpoint-url
    // https://h rm …`) is stepped over; any other value ends the words
    // (`aws logs tail /app --filter-pattern delete` deletes nothing).
    let lead: Vec<&String> = words
        .iter()
        .filter(|w| !w.contains("://"))
        .take_while(|w| plain_word(w))
        .take(4)
        .collect();
    let parts = |w: &str| -> Vec<String> {
        w.split(['-', ':', '_', '.'])
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    // A harmless object names what the verb deletes when it comes before
    // the verb or in its word (`gh cache delete`, `aws ec2 delete-tags`);
    // after it, a word is the resource's name (`gcloud redis instances
    // delete cache`).
    let is_delete = |w: &str| {
        parts(w)
            .iter()
            .any(|p| tables::DELETE_VERBS.contains(&p.as_str()))
    };
    let upto = lead
        .iter()
        .position(|w| is_delete(w))
        .map_or(lead.len(), |i| i + 1);
    if lead[..upto].iter().any(|w| {
        parts(w)
            .iter()
            .any(|p| tables::HARMLESS_OBJECTS.contains(&p.as_str()))
    }) {
        return None;
    }
    let data = lead.iter().any(|w| {
        parts(w)
            .iter()
            .any(|p| tables::DATA_NOUNS.contains(&p.as_str()))
    });
    lead.iter()
        .find(|w| {
            parts(w)
                .iter()
                .any(|p| tables::DELETE_VERBS.contains(&p.as_str()) || (data && p == "reset"))
        })
        .map(|w| w.to_string())
}

/// A delete named as a joined API call among the first words
/// (`aliyun ecs DeleteInstance`, `tccli cvm TerminateInstances`): see
/// [`tables::DELETE_API_PREFIXES`].
fn api_delete(args: &[String]) -> Option<String> {
    operands(args).into_iter().take(4).find_map(|w| {
        tables::DELETE_API_PREFIXES.iter().find_map(|p| {
            let rest = w.strip_prefix(p)?;
            (rest.starts_with(|c: char| c.is_ascii_uppercase())
                && rest.chars().all(|c| c.is_ascii_alphanumeric()))
            .then(|| w.to_ascii_lowercase())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn hit(line: &str) -> Option<Hit> {
        let cmds = parse(line);
        let c = cmds.first()?;
        if inert(c) {
            return None;
        }
        let (t, args) = tool(c);
        lookup(&t, args).map(|(_, h)| h)
    }

    #[test]
    fn runners_are_seen_through() {
        for (line, want) in [
            ("npx prisma migrate reset", "prisma"),
            ("npx -y prisma migrate reset", "prisma"),
            ("pnpm exec prisma db push", "prisma"),
            ("pnpm prisma db push", "prisma"),
            ("bundle exec rake db:drop", "rake"),
            ("php artisan migrate:fresh", "artisan"),
            ("python3 manage.py flush", "manage.py"),
            ("django-admin flush", "manage.py"),
            ("poetry run alembic downgrade base", "alembic"),
            ("pnpm install", "pnpm"),
        ] {
            let cmds = parse(line);
            assert_eq!(tool(&cmds[0]).0, want, "{line}");
        }
    }

    #[test]
    fn generic_verbs_catch_unlisted_resources() {
        for line in [
            "doctl databases delete prod",
            "gcloud container clusters delete prod",
            "aws dynamodb delete-table --table-name t",
            "aws ec2 terminate-instances --instance-ids i-1",
            "heroku pg:reset DATABASE_URL",
            "flyctl apps destroy app",
            "supabase db reset",
            "ibmcloud resource service-instance-delete db",
            "gcloud alloydb clusters delete c",
        ] {
            assert!(hit(line).is_some(), "{line}");
        }
        for line in [
            "gcloud config unset project",
            "gcloud compute instances reset vm",
            "aws ec2 delete-tags --resources i-1",
            "gh cache delete --all",
            "aws ec2 describe-instances",
            "gcloud projects delete p --help",
            "aws ec2 terminate-instances --instance-ids i-1 --dry-run",
            "heroku help pg:reset",
        ] {
            assert_eq!(hit(line), None, "{line}");
        }
    }

    #[test]
    fn joined_api_names_and_help_and_dry_run_order() {
        assert!(hit("aliyun ecs DeleteInstance --InstanceId i-1").is_some());
        assert!(hit("tccli cvm TerminateInstances --InstanceIds x").is_some());
        assert_eq!(hit("aliyun ecs DescribeInstances"), None);
        assert_eq!(hit("doctl compute droplet list"), None);
        assert_eq!(hit("aws rds delete-db-instance help"), None);
        assert!(hit("s5cmd --endpoint-url https://h rm 's3://b/*'").is_some());
        assert_eq!(hit("aws logs tail /app --filter-pattern delete"), None);
        assert_eq!(hit("rclone purge remote:x --dry-run"), None);
        assert!(hit("rclone purge remote:x --dry-run --no-dry-run").is_some());
    }

    #[test]
    fn options_turned_off_are_off() {
        let args: Vec<String> = ["--force=false"].iter().map(|s| s.to_string()).collect();
        assert!(!has_opt(&args, &["--force"]));
        let args: Vec<String> = ["-fv"].iter().map(|s| s.to_string()).collect();
        assert!(has_opt(&args, &["-v"]));
    }
}
