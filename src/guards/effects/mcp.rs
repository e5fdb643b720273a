//! MCP tool calls (`mcp__<server>__<tool>`), as data: which built-in tool
//! a call resembles, so that every guard judges it as that tool (issue 27,
//! "MCP tools"). A command runner's command is judged as a `Bash` command,
//! a file write with a path as `Write`, a file read as `Read`, SQL text as
//! the SQL a database client runs, and a push, reset, clean or delete by
//! its verb and target as the `git`/`rm`/`gh` command with the same effect.
//!
//! [`canonicalize`] rewrites the payload before any card runs: its
//! `tool_name` and `tool_input` become the built-in tool's, and the MCP
//! name stays in `mcp_tool` for the audit. A call no row matches is
//! judged by the words of its name and input
//! ([`super::mcp_verbs`]); one they say nothing of (a read of a web page, a
//! chat message, a list) is left as it is: no guard knows it, so it stays
//! quiet. The table is `const` data, scanned in
//! place (a few dozen string compares per MCP call, nothing per other
//! call).

use crate::target::ToolKind;
use serde_json::{Map, Value};

/// The built-in call an MCP tool is judged as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A shell command (`command`/`cmd`): judged as `Bash`.
    Command,
    /// SQL text (`query`/`sql`/`statement`): judged as `psql -c '<sql>'`.
    Sql,
    /// A commit pushed to a hosted repository's `branch` (`owner`/`repo`
    /// given): judged as `git push origin HEAD:<branch>`.
    RepoPush,
    /// A hosted repository deleted: judged as `gh repo delete`.
    RepoDelete,
    /// A branch ref of a hosted repository moved (`ref`, `force`): judged as
    /// `git push [--force] origin HEAD:refs/heads/<branch>`.
    RefUpdate,
    /// A branch ref of a hosted repository deleted (`ref` or `branch`):
    /// judged as `git push origin :refs/heads/<branch>`.
    RefDelete,
    /// `git push` with `remote`, `branch` and `force`.
    GitPush,
    /// `git reset` with `mode` (`hard` discards work) and `target`.
    GitReset,
    /// `git clean` with `force` and `directories`.
    GitClean,
    /// A file written (`path`, `content`): judged as `Write`.
    WriteFile,
    /// A file edited in place (`path`, `edits`; `dryRun` only previews):
    /// judged as `Edit`.
    EditFile,
    /// A file moved (`source`, `destination`): judged as `mv`.
    MoveFile,
    /// A directory made: judged as `mkdir -p`.
    MakeDir,
    /// A file or directory deleted (`recursive`): judged as `rm`.
    DeletePath,
    /// One or more files read (`path`/`paths`): judged as `Read`.
    ReadFile,
}

impl Shape {
    /// The built-in tool a call of this shape is judged as.
    pub fn tool(self) -> ToolKind {
        match self {
            Shape::WriteFile => ToolKind::Write,
            Shape::EditFile => ToolKind::Edit,
            Shape::ReadFile => ToolKind::Read,
            Shape::Command
            | Shape::Sql
            | Shape::RepoPush
            | Shape::RepoDelete
            | Shape::RefUpdate
            | Shape::RefDelete
            | Shape::GitPush
            | Shape::GitReset
            | Shape::GitClean
            | Shape::MoveFile
            | Shape::MakeDir
            | Shape::DeletePath => ToolKind::Bash,
        }
    }

    /// The built-in call it is judged as, for `generated/effects.md`: the
    /// tool, or the command cuecard writes for it.
    pub fn shown(self) -> &'static str {
        match self {
            Shape::RepoPush => "git push origin HEAD:<branch>",
            Shape::RepoDelete => "gh repo delete <owner>/<repo>",
            Shape::RefUpdate => "git push [--force] origin HEAD:refs/heads/<branch>",
            Shape::RefDelete => "git push origin :refs/heads/<branch>",
            Shape::Sql => "psql -c '<sql>'",
            Shape::GitPush => "git push [--force] <remote> <branch>",
            Shape::GitReset => "git reset [--<mode>] <target>",
            Shape::GitClean => "git clean [-f] [-d]",
            Shape::MoveFile => "mv <source> <destination>",
            Shape::MakeDir => "mkdir -p <path>",
            Shape::DeletePath => "rm [-r] <path>",
            Shape::Command | Shape::WriteFile | Shape::EditFile | Shape::ReadFile => {
                self.tool().name()
            }
        }
    }
}

