//! Path globs for card triggers, matched by hand (no regex is compiled: a
//! project with fifty cards would otherwise compile fifty programs on every
//! tool call).
//!
//! `*` matches within one path segment, `**` as a whole segment matches any
//! number of segments, `?` one character, `[abc]` / `[a-z]` / `[!abc]` one
//! character of a class, `{a,b}` alternatives (expanded up front, at most
//! [`MAX_ALTERNATIVES`]). A glob without `/` matches the file name at any
//! depth. Matching is linear in practice: a segment matcher with one star
//! backtrack point, and `**` tried at each remaining segment.

/// The most alternatives `{a,b}` groups may expand to.
pub const MAX_ALTERNATIVES: usize = 64;
/// The longest glob accepted.
pub const MAX_GLOB_CHARS: usize = 300;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    /// `**`: any number of segments.
    AnyDepth,
    /// One segment's pattern.
    Pattern(Vec<char>),
}

#[derive(Debug, Clone)]
pub struct Glob {
    alternatives: Vec<Vec<Seg>>,
    source: String,
}

impl Glob {
    pub fn new(glob: &str) -> Result<Glob, String> {
        let g = glob.trim().replace('\\', "/");
        if g.is_empty() || g.chars().count() > MAX_GLOB_CHARS {
            return Err(format!("glob `{glob}` is empty or too long"));
        }
        let g = g.trim_start_matches("./").to_string();
        let mut alternatives = Vec::new();
        for alt in expand_braces(&g)
            .ok_or_else(|| format!("glob `{glob}` has an unclosed `{{` or too many alternatives"))?
        {
            let mut segs: Vec<Seg> = Vec::new();
            if !alt.contains('/') {
                segs.push(Seg::AnyDepth);
            }
            for part in alt.split('/').filter(|p| !p.is_empty()) {
                if part == "**" {
                    if segs.last() != Some(&Seg::AnyDepth) {
                        segs.push(Seg::AnyDepth);
                    }
                } else {
                    let chars: Vec<char> = part.chars().collect();
                    check_classes(&chars).map_err(|e| format!("glob `{glob}`: {e}"))?;
                    segs.push(Seg::Pattern(chars));
                }
            }
            alternatives.push(segs);
        }
        Ok(Glob {
            alternatives,
            source: glob.to_string(),
        })
    }

    pub fn matches(&self, path: &str) -> bool {
        let p = path.replace('\\', "/");
        let p = p.trim_start_matches("./");
        let parts: Vec<Vec<char>> = p
            .split('/')
            .filter(|s| !s.is_empty())
            .map(|s| s.chars().collect())
            .collect();
        self.alternatives
            .iter()
            .any(|segs| match_segs(segs, &parts))
    }

    pub fn source(&self) -> &str {
        &self.source
    }
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

fn check_classes(p: &[char]) -> Result<(), String> {
    let mut i = 0;
    while i < p.len() {
        if p[i] == '[' && !p[i + 1..].contains(&']') {
            return Err("an unclosed `[`".into());
        }
        i += 1;
    }
    Ok(())
}

/// Whether `segs` match all of `parts`: dynamic programming over
/// (segment, part) pairs, so a glob with many `**` stays polynomial.
fn match_segs(segs: &[Seg], parts: &[Vec<char>]) -> bool {
    let (n, m) = (segs.len(), parts.len());
    // ok[i][j]: segs[i..] match parts[j..].
    let mut ok = vec![vec![false; m + 1]; n + 1];
    ok[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            ok[i][j] = match &segs[i] {
                Seg::AnyDepth => ok[i + 1][j] || (j < m && ok[i][j + 1]),
                Seg::Pattern(p) => j < m && ok[i + 1][j + 1] && match_segment(p, &parts[j]),
            };
        }
    }
    ok[0][0]
}

/// Wildcard match of one segment: `*`, `?`, `[...]`, with a single
/// backtrack point for the last `*` (linear for these patterns).
fn match_segment(p: &[char], s: &[char]) -> bool {
    let (mut pi, mut si) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while si < s.len() {
        if pi < p.len() {
            match p[pi] {
                '*' => {
                    star = Some((pi, si));
                    pi += 1;
                    continue;
                }
                '?' => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                '[' => {
                    if let Some((matched, next)) = class(p, pi, s[si])
                        && matched
                    {
                        pi = next;
                        si += 1;
                        continue;
                    }
                }
                c if c == s[si] => {
                    pi += 1;
                    si += 1;
                    continue;
                }
                _ => {}
            }
        }
        match star {
            Some((sp, ss)) => {
                pi = sp + 1;
                si = ss + 1;
                star = Some((sp, ss + 1));
            }
            None => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// A `[...]` class at `p[at]`: whether `c` is in it, and the index after it.
fn class(p: &[char], at: usize, c: char) -> Option<(bool, usize)> {
    let mut i = at + 1;
    let negate = matches!(p.get(i), Some('!') | Some('^'));
    if negate {
        i += 1;
    }
    let mut hit = false;
    let mut first = true;
    while i < p.len() && (p[i] != ']' || first) {
        first = false;
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            if p[i] <= c && c <= p[i + 2] {
                hit = true;
            }
            i += 3;
        } else {
            if p[i] == c {
                hit = true;
            }
            i += 1;
        }
    }
    if i >= p.len() {
        return None;
    }
    Some((hit != negate, i + 1))
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
