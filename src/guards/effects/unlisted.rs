//! The rule for tools no family lists: a command line that names a
//! delete-like verb and a kind of managed resource that holds data
//! (`sanity dataset delete production`, `tsuru app-remove`, `coolify delete
//! database main`) deletes that resource, whatever the tool. The resource
//! must be named as a type, not found inside a package's or a file's name:
//! `apt purge mysql-server` names a package. Package managers, project
//! script runners and git are never read this way (their operands are names
//! the user chose).

use super::tables::{DATA_NOUNS, DELETE_VERBS, HARMLESS_OBJECTS};
use super::{Hit, Kind};
use crate::guards::argv::operands;

/// Kinds of managed resource whose deletion loses data, as the words a
/// CLI names them by.
pub const RESOURCE_NOUNS: &[&str] = &[
    "database",
    "databases",
    "db",
    // `drush sql-drop`: the site's SQL database.
    "sql",
    "dbs",
    "datastore",
    "datastores",
    "dataset",
    "datasets",
    "datasource",
    "datasources",
    "warehouse",
    "warehouses",
    "lakehouse",
    "lakehouses",
    "catalog",
    "catalogs",
    "tablespace",
    "tablespaces",
    "measurement",
    "measurements",
    "table",
    "tables",
    "schema",
    "schemas",
    "keyspace",
    "keyspaces",
    "collection",
    "collections",
    "index",
    "indices",
    "indexes",
    "bucket",
    "buckets",
    "volume",
    "volumes",
    "disk",
    "disks",
    "filesystem",
    "filesystems",
    "share",
    "shares",
    "pool",
    "pools",
    "snapshot",
    "snapshots",
    "backup",
    "backups",
    "cluster",
    "clusters",
    "instance",
    "instances",
    "server",
    "servers",
    "vm",
    "vms",
    "droplet",
    "droplets",
    "stack",
    "stacks",
    "project",
    "projects",
    "app",
    "apps",
    "application",
    "applications",
    "site",
    "sites",
    "space",
    "spaces",
    "workspace",
    "workspaces",
    "environment",
    "environments",
    "namespace",
    "namespaces",
    "topic",
    "topics",
    "queue",
    "queues",
    "stream",
    "streams",
    "vault",
    "vaults",
    "secret",
    "secrets",
    "repo",
    "repos",
    "repository",
    "repositories",
    "account",
    "accounts",
    "org",
    "orgs",
    "organization",
    "organizations",
    "tenant",
    "tenants",
    "datacenter",
    "datacenters",
];

/// Tools whose operands are names a user chose (packages, scripts, files,
/// branches): a resource word there is no resource type.
pub const NOT_READ: &[&str] = &[
    "git",
    "npm",
    "pnpm",
    "yarn",
    "bun",
    "deno",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "poetry",
    "pdm",
    "conda",
    "mamba",
    "micromamba",
    "cargo",
    "rustup",
    "go",
    "gem",
    "bundle",
    "composer",
    "brew",
    "apt",
    "apt-get",
    "aptitude",
    "dpkg",
    "dnf",
    "yum",
    "zypper",
    "pacman",
    "apk",
    "snap",
    "flatpak",
    "port",
    "choco",
    "winget",
    "scoop",
    "nix",
    "nix-env",
    "make",
    "just",
    "task",
    "nx",
    "turbo",
    "lerna",
    "code",
    "cursor",
    "echo",
    "printf",
    "test",
    "[",
    "cat",
    "grep",
    "rg",
    "sed",
    "awk",
    "ls",
    "find",
    "fd",
    "mv",
    "cp",
    "mkdir",
    "touch",
    "rm",
    "pm2",
    "systemctl",
    "launchctl",
    "service",
    "jq",
    "yq",
    "tar",
    "zip",
    "unzip",
    "chmod",
    "chown",
    "ssh",
    "scp",
    "rsync",
    "curl",
    "wget",
    "http",
    "man",
    "which",
    "type",
    "help",
];

