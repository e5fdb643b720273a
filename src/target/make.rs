//! Recipes a `make` call runs: the Makefile is read (bounded, no link
//! followed, never run, one level) and the recipe lines of the targets
//! named (the first target when none is) join the call's commands, so
//! `make nuke` is judged by what its recipe does. Variables the Makefile
//! sets with `=`, `:=` or `?=` are put in; recipe prefixes (`@`, `-`, `+`)
//! are dropped; anything else of make's language is left as written.

use crate::shell::SimpleCommand;

/// At most this many recipe lines from one call.
const MAX_LINES: usize = 64;

/// The Makefile a `make` command reads and the targets it builds, when the
/// command is one (`make -C dir` reads `dir/Makefile`).
pub(super) fn make_call(c: &SimpleCommand) -> Option<(String, Vec<String>)> {
    let prog = crate::shell::program_name(c.argv.first()?);
    if !matches!(prog.as_str(), "make" | "gmake") {
        return None;
    }
    let args = c.args();
    let mut file = None;
    let mut dir = None;
    let mut targets = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-f" | "--file" | "--makefile" => file = it.next().cloned(),
            "-C" | "--directory" => dir = it.next().cloned(),
            "-j" | "-l" | "-o" | "-W" | "-I" => {
                it.next();
            }
            // `-n`, `--dry-run`, `--just-print`, `-q`: nothing runs.
            "-n" | "--dry-run" | "--just-print" | "--recon" | "-q" | "--question" => {
                return None;
            }
            s if s.starts_with('-') || s.contains('=') => {}
            s => targets.push(s.to_string()),
        }
    }
    let name = file.unwrap_or_else(|| "Makefile".into());
    let path = match dir {
        Some(d) => format!("{}/{name}", d.trim_end_matches('/')),
        None => name,
    };
    Some((path, targets))
}

/// The recipe lines of `targets` (the first target when empty) in a
/// Makefile's text, with its simple variables put in.
pub(super) fn recipes(text: &str, targets: &[String]) -> String {
    let mut vars: Vec<(String, String)> = Vec::new();
    let mut current: Vec<String> = Vec::new();
    let mut first: Option<String> = None;
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        if let Some(recipe) = line.strip_prefix('\t') {
            let wanted = current.iter().any(|t| {
                targets.contains(t) || (targets.is_empty() && first.as_deref() == Some(t))
            });
            if wanted && out.len() < MAX_LINES {
                let r = recipe.trim_start_matches(['@', '-', '+', ' ']);
                out.push(expand(r, &vars));
            }
            continue;
        }
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some((name, value)) = assignment(trimmed) {
            vars.push((name, value));
            current.clear();
            continue;
        }
        if let Some((names, _)) = trimmed.split_once(':')
            && !names.starts_with('.')
        {
            current = names.split_whitespace().map(str::to_string).collect();
            if first.is_none() {
                first = current.first().cloned();
            }
        }
    }
    out.join("\n")
}

/// `NAME = value`, `NAME := value`, `NAME ?= value`.
fn assignment(line: &str) -> Option<(String, String)> {
    let (name, value) = line.split_once('=')?;
    let name = name.trim_end_matches([':', '?', '+', ' ']).trim();
    (!name.is_empty() && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_'))
        .then(|| (name.to_string(), value.trim().to_string()))
}

/// `$(NAME)` and `${NAME}` put in from the Makefile's simple variables;
/// `$$` is a shell `$`.
fn expand(line: &str, vars: &[(String, String)]) -> String {
    let mut s = line.replace("$$", "\u{1}");
    for (name, value) in vars.iter().rev() {
        s = s
            .replace(&format!("$({name})"), value)
            .replace(&format!("${{{name}}}"), value);
    }
    s.replace('\u{1}', "$")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recipes_of_the_targets_named() {
        let mk = "DATA := /srv/data\n.PHONY: nuke\nall: build\n\tcargo build\nnuke:\n\t@rm -rf $(DATA)\n\t-echo done\n";
        assert_eq!(recipes(mk, &["nuke".into()]), "rm -rf /srv/data\necho done");
        assert_eq!(recipes(mk, &[]), "cargo build");
        let cmds = crate::shell::parse("make -C sub nuke");
        assert_eq!(
            make_call(&cmds[0]),
            Some(("sub/Makefile".to_string(), vec!["nuke".to_string()]))
        );
        let cmds = crate::shell::parse("make -n nuke");
        assert_eq!(make_call(&cmds[0]), None);
    }
}
