//! Copies between this machine and a container, for the secrets guard:
//! `docker cp api:/app/.env ./api.env`, `kubectl cp ns/pod:/var/run/secrets/…/token
//! ./t`, `podman cp .env web:/app/.env`. The container tools are quiet
//! programs otherwise (their `--env-file` and `--from-file` use a secret
//! file, never show it); their `cp` moves the file itself, as `cp` does.

/// Container and cluster tools with a `cp` subcommand.
const COPIERS: &[&str] = &[
    "docker",
    "podman",
    "nerdctl",
    "finch",
    "kubectl",
    "oc",
    "k",
    "kubecolor",
];

/// Options of those tools' `cp` that take the next word as their value.
const VALUE_OPTIONS: &[&str] = &[
    "-n",
    "--namespace",
    "-c",
    "--container",
    "--context",
    "--kubeconfig",
    "--retries",
    "--cluster",
    "--user",
];

/// The paths a container copy names, each without its `container:` part
/// (`api:/app/.env` → `/app/.env`); empty when the command is no copy.
pub(super) fn container_copy<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    if !COPIERS.contains(&program) {
        return Vec::new();
    }
    let mut words = args.iter().map(String::as_str);
    // `docker container cp` is `docker cp`.
    let found = words
        .by_ref()
        .take(4)
        .find(|w| !w.starts_with('-') && *w != "container");
    if found != Some("cp") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut skip = false;
    for w in words {
        if std::mem::take(&mut skip) {
            continue;
        }
        if VALUE_OPTIONS.contains(&w) {
            skip = true;
            continue;
        }
        if w.starts_with('-') && w != "-" {
            continue;
        }
        out.push(match w.split_once(':') {
            Some((_, path)) if !path.is_empty() && !path.starts_with('\\') => path,
            _ => w,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(line: &str) -> Vec<String> {
        let argv: Vec<String> = line.split(' ').map(String::from).collect();
        container_copy(&argv[0], &argv[1..])
            .into_iter()
            .map(String::from)
            .collect()
    }

    #[test]
    fn a_container_copy_names_both_ends() {
        assert_eq!(
            paths("docker cp api:/app/.env ./api.env"),
            ["/app/.env", "./api.env"]
        );
        assert_eq!(
            paths("kubectl cp -n prod worker-1:/home/app/.netrc netrc-copy"),
            ["/home/app/.netrc", "netrc-copy"]
        );
        assert_eq!(
            paths("docker container cp .env web:/app/.env"),
            [".env", "/app/.env"]
        );
        assert!(paths("docker run --env-file .env app").is_empty());
        assert!(paths("kubectl create secret generic x --from-file=.env").is_empty());
    }
}
