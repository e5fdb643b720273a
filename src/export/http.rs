//! A minimal HTTP/1.1 client over `std::net::TcpStream`, for `cuecard
//! audit export` only: one `POST` per request, `Connection: close`, bounded
//! reads, timeouts. Plain `http://` only: for TLS, point the export at a
//! local OpenTelemetry Collector (its OTLP/HTTP receiver on 127.0.0.1),
//! which forwards over TLS (docs/audit.md). No crate brings an HTTP client
//! or TLS stack into the binary for this one command.

use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

/// An `http://host[:port][/path]` URL, split.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Url {
    pub host: String,
    pub port: u16,
    /// Starts with `/`.
    pub path: String,
}

/// Why a URL is not one this client takes.
pub fn parse(url: &str) -> Result<Url, String> {
    let rest = if let Some(r) = url.strip_prefix("http://") {
        r
    } else if url.starts_with("https://") {
        return Err(
            "https is not supported: export to a local OpenTelemetry Collector's OTLP/HTTP receiver (http://127.0.0.1:4318), which forwards over TLS"
                .into(),
        );
    } else {
        return Err(format!("`{url}` is not an http:// URL"));
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, ""),
    };
    if authority.is_empty() || authority.contains('@') {
        return Err(format!("`{url}` has no host (or carries credentials)"));
    }
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || h.starts_with('[') => match p.parse::<u16>() {
            Ok(p) => (h, p),
            Err(_) => return Err(format!("`{url}`: the port is not a number")),
        },
        _ => (authority, 80),
    };
    Ok(Url {
        host: host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string(),
        port,
        path: path.to_string(),
    })
}

/// The response: its status code and (up to 64 KiB of) its body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub body: String,
}

/// POSTs `body` as `application/json` to `url`.
pub fn post_json(url: &Url, body: &[u8], timeout: Duration) -> Result<Response, String> {
    let addrs: Vec<_> = (url.host.as_str(), url.port)
        .to_socket_addrs()
        .map_err(|e| format!("{}: {e}", url.host))?
        .collect();
    let mut last = String::from("no address");
    let mut stream = None;
    for a in addrs {
        match TcpStream::connect_timeout(&a, timeout) {
            Ok(s) => {
                stream = Some(s);
                break;
            }
            Err(e) => last = format!("{a}: {e}"),
        }
    }
    let mut s = stream.ok_or(last)?;
    s.set_read_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    s.set_write_timeout(Some(timeout))
        .map_err(|e| e.to_string())?;
    let host = if url.host.contains(':') {
        format!("[{}]:{}", url.host, url.port)
    } else {
        format!("{}:{}", url.host, url.port)
    };
    let head = format!(
        "POST {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: cuecard/{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        url.path,
        env!("CARGO_PKG_VERSION"),
        body.len()
    );
    s.write_all(head.as_bytes())
        .and_then(|()| s.write_all(body))
        .and_then(|()| s.flush())
        .map_err(|e| format!("sending: {e}"))?;
    let mut buf = Vec::new();
    s.take(64 * 1024)
        .read_to_end(&mut buf)
        .map_err(|e| format!("reading the response: {e}"))?;
    let text = String::from_utf8_lossy(&buf);
    let status = text
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse::<u16>().ok())
        .ok_or_else(|| "no HTTP status line in the response".to_string())?;
    let body = text
        .split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default();
    Ok(Response { status, body })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls() {
        let u = parse("http://127.0.0.1:4318").unwrap();
        assert_eq!(
            (u.host.as_str(), u.port, u.path.as_str()),
            ("127.0.0.1", 4318, "")
        );
        let u = parse("http://collector/v1/logs").unwrap();
        assert_eq!((u.port, u.path.as_str()), (80, "/v1/logs"));
        let u = parse("http://[::1]:9/x").unwrap();
        assert_eq!((u.host.as_str(), u.port), ("::1", 9));
        assert!(
            parse("https://x")
                .unwrap_err()
                .contains("https is not supported")
        );
        assert!(parse("ftp://x").is_err());
        assert!(parse("http://user:pw@x").is_err());
    }
}