/// A rollback taken back past the first migration: every one (`--all`) or
/// to version zero (`-t 0`, `--target=0`, `--to 0`, `VERSION=0`).
fn to_the_start(args: &[String]) -> bool {
    args.iter().any(|a| {
        a == "--all"
            || a.split_once('=').is_some_and(|(k, v)| {
                v == "0"
                    && matches!(
                        k.to_ascii_lowercase().as_str(),
                        "--target" | "--to" | "version"
                    )
            })
    }) || args
        .windows(2)
        .any(|w| matches!(w[0].as_str(), "-t" | "--target" | "--to") && w[1] == "0")
}

/// The finding for a tool no family lists, when its leading words name a
/// delete-like verb and a resource type ([`RESOURCE_NOUNS`]): the type
/// before the verb (`x dataset delete d`), joined to it (`x app-remove`,
/// `x environment:delete`), or right after it with a name following (`x
/// delete app web`).
pub fn lookup(tool: &str, args: &[String]) -> Option<Hit> {
    if let Some(hit) = cloud_cmdlet(tool) {
        return Some(hit);
    }
    if tool.is_empty() || NOT_READ.contains(&tool) || super::family(tool).is_some() {
        return None;
    }
    let ops = operands(args);
    if let Some(hit) = api_delete(tool, &ops) {
        return Some(hit);
    }
    let lead: Vec<String> = ops
        .iter()
        .take_while(|w| {
            !w.is_empty()
                && w.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b':' | b'_' | b'/'))
                // Yii's `migrate/fresh` is a route; `db/reset.sql` a file.
                && !w.starts_with('/')
        })
        .take(4)
        .map(|w| w.to_ascii_lowercase())
        .collect();
    let parts = |w: &str| {
        w.split(['-', ':', '_', '/'])
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    if lead.iter().any(|w| {
        parts(w)
            .iter()
            .any(|p| HARMLESS_OBJECTS.contains(&p.as_str()))
    }) {
        return None;
    }
    // A migration tool told to start over (`x migrate fresh`, `x migrate
    // reset`, `x migration:refresh`) or a database reset across words (`x
    // db reset`): every table is dropped.
    let all: Vec<String> = lead.iter().flat_map(|w| parts(w)).collect();
    let has = |ws: &[&str]| all.iter().any(|p| ws.contains(&p.as_str()));
    if (has(&["fresh", "refresh", "reset"]) && has(&["migrate", "migration", "migrations"]))
        || (has(&["reset"]) && has(DATA_NOUNS))
        || (has(&["rollback"]) && to_the_start(args))
    {
        return Some(Hit::new(
            Kind::Database,
            format!("{tool}:{}", lead.join(" ")),
            format!(
                "drops and rebuilds the database through {tool}'s `{}` (its data is lost)",
                lead.join(" ")
            ),
        ));
    }
    let is_verb = |p: &str| DELETE_VERBS.contains(&p) && p != "uninstall";
    let is_noun = |p: &str| RESOURCE_NOUNS.contains(&p);
    let vi = lead.iter().position(|w| {
        let ps = parts(w);
        ps.iter().any(|p| is_verb(p))
            || (ps.iter().any(|p| p == "reset")
                && ps.iter().any(|p| DATA_NOUNS.contains(&p.as_str())))
    })?;
    let verb = &lead[vi];
    let joined = parts(verb).len() > 1 && parts(verb).iter().any(|p| is_noun(p));
    let before = lead[..vi].iter().any(|w| is_noun(w));
    let after = lead.get(vi + 1).is_some_and(|w| is_noun(w)) && ops.len() > vi + 2;
    if !(joined || before || after) {
        return None;
    }
    let storage = lead
        .iter()
        .any(|w| matches!(w.as_str(), "bucket" | "buckets"));
    let kind = if storage {
        Kind::CloudStorage
    } else {
        Kind::CloudResource
    };
    let shown = lead.join(" ");
    Some(Hit::new(
        kind,
        format!("{tool}:{shown}"),
        format!(
            "deletes a resource through {tool}'s `{verb}` (a managed resource that holds data: \
             there is no undo)"
        ),
    ))
}

