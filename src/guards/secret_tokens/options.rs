//! A password typed into a command's password option or variable
//! (`mysql -pS3cr3t`, `redis-cli -a S3cr3t`, `curl -u admin:S3cr3t`,
//! `--password=S3cr3t`, `PGPASSWORD=S3cr3t psql`): whatever the tool, the
//! option says the value is a password, and a live-looking one on a command
//! line is in the conversation and its logs. The same test as a connection
//! URL's password ([`super::live_password`]): not a variable, a placeholder,
//! a stock example or a short value.

use crate::shell::SimpleCommand;

/// Programs whose attached `-pVALUE` is a password (`-p` alone prompts).
const ATTACHED_P: &[&str] = &[
    "mysql",
    "mariadb",
    "mysqldump",
    "mysqladmin",
    "mysqlimport",
    "mysqlsh",
];

/// Programs whose `-a VALUE` is a password.
const DASH_A: &[&str] = &["redis-cli", "valkey-cli", "keydb-cli"];

/// Whether a long option's name (lower case, without `--`) says its value is
/// a password (`password`, `db-password`, `http-password`), not where one is
/// read from (`password-file`, `password-stdin`).
fn password_name(name: &str) -> bool {
    let base = name.rsplit(['-', '_']).next().unwrap_or(name);
    matches!(base, "password" | "passwd" | "pass") || matches!(name, "password" | "passwd" | "pass")
}

/// Whether a variable's name says it holds a password (`PGPASSWORD`,
/// `MYSQL_PWD`, `DB_PASSWORD`, `REDISCLI_AUTH`).
fn password_var(name: &str) -> bool {
    let n = name.to_ascii_uppercase();
    n.ends_with("PASSWORD") || n.ends_with("PASSWD") || n.ends_with("_PWD") || n == "REDISCLI_AUTH"
}

/// The first password given to an option or a variable on a command line
/// of `cmds` that looks live; `command` is the line as written (a prefix
/// assignment, `PGPASSWORD=… psql`, is read from it).
pub fn password_option(command: &str, cmds: &[SimpleCommand]) -> Option<&'static str> {
    // A local server's password is a development default (as in a URL),
    // and one sent to a host reserved for documentation is an example (as
    // in a header).
    let local = command.contains("localhost") || command.contains("127.0.0.1");
    if local || super::headers::to_documentation_host(&command.to_ascii_lowercase()) {
        return None;
    }
    for word in command.split_whitespace() {
        let word = word.trim_start_matches(['(', '{']);
        if let Some((name, value)) = word.split_once('=')
            && !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            && password_var(name)
            && super::live_password(value.trim_matches(['"', '\'', ';']), "")
        {
            return Some("password in a variable");
        }
    }
    for c in cmds {
        let prog = crate::shell::program_name(c.argv.first().map_or("", String::as_str));
        let args = c.args();
        for (i, a) in args.iter().enumerate() {
            let next = args.get(i + 1).map(String::as_str);
            let value = if matches!(prog.as_str(), "curl" | "wget") && (a == "-u" || a == "--user")
            {
                next.and_then(|v| v.split_once(':')).map(|(_, p)| p)
            } else if let Some(long) = a.strip_prefix("--") {
                match long.split_once('=') {
                    Some((n, v)) if password_name(&n.to_ascii_lowercase()) => Some(v),
                    None if password_name(&long.to_ascii_lowercase()) => next,
                    _ => None,
                }
            } else if ATTACHED_P.contains(&prog.as_str()) {
                a.strip_prefix("-p").filter(|v| !v.is_empty())
            } else if DASH_A.contains(&prog.as_str()) && a == "-a" || prog == "sshpass" && a == "-p"
            {
                next
            } else {
                None
            };
            if value.is_some_and(|v| super::live_password(v, "")) {
                return Some("password given as an option");
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::password_option;

    fn judge(line: &str) -> bool {
        password_option(line, &crate::shell::parse(line)).is_some()
    }

    #[test]
    fn a_live_password_in_an_option_or_a_variable() {
        for line in [
            "mariadb -uapp -pQ7v!r2Lw9 shop",
            "redis-cli -h cache.internal -a Zr8#kw2Pq ping",
            "sshpass -p 'Tq9!vx2Lm' ssh deploy@build.internal",
            "curl --user ops:Wm4!qz8Kp https://api.internal.corp/x",
            "pg_dump --password=Vb7#nq2Xc -h db.internal app",
            "MYSQL_PWD=Hx6!pq9Tz mysqldump shop",
            "export DB_PASSWORD=Kc3@vn8Rq",
        ] {
            assert!(judge(line), "{line}");
        }
    }

    #[test]
    fn prompts_variables_placeholders_and_examples_are_quiet() {
        for line in [
            "mysql -uroot -p shop",
            "psql -p 5432 -h db.internal",
            "redis-cli -a \"$REDIS_PASS\" ping",
            "docker login --password-stdin -u me",
            "mysql -pchangeme shop",
            "curl -u \"$USER:$PASS\" https://api.internal.corp",
            "mysql -h 127.0.0.1 -pLocalDev99 shop",
            "wget --password Kc3@vn8Rq https://files.example.com/x",
            "export DB_PASSWORD_FILE=/run/secrets/db",
        ] {
            assert!(!judge(line), "{line}");
        }
    }
}
