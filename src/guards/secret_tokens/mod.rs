//! Live-looking credentials in text: the token shapes of the providers whose
//! keys leak most (AWS, GitHub, GitLab, Slack, Stripe, OpenAI, Anthropic,
//! Google, npm, PyPI, RubyGems, Docker Hub, Hugging Face, DigitalOcean,
//! Shopify, Groq, age) and private key blocks. Plain string scanning: find a
//! prefix, then check the characters after it.
//!
//! Placeholders (`ghp_xxxx…`, `AKIAIOSFODNN7EXAMPLE`, `sk-ant-...`) are not
//! live: a body with few distinct characters, or one that says EXAMPLE, is
//! skipped. Only the kind is ever reported, never the text.

mod headers;
mod options;
mod shapes;
pub use headers::header_credential;
pub use options::password_option;
use shapes::SHAPES;

/// The kind of the first live-looking credential in `text`, if any.
///
/// Linear in the text, as every scan on the hook path must be: a prefix
/// repeated through one long body run (`xoxb-xoxb-…`, each a candidate
/// whose body is the rest of the run) must not cost a scan of the rest
/// each. So per shape, a body run is measured and judged once, and every
/// later prefix of that shape inside it reads its answer from the run
/// ([`BodyRun`]): the same verdict, character for character, as judging
/// each body on its own.
pub fn find(text: &str) -> Option<&'static str> {
    let b = text.as_bytes();
    let mut runs = [BodyRun::default(); SHAPES.len()];
    // One pass over the text: at each byte, the shapes whose prefix starts
    // with it and the next byte (two table look-ups) are the only ones
    // compared, in the table's order (so `sk-ant-` is told before `sk-`),
    // instead of one search of the whole text per shape.
    for at in 0..b.len().saturating_sub(1) {
        let mut candidates = FIRST[b[at] as usize] & SECOND[b[at + 1] as usize];
        while candidates != 0 {
            let i = candidates.trailing_zeros() as usize;
            candidates &= candidates - 1;
            let shape = &SHAPES[i];
            if !b[at..].starts_with(shape.prefix.as_bytes()) {
                continue;
            }
            if shape.word_start
                && at > 0
                && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_')
            {
                continue;
            }
            let start = at + shape.prefix.len();
            let run = &mut runs[i];
            if start >= run.end {
                // A new run: the previous one ended before this prefix.
                let len = b[start..].iter().take_while(|c| (shape.body)(**c)).count();
                *run = BodyRun {
                    start,
                    end: start + len,
                    judged: None,
                };
            }
            let len = run.end - start;
            // An AWS key id is exactly 16 characters after its prefix.
            let exact = shape.kind.starts_with("AWS") && len != 16;
            if len >= shape.min && !exact && run.live_from(text, start) {
                return Some(shape.kind);
            }
        }
    }
    if private_key_block(text) {
        return Some("private key");
    }
    if aws_secret_key(text) {
        return Some("AWS secret access key");
    }
    url_password(text).then_some("password in a connection URL")
}

/// One shape's body run (`start..end`: the characters its body class
/// takes, after the first prefix that opened it), judged once: a body that
/// starts at `s` inside it is the run's suffix from `s`, so whether it
/// [`looks_live`] is whether the suffix still has ten distinct characters
/// (true up to the last start that does) and holds no placeholder word
/// (true after the last one's start).
#[derive(Debug, Clone, Copy, Default)]
struct BodyRun {
    start: usize,
    end: usize,
    /// (the last start whose suffix has ten distinct characters, the start
    /// of the last placeholder word), computed on the first question.
    judged: Option<(Option<usize>, Option<usize>)>,
}

impl BodyRun {
    /// Whether the body `start..self.end` looks live: [`looks_live`] of it.
    fn live_from(&mut self, text: &str, start: usize) -> bool {
        let (ten, word) = *self.judged.get_or_insert_with(|| {
            let b = &text.as_bytes()[self.start..self.end];
            let mut seen = [false; 128];
            let mut distinct = 0;
            let mut ten = None;
            for (k, &c) in b.iter().enumerate().rev() {
                if c < 128 && !seen[c as usize] {
                    seen[c as usize] = true;
                    distinct += 1;
                    if distinct == 10 {
                        ten = Some(self.start + k);
                        break;
                    }
                }
            }
            // Every body class is ASCII: these are character boundaries.
            let upper = text[self.start..self.end].to_ascii_uppercase();
            let word = PLACEHOLDER_WORDS
                .iter()
                .filter_map(|w| upper.rfind(w))
                .max()
                .map(|k| self.start + k);
            (ten, word)
        });
        ten.is_some_and(|t| start <= t) && word.is_none_or(|w| start > w)
    }
}