/// A joined API call among the first words that deletes a resource type
/// (`ksyun kec TerminateInstances`, `x rds DeleteDBInstance`, `x DropTable`):
/// a delete prefix ([`super::tables::DELETE_API_PREFIXES`]), then an
/// upper-case letter, and a name that ends in a [`RESOURCE_NOUNS`] word.
fn api_delete(tool: &str, ops: &[&str]) -> Option<Hit> {
    let word = ops.iter().take(4).find(|w| {
        super::tables::DELETE_API_PREFIXES.iter().any(|p| {
            w.strip_prefix(p).is_some_and(|rest| {
                rest.starts_with(|c: char| c.is_ascii_uppercase())
                    && rest.chars().all(|c| c.is_ascii_alphanumeric())
                    && RESOURCE_NOUNS
                        .iter()
                        .any(|n| n.len() > 2 && rest.to_ascii_lowercase().ends_with(n))
            })
        })
    })?;
    Some(Hit::new(
        Kind::CloudResource,
        format!("{tool}:{word}"),
        format!("deletes a resource through {tool}'s API call `{word}` (there is no undo)"),
    ))
}

/// The noun prefixes of the cloud modules for PowerShell (Az, AzureRM,
/// AWS Tools, Google Cloud Tools): each of their `Remove-` cmdlets deletes
/// a managed resource (`Remove-AzResourceGroup`, `Remove-S3Bucket`,
/// `Remove-RDSDBInstance`, `Remove-GcsBucket`).
pub const CLOUD_CMDLET_PREFIXES: &[&str] = &[
    "az", "azurerm", "azure", "s3", "ec2", "rds", "ddb", "efs", "ecr", "ecs", "eks", "cfn", "lm",
    "sqs", "sns", "kin", "rs", "ec", "gcs", "gce", "gcsql", "gke", "bq",
];

/// `Remove-<module><noun>` of a cloud module, unless it removes something
/// local or disposable (a context, a tag) or one object or blob (as `aws
/// s3 rm` of one key).
fn cloud_cmdlet(tool: &str) -> Option<Hit> {
    let noun = tool.strip_prefix("remove-")?;
    CLOUD_CMDLET_PREFIXES
        .iter()
        .find(|p| noun.len() > p.len() + 2 && noun.starts_with(*p))?;
    if HARMLESS_OBJECTS
        .iter()
        .chain(&["object", "objects", "blob"])
        .any(|h| noun.ends_with(h))
        // `Remove-AzAccount` signs out.
        || matches!(noun, "azaccount" | "azureaccount" | "azurermaccount")
    {
        return None;
    }
    Some(Hit::new(
        if noun.contains("bucket") || noun.contains("storage") {
            Kind::CloudStorage
        } else {
            Kind::CloudResource
        },
        format!("{tool}:"),
        format!("deletes a managed resource through the cloud cmdlet `{tool}` (there is no undo)"),
    ))
}

#[cfg(test)]
mod tests {
    use super::lookup;

    fn hit(line: &str) -> bool {
        let words: Vec<String> = line.split_whitespace().map(str::to_string).collect();
        lookup(&words[0], &words[1..]).is_some()
    }

    #[test]
    fn a_resource_type_and_a_delete_verb() {
        for line in [
            "sanity dataset delete production",
            "zcli app-remove -a web",
            "upsun environment:delete staging",
            "coolify delete database main",
            "hcpx vault-secrets apps delete web",
            "ionos-cli datacenter delete --datacenter-id 1",
            "remove-azresourcegroup -Name prod -Force",
            "remove-s3bucket -BucketName b -DeleteBucketContent",
            "remove-rdsdbinstance -DBInstanceIdentifier prod",
            "sea-orm-cli migrate fresh",
            "goose-like migrate reset",
            "tool db reset --force",
            "ksyun kec TerminateInstances --InstanceId.1 i-1",
            "cloudx rds DeleteDBInstance --id db-1",
        ] {
            assert!(hit(line), "{line}");
        }
        for line in [
            "remove-azcontext -Name old",
            "remove-s3object -BucketName b -Key k",
            "remove-item -Recurse x",
            "remove-event -SourceIdentifier x",
        ] {
            assert!(!hit(line), "{line}");
        }
        for line in [
            "apt purge mysql-server",
            "pip uninstall database",
            "pm2 delete app",
            "sanity dataset list",
            "x cache delete all",
            "npm run db:drop",
            "tool delete thing",
            "bi data refresh",
            "ksyun kec DescribeInstances",
            "cloudx ec DeleteTags --id i-1",
            "sea-orm-cli migrate up",
        ] {
            assert!(!hit(line), "{line}");
        }
    }
}
