//! What install would change in a file, as `diff -u` shows it: the lines
//! removed (`-`) and added (`+`), each group with up to [`CONTEXT`] lines
//! around it and a `@@ -a,b +c,d @@` header, so that a dry run on a large
//! settings file shows the change, not the whole file.

/// Lines of context kept around each change.
pub const CONTEXT: usize = 3;

/// Above this many cells (lines removed times lines added, once the lines
/// both texts share at their ends are set aside) the middle is shown as
/// removed whole and added whole: a correct diff, if not the shortest, in
/// bounded time and memory.
const MAX_CELLS: usize = 4_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    Same,
    Removed,
    Added,
}

/// The hunks that turn `before` into `after` (empty when they are equal),
/// each line ending in a newline; a last line without one is marked as
/// `diff` marks it.
pub fn unified(before: &str, after: &str) -> String {
    let a: Vec<&str> = before.split_inclusive('\n').collect();
    let b: Vec<&str> = after.split_inclusive('\n').collect();
    let ops = script(&a, &b);
    // Each line of the script, with its line numbers in both texts.
    let mut lines = Vec::with_capacity(ops.len());
    let (mut i, mut j) = (0, 0);
    for op in ops {
        lines.push((op, i, j));
        match op {
            Op::Same => (i, j) = (i + 1, j + 1),
            Op::Removed => i += 1,
            Op::Added => j += 1,
        }
    }
    let mut out = String::new();
    let mut k = 0;
    while let Some(first) = (k..lines.len()).find(|&n| lines[n].0 != Op::Same) {
        let start = first.saturating_sub(CONTEXT);
        // The hunk runs on while the next change is within two contexts.
        let mut end = first;
        let mut n = first;
        while n < lines.len() {
            if lines[n].0 != Op::Same {
                end = n;
                n += 1;
            } else if (n..lines.len().min(n + 2 * CONTEXT + 1)).any(|m| lines[m].0 != Op::Same) {
                n += 1;
            } else {
                break;
            }
        }
        let stop = (end + 1 + CONTEXT).min(lines.len());
        let hunk = &lines[start..stop];
        let old_len = hunk.iter().filter(|l| l.0 != Op::Added).count();
        let new_len = hunk.iter().filter(|l| l.0 != Op::Removed).count();
        let (_, i0, j0) = hunk[0];
        out.push_str(&format!(
            "@@ -{} +{} @@\n",
            range(i0, old_len),
            range(j0, new_len)
        ));
        for &(op, i, j) in hunk {
            let (mark, text) = match op {
                Op::Same => (' ', a[i]),
                Op::Removed => ('-', a[i]),
                Op::Added => ('+', b[j]),
            };
            out.push(mark);
            out.push_str(text);
            if !text.ends_with('\n') {
                out.push_str("\n\\ No newline at end of file\n");
            }
        }
        k = stop;
    }
    out
}

/// `start,len` as `diff -u` writes it (1-based; an empty range names the
/// line before it).
fn range(start: usize, len: usize) -> String {
    match len {
        0 => format!("{start},0"),
        1 => format!("{}", start + 1),
        _ => format!("{},{len}", start + 1),
    }
}

/// The edit script from `a` to `b`: the lines both share at their start
/// and end kept, and a longest common subsequence of the rest.
fn script(a: &[&str], b: &[&str]) -> Vec<Op> {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    let mut ops = vec![Op::Same; head];
    if ma.len().saturating_mul(mb.len()) > MAX_CELLS {
        ops.extend(std::iter::repeat_n(Op::Removed, ma.len()));
        ops.extend(std::iter::repeat_n(Op::Added, mb.len()));
    } else {
        ops.extend(lcs(ma, mb));
    }
    ops.extend(std::iter::repeat_n(Op::Same, tail));
    ops
}

/// A shortest edit script by the longest common subsequence, removals
/// before additions within a change.
fn lcs(a: &[&str], b: &[&str]) -> Vec<Op> {
    let (n, m) = (a.len(), b.len());
    // len[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut len = vec![0u32; (n + 1) * (m + 1)];
    let at = |i: usize, j: usize| i * (m + 1) + j;
    for i in (0..n).rev() {
        for j in (0..m).rev() {
            len[at(i, j)] = if a[i] == b[j] {
                len[at(i + 1, j + 1)] + 1
            } else {
                len[at(i + 1, j)].max(len[at(i, j + 1)])
            };
        }
    }
    let mut ops = Vec::with_capacity(n + m);
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        if i < n && j < m && a[i] == b[j] {
            ops.push(Op::Same);
            (i, j) = (i + 1, j + 1);
        } else if i < n && (j == m || len[at(i + 1, j)] >= len[at(i, j + 1)]) {
            ops.push(Op::Removed);
            i += 1;
        } else {
            ops.push(Op::Added);
            j += 1;
        }
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::unified;

    #[test]
    fn equal_texts_have_no_hunk() {
        assert_eq!(unified("a\nb\n", "a\nb\n"), "");
        assert_eq!(unified("", ""), "");
    }

    /// Lines 1 to `n`, with `edits` (line, its new text: empty removes it).
    fn numbers(n: usize, edits: &[(usize, &str)]) -> String {
        (1..=n)
            .map(|k| match edits.iter().find(|(at, _)| *at == k) {
                Some((_, t)) => t.to_string(),
                None => format!("{k}\n"),
            })
            .collect()
    }

    #[test]
    fn a_change_is_shown_with_three_lines_of_context() {
        let before = numbers(20, &[]);
        let after = numbers(20, &[(10, "ten\n")]);
        assert_eq!(
            unified(&before, &after),
            "@@ -7,7 +7,7 @@\n 7\n 8\n 9\n-10\n+ten\n 11\n 12\n 13\n"
        );
    }

    #[test]
    fn far_apart_changes_are_two_hunks_and_near_ones_one() {
        let before = numbers(30, &[]);
        let far = numbers(30, &[(2, "two\n"), (25, "25\nmore\n")]);
        let d = unified(&before, &far);
        assert_eq!(d.matches("@@ -").count(), 2, "{d}");
        assert!(d.starts_with("@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n"), "{d}");
        assert!(d.contains("@@ -23,6 +23,7 @@\n"), "{d}");
        assert!(d.contains(" 25\n+more\n 26\n"), "{d}");
        let near = numbers(30, &[(5, "five\n"), (11, "eleven\n")]);
        assert_eq!(unified(&before, &near).matches("@@ -").count(), 1);
        let apart = numbers(30, &[(5, "five\n"), (13, "thirteen\n")]);
        assert_eq!(unified(&before, &apart).matches("@@ -").count(), 2);
    }

    #[test]
    fn lines_added_to_an_empty_text_and_a_missing_final_newline() {
        assert_eq!(unified("", "a\n"), "@@ -0,0 +1 @@\n+a\n");
        assert_eq!(
            unified("a", "a\n"),
            "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
        );
    }
}