/// `aws_secret_access_key = <40 characters>` (any case, `=` or `:`, quoted
/// or not), as in a credentials file, an env file or code.
fn aws_secret_key(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    for (at, name) in lower.match_indices("secret_access_key") {
        let rest = &text[at + name.len()..];
        let rest = rest.trim_start_matches(|c: char| c == '"' || c == '\'' || c.is_whitespace());
        let Some(rest) = rest.strip_prefix(['=', ':']) else {
            continue;
        };
        let value = rest.trim_start_matches(|c: char| c == '"' || c == '\'' || c.is_whitespace());
        let len = value
            .bytes()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == b'/' || *c == b'+')
            .count();
        if len == 40 && looks_live(&value[..len]) {
            return true;
        }
    }
    false
}

/// Words that stand for a password in documentation and defaults, not one.
const PLACEHOLDER_PASSWORDS: &[&str] = &[
    // The stock examples of documentation and tests (`user:abc123@`).
    "abc123",
    "123456",
    "12345678",
    "qwerty",
    "hunter2",
    "foobar",
    "password",
    "passwd",
    "pass",
    "pwd",
    "secret",
    "changeme",
    "change_me",
    "example",
    "test",
    "testing",
    "dev",
    "postgres",
    "mysql",
    "root",
    "admin",
    "user",
    "guest",
    "redis",
    "mongo",
    "xxx",
    "xxxx",
    "xxxxxx",
    "****",
    "...",
    "mypassword",
    "yourpassword",
    "your_password",
    "<password>",
    "pw",
    "rabbitmq",
    "minio",
    "minioadmin",
    "sa",
    "default",
];

/// A connection URL with a password (`postgresql://app:S3cr3t!@db.internal/app`)
/// that is neither a placeholder (`${DB_PASSWORD}`, `password`, `postgres`)
/// nor a local default (host `localhost`, `127.0.0.1`, or the password equal
/// to the user name).
///
/// Linear in the text: the authority of a `://` runs to the end of its word
/// (a blank, a quote, `<`, `>` or `)`), which every `://` inside that word
/// shares, so the word's end, its last `@` and the last `/` before that are
/// found once per word ([`Authority`]), not once per `://` (`a://a://…` would
/// otherwise scan the rest of the text from each).
fn url_password(text: &str) -> bool {
    let mut word = Authority::default();
    for (at, _) in text.match_indices("://") {
        let scheme_start = text[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '.' || c == '-'))
            .map_or(0, |i| i + 1);
        if scheme_start == at {
            continue;
        }
        let from = at + 3;
        if from >= word.end {
            word = Authority::of(text, from);
        }
        // The last `@` of the authority, and with it the user information.
        let Some(userinfo_end) = word.last_at.filter(|&i| i >= from) else {
            continue;
        };
        if word.last_slash.is_some_and(|i| i >= from) {
            // The user information holds a `/`: not a user and password.
            continue;
        }
        let userinfo = &text[from..userinfo_end];
        let Some((user, password)) = userinfo.split_once(':') else {
            continue;
        };
        if !live_password(password, user) {
            continue;
        }
        let host = text[userinfo_end + 1..word.end]
            .split(['/', ':', '?'])
            .next()
            .unwrap_or("");
        // A local host, or a single-label one (a compose service: `db`).
        if matches!(
            host,
            "localhost" | "127.0.0.1" | "0.0.0.0" | "::1" | "[::1]"
        ) || !host.contains('.')
        {
            continue;
        }
        return true;
    }
    false
}

/// Whether a password given on a command line looks like a real one: six
/// characters at least, not the user's name, not a variable or template
/// (`$DB_PASS`, `${…}`, `<password>`, `%s`), a placeholder or a stock
/// example (`password`, `changeme`, `hunter2`), nor `xxxx`/`****`.
fn live_password(password: &str, user: &str) -> bool {
    let lower = password.to_ascii_lowercase();
    !(password.len() < 6
        || password == user
        || PLACEHOLDER_PASSWORDS.contains(&lower.as_str())
        || password.contains(['$', '{', '}', '<', '>', '%', '`', '('])
        || lower.chars().all(|c| c == 'x' || c == '*')
        || lower.contains("password")
        || lower.contains("example"))
}

/// The word a URL's authority lies in: from the first `://` found in it to
/// its end, with its last `@` and the last `/` before that `@`.
#[derive(Debug, Default)]
struct Authority {
    end: usize,
    last_at: Option<usize>,
    last_slash: Option<usize>,
}

impl Authority {
    fn of(text: &str, from: usize) -> Authority {
        let rest = &text[from..];
        let end = from
            + rest
                .find(|c: char| {
                    c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>' | ')')
                })
                .unwrap_or(rest.len());
        let last_at = text[from..end].rfind('@').map(|i| from + i);
        let last_slash = last_at.and_then(|a| text[from..a].rfind('/').map(|i| from + i));
        Authority {
            end,
            last_at,
            last_slash,
        }
    }
}

