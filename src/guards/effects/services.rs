//! The effect model's service and machine families: virtual machines and
//! system containers, message brokers, search and graph stores, migration
//! tools and build-tool tasks that empty a database (see [`super::tables`]
//! for what a row means).

use super::Effect::{DeletesData, WipesDisk};
use super::Kind::{CloudResource, CloudStorage, Cluster, Database, Disk, OutsideProject};
use super::tables::Cond::{Always, AnyOpt, AnyWord, Lead, NoOpt, WordStarts};
use super::tables::{Family, Verb, v};

/// Families of services and machines (fifth round of issue 27).
pub const SERVICES: &[Family] = &[
    family(
        "Virtual machines and system containers",
        &[
            "vagrant",
            "multipass",
            "lxc",
            "incus",
            "qm",
            "pct",
            "vboxmanage",
            "prlctl",
            "limactl",
            "colima",
            "tart",
            "utmctl",
            "orb",
            "orbctl",
            "anka",
        ],
        &[
            v(
                &[],
                Lead(&["destroy", "delete", "rm", "remove", "purge"]),
                DeletesData,
                Cluster,
                "deletes a virtual machine or container with its disks",
            ),
            v(
                &["storage|volume|pool|project", "delete|rm|remove"],
                Always,
                DeletesData,
                Cluster,
                "deletes a storage pool, a volume or a project and its data",
            ),
            v(
                &["unregistervm|closemedium"],
                AnyOpt(&["--delete"]),
                DeletesData,
                Cluster,
                "removes a virtual machine and deletes its disks",
            ),
        ],
    ),
    family(
        "libvirt",
        &["virsh"],
        &[
            v(
                &["vol-delete|vol-wipe|pool-delete"],
                Always,
                DeletesData,
                Cluster,
                "deletes or wipes a storage volume or pool",
            ),
            v(
                &["undefine"],
                AnyOpt(&["--remove-all-storage", "--storage", "--wipe-storage"]),
                DeletesData,
                Cluster,
                "removes a virtual machine and deletes its disks",
            ),
        ],
    ),
    family(
        "Message brokers",
        &[
            "rabbitmqctl",
            "rabbitmqadmin",
            "nats",
            "kafka-topics",
            "kafka-topics*",
            "kafka-consumer-groups",
            "kafka-consumer-groups*",
            "kafka-delete-records",
            "kafka-delete-records*",
            "pulsar-admin",
        ],
        &[
            v(
                &["delete_queue|purge_queue|delete_vhost|reset|force_reset|delete_stream"],
                Always,
                DeletesData,
                Database,
                "deletes a queue, a virtual host or the node's data, with the messages in it",
            ),
            v(
                &["delete|purge", "queue|queues|vhost"],
                Always,
                DeletesData,
                Database,
                "deletes or empties a queue and its messages",
            ),
            v(
                &["stream|str|kv|obj|object", "rm|delete|purge"],
                Always,
                DeletesData,
                Database,
                "deletes a stream or a store and the messages in it",
            ),
            v(
                &[
                    "topics|namespaces|tenants",
                    "delete|delete-partitioned-topic",
                ],
                Always,
                DeletesData,
                Database,
                "deletes a topic or a namespace and its messages",
            ),
            v(
                &[],
                AnyOpt(&["--delete", "--delete-offsets", "--offset-json-file"]),
                DeletesData,
                Database,
                "deletes a topic, a consumer group's offsets or a topic's records",
            ),
        ],
    ),
    family(
        "Search and graph stores",
        &["neo4j-admin", "influx", "curator", "curator_cli", "algolia"],
        &[
            v(
                &["database|dbms", "delete|drop"],
                Always,
                DeletesData,
                Database,
                "deletes a database",
            ),
            v(
                &["bucket|org", "delete"],
                Always,
                DeletesData,
                Database,
                "deletes a bucket and its data",
            ),
            v(
                &["delete"],
                NoOpt(&["--predicate", "-p"]),
                DeletesData,
                Database,
                "deletes every point in the time range (no predicate narrows it)",
            ),
            v(
                &[],
                Lead(&["delete_indices"]),
                DeletesData,
                Database,
                "deletes the search indexes its filters select",
            ),
            v(
                &["indices|index|indexes", "delete|clear"],
                Always,
                DeletesData,
                Database,
                "deletes or empties search indexes",
            ),
        ],
    ),
    family(
        "Migration tools",
        &[
            "flask",
            "migrate",
            "sqitch",
            "hasura",
            "goose",
            "graphile-migrate",
        ],
        &[
            v(
                &["db", "downgrade", "base"],
                Always,
                DeletesData,
                Database,
                "rolls back every migration (tables dropped)",
            ),
            v(
                &["drop"],
                Always,
                DeletesData,
                Database,
                "drops every table of the database",
            ),
            v(
                &["down"],
                AnyOpt(&["-all", "--all"]),
                DeletesData,
                Database,
                "rolls back every migration (tables dropped)",
            ),
            v(
                &["down-to"],
                AnyWord(&["0"]),
                DeletesData,
                Database,
                "rolls back every migration (tables dropped)",
            ),
            v(
                &["revert"],
                NoOpt(&["--to", "--to-change", "--to-target"]),
                DeletesData,
                Database,
                "reverts every change of the plan (tables dropped)",
            ),
            v(
                &["migrate", "apply", "all"],
                AnyOpt(&["--down"]),
                DeletesData,
                Database,
                "rolls back every migration (tables dropped)",
            ),
            v(
                &["reset"],
                Always,
                DeletesData,
                Database,
                "rolls back every migration, or drops and recreates the database",
            ),
        ],
    ),
    family(
        "Build-tool database tasks",
        &["gradle", "gradlew", "mvn", "mvnw", "./gradlew", "./mvnw"],
        &[v(
            &[],
            AnyWord(&[
                "flywayclean",
                "flyway:clean",
                "liquibase:dropall",
                "dropall",
                "liquibasedropall",
            ]),
            DeletesData,
            Database,
            "drops every object of the database's schemas",
        )],
    ),
    family(
        "Desktop trash",
        &["trash-empty"],
        &[v(
            &[],
            Always,
            DeletesData,
            OutsideProject,
            "empties the trash: the files in it are deleted for good",
        )],
    ),
    family(
        "GIO",
        &["gio"],
        &[v(
            &["trash"],
            AnyOpt(&["--empty"]),
            DeletesData,
            OutsideProject,
            "empties the trash: the files in it are deleted for good",
        )],
    ),
    family(
        "Windows disks and recovery points",
        &["vssadmin", "wmic", "wbadmin"],
        &[
            v(
                &["delete", "shadows|catalog|backup|systemstatebackup"],
                Always,
                WipesDisk,
                Disk,
                "deletes shadow copies or backup recovery points",
            ),
            v(
                &["shadowcopy", "delete"],
                Always,
                WipesDisk,
                Disk,
                "deletes shadow copies (System Restore and backups rely on them)",
            ),
        ],
    ),
    family(
        "macOS backups",
        &["tmutil"],
        &[
            v(
                &["delete"],
                Always,
                WipesDisk,
                Disk,
                "deletes Time Machine backups (the recovery points of the machine)",
            ),
            v(
                &["deletelocalsnapshots"],
                Always,
                WipesDisk,
                Disk,
                "deletes Time Machine's local snapshots",
            ),
        ],
    ),
    family(
        "Windows storage cmdlets",
        &[
            "initialize-disk",
            "remove-virtualdisk",
            "reset-physicaldisk",
        ],
        &[v(
            &[],
            Always,
            WipesDisk,
            Disk,
            "re-initializes or deletes a disk (its data is lost)",
        )],
    ),
    family(
        "Windows disk commands",
        &["cipher", "bcdedit", "format", "format.com", "diskpart"],
        &[
            v(
                &[],
                WordStarts(&["/w"]),
                WipesDisk,
                Disk,
                "overwrites a volume's free space (deleted files can no longer be recovered)",
            ),
            v(
                &[],
                WordStarts(&["/delete"]),
                WipesDisk,
                Disk,
                "deletes a boot entry",
            ),
            v(
                &[],
                Lead(DRIVES),
                WipesDisk,
                Disk,
                "formats a drive (every file on it is lost)",
            ),
            v(
                &[],
                AnyWord(&["/s"]),
                WipesDisk,
                Disk,
                "runs a disk-partitioning script (clean, delete, format)",
            ),
        ],
    ),
    family(
        "HashiCorp Consul and OpenStack Swift",
        &["consul", "swift"],
        &[
            v(
                &["kv", "delete"],
                AnyOpt(&["-recurse", "--recurse"]),
                DeletesData,
                Database,
                "deletes every key under a prefix",
            ),
            // Apple's `swift` has no `delete`: this is OpenStack's object
            // store client.
            v(
                &[],
                Lead(&["delete"]),
                DeletesData,
                CloudStorage,
                "deletes a container of the object store, or objects in it",
            ),
        ],
    ),
    family(
        "Deploy tools",
        &["kamal"],
        &[
            v(
                &[],
                Lead(&["remove"]),
                DeletesData,
                CloudResource,
                "removes the app with its accessories and their data",
            ),
            v(
                &["accessory", "remove"],
                Always,
                DeletesData,
                CloudResource,
                "removes an accessory (a database, a cache) with its data",
            ),
        ],
    ),
    // Local development environments keep the project's database in a
    // volume of their own: deleting the project's environment deletes it.
    family(
        "Local development environments",
        &["ddev", "lando", "fin", "warden"],
        &[
            // `ddev delete` snapshots the database first unless told not to.
            v(
                &["delete"],
                AnyOpt(&["-O", "--omit-snapshot"]),
                DeletesData,
                Database,
                "deletes the project's development environment and its database, with no snapshot",
            ),
            v(
                &["destroy"],
                Always,
                DeletesData,
                Database,
                "deletes the project's development environment with its database",
            ),
            v(
                &["project", "remove|rm"],
                Always,
                DeletesData,
                Database,
                "deletes the project's development environment with its database",
            ),
            v(
                &["env", "down"],
                AnyOpt(&["-v", "--volumes"]),
                DeletesData,
                Database,
                "removes the environment's volumes, its database included",
            ),
        ],
    ),
];

/// A family with verbs only (no generic rule).
const fn family(
    name: &'static str,
    tools: &'static [&'static str],
    verbs: &'static [Verb],
) -> Family {
    Family {
        name,
        tools,
        verbs,
        generic: None,
        prints_secrets: false,
        sql_options: &[],
    }
}

/// Windows drive letters as `format` names them.
const DRIVES: &[&str] = &[
    "a:", "b:", "c:", "d:", "e:", "f:", "g:", "h:", "i:", "j:", "k:", "l:", "m:", "n:", "o:", "p:",
    "q:", "r:", "s:", "t:", "u:", "v:", "w:", "x:", "y:", "z:",
];
