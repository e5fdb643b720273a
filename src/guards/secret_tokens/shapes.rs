//! The token shapes [`super::find`] looks for: a provider's prefix, the
//! characters its body may hold, and the shortest body that counts.

/// One token shape: its prefix, the characters its body may hold, and the
/// shortest body that counts.
pub(super) struct Shape {
    pub(super) kind: &'static str,
    pub(super) prefix: &'static str,
    pub(super) body: fn(u8) -> bool,
    pub(super) min: usize,
    /// Whether the prefix must not follow an identifier character.
    pub(super) word_start: bool,
}

fn alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric()
}
fn alnum_dash(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c == b'-'
}
fn alnum_under(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}
fn upper_digit(c: u8) -> bool {
    c.is_ascii_uppercase() || c.is_ascii_digit()
}

pub(super) const SHAPES: &[Shape] = &[
    Shape {
        kind: "AWS access key id",
        prefix: "AKIA",
        body: upper_digit,
        min: 16,
        word_start: true,
    },
    Shape {
        kind: "AWS access key id",
        prefix: "ASIA",
        body: upper_digit,
        min: 16,
        word_start: true,
    },
    Shape {
        kind: "GitHub token",
        prefix: "ghp_",
        body: alnum,
        min: 36,
        word_start: true,
    },
    Shape {
        kind: "GitHub token",
        prefix: "gho_",
        body: alnum,
        min: 36,
        word_start: true,
    },
    Shape {
        kind: "GitHub token",
        prefix: "ghu_",
        body: alnum,
        min: 36,
        word_start: true,
    },
    Shape {
        kind: "GitHub token",
        prefix: "ghs_",
        body: alnum,
        min: 36,
        word_start: true,
    },
    Shape {
        kind: "GitHub token",
        prefix: "ghr_",
        body: alnum,
        min: 36,
        word_start: true,
    },
    Shape {
        kind: "GitHub token",
        prefix: "github_pat_",
        body: alnum_under,
        min: 40,
        word_start: true,
    },
    Shape {
        kind: "GitLab token",
        prefix: "glpat-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Slack token",
        prefix: "xoxb-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Slack token",
        prefix: "xoxp-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Slack token",
        prefix: "xoxa-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Slack token",
        prefix: "xoxr-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Slack webhook URL",
        prefix: "hooks.slack.com/services/T",
        body: |c| alnum(c) || c == b'/',
        min: 20,
        word_start: false,
    },
    Shape {
        kind: "Stripe live key",
        prefix: "sk_live_",
        body: alnum,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Stripe live key",
        prefix: "rk_live_",
        body: alnum,
        min: 20,
        word_start: true,
    },
    // Anthropic before OpenAI: both start with `sk-`.
    Shape {
        kind: "Anthropic API key",
        prefix: "sk-ant-",
        body: alnum_dash,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "OpenAI API key",
        prefix: "sk-proj-",
        body: alnum_dash,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "OpenAI API key",
        prefix: "sk-svcacct-",
        body: alnum_dash,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "OpenAI API key",
        prefix: "sk-admin-",
        body: alnum_dash,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "OpenAI API key",
        prefix: "sk-",
        body: alnum,
        min: 48,
        word_start: true,
    },
    Shape {
        kind: "Google API key",
        prefix: "AIza",
        body: alnum_dash,
        min: 35,
        word_start: true,
    },
    Shape {
        kind: "npm token",
        prefix: "npm_",
        body: alnum,
        min: 36,
        word_start: true,
    },
    Shape {
        kind: "Hugging Face token",
        prefix: "hf_",
        body: alnum,
        min: 34,
        word_start: true,
    },
    Shape {
        kind: "PyPI token",
        prefix: "pypi-AgE",
        body: alnum_dash,
        min: 60,
        word_start: true,
    },
    Shape {
        kind: "RubyGems API key",
        prefix: "rubygems_",
        body: alnum,
        min: 48,
        word_start: true,
    },
    Shape {
        kind: "Docker Hub token",
        prefix: "dckr_pat_",
        body: alnum_dash,
        min: 27,
        word_start: true,
    },
    Shape {
        kind: "DigitalOcean token",
        prefix: "dop_v1_",
        body: alnum,
        min: 64,
        word_start: true,
    },
    Shape {
        kind: "DigitalOcean token",
        prefix: "doo_v1_",
        body: alnum,
        min: 64,
        word_start: true,
    },
    Shape {
        kind: "Shopify token",
        prefix: "shpat_",
        body: alnum,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "Shopify token",
        prefix: "shpss_",
        body: alnum,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "age private key",
        prefix: "AGE-SECRET-KEY-1",
        body: upper_digit,
        min: 50,
        word_start: true,
    },
    Shape {
        kind: "GitLab runner token",
        prefix: "glrt-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Slack app token",
        prefix: "xapp-",
        body: alnum_dash,
        min: 20,
        word_start: true,
    },
    Shape {
        kind: "Stripe webhook secret",
        prefix: "whsec_",
        body: alnum,
        min: 32,
        word_start: true,
    },
    Shape {
        kind: "Groq API key",
        prefix: "gsk_",
        body: alnum,
        min: 40,
        word_start: true,
    },
    Shape {
        kind: "Google OAuth token",
        prefix: "ya29.",
        body: alnum_dash,
        min: 40,
        word_start: true,
    },
];
