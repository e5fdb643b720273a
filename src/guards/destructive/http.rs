//! HTTP requests that delete data: a `DELETE` sent by curl, HTTPie, wget,
//! `gh api` or PowerShell to a data service's API, when its path says it
//! names a whole store (`/collections/docs`, `/databases/prod`, GitHub's
//! `repos/o/r`) or many (`*`, `_all`, `?recurse`). A `DELETE` of one record
//! (`/users/42`, `/products/_doc/1`) or of a path that does not say what
//! it is (`:9200/customers`) stays quiet, as a single object does.

use super::super::argv::{operands, operands_skipping};
use super::super::effects::{Hit, Kind};

/// Path segments that name a type of data store: the segment after one of
/// them is a whole store (`/collections/docs`, `/v1/databases/prod`). Words
/// that many APIs use for other things (`projects`, `keys`, `clusters`) are
/// not among them.
const STORE_SEGMENTS: &[&str] = &[
    "collections",
    "indexes",
    "indices",
    "databases",
    "dbs",
    "buckets",
    "tables",
    "keyspaces",
    "datasets",
];

/// The finding for an HTTP `DELETE` of a whole store, if `prog` sends one.
pub(super) fn delete_request(prog: &str, args: &[String]) -> Option<Hit> {
    let (method, urls) = request(prog, args)?;
    if !method.eq_ignore_ascii_case("delete") {
        return None;
    }
    // `gh api` names a path on the API's own host.
    let api = matches!(prog, "gh" | "glab");
    let url = urls.into_iter().find(|u| {
        if api {
            deletes_store(&format!("api/{}", u.trim_start_matches('/'))) || forge_whole(u)
        } else {
            deletes_store(u)
        }
    })?;
    Some(Hit::new(
        Kind::Database,
        format!("http:DELETE {url}"),
        "sends an HTTP DELETE for a whole store (an index, a database, a collection, a bucket, a repository): its data is gone",
    ))
}

/// The method and the URLs of a request command.
fn request<'a>(prog: &str, args: &'a [String]) -> Option<(String, Vec<&'a str>)> {
    let mut method = String::new();
    let mut urls: Vec<&str> = Vec::new();
    let ops = operands(args);
    match prog {
        "http" | "https" | "xh" | "xhs" => {
            let first = ops.first()?;
            if first.bytes().all(|c| c.is_ascii_alphabetic()) && first.len() <= 7 {
                method = first.to_string();
                urls.extend(ops.get(1).copied());
            }
        }
        "gh" | "glab" => {
            method = option_value(args, &["-X", "--method"])?;
            let ops = operands_skipping(args, super::super::argv::FORGE_API_VALUE_OPTIONS);
            urls.extend(ops.get(1).copied());
        }
        "invoke-restmethod" | "irm" | "invoke-webrequest" | "iwr" => {
            method = option_value(args, &["-method"])?;
            urls.extend(option_value_ref(args, &["-uri"]));
            urls.extend(ops.iter().copied().filter(|w| looks_like_url(w)));
        }
        _ => {
            method = option_value(args, &["-X", "--request", "--method"])?;
            urls.extend(option_value_ref(args, &["--url"]));
            urls.extend(ops.iter().copied().filter(|w| looks_like_url(w)));
        }
    }
    Some((method, urls))
}

/// The value of one of the options (`-X DELETE`, `-XDELETE`,
/// `--request=DELETE`), any case for PowerShell's names.
fn option_value(args: &[String], names: &[&str]) -> Option<String> {
    option_value_ref(args, names)
        .map(str::to_string)
        .or_else(|| {
            args.iter().find_map(|a| {
                names.iter().find_map(|n| {
                    let rest = a.strip_prefix(n)?;
                    let v = if n.starts_with("--") {
                        rest.strip_prefix('=')?
                    } else {
                        rest
                    };
                    (!v.is_empty() && n.len() == 2 || n.starts_with("--")).then(|| v.to_string())
                })
            })
        })
}

fn option_value_ref<'a>(args: &'a [String], names: &[&str]) -> Option<&'a str> {
    args.iter()
        .position(|a| {
            names.iter().any(|n| {
                // PowerShell's names are any case; curl's `-x` is a proxy.
                a == n || (n.len() > 2 && !n.starts_with("--") && a.eq_ignore_ascii_case(n))
            })
        })
        .and_then(|i| args.get(i + 1))
        .map(String::as_str)
}

/// A word that is a URL or a `host:port/path`.
fn looks_like_url(w: &str) -> bool {
    if w.contains("://") || w.starts_with("localhost") {
        return true;
    }
    let head = w.split('/').next().unwrap_or("");
    head.rsplit_once(':')
        .is_some_and(|(_, port)| !port.is_empty() && port.bytes().all(|c| c.is_ascii_digit()))
}

/// Whether a DELETE of `url` removes a whole store: a wildcard or `_all`,
/// the segment after a store type (`/collections/docs`), or a GitHub
/// repository. A path the URL does not type (`:9200/customers`, an index
/// by its port alone) stays quiet, like one object.
fn deletes_store(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (_, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    if segs.iter().any(|s| s.contains('*') || *s == "_all") || query.contains("recurse") {
        return !segs.is_empty() || query.contains("recurse");
    }
    if let [.., kind, _name] = segs.as_slice()
        && STORE_SEGMENTS.contains(kind)
    {
        return true;
    }
    // `gh api -X DELETE repos/OWNER/REPO`.
    matches!(segs.as_slice(), ["repos", _, _])
}

/// A forge API path that names a whole organisation (`gh api -X DELETE
/// orgs/ORG`) or a GitLab project or group (`glab api -X DELETE
/// projects/ID`).
fn forge_whole(path: &str) -> bool {
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    matches!(segs.as_slice(), ["orgs" | "projects" | "groups", _])
}

#[cfg(test)]
mod tests {
    use super::delete_request;

    fn fires(line: &str) -> bool {
        let w: Vec<String> = crate::shell::parse(line)[0].argv.clone();
        let prog = crate::shell::program_name(&w[0]);
        delete_request(&prog, &w[1..]).is_some()
    }

    #[test]
    fn deletes_of_whole_stores() {
        for line in [
            "curl -X DELETE 'http://localhost:9200/logs-*'",
            "curl -XDELETE localhost:9200/_all",
            "curl -s --request DELETE 'http://es.internal:9200/orders-2024.*'",
            "http DELETE ':9200/*'",
            "curl -X DELETE http://localhost:8080/v1/databases/prod",
            "curl -X DELETE http://localhost:6333/collections/docs",
            "gh api -X DELETE repos/acme/site",
            "gh api --method DELETE /repos/acme/site",
            "wget --method=DELETE http://127.0.0.1:8529/_api/collections/events",
            "curl -X DELETE 'http://127.0.0.1:8500/v1/kv/app?recurse=true'",
        ] {
            assert!(fires(line), "{line}");
        }
        for line in [
            "curl -X DELETE https://api.example.com/users/42",
            "curl -X DELETE http://localhost:9200/products/_doc/1",
            "curl http://localhost:9200/products",
            "curl -X GET localhost:9200/_all",
            "gh api repos/acme/site",
            "gh api -X DELETE repos/acme/site/issues/comments/1",
            "http GET :9200/orders",
            "http DELETE :9200/orders",
            "curl -X DELETE http://localhost:5984/mydb",
        ] {
            assert!(!fires(line), "{line}");
        }
    }
}
