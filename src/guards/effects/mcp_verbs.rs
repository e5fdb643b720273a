//! MCP tools no row of [`super::mcp::TOOLS`] names, judged by what their
//! name and input say (issue 27, "MCP tools": judged like the built-in
//! tool with the same effect). Three general rules, tried in order:
//!
//! 1. A tool that runs or calls something (a `run`/`call`/`exec`/`invoke`
//!    word in its name) and is handed a command line in a key ending in
//!    `command` or `cmd` (`cli_command`, `shell_cmd`): the command is
//!    judged as `Bash`.
//! 2. A tool named after a CLI and one of its verbs (`kubectl_delete`,
//!    `helm_uninstall`) with the resource in its input: judged as that CLI
//!    line (`kubectl delete <type> <name> -n <ns> -o <output>`).
//! 3. A delete-like verb (`drop`, `delete`, `destroy`, `remove`, `purge`,
//!    `truncate`, `flush`, `wipe`) and a data resource in the name
//!    (`database`, `collection`, `table`, `namespace`, `bucket`, ...): judged
//!    as the admin command that deletes that resource; a read verb and a
//!    secret noun (`get_secret_value`, `read_secret`) as `vault kv get`.
//!
//! A `dryRun`/`dry_run` input keeps every rule quiet (a preview). The words
//! are `const` data, scanned only for MCP calls no row matched.

use serde_json::{Map, Value, json};

const RUN_WORDS: &[&str] = &["run", "call", "exec", "execute", "invoke"];
/// CLIs whose verbs an MCP server exposes one tool each.
const CLIS: &[&str] = &["kubectl", "helm", "oc"];
const DELETE_VERBS: &[&str] = &[
    "drop",
    "delete",
    "destroy",
    "remove",
    "purge",
    "truncate",
    "flush",
    "flushall",
    "flushdb",
    "wipe",
    "erase",
    "dropdatabase",
];
const READ_VERBS: &[&str] = &[
    "get", "read", "reveal", "show", "fetch", "retrieve", "access",
];
const SECRET_NOUNS: &[&str] = &["secret", "secrets", "password", "credential", "credentials"];
const NAME_KEYS: &[&str] = &["name", "id", "path", "key", "secret_id", "secretId"];

/// What a delete of a resource kind is judged as: the kind's words and a
/// command with `{}` for the resource's name.
const RESOURCES: &[(&[&str], &[&str], &str)] = &[
    (
        &["database", "db", "databases"],
        &["database", "db", "name"],
        "dropdb {}",
    ),
    (
        &[
            "table",
            "collection",
            "tables",
            "collections",
            "schema",
            "keyspace",
        ],
        &["table", "collection", "schema", "keyspace", "name"],
        "psql -c 'DROP TABLE {}'",
    ),
    (
        &["namespace", "ns"],
        &["namespace", "name"],
        "kubectl delete namespace {}",
    ),
    (
        &["bucket", "buckets"],
        &["bucket", "name"],
        "aws s3 rb s3://{} --force",
    ),
    (
        &[
            "index", "indices", "volume", "cluster", "topic", "queue", "stream",
        ],
        &[
            "index", "volume", "cluster", "topic", "queue", "stream", "name",
        ],
        "psql -c 'DROP TABLE {}'",
    ),
];

fn words(tool: &str) -> Vec<String> {
    tool.to_ascii_lowercase()
        .split(['_', '-', '.'])
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

fn text<'a>(input: &'a Map<String, Value>, keys: &[&str]) -> Option<&'a str> {
    keys.iter()
        .find_map(|k| input.get(*k).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
}

fn dry_run(input: &Map<String, Value>) -> bool {
    ["dryRun", "dry_run", "dryrun", "preview"]
        .iter()
        .any(|k| matches!(input.get(*k), Some(Value::Bool(true))))
}

/// `s` as one shell word.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The `Bash` input an MCP call no row matched is judged as, if its name
/// and input say what it does.
pub fn judged_as(tool: &str, input: &Map<String, Value>) -> Option<Value> {
    if dry_run(input) {
        return None;
    }
    let w = words(tool);
    let has = |set: &[&str]| w.iter().any(|x| set.contains(&x.as_str()));
    let bash = |c: String| Some(json!({ "command": c }));
    // 1. A command line handed to a runner.
    if has(RUN_WORDS) {
        let cmd = input.iter().find_map(|(k, v)| {
            let k = k.to_ascii_lowercase();
            (k.ends_with("command") || k.ends_with("cmd") || k == "command_line")
                .then(|| v.as_str())
                .flatten()
        });
        if let Some(cmd) = cmd.filter(|c| !c.trim().is_empty()) {
            return bash(cmd.to_string());
        }
    }
    // 2. A CLI's verb as a tool.
    if let [cli, verb, ..] = w.as_slice()
        && CLIS.contains(&cli.as_str())
    {
        let mut line = format!("{cli} {verb}");
        for keys in [
            &["resourceType", "resource_type", "kind", "type"][..],
            &["name"],
        ] {
            if let Some(v) = text(input, keys) {
                line.push(' ');
                line.push_str(&quote(v));
            }
        }
        if let Some(ns) = text(input, &["namespace"]) {
            line.push_str(&format!(" -n {}", quote(ns)));
        }
        if let Some(o) = text(input, &["output", "format"]) {
            line.push_str(&format!(" -o {}", quote(o)));
        }
        return bash(line);
    }
    // 3. A delete-like verb on a data resource, a read of a secret.
    if has(DELETE_VERBS) {
        if w.iter().any(|x| x.starts_with("flush")) && !has(&["cache", "logs", "log"]) {
            return bash("redis-cli flushall".into());
        }
        for (kinds, keys, cmd) in RESOURCES {
            if has(kinds) {
                let name: String = text(input, keys)
                    .unwrap_or("x")
                    .chars()
                    .filter(|c| c.is_ascii_alphanumeric() || "_-./:".contains(*c))
                    .collect();
                return bash(cmd.replace("{}", &name));
            }
        }
    }
    if has(READ_VERBS) && has(SECRET_NOUNS) && !has(&["list", "metadata", "describe"]) {
        let name = text(input, NAME_KEYS).unwrap_or("x");
        return bash(format!("vault kv get {}", quote(name)));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judged(tool: &str, input: Value) -> Option<String> {
        let input = input.as_object().cloned().unwrap();
        judged_as(tool, &input).map(|v| v["command"].as_str().unwrap().to_string())
    }

    #[test]
    fn verbs_and_resources_name_the_effect() {
        assert_eq!(
            judged("drop_collection", json!({"collection": "c"})).as_deref(),
            Some("psql -c 'DROP TABLE c'")
        );
        assert_eq!(
            judged(
                "kubectl_delete",
                json!({"resourceType": "ns", "name": "qa"})
            )
            .as_deref(),
            Some("kubectl delete 'ns' 'qa'")
        );
        assert_eq!(
            judged("invoke_cli", json!({"shell_cmd": "rm -rf /srv"})).as_deref(),
            Some("rm -rf /srv")
        );
        assert!(judged("delete_bucket", json!({"bucket": "b", "dryRun": true})).is_none());
        assert!(judged("list_secrets", json!({})).is_none());
        assert!(judged("describe_table", json!({"table": "t"})).is_none());
    }
}