/// One row: the tool names (after `mcp__<server>__`, lower case, `-` read
/// as `_`) of one shape, and the input keys that must be present.
pub struct McpTool {
    pub names: &'static [&'static str],
    /// Every one of these keys must be in the input (any of `|`-joined).
    pub needs: &'static [&'static str],
    pub shape: Shape,
}

const PATH: &str = "path|file_path|filePath|filename|file";
const SQL: &str = "query|sql|statement";
/// A git tool names its repository (or a remote or branch): a `push`,
/// `reset` or `clean` of another kind of server (a notification push, a
/// cache reset) names none.
const GIT: &str = "repo_path|repoPath|path|remote|branch|directory|cwd";
/// The words SQL text starts with; a search `query` in plain words is not
/// SQL.
const SQL_STARTS: &[&str] = &[
    "select", "insert", "update", "delete", "drop", "truncate", "alter", "create", "with", "grant",
    "revoke", "begin", "replace", "merge", "pragma", "vacuum", "upsert", "copy",
];

/// The rows, first match wins: the hosted-repository rows come before the
/// local file rows because their `path` names a file in the repository.
pub const TOOLS: &[McpTool] = &[
    McpTool {
        names: &[
            "push_files",
            "create_or_update_file",
            "delete_file",
            "update_file",
            "create_file",
            "commit_files",
            // A forge's commit API (GitLab's and Gitea's `create_commit`):
            // a commit made on the branch with no push.
            "create_commit",
            "commit_changes",
            "create_or_update_files",
            "update_files",
            "create_files",
            "delete_files",
        ],
        // The branch alone says where the commit goes: peers' minimal calls
        // leave the repository to the server's default.
        needs: &["branch|branch_name|branchName"],
        shape: Shape::RepoPush,
    },
    McpTool {
        names: &["update_ref", "git_update_ref", "update_branch"],
        needs: &["ref|branch|branch_name|branchName"],
        shape: Shape::RefUpdate,
    },
    McpTool {
        names: &["delete_ref", "git_delete_ref", "delete_branch"],
        needs: &["ref|branch|branch_name|branchName"],
        shape: Shape::RefDelete,
    },
    McpTool {
        names: &["delete_repository", "delete_repo"],
        needs: &["repo|repository|name"],
        shape: Shape::RepoDelete,
    },
    McpTool {
        names: &[
            "execute_command",
            "run_command",
            "exec_command",
            "shell_exec",
            "shell_execute",
            "run_shell_command",
            "execute_shell_command",
            "run_terminal_command",
            "execute_terminal_command",
            "terminal_execute",
            "run_in_terminal",
            "write_to_terminal",
            "start_process",
            "bash",
            "shell",
            "exec",
            "run",
            "execute",
        ],
        needs: &["command|cmd"],
        shape: Shape::Command,
    },
    McpTool {
        names: &[
            "execute_sql",
            "run_sql",
            "exec_sql",
            "sql",
            "query",
            "sql_query",
            "run_query",
            "execute_query",
            "read_query",
            "write_query",
            "create_table",
            "apply_migration",
            "mysql_query",
            "postgres_query",
            "execute_statement",
        ],
        needs: &[SQL],
        shape: Shape::Sql,
    },
    McpTool {
        names: &["git_push", "push"],
        needs: &[GIT],
        shape: Shape::GitPush,
    },
    McpTool {
        names: &["git_reset", "reset"],
        needs: &[GIT],
        shape: Shape::GitReset,
    },
    McpTool {
        names: &["git_clean", "clean"],
        needs: &[GIT],
        shape: Shape::GitClean,
    },
    McpTool {
        names: &[
            "write_file",
            "create_file",
            "save_file",
            "overwrite_file",
            "append_file",
            "append_to_file",
            "write",
        ],
        needs: &[PATH],
        shape: Shape::WriteFile,
    },
    McpTool {
        names: &[
            "edit_file",
            "edit_block",
            "replace_in_file",
            "str_replace",
            "apply_edits",
            "patch_file",
            "edit",
        ],
        needs: &[PATH],
        shape: Shape::EditFile,
    },
    McpTool {
        names: &[
            "move_file",
            "rename_file",
            "move",
            "rename",
            "move_directory",
        ],
        needs: &[
            "source|src|from|old_path|oldPath",
            "destination|dest|dst|to|new_path|newPath",
        ],
        shape: Shape::MoveFile,
    },
    McpTool {
        names: &["create_directory", "make_directory", "mkdir"],
        needs: &[PATH],
        shape: Shape::MakeDir,
    },
    McpTool {
        names: &[
            "delete_file",
            "delete_directory",
            "remove_directory",
            "remove_file",
            "delete_path",
            "delete",
            "remove",
            "rm",
            "rmdir",
        ],
        needs: &[PATH],
        shape: Shape::DeletePath,
    },
    McpTool {
        names: &[
            "read_file",
            "read_text_file",
            "read_media_file",
            "read_multiple_files",
            "read_files",
            "view_file",
            "open_file",
            "cat",
            "read",
        ],
        needs: &["path|paths|file_path|filePath|file_paths|filename|file"],
        shape: Shape::ReadFile,
    },
];

