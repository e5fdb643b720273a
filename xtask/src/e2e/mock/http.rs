//! The HTTP layer: a bounded std-only HTTP/1.1 server on 127.0.0.1
//! (accepting, reading one request with header and body bounds, keep-alive).

use super::*;

/// Request bodies above this are refused (no harness sends more).
pub(super) const MAX_BODY: usize = 64 << 20;
/// Header block bound.
pub(super) const MAX_HEADER: usize = 256 << 10;
/// Connections served at once, at most.
pub(super) const MAX_CONNECTIONS: usize = 64;

pub(super) fn accept_loop(listener: TcpListener, shared: Arc<Shared>) {
    while !shared.stopping() {
        match listener.accept() {
            Ok((stream, addr)) => {
                if !addr.ip().is_loopback()
                    || shared.connections.load(Ordering::Relaxed) >= MAX_CONNECTIONS
                {
                    continue; // dropped: closes the connection
                }
                shared.connections.fetch_add(1, Ordering::Relaxed);
                let s = Arc::clone(&shared);
                std::thread::spawn(move || {
                    let _ = serve(stream, &s);
                    s.connections.fetch_sub(1, Ordering::Relaxed);
                });
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    }
}

/// A parsed HTTP request.
pub(super) struct Request {
    pub(super) method: String,
    pub(super) target: String,
    pub(super) headers: Vec<(String, String)>,
    pub(super) body: Vec<u8>,
}

impl Request {
    pub(super) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// Serves one connection (keep-alive) until it closes, the server stops, or
/// a reply closes it (SSE).
pub(super) fn serve(stream: TcpStream, shared: &Shared) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_millis(500)))?;
    stream.set_write_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    for _ in 0..10_000 {
        let Some(req) = read_request(&mut reader, shared)? else {
            return Ok(());
        };
        let keep = answer(&req, &mut writer, shared)?;
        writer.flush()?;
        if !keep {
            return Ok(());
        }
    }
    Ok(())
}

/// Reads one request; `None` when the peer closed or the server stops while
/// the connection is idle.
pub(super) fn read_request(
    r: &mut BufReader<TcpStream>,
    shared: &Shared,
) -> std::io::Result<Option<Request>> {
    let mut head = Vec::new();
    loop {
        if head.len() > MAX_HEADER {
            return Ok(None);
        }
        let mut line = Vec::new();
        match r.read_until(b'\n', &mut line) {
            Ok(0) => return Ok(None),
            Ok(_) => {
                head.extend_from_slice(&line);
                if line == b"\r\n" || line == b"\n" {
                    if head.len() <= 2 {
                        head.clear(); // stray blank line between requests
                        continue;
                    }
                    break;
                }
            }
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                head.extend_from_slice(&line);
                if shared.stopping() {
                    return Ok(None);
                }
            }
            Err(e) => return Err(e),
        }
    }
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.lines();
    let mut first = lines.next().unwrap_or_default().split_whitespace();
    let method = first.next().unwrap_or_default().to_string();
    let target = first.next().unwrap_or_default().to_string();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect();
    let mut req = Request {
        method,
        target,
        headers,
        body: Vec::new(),
    };
    // Bodies are read with the same short timeout, retried up to the deadline.
    if req
        .header("transfer-encoding")
        .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"))
    {
        for _ in 0..1_000_000 {
            let line = read_line(r, shared)?;
            let size = usize::from_str_radix(line.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            if size == 0 {
                let _ = read_line(r, shared)?;
                break;
            }
            if req.body.len() + size > MAX_BODY {
                return Ok(None);
            }
            let start = req.body.len();
            req.body.resize(start + size, 0);
            read_exact(r, &mut req.body[start..], shared)?;
            let _ = read_line(r, shared)?;
        }
    } else if let Some(n) = req
        .header("content-length")
        .and_then(|v| v.parse::<usize>().ok())
    {
        if n > MAX_BODY {
            return Ok(None);
        }
        req.body.resize(n, 0);
        read_exact(r, &mut req.body, shared)?;
    }
    Ok(Some(req))
}

pub(super) fn retryable(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::WouldBlock
            | std::io::ErrorKind::TimedOut
            | std::io::ErrorKind::Interrupted
    )
}

pub(super) fn read_line(r: &mut BufReader<TcpStream>, shared: &Shared) -> std::io::Result<String> {
    let mut line = Vec::new();
    loop {
        match r.read_until(b'\n', &mut line) {
            Ok(_) => return Ok(String::from_utf8_lossy(&line).into_owned()),
            Err(e) if retryable(&e) && !shared.stopping() => continue,
            Err(e) => return Err(e),
        }
    }
}

pub(super) fn read_exact(
    r: &mut BufReader<TcpStream>,
    buf: &mut [u8],
    shared: &Shared,
) -> std::io::Result<()> {
    let mut done = 0;
    while done < buf.len() {
        match r.read(&mut buf[done..]) {
            Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => done += n,
            Err(e) if retryable(&e) && !shared.stopping() => continue,
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

pub(super) fn now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs_f64())
        .unwrap_or(0.0)
}
