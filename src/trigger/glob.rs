//! Path globs for card triggers, matched by hand on the text itself: no
//! regex is compiled and nothing is prepared per glob, so a project with
//! fifty cards costs fifty short scans per tool call, not fifty programs.
//!
//! `*` matches within one path segment, `**` as a whole segment matches any
//! number of segments, `?` one character, `[abc]` / `[a-z]` / `[!abc]` one
//! character of a class, `{a,b}` alternatives (expanded up front, at most
//! [`MAX_ALTERNATIVES`]). A glob without `/` matches the file name at any
//! depth. Matching is linear in practice: a segment matcher with one star
//! backtrack point, and `**` tried at each remaining segment.

use std::borrow::Cow;

/// The most alternatives `{a,b}` groups may expand to.
pub const MAX_ALTERNATIVES: usize = 64;
/// The longest glob accepted.
pub const MAX_GLOB_CHARS: usize = 300;

/// A checked glob: its brace alternatives, each matched as text.
#[derive(Debug, Clone)]
pub struct Glob {
    alternatives: Vec<String>,
}

impl Glob {
    pub fn new(glob: &str) -> Result<Glob, String> {
        let g = normalize(glob);
        if g.is_empty() || g.chars().count() > MAX_GLOB_CHARS {
            return Err(format!("glob `{glob}` is empty or too long"));
        }
        let alternatives = expand_braces(&g).ok_or_else(|| {
            format!("glob `{glob}` has an unclosed `{{` or too many alternatives")
        })?;
        for alt in &alternatives {
            check_classes(alt).map_err(|e| format!("glob `{glob}`: {e}"))?;
        }
        Ok(Glob { alternatives })
    }

    pub fn matches(&self, path: &str) -> bool {
        let p = normalize(path);
        self.alternatives.iter().any(|alt| match_alt(alt, &p))
    }
}

/// Whether `glob` matches `path`, without building a [`Glob`] when the glob
/// has no `{...}` group (the common case); `None` when it is not a valid
/// glob (the card's evaluation reports that).
pub fn matches(glob: &str, path: &str) -> Option<bool> {
    let g = normalize(glob);
    if g.contains('{') {
        return Glob::new(glob).ok().map(|g| g.matches(path));
    }
    if g.is_empty()
        || g.len() > MAX_GLOB_CHARS * 4
        || (g.contains('[') && check_classes(&g).is_err())
    {
        return None;
    }
    Some(match_alt(&g, &normalize(path)))
}

/// The literal start every path `glob` matches must have: the text before
/// its first wildcard (`*`, `?`, `[`, `{`), for an anchored glob (one with a
/// `/`); `None` when there is none to speak of (an unanchored glob, or one
/// that starts with a wildcard). See `has_prefix` (its tests).
pub fn literal_prefix(glob: &str) -> Option<String> {
    let g = normalize(glob);
    if !g.contains('/') {
        return None;
    }
    let end = g.find(['*', '?', '[', '{']).unwrap_or(g.len());
    let p = g[..end].trim_start_matches('/');
    (!p.is_empty()).then(|| p.to_string())
}

/// Whether `path` could match a glob whose [`literal_prefix`] is `prefix`:
/// compared segment by segment as the matcher sees them (empty segments
/// and a leading `./` ignored), the last segment of the prefix as the start
/// of the path's segment unless the prefix ends with `/`.
#[cfg(test)]
pub fn has_prefix(path: &str, prefix: &str) -> bool {
    has_prefix_normalized(&normalize(path), prefix.as_bytes())
}

/// `has_prefix` of a path already [`normalize`]d. Run for every card of
/// the user's or the project's on every tool call, so it works on bytes,
/// one segment of each side at a time.
pub fn has_prefix_normalized(path: &str, prefix: &[u8]) -> bool {
    let (p, w) = (path.as_bytes(), prefix);
    let whole = w.last() == Some(&b'/');
    let (mut pi, mut wi) = (0, 0);
    loop {
        let Some((ws, we)) = segment_bytes(w, wi) else {
            return true;
        };
        let Some((ps, pe)) = segment_bytes(p, pi) else {
            return false;
        };
        let (seg, want) = (&p[ps..pe], &w[ws..we]);
        let last = w[we..].iter().all(|&b| b == b'/');
        let ok = if last && !whole {
            seg.starts_with(want)
        } else {
            seg == want
        };
        if !ok {
            return false;
        }
        (pi, wi) = (pe, we);
    }
}

/// The byte range of the next non-empty `/`-separated segment of `s` at or
/// after `i`.
fn segment_bytes(s: &[u8], mut i: usize) -> Option<(usize, usize)> {
    while s.get(i) == Some(&b'/') {
        i += 1;
    }
    if i >= s.len() {
        return None;
    }
    let end = s[i..]
        .iter()
        .position(|&c| c == b'/')
        .map_or(s.len(), |n| i + n);
    Some((i, end))
}

