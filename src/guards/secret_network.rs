//! Secrets that leave the machine: a request that fetches a cloud
//! instance's credentials or carries a secret variable in its URL or body,
//! and the programs that send what they read on their input (a secret piped
//! into them is sent, not shown).

use super::argv::program;
use super::effects;
use super::secret_commands::secret_vars;
use crate::shell::SimpleCommand;

/// A request that fetches a cloud instance's credentials from its metadata
/// endpoint, or carries a secret variable in its URL or body (a header is
/// how a token is meant to be used, and stays quiet). The flag says it is
/// sent (true) rather than fetched into the conversation.
pub(super) fn sent_or_fetched(prog: &str, args: &[String]) -> Option<(String, bool)> {
    // Any program that is handed a URL sends its credentials part and its
    // query to the server (and a VCS keeps a clone's URL in its config):
    // `git clone https://$TOKEN@host/r`, `pip install git+https://…`.
    if let Some(v) = args.iter().find_map(|a| url_credential(a)) {
        return Some((format!("the environment variable {v}"), true));
    }
    if let Some(found) = super::secret_code::code_sends(prog, args) {
        return Some(found);
    }
    // A name looked up is sent to the resolvers and the zone's servers
    // (`dig $TOKEN.example.net`): a secret in it has left.
    if matches!(
        prog,
        "dig" | "nslookup" | "host" | "drill" | "kdig" | "delv" | "resolvectl" | "getent"
    ) && let Some(v) = args
        .iter()
        .filter(|a| !a.starts_with('-') && !a.starts_with('@'))
        .find_map(|a| secret_vars(a))
    {
        return Some((format!("the environment variable {v}"), true));
    }
    if !matches!(
        prog,
        "curl"
            | "wget"
            | "http"
            | "https"
            | "xh"
            | "invoke-webrequest"
            | "iwr"
            | "invoke-restmethod"
            | "irm"
    ) {
        return None;
    }
    for a in args {
        let lower = a.to_ascii_lowercase();
        if effects::tables::METADATA_CREDENTIALS
            .iter()
            .any(|(host, route)| {
                lower.contains(host)
                    && lower
                        .split_once(host)
                        .is_some_and(|(_, r)| r.contains(route))
            })
        {
            return Some((
                "cloud instance credentials from the metadata endpoint".into(),
                false,
            ));
        }
    }
    let body_opts = [
        "-d",
        "--data",
        "--data-raw",
        "--data-binary",
        "--data-urlencode",
        "--json",
        "-F",
        "--form",
        "--post-data",
        "-body",
    ];
    // HTTPie's request items: `field=value`, `field:=json` and `param==value`
    // go in the body or the URL (`Header:value` is a header: how a token is
    // meant to be used).
    let httpie = matches!(prog, "http" | "https" | "xh");
    for (i, a) in args.iter().enumerate() {
        let item = httpie
            && !a.starts_with('-')
            && a.find('=').is_some_and(|eq| {
                let field = a[..eq].trim_end_matches(':');
                !field.is_empty() && !field.contains(':') && !field.contains('/')
            });
        let in_url = a.contains("://") && a.contains('$') || item;
        let in_body = i > 0 && body_opts.contains(&args[i - 1].as_str())
            || body_opts
                .iter()
                .any(|o| a.strip_prefix(o).is_some_and(|r| r.starts_with('=')));
        if (in_url || in_body)
            && let Some(v) = secret_vars(a)
        {
            return Some((format!("the environment variable {v}"), true));
        }
    }
    None
}

/// The secret variable in a URL's credentials (`https://user:$X@host`) or
/// its query (`?token=$X`), in any word that holds a URL.
fn url_credential(word: &str) -> Option<String> {
    let (_, rest) = word.split_once("://")?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    let userinfo = authority.rsplit_once('@').map(|(u, _)| u);
    let query = rest.split_once('?').map(|(_, q)| q);
    userinfo
        .and_then(secret_vars)
        .or_else(|| query.and_then(secret_vars))
}

/// Whether a command sends what it reads on its input off the machine: a
/// request body or upload read from stdin (`curl --data-binary @-`, `curl -T
/// -`, `wget --post-file=/dev/stdin`) or a raw connection (`nc`, `socat`,
/// `ssh host …`), or a request program `xargs` gives its input to. A secret
/// piped into it is sent, not consumed
/// (`printenv GITHUB_TOKEN | curl --data-binary @- URL`); a header read
/// from stdin (`curl -H @-`) is how a token is meant to be used.
pub(super) fn sends_input(next: &SimpleCommand) -> bool {
    let prog = program(next);
    let args = next.args();
    match prog.as_str() {
        "nc" | "ncat" | "netcat" | "socat" | "telnet" | "ssh" => true,
        // Its input becomes its arguments (`xargs curl -d 'k={}' URL`).
        "curl" | "wget" | "http" | "https" | "xh" if next.fed => true,
        "curl" => args.iter().enumerate().any(|(i, a)| {
            let value = |opts: &[&str]| {
                (i > 0 && opts.contains(&args[i - 1].as_str())).then_some(a.as_str())
            };
            let body = value(&[
                "-d",
                "--data",
                "--data-binary",
                "--data-raw",
                "--data-urlencode",
                "--json",
                "-F",
                "--form",
            ])
            .is_some_and(|v| v.ends_with("@-") || v.ends_with("<-"));
            let upload =
                value(&["-T", "--upload-file"]).is_some_and(|v| v == "-" || v == "/dev/stdin");
            let joined = [
                "--data-binary=@-",
                "--data=@-",
                "-d@-",
                "--json=@-",
                "--upload-file=-",
                "-T-",
            ]
            .contains(&a.as_str());
            body || upload || joined
        }),
        "wget" => args.iter().any(|a| {
            matches!(
                a.as_str(),
                "--post-file=/dev/stdin"
                    | "--post-file=-"
                    | "--body-file=/dev/stdin"
                    | "--body-file=-"
            )
        }),
        _ => false,
    }
}
