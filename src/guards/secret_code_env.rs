//! Code given to an interpreter that reads the whole environment
//! (`os.environ`, `process.env`, `ENV`, `%ENV`, `Deno.env.toObject()`,
//! `Bun.env`), not one variable nor only its names: the opaque reader's
//! `runs code that reads the whole environment` ([`super::opaque`]).

/// Calls that take a mapping's names or count, not its values.
const NAMES_OF: &[&str] = &["Object.keys(", "sorted(", "len(", "list(", "set(", "keys("];

/// Code that reads the whole environment (`os.environ`, `process.env`,
/// `ENV`, `%ENV`), not one variable of it.
pub(super) fn code_reads_env(code: &str) -> bool {
    use super::secret_meta::NAME_TESTS;
    let whole_env = |marker: &str, keyed: &[&str]| {
        code.match_indices(marker).any(|(i, m)| {
            // A whole name (`ENV`, not `NODE_ENV`).
            let word_start = code[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'));
            let after = &code[i + m.len()..];
            // `"KEY" in os.environ`, `for k in os.environ`: names, no value.
            let membership = code[..i].trim_end().ends_with(" in") && !after.starts_with('.');
            // The names, their count or a presence test (`sorted(os.environ)`,
            // `Object.keys(process.env)`, Julia's `haskey(ENV, "K")`): no value.
            let ends = |fs: &[&str]| fs.iter().any(|f| code[..i].trim_end().ends_with(f));
            let names = after.trim_start().starts_with(')') && ends(NAMES_OF)
                || ends(&["haskey(", "has_key?(", "has_key("]);
            word_start && !membership && !names && !keyed.iter().any(|k| after.starts_with(k))
        })
    };
    // A key in quotes names one variable; a key in a variable
    // (`os.environ[k]`, awk's `ENVIRON[k]`) reads values the line does not
    // name, as a loop over all of them does.
    const NAMED: &[&str] = &["[\"", "['", "[`"];
    const PERL_NAMED: &[&str] = &[
        "{A", "{B", "{C", "{D", "{E", "{F", "{G", "{H", "{I", "{J", "{K", "{L", "{M", "{N", "{O",
        "{P", "{Q", "{R", "{S", "{T", "{U", "{V", "{W", "{X", "{Y", "{Z", "{_", "{'", "{\"",
    ];
    if whole_env(
        "os.environ",
        &[NAMED, &[".get(", ".setdefault(", ".pop("]].concat(),
    ) || whole_env("process.env", &[NAMED, &["."]].concat())
        // Perl's `$ENV{NAME}` names one variable; `$ENV{$k}` does not.
        || whole_env("ENV", &[NAMED, &[".fetch(", "_", "IRON"], PERL_NAMED, NAME_TESTS].concat())
        || code.contains("Deno.env.toObject(")
        || whole_env("Bun.env", &[NAMED, &["."]].concat())
        || whole_env("ENVIRON", NAMED)
        || code.contains("%ENV")
        || code.contains("getenv()")
        || code.contains("get_env()")
    {
        return true;
    }
    false
}
