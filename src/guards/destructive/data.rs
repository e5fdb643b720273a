//! Data: SQL that drops or empties tables, given to a database client or
//! carried by a cloud query service; MongoDB's drops; a database client run
//! inside a container.

use super::super::argv::{operands, program};
use super::super::effects::{self, Hit, Kind, tables};
use crate::shell::SimpleCommand;

/// `mongosh --eval '…'` that drops a database or collection, or deletes
/// every document.
pub(super) fn mongo(cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<Hit> {
    let args = cmd.args();
    let mut code: Vec<&str> = args
        .iter()
        .enumerate()
        .filter_map(|(i, a)| {
            if a == "--eval" || a == "-e" {
                args.get(i + 1).map(String::as_str)
            } else {
                a.strip_prefix("--eval=")
            }
        })
        .collect();
    code.extend(fed_texts(cmd, before));
    let compact: String = code
        .concat()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let what = if compact.contains(".dropDatabase(") {
        "drops a database"
    } else if compact.contains(".drop()") {
        "drops a collection"
    } else if compact.contains(".deleteMany({})") || compact.contains(".remove({})") {
        "deletes every document of a collection"
    } else if [".updateMany({},", ".replaceMany({},"]
        .iter()
        .any(|p| compact.contains(p))
    {
        // SQL's UPDATE without WHERE: every document is overwritten.
        "overwrites every document of a collection"
    } else {
        return None;
    };
    Some(Hit::new(Kind::Database, format!("mongo:{what}"), what))
}

/// A database client run in a container (`docker exec db psql -c …`,
/// `kubectl exec pod -- mysql -e …`, `docker compose -f prod.yml exec -T db
/// psql …`): the client's own command, from the one container reader
/// ([`crate::shell::container_command`]).
pub(super) fn container_client(args: &[String]) -> Option<SimpleCommand> {
    let inside = crate::shell::container_command(args)?;
    let words = inside.command();
    let at = words
        .iter()
        .position(|a| DB_CLIENTS.contains(&crate::shell::program_name(a).as_str()))?;
    Some(SimpleCommand {
        argv: words[at..].to_vec(),
        ..SimpleCommand::default()
    })
}

/// The command a container runs (`docker exec web bin/rails db:drop`,
/// `docker compose run --rm web rake db:reset`,
/// `docker compose exec -T web python manage.py flush`, `kubectl exec
/// deploy/api -- rake db:reset`), for the effect tables: a framework task
/// or a tool run inside a container reaches the same data. File paths
/// there are the container's, so file deletes are not judged this way.
pub(super) fn container_command(args: &[String]) -> Option<SimpleCommand> {
    crate::shell::container_command(args).map(|c| SimpleCommand {
        argv: c.words,
        ..SimpleCommand::default()
    })
}

/// Database command-line clients that take SQL.
pub(super) const DB_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "sqlite3",
    "sqlite",
    "duckdb",
    "sqlcmd",
    "clickhouse-client",
    "clickhouse",
    "cockroach",
    "snowsql",
    "bq",
    "mysqlsh",
    "usql",
    "pgcli",
    "mycli",
    "litecli",
    "cqlsh",
    "trino",
    "presto",
    "spark-sql",
    "beeline",
    "hive",
    "impala-shell",
    "vsql",
    "isql",
    "sqlplus",
    "db2",
    "tsql",
    "mssql-cli",
    "harlequin",
    "turso",
    "cypher-shell",
];

/// SQL given to a database client: `-c`/`-e`/`--command`/`--execute`/`-Q`
/// values, the trailing operand (sqlite3, duckdb), a heredoc or
/// here-string, or the output of an `echo`/`printf` piped into it.
pub(super) fn sql_client(cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<Hit> {
    let args = cmd.args();
    let mut texts: Vec<&str> = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if matches!(
            a.as_str(),
            "-c" | "-e" | "--command" | "--execute" | "-Q" | "-q" | "--query" | "--sql" | "-cmd"
        ) && let Some(v) = args.get(i + 1)
        {
            texts.push(v);
        }
        for pre in ["--command=", "--execute=", "--query="] {
            if let Some(v) = a.strip_prefix(pre) {
                texts.push(v);
            }
        }
    }
    if let Some(last) = operands(args).last() {
        texts.push(last);
    }
    texts.extend(fed_texts(cmd, before));
    sql_hit(&texts)
}

/// What a command reads as its input, when the command line shows it: a
/// heredoc or here-string, or the words of an `echo`/`printf`/`cat` (or
/// the heredoc of the command) that pipes into it.
pub(super) fn fed_texts<'a>(cmd: &'a SimpleCommand, before: &'a [SimpleCommand]) -> Vec<&'a str> {
    let mut texts: Vec<&str> = Vec::new();
    if let Some(h) = &cmd.heredoc {
        texts.push(h);
    }
    for r in &cmd.redirects {
        if r.op == "<<<" {
            texts.push(&r.target);
        }
    }
    if cmd.piped
        && let Some(prev) = before.last()
    {
        if let Some(h) = &prev.heredoc {
            texts.push(h);
        } else if matches!(program(prev).as_str(), "echo" | "printf" | "cat") {
            texts.extend(prev.args().iter().map(String::as_str));
        }
    }
    texts
}

