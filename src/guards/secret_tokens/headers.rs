//! A credential literal in an HTTP header that names one
//! (`-H "Authorization: Bearer <token>"`, `X-API-Key: <key>`,
//! `PRIVATE-TOKEN: <token>`): whatever the provider's shape, the header says
//! the value is a credential, so a live-looking one on a command line is
//! carried like a known token. A variable (`$TOKEN`), a substitution, a
//! placeholder (`<token>`, `YOUR_KEY`, `xxxx`) or a short value is not.

use super::looks_live;

/// Header names whose value is a credential (lower case, with the colon).
const HEADERS: &[&str] = &[
    "authorization:",
    "proxy-authorization:",
    "x-api-key:",
    "api-key:",
    "x-auth-token:",
    "private-token:",
    "x-access-token:",
];

/// Authentication schemes that may come before the credential.
const SCHEMES: &[&str] = &["bearer", "basic", "token", "bot", "apikey"];

/// The shortest value taken for a credential (a random 20-character key).
const MIN_LEN: usize = 20;

/// The kind of the first live-looking credential in a credential header of
/// `text`, if any. Linear: one lower-case copy, each header name found once.
pub fn header_credential(text: &str) -> Option<&'static str> {
    let lower = text.to_ascii_lowercase();
    if !HEADERS.iter().any(|h| lower.contains(h)) || to_documentation_host(&lower) {
        return None;
    }
    for name in HEADERS {
        for (at, _) in lower.match_indices(name) {
            // The name starts a header: after a quote, a blank or the text's start.
            if at > 0
                && !matches!(
                    lower.as_bytes()[at - 1],
                    b'"' | b'\'' | b' ' | b'\t' | b'\n'
                )
            {
                continue;
            }
            let mut rest = lower[at + name.len()..].trim_start();
            let mut start = text.len() - rest.len();
            if let Some(scheme) = SCHEMES.iter().find(|s| {
                rest.strip_prefix(**s)
                    .is_some_and(|r| r.starts_with([' ', '\t']))
            }) {
                rest = rest[scheme.len()..].trim_start();
                start = text.len() - rest.len();
            }
            let len = text[start..]
                .bytes()
                .take_while(|c| {
                    c.is_ascii_alphanumeric()
                        || matches!(c, b'-' | b'_' | b'.' | b'+' | b'/' | b'=')
                })
                .count();
            let value = &text[start..start + len];
            // A value cut short by `$`, `<` or `{` is a variable or a placeholder.
            let next = text.as_bytes().get(start + len).copied();
            if len >= MIN_LEN
                && !matches!(next, Some(b'$' | b'<' | b'{' | b'`'))
                && looks_live(value)
                && !alphabet_run(value)
            {
                return Some("credential in an HTTP authorization header");
            }
        }
    }
    None
}

/// Whether the request goes to a host reserved for documentation (RFC 2606
/// and 6761: `example.com`, `.example`, `.test`, `.invalid`, `localhost`):
/// a credential sent there is an example.
pub(super) fn to_documentation_host(lower: &str) -> bool {
    lower.split_whitespace().any(|w| {
        let w = w.trim_matches(['"', '\'']);
        let rest = w.split_once("://").map_or(w, |(_, r)| r);
        let host = rest.split(['/', ':', '?']).next().unwrap_or("");
        let host = host.rsplit('@').next().unwrap_or(host);
        let reserved = ["example.com", "example.org", "example.net"]
            .iter()
            .any(|d| host == *d || host.strip_suffix(d).is_some_and(|h| h.ends_with('.')));
        reserved
            || [".example", ".test", ".invalid", ".localhost"]
                .iter()
                .any(|t| host.ends_with(t))
            || host == "localhost"
    })
}

/// A run of eight letters in alphabetical order (`abcdefgh`): a value typed
/// as a stand-in, not a random key.
fn alphabet_run(value: &str) -> bool {
    let b = value.to_ascii_lowercase().into_bytes();
    let mut run = 1;
    for w in b.windows(2) {
        if w[0].is_ascii_lowercase() && w[1] == w[0] + 1 {
            run += 1;
            if run >= 8 {
                return true;
            }
        } else {
            run = 1;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::header_credential;

    #[test]
    fn a_live_value_in_a_credential_header_is_found() {
        for line in [
            "curl -H \"Authorization: Bearer zq8Lr2Vt6Yn0Pc4Xw9Kd3Hs7Jm1\" https://api.acme.io",
            "curl -H 'x-api-key: 7Fh2Kq9Lm4Np8Rs3Tv6Wx1Yz5' https://api.acme.io/v1",
            "http GET api.acme.io 'Authorization:token Qw3Er5Ty7Ui9Op1As3Df5Gh7'",
            "wget --header=\"PRIVATE-TOKEN: glx9Rt5Yu2Io8Pa4Sd6Fg1Hj3\" https://git.acme.io/api",
        ] {
            assert!(header_credential(line).is_some(), "{line}");
        }
    }

    #[test]
    fn variables_placeholders_and_short_values_are_not() {
        for line in [
            "curl -H \"Authorization: Bearer $API_TOKEN\" https://api.acme.io",
            "curl -H \"Authorization: Bearer ${TOKEN}\" https://api.acme.io",
            "curl -H \"Authorization: Bearer $(gh auth token)\" https://api.github.com",
            "curl -H 'Authorization: Bearer <your-token>' https://api.acme.io",
            "curl -H 'Authorization: Bearer YOUR_API_KEY_GOES_HERE' https://api.acme.io",
            "curl -H 'Authorization: Bearer xxxxxxxxxxxxxxxxxxxxxxxx' https://api.acme.io",
            "curl -H 'Authorization: Basic dXNlcjpw' https://api.acme.io",
            "curl -H 'Content-Type: application/json' https://api.acme.io",
            "grep -r 'authorization:' src/",
            "curl -H 'Authorization: Bearer Zq8Lr2Vt6Yn0Pc4Xw9Kd3Hs7' https://api.example.com/v1",
            "curl -H 'Authorization: Bearer Zq8Lr2Vt6Yn0Pc4Xw9Kd3Hs7' http://localhost:8080/v1",
            "curl -H 'Authorization: Bearer sk-abcdefghijklmnopqrstuv' https://api.acme.io",
        ] {
            assert!(header_credential(line).is_none(), "{line}");
        }
    }
}
