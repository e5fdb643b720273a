//! Environment switches, and the one table of every `CUECARD_*` variable
//! the code reads ([`VARS`]): it feeds docs/design.md §11 (`cargo xtask
//! gen`) and `cuecard status`, and a test fails when the code reads a
//! variable the table lacks.

/// Who a variable is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum For {
    /// A person tuning cuecard.
    User,
    /// A person, and the integration tests.
    UserAndTests,
    /// A harness or a packager setting a value for the hook.
    Harness,
    /// The integration tests and maintainers only.
    Tests,
}

impl For {
    pub fn label(self) -> &'static str {
        match self {
            For::User => "user",
            For::UserAndTests => "user, tests",
            For::Harness => "harness (packagers)",
            For::Tests => "tests",
        }
    }
}

/// One environment variable: its name (a `<...>` part stands for a family),
/// what it does, its default, and who sets it.
#[derive(Debug, Clone, Copy)]
pub struct Var {
    pub name: &'static str,
    pub what: &'static str,
    pub default: &'static str,
    pub who: For,
}

const fn var(name: &'static str, what: &'static str, default: &'static str, who: For) -> Var {
    Var {
        name,
        what,
        default,
        who,
    }
}

/// Every `CUECARD_*` variable cuecard, its tests and `xtask` read.
pub const VARS: &[Var] = &[
    var(
        "CUECARD_DISABLE",
        "`1`/`true`/`yes`/`on`: `dispatch` prints nothing and exits 0 (ignored while the user's config sets an ask or deny)",
        "off",
        For::User,
    ),
    var(
        "CUECARD_POLICY",
        "a policy for one run: `guard[.kind]=advise|ask|deny,...` (§4a); only tightens the user's file",
        "none",
        For::User,
    ),
    var(
        "CUECARD_STRICT",
        "the `askuser-recommended` guard's well-formedness findings become a deny (§4a)",
        "off",
        For::User,
    ),
    var(
        "CUECARD_STOP_CARD",
        "enables the opt-in Stop card",
        "off",
        For::User,
    ),
    var(
        "CUECARD_PROTECTED_BRANCHES",
        "more protected branches, comma-separated; `x/*` is a prefix",
        "none",
        For::User,
    ),
    var(
        "CUECARD_COMPACT_WARN",
        "compaction warning thresholds, percentages (`65,80`, or one value) (§7)",
        "`65,80`",
        For::User,
    ),
    var(
        "CUECARD_CONTEXT_WINDOW",
        "the context window in tokens (`200000`, `200k`, `1m`) (§7)",
        "from the model",
        For::User,
    ),
    var(
        "CUECARD_DEADLINE_MS",
        "the hook's deadline in ms, clamped to 50..5000 (§2)",
        "700",
        For::UserAndTests,
    ),
    var(
        "CUECARD_STATE_DIR",
        "the state root; must be absolute (§6); replay sets it to a private directory",
        "platform state dir",
        For::UserAndTests,
    ),
    var(
        "CUECARD_STATE_MAX_AGE_DAYS",
        "idle state older than this is swept (§6)",
        "7",
        For::User,
    ),
    var(
        "CUECARD_CONFIG_DIR",
        "the user config directory: user cards (`cards/`) and `config.toml`",
        "platform config dir",
        For::UserAndTests,
    ),
    var(
        "CUECARD_DATA_DIR",
        "the data directory: materialised cards, the install record",
        "platform data dir",
        For::UserAndTests,
    ),
    var(
        "CUECARD_BIN",
        "the absolute program path install writes (a packaged install behind a stable link)",
        "the running binary",
        For::Harness,
    ),
    var(
        "CUECARD_TEST_PANIC",
        "debug builds only: panic at the named point of the dispatcher",
        "unset",
        For::Tests,
    ),
    var(
        "CUECARD_TEST_KILL",
        "debug builds only: SIGKILL at the named point of a state write",
        "unset",
        For::Tests,
    ),
    var(
        "CUECARD_TEST_STALL",
        "debug builds only: stall at the named point (`after-answer`) until the deadline fires",
        "unset",
        For::Tests,
    ),
    var(
        "CUECARD_TEST_MANAGED_CONFIG",
        "debug builds only: the managed config file (docs/audit.md) in place of the platform's; it may then be the current user's",
        "unset",
        For::Tests,
    ),
    var(
        "CUECARD_UPDATE_SNAPSHOTS",
        "the contract and policy tests rewrite their snapshot files",
        "unset",
        For::Tests,
    ),
    var(
        "CUECARD_E2E_CACHE",
        "where `cargo xtask e2e` caches the harness CLIs",
        "`target/e2e/npm`",
        For::Tests,
    ),
    var(
        "CUECARD_E2E_VERSION_<HARNESS>",
        "a one-off harness version for the e2e, e.g. `CUECARD_E2E_VERSION_CLAUDE_CODE`",
        "the pin",
        For::Tests,
    ),
];

/// The table as Markdown (docs/design.md §11, between its markers).
pub fn markdown() -> String {
    let mut md = String::from("| variable | what it does | default | for |\n|---|---|---|---|\n");
    for v in VARS {
        md.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            v.name,
            v.what.replace('|', "\\|"),
            v.default,
            v.who.label()
        ));
    }
    md
}

/// The table's variables set in this process's environment, with their
/// values (for `status`), in table order; a family (`<...>`) matches by
/// prefix.
pub fn set_vars() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut all: Vec<(String, String)> = std::env::vars_os()
        .filter_map(|(k, v)| Some((k.into_string().ok()?, v.to_string_lossy().into_owned())))
        .filter(|(k, _)| k.starts_with(concat!("CUECARD", "_")))
        .collect();
    all.sort();
    for v in VARS {
        let prefix = v.name.split('<').next().unwrap_or(v.name);
        let family = prefix.len() != v.name.len();
        for (k, val) in &all {
            if (family && k.starts_with(prefix)) || k == v.name {
                out.push((k.clone(), val.clone()));
            }
        }
    }
    out
}

/// True for 1, true, yes, on (any case, surrounding blanks ignored).
pub fn flag(key: &str) -> bool {
    std::env::var_os(key).is_some_and(|v| is_truthy(&v.to_string_lossy()))
}

pub fn is_truthy(v: &str) -> bool {
    matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// `CUECARD_DISABLE`: print nothing, exit 0.
pub fn disabled() -> bool {
    flag("CUECARD_DISABLE")
}

#[cfg(test)]
mod tests {
    #[test]
    fn truthy_values() {
        for v in ["1", "true", "TRUE", "Yes", " on "] {
            assert!(super::is_truthy(v), "{v}");
        }
        for v in ["", "0", "false", "off", "no", "2", "enabled"] {
            assert!(!super::is_truthy(v), "{v}");
        }
    }
}
