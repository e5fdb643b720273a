//! The effect model's single tools: key-value stores, database admin
//! tools and framework tasks, disk tools (see [`super::tables`] for what a
//! row means).

use super::Effect::{DeletesData, WipesDisk};
use super::Kind::{Database, Disk, OutsideProject};
use super::tables::Cond::{Always, AnyOpt, AnyWord, CodeHas, WordWithTarget};
use super::tables::{Family, ORM_BULK_DELETES, ORM_FILTERS, Verb, v};

/// Tools with verbs only (no generic rule).
pub const TOOLS: &[Family] = &[
    tool(
        &["dropdb"],
        &[v(&[], Always, DeletesData, Database, "drops a database")],
    ),
    tool(
        &["pg_restore"],
        &[v(
            &[],
            AnyOpt(&["--clean"]),
            DeletesData,
            Database,
            "drops the database's objects before restoring them",
        )],
    ),
    tool(
        &["gitlab-backup"],
        &[v(
            &["restore"],
            Always,
            DeletesData,
            Database,
            "replaces the GitLab database and repositories with a backup",
        )],
    ),
    tool(
        &["gitlab-rake"],
        &[v(
            &[],
            AnyWord(&["gitlab:backup:restore"]),
            DeletesData,
            Database,
            "replaces the GitLab database and repositories with a backup",
        )],
    ),
    tool(
        &["pg_dropcluster"],
        &[v(
            &[],
            Always,
            DeletesData,
            Database,
            "deletes a PostgreSQL cluster and its data directory",
        )],
    ),
    tool(
        &["mysqladmin", "mariadb-admin"],
        &[v(
            &["drop"],
            Always,
            DeletesData,
            Database,
            "drops a database",
        )],
    ),
    tool(
        &["mongorestore"],
        &[v(
            &[],
            AnyOpt(&["--drop"]),
            DeletesData,
            Database,
            "drops each collection before restoring it",
        )],
    ),
    tool(
        &["etcdctl"],
        &[v(
            &["del"],
            AnyOpt(&["--prefix", "--from-key"]),
            DeletesData,
            Database,
            "deletes every key under a prefix",
        )],
    ),
    tool(
        &["rails", "rake", "gitlab-rails"],
        &[
            v(
                &["runner|r"],
                CodeHas(ORM_BULK_DELETES, ORM_FILTERS),
                DeletesData,
                Database,
                "runs code that deletes every row of a table",
            ),
            v(
                &[],
                AnyWord(&[
                    "db:drop",
                    "db:drop:all",
                    "db:reset",
                    "db:schema:load",
                    "db:purge",
                    "db:purge:all",
                    "db:truncate_all",
                    "db:structure:load",
                    "db:migrate:reset",
                    "db:seed:replant",
                ]),
                DeletesData,
                Database,
                "drops, empties or reloads the database",
            ),
            v(
                &["db:migrate|db:rollback"],
                AnyWord(&["VERSION=0"]),
                DeletesData,
                Database,
                "reverts every migration (every table dropped)",
            ),
        ],
    ),
    tool(
        &["artisan"],
        &[v(
            &[],
            AnyWord(&[
                "migrate:fresh",
                "migrate:reset",
                "migrate:refresh",
                "db:wipe",
            ]),
            DeletesData,
            Database,
            "drops every table (and rebuilds them empty)",
        )],
    ),
    tool(
        &["console"],
        &[v(
            &["doctrine:database:drop|doctrine:schema:drop"],
            AnyOpt(&["--force", "-f"]),
            DeletesData,
            Database,
            "drops a database or its schema",
        )],
    ),
    tool(
        &["manage.py"],
        &[
            v(
                &["flush|reset_db"],
                Always,
                DeletesData,
                Database,
                "deletes every row of every table",
            ),
            v(
                &["migrate"],
                AnyWord(&["zero"]),
                DeletesData,
                Database,
                "reverts every migration of an app (its tables dropped)",
            ),
            v(
                &["shell|shell_plus"],
                CodeHas(ORM_BULK_DELETES, ORM_FILTERS),
                DeletesData,
                Database,
                "runs code that deletes every row of a table",
            ),
        ],
    ),
    tool(
        &["dotnet"],
        &[
            v(
                &["ef", "database", "drop"],
                Always,
                DeletesData,
                Database,
                "drops the database",
            ),
            v(
                &["ef", "database", "update"],
                AnyWord(&["0"]),
                DeletesData,
                Database,
                "reverts every migration (every table dropped)",
            ),
        ],
    ),
    tool(
        &["chezmoi"],
        &[v(
            &["destroy|purge"],
            Always,
            DeletesData,
            OutsideProject,
            "deletes managed files from the home directory, or chezmoi's own data",
        )],
    ),
    tool(
        &["mise", "rtx"],
        &[v(
            &["implode"],
            Always,
            DeletesData,
            OutsideProject,
            "removes the tool with every runtime it installed and its settings",
        )],
    ),
    tool(
        &["crontab"],
        &[v(
            &[],
            AnyOpt(&["-r"]),
            DeletesData,
            OutsideProject,
            "deletes the user's crontab (every scheduled job in it)",
        )],
    ),
    tool(
        &["prisma"],
        &[
            v(
                &["migrate", "reset"],
                Always,
                DeletesData,
                Database,
                "drops the database and re-applies the migrations",
            ),
            v(
                &["db", "push"],
                AnyOpt(&["--force-reset", "--accept-data-loss"]),
                DeletesData,
                Database,
                "resets the database (or accepts data loss) to match the schema",
            ),
        ],
    ),
    tool(
        &["sequelize", "sequelize-cli"],
        &[v(
            &["db:drop|db:migrate:undo:all"],
            Always,
            DeletesData,
            Database,
            "drops the database or rolls back every migration",
        )],
    ),
    tool(
        &["knex"],
        &[v(
            &["migrate:rollback"],
            AnyOpt(&["--all"]),
            DeletesData,
            Database,
            "rolls back every migration (tables dropped)",
        )],
    ),
    tool(
        &["typeorm", "typeorm-ts-node-commonjs", "typeorm-ts-node-esm"],
        &[v(
            &["schema:drop"],
            Always,
            DeletesData,
            Database,
            "drops every table of the schema",
        )],
    ),
    tool(
        &["mix"],
        &[
            v(
                &["ecto.drop|ecto.reset"],
                Always,
                DeletesData,
                Database,
                "drops the database",
            ),
            v(
                &["ecto.rollback"],
                AnyOpt(&["--all"]),
                DeletesData,
                Database,
                "reverts every migration (every table dropped)",
            ),
        ],
    ),
    tool(
        &["alembic"],
        &[v(
            &["downgrade", "base"],
            Always,
            DeletesData,
            Database,
            "rolls back every migration (tables dropped)",
        )],
    ),
    tool(
        &["flyway"],
        &[v(
            &["clean"],
            Always,
            DeletesData,
            Database,
            "drops every object of the schemas",
        )],
    ),
    tool(
        &["liquibase"],
        &[v(
            &["drop-all|dropall"],
            Always,
            DeletesData,
            Database,
            "drops every object of the database",
        )],
    ),
    tool(
        &["dbmate"],
        &[v(
            &["drop"],
            Always,
            DeletesData,
            Database,
            "drops the database",
        )],
    ),
    tool(
        &["sqlx"],
        &[v(
            &["database", "drop|reset"],
            Always,
            DeletesData,
            Database,
            "drops or resets the database",
        )],
    ),
    tool(
        &["diesel"],
        &[v(
            &["database", "reset"],
            Always,
            DeletesData,
            Database,
            "drops and recreates the database",
        )],
    ),
    tool(
        &["mikro-orm"],
        &[v(
            &["schema:drop|schema:fresh|migration:fresh"],
            Always,
            DeletesData,
            Database,
            "drops the schema",
        )],
    ),
    tool(
        &[
            "mkfs",
            "mkfs.*",
            "mke2fs",
            "mkswap",
            "mkdosfs",
            "mkntfs",
            "mkexfatfs",
            "newfs",
            "newfs_*",
            "blkdiscard",
            "lvremove",
            "vgremove",
            "pvremove",
            "sg_format",
        ],
        &[v(
            &[],
            Always,
            WipesDisk,
            Disk,
            "formats or erases a disk, a partition or a volume",
        )],
    ),
    tool(
        &["shred", "srm", "wipe"],
        &[v(
            &[],
            Always,
            WipesDisk,
            Disk,
            "overwrites files so they cannot be recovered",
        )],
    ),
    tool(
        &[
            "clear-disk",
            "format-volume",
            "remove-partition",
            "format-disk",
            "clear-partition",
        ],
        &[v(
            &[],
            Always,
            WipesDisk,
            Disk,
            "erases a disk, a partition or a volume",
        )],
    ),
    // `badblocks -w` writes test patterns over the whole device; without
    // `-w` (or the non-destructive `-n`) it only reads.
    tool(
        &["badblocks"],
        &[v(
            &[],
            AnyOpt(&["-w"]),
            WipesDisk,
            Disk,
            "overwrites the whole device with test patterns",
        )],
    ),
    tool(
        &["wipefs"],
        &[v(
            &[],
            AnyOpt(&["-a", "--all", "-o", "--offset"]),
            WipesDisk,
            Disk,
            "erases file-system signatures",
        )],
    ),
    tool(
        &["sgdisk", "gdisk"],
        &[v(
            &[],
            AnyOpt(&[
                "-Z",
                "--zap-all",
                "-z",
                "--zap",
                "-o",
                "--clear",
                "-d",
                "--delete",
            ]),
            WipesDisk,
            Disk,
            "erases the partition table or a partition",
        )],
    ),
    tool(
        &["fdisk", "sfdisk"],
        &[v(
            &[],
            AnyOpt(&["--wipe", "-w", "--wipe-partitions", "-W", "--delete"]),
            WipesDisk,
            Disk,
            "erases partitions or their signatures",
        )],
    ),
    tool(
        &["parted"],
        &[v(
            &[],
            AnyWord(&["rm", "mklabel", "mktable"]),
            WipesDisk,
            Disk,
            "deletes a partition or writes a new, empty partition table",
        )],
    ),
    tool(
        &["diskutil"],
        &[v(
            &[],
            WordWithTarget(&[
                "erasedisk",
                "erasevolume",
                "zerodisk",
                "randomdisk",
                "secureerase",
                "partitiondisk",
                "reformat",
                "deletecontainer",
                "deletevolume",
                "deletepartition",
            ]),
            WipesDisk,
            Disk,
            "erases a disk, a volume or an APFS container",
        )],
    ),
    tool(
        &["cryptsetup"],
        &[v(
            &["luksformat|erase|lukserase|reencrypt"],
            Always,
            WipesDisk,
            Disk,
            "formats an encrypted volume or erases its keys (the data is lost)",
        )],
    ),
    tool(
        &["zpool"],
        &[v(
            &["destroy|labelclear"],
            Always,
            WipesDisk,
            Disk,
            "destroys a storage pool",
        )],
    ),
    tool(
        &["zfs"],
        &[
            v(
                &["destroy"],
                Always,
                WipesDisk,
                Disk,
                "destroys a dataset or its snapshots",
            ),
            // Rolling back loses every change since the snapshot (and,
            // with -r/-R, the later snapshots themselves).
            v(
                &["rollback"],
                Always,
                WipesDisk,
                Disk,
                "rolls a dataset back to a snapshot: every later change is lost",
            ),
        ],
    ),
    tool(
        &["mdadm"],
        &[v(
            &[],
            AnyOpt(&["--zero-superblock"]),
            WipesDisk,
            Disk,
            "erases RAID signatures",
        )],
    ),
    tool(
        &["btrfs"],
        &[v(
            &["subvolume", "delete"],
            Always,
            WipesDisk,
            Disk,
            "deletes a subvolume and its files",
        )],
    ),
    tool(
        &["nvme"],
        &[v(
            &["format|sanitize"],
            Always,
            WipesDisk,
            Disk,
            "erases the drive",
        )],
    ),
    tool(
        &["hdparm"],
        &[v(
            &[],
            AnyOpt(&["--security-erase", "--security-erase-enhanced"]),
            WipesDisk,
            Disk,
            "erases the drive",
        )],
    ),
];

/// A family of one tool group with verbs only (no generic rule).
const fn tool(tools: &'static [&'static str], verbs: &'static [Verb]) -> Family {
    Family {
        name: tools[0],
        tools,
        verbs,
        generic: None,
        prints_secrets: false,
        sql_options: &[],
    }
}
