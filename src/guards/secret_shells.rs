//! Shells whose environment listing is their own syntax, for the secrets
//! guard: fish's `set` with only scope flags (`fish -c 'set -x'` lists the
//! exported variables with their values, where bash's `set -x` traces),
//! Nushell's `$env` record and xonsh's `${...}` mapping. Names only (`set
//! -n`, `$env | columns`, `${...}.keys()`), one variable (`$env.PATH`) and
//! presence tests (`set -q K`) print no value.

use crate::shell::SimpleCommand;

/// What the whole environment is called in a finding.
const WHOLE: &str = "the whole environment (tokens and keys among it)";

/// fish's `set` options that list variables with their values when no
/// name follows (the scopes, `--show`, `--long`).
const FISH_LISTING: &[&str] = &[
    "-x",
    "--export",
    "-g",
    "--global",
    "-U",
    "--universal",
    "-l",
    "--local",
    "-f",
    "--function",
    "-u",
    "--unexport",
    "-S",
    "--show",
    "-L",
    "--long",
];

/// Whether `cmd` prints the whole environment in its shell's own syntax.
pub(super) fn env_listing(cmd: &SimpleCommand, prog: &str) -> Option<&'static str> {
    let args = cmd.args();
    if prog == "set" && cmd.wrappers.last().is_some_and(|w| w == "fish") {
        let listing = !args.is_empty()
            && args.iter().all(|a| {
                FISH_LISTING.contains(&a.as_str())
                    || a.strip_prefix('-').is_some_and(|c| {
                        !c.starts_with('-')
                            && !c.is_empty()
                            && c.chars().all(|ch| "xgUlfuSL".contains(ch))
                    })
            });
        return listing.then_some(WHOLE);
    }
    let script = match (prog, args) {
        ("nu" | "nushell" | "xonsh", [c, script, ..]) if c == "-c" => script.trim(),
        _ => return None,
    };
    let first = script.split('|').next().unwrap_or("").trim();
    let rest = script.split_once('|').map_or("", |(_, r)| r);
    // A projection to names keeps the values out.
    let names = ["columns", "keys", "get ", "select ", "length"]
        .iter()
        .any(|n| rest.contains(n));
    let whole = match prog {
        "xonsh" => first == "${...}" || first == "print(${...})",
        _ => first == "$env" || first == "print $env",
    };
    (whole && !names).then_some(WHOLE)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listed(line: &str) -> bool {
        crate::shell::parse(line).iter().any(|c| {
            let prog = crate::shell::program_name(&c.argv[0]);
            env_listing(c, &prog).is_some()
        })
    }

    #[test]
    fn other_shells_environment_listings() {
        for line in [
            "fish -c 'set -x'",
            "fish -c 'set --export'",
            "fish -c 'set -gx'",
            "fish -c 'set -U'",
            "nu -c '$env'",
            "nu -c '$env | to json'",
            "nu -c '$env | transpose k v'",
            "xonsh -c '${...}'",
        ] {
            assert!(listed(line), "{line}");
        }
        for line in [
            "set -x",
            "set -gx",
            "fish -c 'set -q OPENAI_API_KEY; and echo set'",
            "fish -c 'set -n'",
            "fish -c 'set -gx PATH /usr/bin $PATH'",
            "nu -c '$env.PATH'",
            "nu -c '$env | columns'",
            "xonsh -c '${...}.keys()'",
            "nu -c 'ls'",
        ] {
            assert!(!listed(line), "{line}");
        }
    }
}
