use super::find;

#[test]
fn connection_urls_and_key_pairs() {
    let live = [
        "DATABASE_URL=postgresql://app:S3cr3t!x@db.internal/app",
        "url = \"mysql://deploy:9fK2mQ7zLp@10.0.3.4:3306/shop\"",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYzQ8KeyAbcd",
    ];
    for t in live {
        assert!(find(t).is_some(), "{t}");
    }
    let quiet = [
        "postgresql://postgres:postgres@localhost:5432/app",
        "postgresql://app:${DB_PASSWORD}@db.internal/app",
        "mysql://user:password@db.example.com/x",
        "redis://:secret@cache:6379",
        "https://github.com/org/repo",
        "http://user@host/x",
        "postgres://app:S3cr3t!x@localhost/app",
        "aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}",
    ];
    for t in quiet {
        assert_eq!(find(t), None, "{t}");
    }
}

// Test tokens are assembled at run time so that the source file itself
// does not look like it holds credentials to secret scanners.
fn tok(prefix: &str, body: &str) -> String {
    format!("{prefix}{body}")
}
const RANDOM36: &str = "a8Kf3LmQ9zR2xT7vB1nW4cY6hJ0pD5sE8gUk";

#[test]
fn more_providers_shapes() {
    let long = "Qm7Zx2Kp9Lw4Nv8Rt3Ys6Hb1Jd5Fg0CaEeUuIiOoPpAaSsDdFfGgHhJjKkLlZzXxCcVvBbNn";
    let cases = [
        (tok("hf_", &long[..34]), "Hugging Face token"),
        (tok("pypi-AgE", &long[..64]), "PyPI token"),
        (tok("rubygems_", &long[..48]), "RubyGems API key"),
        (tok("dckr_pat_", &long[..27]), "Docker Hub token"),
        (tok("dop_v1_", &long[..64]), "DigitalOcean token"),
        (tok("shpat_", &long[..32]), "Shopify token"),
        (
            tok(
                "AGE-SECRET-KEY-1",
                "QX7Z2K9LW4NV8RT3YS6HB1JD5FG0CAEUIOP2ASDFGHJKLZXCVBNM3",
            ),
            "age private key",
        ),
        (tok("whsec_", &long[..32]), "Stripe webhook secret"),
    ];
    for (t, kind) in &cases {
        assert_eq!(find(&format!("token = \"{t}\"")), Some(*kind), "{t}");
    }
    // Placeholders and short words are not tokens.
    for t in [
        tok("hf_", "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
        tok(
            "dop_v1_",
            "EXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLEEXAMPLE1",
        ),
        "shpat_short".to_string(),
        "the hf_hub_download helper".to_string(),
    ] {
        assert_eq!(find(&t), None, "{t}");
    }
}

#[test]
fn live_shapes_are_named_by_kind() {
    let cases = [
        (tok("AKIA", "Z7QK4M2XWJ5RT3VB"), "AWS access key id"),
        (tok("ghp_", RANDOM36), "GitHub token"),
        (
            tok(
                "github_pat_",
                "11ABCDEFG0abcdefghij1234567890_ABCDEFGHIJKLMNOPQRST",
            ),
            "GitHub token",
        ),
        (tok("glpat-", "x7Yb2Kq9LmN3pR5sT8vW"), "GitLab token"),
        (
            tok("xoxb-", "1234567890-0987654321-AbCdEfGhIjKlMnOp"),
            "Slack token",
        ),
        (
            tok("sk_live_", "51HxYzAbC9dEfGhIjKlMnOpQr"),
            "Stripe live key",
        ),
        (
            tok("sk-ant-api03-", "Xy9_Zk2-LmNoPqRsTuVwXyZ0123456789abcdEFG"),
            "Anthropic API key",
        ),
        (
            tok("sk-proj-", "Ab3dEf6hIj9lMn2pQr5tUv8xYz1BcDe4GhIj"),
            "OpenAI API key",
        ),
        (
            tok("AIza", "SyD4x9Kq2LmN7pR3sT8vW1yZ5bC6dE0fGhI"),
            "Google API key",
        ),
    ];
    for (text, kind) in cases {
        let line = format!("export TOKEN=\"{text}\"\n");
        assert_eq!(find(&line), Some(kind), "{text}");
    }
}

#[test]
fn private_key_blocks_need_a_body() {
    let key = format!(
        "-----BEGIN {} PRIVATE KEY-----\nMIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gunVTLw\n-----END",
        "RSA"
    );
    assert_eq!(find(&key), Some("private key"));
    let doc = "Paste the key, which starts with `-----BEGIN OPENSSH PRIVATE KEY-----`.\nThen save.";
    assert_eq!(find(doc), None);
}

#[test]
fn placeholders_and_lookalikes_stay_quiet() {
    for s in [
        "aws_access_key_id = AKIAIOSFODNN7EXAMPLE".to_string(),
        tok("ghp_", &"x".repeat(36)),
        "OPENAI_API_KEY=sk-...".to_string(),
        "ANTHROPIC_API_KEY=sk-ant-your-key-here".to_string(),
        "const task = 'sk-learn-models';".to_string(),
        "STRIPE_KEY=sk_test_4eC39HqLyjWDarjtT1zdp7dc".to_string(),
        "see https://docs.github.com/en/authentication for ghp_ tokens".to_string(),
        "let risk_ghp_flag = true;".to_string(),
    ] {
        assert_eq!(find(&s), None, "{s}");
    }
}
