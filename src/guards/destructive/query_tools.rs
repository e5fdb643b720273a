//! SQL given to a tool no list names, when the tool is plainly opening a
//! query: its first words say so (`dolt sql -q …`, `questdb-cli sql '…'`,
//! `influx v1 shell <<< '…'`, `surreal sql <<< '…'`) or its name does (a
//! `…sql…` or `…db…` program). The SQL is read where a database client
//! carries it (a query option's value, the operands after the verb, a
//! heredoc or here-string, an `echo` piped in), and judged as any client's
//! ([`super::data::destructive_sql`]). Tools whose operands are names or
//! text the user chose (git, grep, echo, ...) are never read this way.

use super::super::argv::operands;
use super::super::effects::{self, Hit, Kind};
use super::data;
use crate::shell::SimpleCommand;

/// Words that open a query or a session (`x sql`, `x query`, `x shell`).
const QUERY_WORDS: &[&str] = &[
    "sql", "query", "shell", "exec", "execute", "repl", "console", "cli", "q",
];

/// Options whose value is the query.
const QUERY_OPTIONS: &[&str] = &[
    "-q",
    "--query",
    "-e",
    "--execute",
    "-c",
    "--command",
    "--sql",
    "-x",
];

/// The finding for destructive SQL given to such a tool.
pub(super) fn query_tool(cmd: &SimpleCommand, before: &[SimpleCommand]) -> Option<Hit> {
    let (tool, args) = effects::tool(cmd);
    if tool.is_empty()
        || effects::unlisted::NOT_READ.contains(&tool.as_str())
        || data::DB_CLIENTS.contains(&tool.as_str())
    {
        return None;
    }
    let ops = operands(args);
    let lead = ops
        .iter()
        .take(3)
        .position(|w| QUERY_WORDS.contains(&w.to_ascii_lowercase().as_str()));
    let named = tool.contains("sql") || tool.contains("db");
    if lead.is_none() && !named {
        return None;
    }
    let mut texts: Vec<&str> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if QUERY_OPTIONS.contains(&a.as_str()) {
            texts.extend(it.next().map(String::as_str));
        } else if let Some((name, v)) = a.split_once('=')
            && QUERY_OPTIONS.contains(&name)
        {
            texts.push(v);
        }
    }
    if let Some(i) = lead {
        texts.extend(ops.iter().skip(i + 1).copied());
    }
    texts.extend(data::fed_texts(cmd, before));
    let what = texts.iter().find_map(|t| data::destructive_sql(t))?;
    Some(Hit::new(
        Kind::Database,
        format!("sql:{what}"),
        format!("runs {what} through {tool}"),
    ))
}