/// Per byte, the shapes (bits, in table order) whose prefix has it at
/// `pos`.
const fn masks(pos: usize) -> [u64; 256] {
    assert!(SHAPES.len() <= 64, "a shape mask holds 64 shapes");
    let mut t = [0u64; 256];
    let mut i = 0;
    while i < SHAPES.len() {
        let p = SHAPES[i].prefix.as_bytes();
        assert!(p.len() >= 2, "a prefix has two bytes at least");
        t[p[pos] as usize] |= 1 << i;
        i += 1;
    }
    t
}
const FIRST: [u64; 256] = masks(0);
const SECOND: [u64; 256] = masks(1);

/// Words that mark a token's body as a documentation example.
const PLACEHOLDER_WORDS: &[&str] = &[
    "EXAMPLE",
    "XXXXXX",
    "YOUR",
    "REDACTED",
    "PLACEHOLDER",
    "DUMMY",
    "FAKE",
];

/// Random-looking: at least ten distinct characters, and no word that marks
/// a documentation example.
fn looks_live(body: &str) -> bool {
    let mut seen = [false; 128];
    let mut distinct = 0;
    for c in body.bytes() {
        if c < 128 && !seen[c as usize] {
            seen[c as usize] = true;
            distinct += 1;
        }
    }
    let upper = body.to_ascii_uppercase();
    distinct >= 10 && !PLACEHOLDER_WORDS.iter().any(|w| upper.contains(w))
}

/// The most lines after a private key's header that are looked at for its
/// body (`Proc-Type:` and `DEK-Info:` headers, a blank line, then base64).
const KEY_BODY_LINES: usize = 8;

/// A `-----BEGIN ... PRIVATE KEY-----` header followed by a base64 body (a
/// header alone, as in documentation, does not count).
///
/// Linear in the text: a header line is judged once whatever number of
/// `-----BEGIN ` it holds (its end, whether it names a private key and how
/// it ends are the line's, found once per line), and a body is looked for
/// in the next [`KEY_BODY_LINES`] lines only, not in the rest of the text.
fn private_key_block(text: &str) -> bool {
    let mut line: Option<HeaderLine> = None;
    for (at, _) in text.match_indices("-----BEGIN ") {
        if line.is_none_or(|l| at >= l.0) {
            let rest = &text[at..];
            // The header ends at a newline, or at a `\n` escape (a key inside
            // a JSON string, as in a service-account file). None: no later
            // header has an end either.
            let Some((line_end, sep)) = line_end(rest) else {
                return false;
            };
            let header = &rest[..line_end];
            line = Some((
                at + line_end,
                at + line_end + sep,
                header.rfind("PRIVATE KEY").map(|i| at + i),
                header.trim_end().ends_with("-----"),
                None,
            ));
        }
        let Some((_, body_at, private, closed, counted)) = line.as_mut() else {
            continue;
        };
        if !(private.is_some_and(|p| p >= at) && *closed) {
            continue;
        }
        if *counted.get_or_insert_with(|| key_body(&text[*body_at..])) {
            return true;
        }
    }
    false
}

/// Where the first line of `s` ends, at a newline or a `\n` escape
/// (whichever comes first), and the separator's length; looks no further
/// than that end.
fn line_end(s: &str) -> Option<(usize, usize)> {
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'\n' => return Some((i, 1)),
            b'\\' if b.get(i + 1) == Some(&b'n') => return Some((i, 2)),
            _ => i += 1,
        }
    }
    None
}

/// The line a private key header was found on: its end, where the body
/// starts, the last `PRIVATE KEY` in it, whether it ends with `-----`,
/// whether its body counts (once asked).
type HeaderLine = (usize, usize, Option<usize>, bool, Option<bool>);

/// Whether the text after a key's header starts with a base64 body: of its
/// first [`KEY_BODY_LINES`] lines (ended by a newline or a `\n` escape),
/// those without a `:` that are not blank, the first three, hold 40
/// base64 characters or more.
fn key_body(after: &str) -> bool {
    let mut lines = Vec::with_capacity(KEY_BODY_LINES);
    let mut rest = after;
    while lines.len() < KEY_BODY_LINES && !rest.is_empty() {
        let (l, next) = match line_end(rest) {
            Some((n, sep)) => (&rest[..n], &rest[n + sep..]),
            None => (rest, ""),
        };
        lines.push(l.strip_suffix('\r').unwrap_or(l));
        rest = next;
    }
    let body: usize = lines
        .into_iter()
        .filter(|l| !l.contains(':') && !l.trim().is_empty())
        .take(3)
        .map(|l| {
            let l = l.trim().trim_end_matches('"');
            if l.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
            {
                l.len()
            } else {
                0
            }
        })
        .sum();
    body >= 40
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod one_pass;
