//! git aliases defined earlier on the same line (`git config alias.pp
//! 'push --force'; git pp origin main`): a later `git pp …` is read as git
//! will run it, the same way as an alias given with `-c alias.pp=…` (which
//! `channels` expands). Only a constant value; `--unset` forgets the name.

/// The most aliases remembered.
const MAX_ALIASES: usize = 16;

/// Takes in a command: records a `git config … alias.NAME VALUE`, and
/// gives a `git NAME …` whose alias is known the definition as `-c`.
pub(super) fn take(argv: &mut Vec<String>, known: &mut Vec<(String, String)>) {
    if argv.first().map(|w| super::program_name(w)).as_deref() != Some("git") {
        return;
    }
    let mut i = 1;
    while let Some(a) = argv.get(i) {
        match a.as_str() {
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace" | "--config-env" => i += 2,
            s if s.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let Some(sub) = argv.get(i).cloned() else {
        return;
    };
    if sub == "config" {
        let words: Vec<&String> = argv[i + 1..]
            .iter()
            .filter(|w| {
                !matches!(
                    w.as_str(),
                    "set"
                        | "--global"
                        | "--local"
                        | "--system"
                        | "--worktree"
                        | "--replace-all"
                        | "--add"
                )
            })
            .collect();
        let unset = words
            .iter()
            .any(|w| w.as_str() == "--unset" || w.as_str() == "unset");
        let name = words.iter().find_map(|w| {
            w.to_ascii_lowercase()
                .strip_prefix("alias.")
                .map(str::to_string)
        });
        let Some(name) = name else {
            return;
        };
        known.retain(|(n, _)| *n != name);
        let value = words
            .iter()
            .skip_while(|w| !w.to_ascii_lowercase().starts_with("alias."))
            .nth(1);
        if !unset
            && let Some(v) = value
            && known.len() < MAX_ALIASES
        {
            known.push((name, v.to_string()));
        }
        return;
    }
    if let Some((n, v)) = known.iter().find(|(n, _)| *n == sub) {
        argv.splice(1..1, ["-c".to_string(), format!("alias.{n}={v}")]);
    }
}