/// Key-value store commands given on the input (`echo FLUSHALL |
/// redis-cli`, `redis-cli <<< 'flushdb'`).
pub(super) fn kv_fed(cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<Hit> {
    fed_texts(cmd, before)
        .iter()
        .flat_map(|t| t.split(|c: char| c.is_whitespace() || c == ';' || c == '\\'))
        .map(|w| {
            w.strip_prefix('n')
                .filter(|r| r.eq_ignore_ascii_case("flushall") || r.eq_ignore_ascii_case("flushdb"))
                .unwrap_or(w)
        })
        .find(|w| w.eq_ignore_ascii_case("flushall") || w.eq_ignore_ascii_case("flushdb"))
        .map(|w| {
            let w = w.to_ascii_uppercase();
            Hit::new(
                Kind::Database,
                format!("kv:{w}"),
                format!("runs {w} (every key of the database deleted)"),
            )
        })
}

/// The finding for the first destructive statement among `texts`.
fn sql_hit(texts: &[&str]) -> Option<Hit> {
    texts.iter().find_map(|t| destructive_sql(t)).map(|what| {
        Hit::new(
            Kind::Database,
            format!("sql:{what}"),
            format!("runs {what}"),
        )
    })
}

/// SQL a cloud query service or data API carries: the value of the
/// family's SQL options (`aws redshift-data execute-statement --sql …`,
/// `aws athena start-query-execution --query-string …`) or the operands
/// after the words that open a query (`bq query '…'`).
pub(super) fn carried_sql(tool: &str, args: &[String]) -> Option<Hit> {
    let mut texts: Vec<&str> = Vec::new();
    if let Some(fam) = effects::family(tool) {
        for (i, a) in args.iter().enumerate() {
            for o in fam.sql_options {
                if a == o
                    && let Some(v) = args.get(i + 1)
                {
                    texts.push(v);
                } else if let Some(v) = a.strip_prefix(o).and_then(|r| r.strip_prefix('=')) {
                    texts.push(v);
                }
            }
        }
    }
    // Any tool's long option named for SQL text (`--ddl`, `--sql-statement`,
    // `--statement`, `--ddl-statements=…`): the option's name says what its
    // value is; only a destructive statement in it counts. A `--ddl-file`
    // names a file, whose text is not on the command line.
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let Some(long) = a.strip_prefix("--") else {
            continue;
        };
        let (name, inline) = match long.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (long, None),
        };
        let name = name.to_ascii_lowercase();
        if !["sql", "ddl", "statement"].iter().any(|k| name.contains(k))
            || name.ends_with("file")
            || name.ends_with("path")
        {
            continue;
        }
        match inline {
            Some(v) => texts.push(v),
            None => texts.extend(it.clone().next().map(String::as_str)),
        }
    }
    if let Some((_, path)) = tables::SQL_OPERANDS.iter().find(|(t, _)| *t == tool) {
        let words = effects::leading_words(args, 4);
        if effects::path_matches(&words, path) {
            texts.extend(operands(args).into_iter().skip(path.len()));
        }
    }
    sql_hit(&texts)
}

/// The destructive SQL statement in `sql`, if any: DROP TABLE / DATABASE /
/// SCHEMA / KEYSPACE, ALTER TABLE … DROP COLUMN (the column's values go),
/// TRUNCATE, or DELETE FROM / UPDATE without WHERE.
pub(super) fn destructive_sql(sql: &str) -> Option<String> {
    for stmt in sql.split(';') {
        let upper = stmt.to_ascii_uppercase();
        let words: Vec<&str> = upper.split_whitespace().collect();
        // `EXPLAIN DELETE …`, `EXPLAIN QUERY PLAN …` show a plan and run
        // nothing; `EXPLAIN ANALYZE` (and PostgreSQL's `(ANALYZE)`) runs it.
        if words.first() == Some(&"EXPLAIN")
            && !upper.contains("ANALYZE")
            && !upper.contains("ANALYSE")
        {
            continue;
        }
        for (i, w) in words.iter().enumerate() {
            let next = words.get(i + 1).copied().unwrap_or("");
            match *w {
                // InfluxQL's measurements, SurrealQL's `REMOVE TABLE`.
                "DROP" | "REMOVE"
                    if matches!(
                        next,
                        "TABLE" | "DATABASE" | "SCHEMA" | "KEYSPACE" | "MEASUREMENT" | "NAMESPACE"
                    ) =>
                {
                    return Some(format!("{w} {next}"));
                }
                "DROP" if next == "COLUMN" && words.first() == Some(&"ALTER") => {
                    return Some("ALTER TABLE … DROP COLUMN".into());
                }
                "TRUNCATE" if i == 0 || next == "TABLE" => return Some("TRUNCATE".into()),
                "DELETE" if next == "FROM" && !words.contains(&"WHERE") => {
                    return Some("DELETE FROM without WHERE".into());
                }
                // Cypher: `MATCH (n) DETACH DELETE n` with no filter.
                "DELETE"
                    if words.first() == Some(&"MATCH")
                        && !words.contains(&"WHERE")
                        && !stmt.contains('{') =>
                {
                    return Some("MATCH … DELETE without a filter".into());
                }
                "UPDATE" if i == 0 && words.contains(&"SET") && !words.contains(&"WHERE") => {
                    return Some("UPDATE without WHERE".into());
                }
                _ => {}
            }
        }
    }
    None
}

/// A cloud CLI that opens a database session (`gcloud sql connect`,
/// `heroku pg:psql`, `pscale shell`, `turso db shell`, `fly postgres
/// connect`): the SQL it is fed on its input.
pub(super) fn session_fed(cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<Hit> {
    let (tool, args) = effects::tool(cmd);
    effects::family(&tool).filter(|f| !f.sql_options.is_empty())?;
    let words = effects::leading_words(args, 3);
    if !words
        .iter()
        .any(|w| matches!(w.as_str(), "connect" | "pg:psql" | "psql" | "shell"))
    {
        return None;
    }
    sql_hit(&fed_texts(cmd, before))
}