/// Trimmed, forward slashes, no leading `./`; borrowed when already so.
pub fn normalize(s: &str) -> Cow<'_, str> {
    fn strip(mut t: &str) -> &str {
        while let Some(rest) = t.strip_prefix("./") {
            t = rest;
        }
        t
    }
    let t = s.trim();
    if t.contains('\\') {
        return Cow::Owned(strip(&t.replace('\\', "/")).to_string());
    }
    Cow::Borrowed(strip(t))
}

/// Expands `{a,b}` groups (nested allowed) into plain alternatives.
fn expand_braces(g: &str) -> Option<Vec<String>> {
    let Some(open) = g.find('{') else {
        return Some(vec![g.to_string()]);
    };
    // Find the matching close.
    let mut depth = 0;
    let mut close = None;
    for (i, c) in g[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let close = close?;
    let (head, body, tail) = (&g[..open], &g[open + 1..close], &g[close + 1..]);
    // Split the body on top-level commas.
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in body.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&body[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&body[start..]);
    let mut out = Vec::new();
    for p in parts {
        for rest in expand_braces(&format!("{p}{tail}"))? {
            out.push(format!("{head}{rest}"));
            if out.len() > MAX_ALTERNATIVES {
                return None;
            }
        }
    }
    Some(out)
}

/// Every `[` has a `]` after it: none after the last `]` (one pass, not a
/// search of the rest per `[`).
fn check_classes(p: &str) -> Result<(), String> {
    let last_close = p.rfind(']');
    match p.rfind('[') {
        Some(open) if last_close.is_none_or(|c| c < open) => Err("an unclosed `[`".into()),
        _ => Ok(()),
    }
}

/// The next non-empty `/`-separated segment of `s` at or after byte `i`,
/// and the byte after it.
fn segment(s: &str, i: usize) -> Option<(&str, usize)> {
    // `/` is ASCII, so both ends are character boundaries.
    let (start, end) = segment_bytes(s.as_bytes(), i)?;
    Some((&s[start..end], end))
}

/// One brace-free alternative against a normalised path, segment by
/// segment, allocating nothing. A segment pattern matches exactly one path
/// segment and `**` any run of them, which is the shape of `*` over
/// characters, so the same single-backtrack-point algorithm is exact here
/// and linear in practice. A glob without `/` is unanchored: it matches the
/// file name at any depth, as if it began with `**/`.
fn match_alt(glob: &str, path: &str) -> bool {
    let (mut gi, mut pi) = (0, 0);
    // (glob position after the last `**`, path position it absorbs from)
    let mut star: Option<(usize, usize)> = (!glob.contains('/')).then_some((0, 0));
    while let Some((part, after_part)) = segment(path, pi) {
        match segment(glob, gi) {
            Some(("**", after)) => {
                star = Some((after, pi));
                gi = after;
                continue;
            }
            Some((pat, after)) if match_segment(pat, part) => {
                gi = after;
                pi = after_part;
                continue;
            }
            _ => {}
        }
        let Some((sg, sp)) = star else {
            return false;
        };
        // Let the last `**` absorb one more segment and try again.
        let next = segment(path, sp).map_or(path.len(), |(_, n)| n);
        star = Some((sg, next));
        gi = sg;
        pi = next;
    }
    while let Some((pat, after)) = segment(glob, gi) {
        if pat != "**" {
            return false;
        }
        gi = after;
    }
    true
}

/// The character at byte `i` of `s` and its length in bytes.
fn char_at(s: &str, i: usize) -> (char, usize) {
    let b = s.as_bytes()[i];
    if b < 0x80 {
        return (b as char, 1);
    }
    let c = s[i..].chars().next().unwrap_or('\u{fffd}');
    (c, c.len_utf8())
}

/// Wildcard match of one segment: `*`, `?`, `[...]`, with a single
/// backtrack point for the last `*` (linear for these patterns).
fn match_segment(p: &str, s: &str) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        let (sc, slen) = char_at(s, si);
        if pi < p.len() {
            let (pc, plen) = char_at(p, pi);
            match pc {
                '*' => {
                    star = Some((pi, si));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += plen;
                    si += slen;
                    continue;
                }
                '[' => {
                    if let Some((true, next)) = class(p, pi, sc) {
                        pi = next;
                        si += slen;
                        continue;
                    }
                }
                c if c == sc => {
                    pi += plen;
                    si += slen;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, ss)) => {
                pi = sp + 1;
                si = ss + char_at(s, ss).1;
                star = Some((sp, si));
            }
            None => return false,
        }
    }
    p[pi..].bytes().all(|b| b == b'*')
}

