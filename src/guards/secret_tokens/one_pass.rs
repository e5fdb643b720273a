use super::*;
use proptest::prelude::*;

/// The search the one pass replaced: each shape over the whole text.
fn per_shape(text: &str) -> Option<&'static str> {
    let b = text.as_bytes();
    for shape in SHAPES {
        for (at, _) in text.match_indices(shape.prefix) {
            if shape.word_start
                && at > 0
                && (b[at - 1].is_ascii_alphanumeric() || b[at - 1] == b'_')
            {
                continue;
            }
            let start = at + shape.prefix.len();
            let len = b[start..].iter().take_while(|c| (shape.body)(**c)).count();
            let exact = shape.kind.starts_with("AWS") && len != 16;
            if len >= shape.min && !exact && looks_live(&text[start..start + len]) {
                return Some(shape.kind);
            }
        }
    }
    if private_key_block_per_header(text) {
        return Some("private key");
    }
    if aws_secret_key(text) {
        return Some("AWS secret access key");
    }
    url_password_per_scheme(text).then_some("password in a connection URL")
}

/// The search the linear one replaced: every `://` scans the rest of
/// its word.
fn url_password_per_scheme(text: &str) -> bool {
    for (at, _) in text.match_indices("://") {
        let scheme_start = text[..at]
            .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '+' || c == '.' || c == '-'))
            .map_or(0, |i| i + 1);
        if scheme_start == at {
            continue;
        }
        let rest = &text[at + 3..];
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '<' | '>' | ')'))
            .unwrap_or(rest.len());
        let authority = &rest[..end];
        let Some(userinfo_end) = authority.rfind('@') else {
            continue;
        };
        let userinfo = &authority[..userinfo_end];
        let host = authority[userinfo_end + 1..]
            .split(['/', ':', '?'])
            .next()
            .unwrap_or("");
        let Some((user, password)) = userinfo.split_once(':') else {
            continue;
        };
        if userinfo.contains('/') || password.len() < 6 || password == user {
            continue;
        }
        let lower = password.to_ascii_lowercase();
        if PLACEHOLDER_PASSWORDS.contains(&lower.as_str())
            || password.contains(['$', '{', '}', '<', '>', '%'])
            || lower.chars().all(|c| c == 'x' || c == '*')
            || lower.contains("password")
            || lower.contains("example")
        {
            continue;
        }
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

/// The search the linear one replaced: every header scans the rest of
/// the text (but for the body window, the same rule).
fn private_key_block_per_header(text: &str) -> bool {
    for (at, _) in text.match_indices("-----BEGIN ") {
        let rest = &text[at..];
        let (line_end, sep) = match (rest.find('\n'), rest.find("\\n")) {
            (Some(n), Some(e)) if e < n => (e, 2),
            (Some(n), _) => (n, 1),
            (None, Some(e)) => (e, 2),
            (None, None) => continue,
        };
        let header = &rest[..line_end];
        if !(header.contains("PRIVATE KEY") && header.trim_end().ends_with("-----")) {
            continue;
        }
        let body_text = rest[line_end + sep..].replace("\\n", "\n");
        let body: usize = body_text
            .split('\n')
            .take(KEY_BODY_LINES)
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .filter(|l| !l.contains(':') && !l.trim().is_empty())
            .take(3)
            .map(|l| {
                let l = l.trim().trim_end_matches("\\n").trim_end_matches('"');
                if l.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'='))
                {
                    l.len()
                } else {
                    0
                }
            })
            .sum();
        if body >= 40 {
            return true;
        }
    }
    false
}

fn fragment() -> impl Strategy<Value = String> {
    let prefixes: Vec<String> = SHAPES.iter().map(|s| s.prefix.to_string()).collect();
    prop_oneof![
        proptest::sample::select(prefixes),
        "[A-Za-z0-9_-]{0,50}",
        "[A-Z0-9]{16}",
        Just("EXAMPLE".to_string()),
        Just(" ".to_string()),
        Just("=\"".to_string()),
        Just("é日".to_string()),
        Just("://".to_string()),
        Just("@".to_string()),
        Just(":".to_string()),
        Just("/".to_string()),
        Just(".io".to_string()),
        Just("pg".to_string()),
        Just("-----BEGIN ".to_string()),
        Just("RSA PRIVATE KEY-----".to_string()),
        Just("\n".to_string()),
        Just("\\n".to_string()),
        Just("MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6".to_string()),
        Just("Proc-Type: 4,ENCRYPTED".to_string()),
    ]
}

proptest! {
    #[test]
    fn finds_a_token_exactly_when_a_search_per_shape_does(
        parts in proptest::collection::vec(fragment(), 0..16)
    ) {
        let text = parts.concat();
        prop_assert_eq!(find(&text).is_some(), per_shape(&text).is_some(), "{}", text);
    }

    #[test]
    fn urls_and_key_blocks_are_judged_as_by_a_scan_per_marker(
        parts in proptest::collection::vec(fragment(), 0..24)
    ) {
        let text = parts.concat();
        prop_assert_eq!(url_password(&text), url_password_per_scheme(&text), "{}", text);
        prop_assert_eq!(
            private_key_block(&text),
            private_key_block_per_header(&text),
            "{}",
            text
        );
    }
}
