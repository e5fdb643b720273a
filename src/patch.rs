//! Codex's patch format (`*** Begin Patch`, `*** Add File: p`, `*** Update
//! File: p`, `*** Delete File: p`, `*** Move to: p`, hunks of `-`/`+`/` `
//! lines), read once for the contracts that translate an `apply_patch`
//! (Codex, Copilot) and for the guards that judge every file of it.

/// One file of a Codex patch.
pub struct PatchFile<'a> {
    pub path: &'a str,
    /// Whether a `*** Move to:` named it: the destination of the file
    /// before it, which it receives the hunks after.
    pub moved: bool,
    /// Whether an `*** Add File:` named it.
    pub add: bool,
    /// The added (`+`) lines, in order, joined by newlines.
    pub added: String,
    /// The removed (`-`) lines, likewise.
    pub removed: String,
}

/// The files of a Codex patch (`*** Add File:`, `*** Update File:`,
/// `*** Delete File:`, and the destination of `*** Move to:`, which
/// receives the hunks that follow it), each with its added and removed
/// lines. One pass over the text.
pub fn files(patch: &str) -> Vec<PatchFile<'_>> {
    const HEADS: &[&str] = &[
        "*** Add File:",
        "*** Update File:",
        "*** Delete File:",
        "*** Move to:",
    ];
    fn push(text: &mut String, line: &str) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }
    let mut out: Vec<PatchFile> = Vec::new();
    let mut current: Option<usize> = None;
    for line in patch.lines() {
        let trimmed = line.trim_end_matches('\r');
        if let Some((head, path)) = HEADS
            .iter()
            .find_map(|h| trimmed.trim_start().strip_prefix(h).map(|p| (*h, p)))
        {
            let path = path.trim();
            if path.is_empty() {
                continue;
            }
            out.push(PatchFile {
                path,
                moved: head == "*** Move to:",
                add: head == "*** Add File:",
                added: String::new(),
                removed: String::new(),
            });
            current = Some(out.len() - 1);
            continue;
        }
        if trimmed.starts_with("*** ") {
            current = None;
            continue;
        }
        let Some(f) = current.map(|i| &mut out[i]) else {
            continue;
        };
        if let Some(added) = trimmed.strip_prefix('+') {
            push(&mut f.added, added);
        } else if let Some(removed) = trimmed.strip_prefix('-') {
            push(&mut f.removed, removed);
        }
    }
    out
}