/// The server and tool of an MCP tool name (`mcp__<server>__<tool>`).
pub fn split(tool_name: &str) -> Option<(&str, &str)> {
    let rest = tool_name.strip_prefix("mcp__")?;
    let (server, tool) = rest.split_once("__")?;
    (!tool.is_empty()).then_some((server, tool))
}

/// The row an MCP call matches, if any.
pub fn lookup(tool: &str, input: &Map<String, Value>) -> Option<&'static McpTool> {
    let name = tool.to_ascii_lowercase().replace('-', "_");
    TOOLS.iter().find(|row| {
        row.names.contains(&name.as_str())
            && row
                .needs
                .iter()
                .all(|alts| alts.split('|').any(|k| input.contains_key(k)))
    })
}

fn text<'a>(input: &'a Map<String, Value>, keys: &str) -> Option<&'a str> {
    keys.split('|')
        .find_map(|k| input.get(k).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
}

fn flag(input: &Map<String, Value>, keys: &str) -> bool {
    keys.split('|').any(|k| match input.get(k) {
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => s == "true",
        _ => false,
    })
}

/// `s` as one shell word.
fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The built-in tool and input an MCP call is judged as.
pub fn judged_as(tool_name: &str, input: &Map<String, Value>) -> Option<(ToolKind, Value)> {
    let (_, tool) = split(tool_name)?;
    let Some(row) = lookup(tool, input) else {
        return super::mcp_verbs::judged_as(tool, input).map(|v| (ToolKind::Bash, v));
    };
    Some((row.shape.tool(), built_in_input(row.shape, input)?))
}

