//! "Did you mean": the nearest of a set of names to what was typed, for
//! the validators (cards, policy) and `explain`. Close means an edit
//! distance of at most a third of the longer name (at least 1), or a
//! difference only in case, `-`/`_` or separators; nothing is suggested
//! otherwise.

/// The Levenshtein distance between `a` and `b`, case-insensitive, with
/// `-`, `_` and `.` treated alike.
pub fn distance(a: &str, b: &str) -> usize {
    let norm = |s: &str| -> Vec<char> {
        s.chars()
            .map(|c| match c.to_ascii_lowercase() {
                '_' | '.' => '-',
                c => c,
            })
            .collect()
    };
    let (a, b) = (norm(a), norm(b));
    // Optimal string alignment: a swap of two neighbours is one edit.
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j - 1] + cost)
                .min(d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}

/// The names among `names` closest to `typed` (the nearest distance only,
/// at most 3).
pub fn nearest<I, S>(typed: &str, names: I) -> Vec<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut scored: Vec<(usize, String)> = names
        .into_iter()
        .filter_map(|n| {
            let n = n.as_ref();
            let d = distance(typed, n);
            let bound = (typed.chars().count().max(n.chars().count()) / 3).max(1);
            (d <= bound && n != typed).then(|| (d, n.to_string()))
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.1 == b.1);
    let best = scored.first().map(|(d, _)| *d);
    scored
        .into_iter()
        .filter(|(d, _)| Some(*d) == best)
        .take(3)
        .map(|(_, n)| n)
        .collect()
}

/// `; did you mean `x`?` (or `x` or `y`), empty when nothing is close.
pub fn hint<I, S>(typed: &str, names: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let near = nearest(typed, names);
    match near.as_slice() {
        [] => String::new(),
        [one] => format!("; did you mean `{one}`?"),
        many => format!(
            "; did you mean {}?",
            many.iter()
                .map(|n| format!("`{n}`"))
                .collect::<Vec<_>>()
                .join(" or ")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn close_names_are_suggested_far_ones_not() {
        assert_eq!(distance("PreTooluse", "PreToolUse"), 0);
        assert_eq!(
            nearest("PreTooluse", ["PreToolUse", "PostToolUse"]),
            ["PreToolUse"]
        );
        assert_eq!(
            nearest("claudecode", ["claude-code", "codex"]),
            ["claude-code"]
        );
        assert_eq!(
            nearest("destrutive", ["destructive", "secrets"]),
            ["destructive"]
        );
        assert_eq!(nearest("cooldwn", ["cooldown", "command"]), ["cooldown"]);
        assert!(nearest("zzz", ["destructive"]).is_empty());
        assert_eq!(
            hint("dny", ["advise", "ask", "deny"]),
            "; did you mean `deny`?"
        );
        assert_eq!(hint("qqqq", ["deny"]), "");
    }
}