/// A `[...]` class at byte `at` of `p`: whether `c` is in it, and the byte
/// index after it; `None` when it is not closed.
fn class(p: &str, at: usize, c: char) -> Option<(bool, usize)> {
    let mut it = p[at + 1..].char_indices().peekable();
    let negate = matches!(it.peek(), Some((_, '!' | '^')));
    if negate {
        it.next();
    }
    let mut hit = false;
    let mut first = true;
    loop {
        let (i, lo) = it.next()?;
        if lo == ']' && !first {
            return Some((hit != negate, at + 1 + i + 1));
        }
        first = false;
        let mut look = it.clone();
        match (look.next(), look.next()) {
            (Some((_, '-')), Some((_, hi))) if hi != ']' => {
                hit |= lo <= c && c <= hi;
                it = look;
            }
            _ => hit |= lo == c,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Glob {
        Glob::new(s).unwrap()
    }

    #[test]
    fn globs() {
        assert!(g("migrations/**").matches("migrations/2024/01_init.sql"));
        assert!(g("migrations/*.sql").matches("migrations/01.sql"));
        assert!(!g("migrations/*.sql").matches("migrations/a/01.sql"));
        assert!(g("*.lock").matches("deep/dir/Cargo.lock"));
        assert!(g("*.lock").matches("Cargo.lock"));
        assert!(g("vendor/**").matches("vendor/x/y.go"));
        assert!(!g("vendor/**").matches("src/vendor.go"));
        assert!(g("src/**/*.{ts,tsx}").matches("src/a/b/c.tsx"));
        assert!(g("src/**/*.{ts,tsx}").matches("src/c.ts"));
        assert!(!g("src/**/*.{ts,tsx}").matches("src/c.js"));
        assert!(g("file?.[ch]").matches("file1.c"));
        assert!(!g("file?.[!ch]").matches("file1.c"));
        assert!(g("[a-c]*.md").matches("docs/b-notes.md"));
        assert!(g("**/*.ipynb").matches("nb/x.ipynb"));
        assert!(g("**/*.ipynb").matches("x.ipynb"));
        assert!(g("./docs/*").matches("docs/a"));
        assert!(g("docs\\*.md").matches("docs\\a.md"), "Windows separators");
        assert!(g("a*b*c").matches("axxbyyc") && !g("a*b*c").matches("axxbyy"));
        assert!(Glob::new("a{b").is_err());
        assert!(Glob::new("a[b").is_err());
        assert!(
            Glob::new(&"{a,b}".repeat(10)).is_err(),
            "2^10 alternatives is too many"
        );
    }

    /// An independent reference: dynamic programming over (segment, part)
    /// pairs, the textbook way.
    fn oracle(glob: &str, path: &str) -> bool {
        let norm = |s: &str| {
            s.trim()
                .replace('\\', "/")
                .trim_start_matches("./")
                .to_string()
        };
        let (g, p) = (norm(glob), norm(path));
        let mut segs: Vec<&str> = if g.contains('/') { vec![] } else { vec!["**"] };
        segs.extend(g.split('/').filter(|s| !s.is_empty()));
        let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        let (n, m) = (segs.len(), parts.len());
        let mut ok = vec![vec![false; m + 1]; n + 1];
        ok[n][m] = true;
        for i in (0..n).rev() {
            for j in (0..=m).rev() {
                ok[i][j] = if segs[i] == "**" {
                    ok[i + 1][j] || (j < m && ok[i][j + 1])
                } else {
                    j < m && ok[i + 1][j + 1] && match_segment(segs[i], parts[j])
                };
            }
        }
        ok[0][0]
    }

    #[test]
    fn segment_matching_agrees_with_the_textbook_oracle() {
        // Every glob of up to four segments over a small alphabet, against
        // every path of up to four segments over it.
        // Every `/`-join of up to four of `parts` ("" included), sorted.
        let joins = |parts: &[&str]| {
            let mut all = vec![String::new()];
            for _ in 0..4 {
                let mut next = Vec::new();
                for j in &all {
                    for s in parts {
                        next.push(if j.is_empty() {
                            s.to_string()
                        } else {
                            format!("{j}/{s}")
                        });
                    }
                }
                all.extend(next);
            }
            all.sort();
            all.dedup();
            all
        };
        let mut globs = joins(&["**", "a", "b", "*", "a*"]);
        globs.retain(|g| !g.is_empty());
        let paths = joins(&["a", "b", "ab"]);
        let mut checked = 0;
        for g in &globs {
            let prefix = literal_prefix(g);
            for p in &paths {
                let m = match_alt(g, p);
                assert_eq!(m, oracle(g, p), "glob `{g}` on `{p}`");
                if m && let Some(pre) = &prefix {
                    assert!(has_prefix(p, pre), "`{p}` matches `{g}`, not `{pre}`");
                }
                checked += 1;
            }
        }
        assert!(checked > 50_000, "{checked}");
    }

    #[test]
    fn a_literal_prefix_is_necessary_for_a_match() {
        assert_eq!(literal_prefix("area7/**").as_deref(), Some("area7/"));
        assert_eq!(literal_prefix("src/*.rs").as_deref(), Some("src/"));
        assert_eq!(literal_prefix("src/ma*/x").as_deref(), Some("src/ma"));
        assert_eq!(literal_prefix("./a/b.md").as_deref(), Some("a/b.md"));
        assert_eq!(literal_prefix("*.lock"), None, "unanchored");
        assert_eq!(literal_prefix("**/x"), None);
        assert_eq!(literal_prefix("{a,b}/x"), None);
        // Whenever the glob matches, the path has the prefix.
        let globs = [
            "area7/**",
            "src/*.rs",
            "src/ma*/x",
            "a/b.md",
            "a//b/**",
            "/a/b*",
            "a/[bc]/x",
            "a/{b,c}/x",
            "docs\\*.md",
            "é/ü*",
        ];
        let paths = [
            "area7/x",
            "area7",
            "area70/x",
            "./area7/y/z",
            "/area7/x",
            "src/lib.rs",
            "src/main/x",
            "src/ma/x",
            "srcx/lib.rs",
            "a/b.md",
            "a//b/c",
            "a/b/c",
            "a/c/x",
            "docs\\a.md",
            "docs/a.md",
            "é/üx",
            "é/x",
            "",
            "a",
        ];
        for g in globs {
            let prefix = literal_prefix(g);
            for p in paths {
                if matches(g, p) == Some(true) {
                    assert!(
                        prefix.as_deref().is_none_or(|pre| has_prefix(p, pre)),
                        "`{p}` matches `{g}` but not its prefix {prefix:?}"
                    );
                }
            }
        }
        assert!(!has_prefix("srcx/lib.rs", "src/"));
        assert!(!has_prefix("src", "src/lib"));
        assert!(has_prefix("src//lib.rs", "src/lib"));
    }

    #[test]
    fn the_quick_match_agrees_with_the_checked_glob() {
        let globs = [
            "migrations/**",
            "migrations/*.sql",
            "*.lock",
            "vendor/**",
            "src/**/*.{ts,tsx}",
            "file?.[ch]",
            "file?.[!ch]",
            "[a-c]*.md",
            "**/*.ipynb",
            "./docs/*",
            "docs\\*.md",
            "a*b*c",
            "**",
            "*",
            "src/*/mod.rs",
            "[]]x",
            "é?/*.md",
            "**/a/**/b",
        ];
        let paths = [
            "migrations/2024/01_init.sql",
            "migrations/01.sql",
            "migrations/a/01.sql",
            "deep/dir/Cargo.lock",
            "Cargo.lock",
            "vendor/x/y.go",
            "src/vendor.go",
            "src/a/b/c.tsx",
            "src/c.ts",
            "src/c.js",
            "file1.c",
            "docs/b-notes.md",
            "nb/x.ipynb",
            "docs/a",
            "docs\\a.md",
            "axxbyyc",
            "axxbyy",
            "src/x/mod.rs",
            "]x",
            "éa/ü.md",
            "éü/ü.md",
            "x/a/y/z/b",
            "a/b",
            "",
            "./src/c.ts",
        ];
        for g in globs {
            let checked = Glob::new(g).unwrap();
            for p in paths {
                assert_eq!(
                    matches(g, p),
                    Some(checked.matches(p)),
                    "glob `{g}` on `{p}`"
                );
            }
        }
        assert_eq!(
            matches("a[b", "ab"),
            None,
            "an invalid glob is not a verdict"
        );
        assert_eq!(matches("{a", "a"), None);
        assert_eq!(matches("", "a"), None);
    }

    #[test]
    fn non_ascii_names_match_by_character() {
        assert!(g("é?/*.md").matches("éa/ü.md"));
        assert!(
            g("?.txt").matches("ü.txt"),
            "`?` is one character, not one byte"
        );
        assert!(g("[à-ü]*").matches("é-notes"));
        assert!(!g("[!é]*").matches("é-notes"));
        assert!(g("*ü").matches("aüaü"));
    }

    #[test]
    fn hostile_patterns_stay_fast() {
        let p = g(&"*a".repeat(40));
        let s = "a".repeat(5_000);
        let t = std::time::Instant::now();
        let _ = p.matches(&s);
        let q = g(&"**/".repeat(20));
        let _ = q.matches(&"x/".repeat(200));
        // Not a timing assertion: a catastrophic matcher would not return
        // at all in the test's lifetime.
        let _ = t.elapsed();
    }
}