/// The input of the built-in call a call of `shape` is judged as.
fn built_in_input(shape: Shape, input: &Map<String, Value>) -> Option<Value> {
    let bash = |c: String| Some(serde_json::json!({ "command": c }));
    match shape {
        Shape::Command => bash(text(input, "command|cmd")?.to_string()),
        Shape::Sql => {
            let sql = text(input, SQL)?;
            let first = sql
                .trim_start_matches(|c: char| c.is_whitespace() || c == '(')
                .split(|c: char| !c.is_ascii_alphabetic())
                .next()
                .unwrap_or("")
                .to_ascii_lowercase();
            if !SQL_STARTS.contains(&first.as_str()) {
                return None;
            }
            bash(format!("psql -c {}", quote(sql)))
        }
        Shape::RepoPush => {
            let branch = text(input, "branch|branch_name|branchName")?;
            bash(format!(
                "git push origin {}",
                quote(&format!("HEAD:{branch}"))
            ))
        }
        Shape::RefUpdate | Shape::RefDelete => {
            let name = text(input, "ref|branch|branch_name|branchName")?;
            let name = name.strip_prefix("refs/").unwrap_or(name);
            // A tag, a note, a pull request's ref: no branch moves.
            if ["tags/", "notes/", "pull/", "remotes/"]
                .iter()
                .any(|p| name.starts_with(p))
            {
                return None;
            }
            let branch = name.strip_prefix("heads/").unwrap_or(name);
            let spec = if shape == Shape::RefDelete {
                format!(":refs/heads/{branch}")
            } else {
                format!("HEAD:refs/heads/{branch}")
            };
            let force = shape == Shape::RefUpdate && flag(input, "force");
            bash(format!(
                "git push{} origin {}",
                if force { " --force" } else { "" },
                quote(&spec)
            ))
        }
        Shape::RepoDelete => {
            let repo = text(input, "repo|repository|name")?;
            let full = match text(input, "owner") {
                Some(o) => format!("{o}/{repo}"),
                None => repo.to_string(),
            };
            bash(format!("gh repo delete {} --yes", quote(&full)))
        }
        Shape::GitPush => {
            let mut c = String::from("git push");
            if flag(input, "force|force_push|forcePush") {
                c.push_str(" --force");
            }
            let remote = text(input, "remote").unwrap_or("origin");
            c.push(' ');
            c.push_str(&quote(remote));
            if let Some(b) = text(input, "branch|refspec|ref") {
                c.push(' ');
                c.push_str(&quote(b));
            }
            bash(c)
        }
        Shape::GitReset => {
            let mut c = String::from("git reset");
            if let Some(m) = text(input, "mode") {
                c.push_str(&format!(" --{}", m.trim_start_matches('-')));
            } else if flag(input, "hard") {
                c.push_str(" --hard");
            }
            if let Some(t) = text(input, "target|commit|ref|revision") {
                c.push(' ');
                c.push_str(&quote(t));
            }
            bash(c)
        }
        Shape::GitClean => {
            let mut c = String::from("git clean");
            if flag(input, "dry_run|dryRun") {
                c.push_str(" -n");
            } else if flag(input, "force") {
                c.push_str(" -f");
            }
            if flag(input, "directories|dirs|d") {
                c.push_str(" -d");
            }
            bash(c)
        }
        Shape::WriteFile => Some(serde_json::json!({
            "file_path": text(input, PATH)?,
            "content": text(input, "content|contents|text|data").unwrap_or(""),
        })),
        Shape::EditFile => {
            if flag(input, "dryRun|dry_run") {
                return None;
            }
            let first = input
                .get("edits")
                .and_then(Value::as_array)
                .and_then(|e| e.first())
                .and_then(Value::as_object);
            let new = first
                .and_then(|e| text(e, "newText|new_string|new_text|replace"))
                .or_else(|| text(input, "new_string|newText|new_text|replace"))
                .unwrap_or("");
            let old = first
                .and_then(|e| text(e, "oldText|old_string|old_text|search"))
                .or_else(|| text(input, "old_string|oldText|old_text|search"))
                .unwrap_or("");
            Some(serde_json::json!({
                "file_path": text(input, PATH)?,
                "old_string": old,
                "new_string": new,
            }))
        }
        Shape::MoveFile => bash(format!(
            "mv -- {} {}",
            quote(text(input, "source|src|from|old_path|oldPath")?),
            quote(text(input, "destination|dest|dst|to|new_path|newPath")?)
        )),
        Shape::MakeDir => bash(format!("mkdir -p -- {}", quote(text(input, PATH)?))),
        Shape::DeletePath => {
            let r = if flag(input, "recursive|force") {
                " -rf"
            } else {
                ""
            };
            bash(format!("rm{r} -- {}", quote(text(input, PATH)?)))
        }
        Shape::ReadFile => {
            let mut paths: Vec<&str> = Vec::new();
            if let Some(p) = text(input, "path|file_path|filePath|filename|file") {
                paths.push(p);
            }
            for k in ["paths", "file_paths"] {
                if let Some(a) = input.get(k).and_then(Value::as_array) {
                    paths.extend(a.iter().filter_map(Value::as_str));
                }
            }
            let (first, more) = paths.split_first()?;
            Some(serde_json::json!({ "file_path": first, "file_paths": more }))
        }
    }
}

/// Rewrites an MCP call in a canonical payload into the built-in call it
/// is judged as (see the module's note); any other payload is untouched.
pub fn canonicalize(raw: &mut Map<String, Value>) {
    let Some(name) = raw.get("tool_name").and_then(Value::as_str) else {
        return;
    };
    if !name.starts_with("mcp__") {
        return;
    }
    let Some(input) = raw.get("tool_input").and_then(Value::as_object) else {
        return;
    };
    let Some((tool, new_input)) = judged_as(name, input) else {
        return;
    };
    let name = name.to_string();
    raw.insert("mcp_tool".into(), Value::String(name));
    raw.insert("tool_name".into(), Value::String(tool.name().into()));
    raw.insert("tool_input".into(), new_input);
}

/// The table as a section of `generated/effects.md`.
pub fn markdown() -> String {
    let mut md = String::from(
        "\n## MCP tools (`mcp__<server>__<tool>`)\n\nAn MCP call is judged as the built-in \
         tool with the same effect, before any card runs; the first row whose tool name (after \
         `mcp__<server>__`, lower case, `-` read as `_`) and input keys match wins. A call no row \
         matches is judged by its words (`mcp_verbs`): a runner's command line in a key ending \
         in `command`/`cmd`, a CLI's verb as a tool (`kubectl_delete` as `kubectl delete <type> \
         <name>`), a delete-like verb on a data resource (`drop_database` as `dropdb`, \
         `drop_collection`/`truncate_table` as `DROP TABLE`, `flushdb` as `redis-cli flushall`), \
         a read verb on a secret (`get_secret_value` as `vault kv get`); a `dryRun` input is a \
         preview. Anything else is left as it is, and no guard knows it.\n\n\
         | tool names | input needs | judged as |\n|---|---|---|\n",
    );
    for row in TOOLS {
        let needs = if row.needs.is_empty() {
            "-".to_string()
        } else {
            row.needs
                .iter()
                .map(|n| format!("`{}`", n.replace('|', "` or `")))
                .collect::<Vec<_>>()
                .join(" and ")
        };
        md.push_str(&format!(
            "| {} | {} | `{}` |\n",
            row.names
                .iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(", "),
            needs,
            row.shape.shown().replace('|', "\\|")
        ));
    }
    md
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(tool: &str, input: Value) -> Option<(ToolKind, Value)> {
        judged_as(tool, input.as_object().unwrap())
    }

    #[test]
    fn shapes_map_onto_built_in_calls() {
        let (t, i) = judge(
            "mcp__db__execute_sql",
            serde_json::json!({"query": "DROP TABLE it's"}),
        )
        .unwrap();
        assert_eq!(t, ToolKind::Bash);
        assert_eq!(i["command"], r"psql -c 'DROP TABLE it'\''s'");
        let (t, i) = judge(
            "mcp__github__push_files",
            serde_json::json!({"owner": "o", "repo": "r", "branch": "main", "files": []}),
        )
        .unwrap();
        assert_eq!(
            (t, i["command"].as_str()),
            (ToolKind::Bash, Some("git push origin 'HEAD:main'"))
        );
        // The hosted repository's `path` is not a local write.
        let (t, _) = judge(
            "mcp__github__create_or_update_file",
            serde_json::json!({"owner": "o", "repo": "r", "path": "/etc/x", "content": "", "branch": "b"}),
        )
        .unwrap();
        assert_eq!(t, ToolKind::Bash);
        let (t, i) = judge(
            "mcp__fs__write_file",
            serde_json::json!({"path": "/etc/x", "content": "y"}),
        )
        .unwrap();
        assert_eq!(
            (t, i["file_path"].as_str()),
            (ToolKind::Write, Some("/etc/x"))
        );
        assert!(
            judge(
                "mcp__fs__edit_file",
                serde_json::json!({"path": "/etc/x", "edits": [], "dryRun": true})
            )
            .is_none()
        );
        assert!(
            judge(
                "mcp__slack__post_message",
                serde_json::json!({"text": "rm -rf ~"})
            )
            .is_none()
        );
        assert!(judge("Bash", serde_json::json!({"command": "ls"})).is_none());
        // Plain words in a search `query`, and a `push` of a notification
        // server, are not SQL or git.
        assert!(
            judge(
                "mcp__web__query",
                serde_json::json!({"query": "how to drop table users"})
            )
            .is_none()
        );
        assert!(
            judge(
                "mcp__pushover__push",
                serde_json::json!({"message": "done"})
            )
            .is_none()
        );
    }
}
