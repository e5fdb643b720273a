//! The design document the code cites is in the repository, and every
//! citation points at a section it has: `docs/design.md §N` (in comments,
//! README and docs) names a `## N.` heading of docs/design.md, and a link
//! `design.md#anchor` names one of its headings. No citation of the old
//! design document, which was never in the repository, is left.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The text files citations live in: sources, tests, xtask, README, docs.
fn files() -> Vec<PathBuf> {
    let mut out = vec![Path::new(ROOT).join("README.md")];
    for dir in ["src", "tests", "xtask/src", "docs"] {
        walk(&Path::new(ROOT).join(dir), &mut out);
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "fixtures") {
                walk(&p, out);
            }
        } else if p
            .extension()
            .is_some_and(|x| x == "rs" || x == "md" || x == "js")
        {
            out.push(p);
        }
    }
}

/// The section numbers (`4a` of `## 4a. Policy`) and the GitHub anchors of
/// every heading of docs/design.md.
fn design() -> (Vec<String>, Vec<String>) {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/design.md"))
        .expect("docs/design.md exists");
    let mut sections = Vec::new();
    let mut anchors = Vec::new();
    for line in text.lines() {
        let Some(h) = line.trim_start_matches('#').strip_prefix(' ') else {
            continue;
        };
        if !line.starts_with('#') {
            continue;
        }
        if line.starts_with("## ")
            && let Some((n, _)) = h.split_once(". ")
            && n.chars().all(|c| c.is_ascii_alphanumeric())
        {
            sections.push(n.to_string());
        }
        let slug: String = h
            .to_lowercase()
            .chars()
            .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
            .map(|c| if c == ' ' { '-' } else { c })
            .collect();
        anchors.push(slug);
    }
    (sections, anchors)
}

/// The section numbers cited after each `design.md` in `text`: `§6`, and
/// `§6, §4a` lists, with comment markers and line breaks between allowed.
fn cited(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("design.md") {
        let mut rest = &text[i + "design.md".len()..];
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || "/!,".contains(c));
            let Some(after) = rest.strip_prefix('§') else {
                break;
            };
            let n: String = after
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            rest = &after[n.len()..];
            // `§N` in prose about citations is not one.
            if n.starts_with(|c: char| c.is_ascii_digit()) {
                out.push(n);
            }
        }
    }
    out
}

#[test]
fn every_design_citation_names_a_section_of_docs_design_md() {
    let (sections, anchors) = design();
    assert!(sections.len() >= 10, "sections found: {sections:?}");
    let old = ["DESIGN", " §"].concat();
    let old_file = ["DESIGN", ".md"].concat();
    let mut bad = Vec::new();
    let mut count = 0;
    for f in files() {
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let name = f.strip_prefix(ROOT).unwrap_or(&f).display().to_string();
        if name.ends_with("doc_refs.rs") {
            continue; // this file names the patterns it looks for
        }
        if !name.ends_with("design.md") && (text.contains(&old) || text.contains(&old_file)) {
            bad.push(format!("{name}: cites the old design document"));
        }
        for n in cited(&text) {
            count += 1;
            if !sections.contains(&n) {
                bad.push(format!("{name}: docs/design.md §{n} is not a section"));
            }
        }
        for (i, _) in text.match_indices("design.md#") {
            let anchor: String = text[i + "design.md#".len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                .collect();
            if !anchors.contains(&anchor) {
                bad.push(format!("{name}: design.md#{anchor} is not a heading"));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(
        count >= 30,
        "only {count} citations found: the scan is broken"
    );
}

/// The `CUECARD_*` names in string literals of the code and tests (where a
/// variable is read or set): `"CUECARD_X"`, and `"CUECARD_X_{` for a
/// formatted family, kept as its prefix `CUECARD_X_`.
fn variables_in_code() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for f in files() {
        if f.extension().is_none_or(|x| x != "rs") || f.ends_with("doc_refs.rs") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        let name = f.strip_prefix(ROOT).unwrap_or(&f).display().to_string();
        for (i, _) in text.match_indices("\"CUECARD_") {
            let rest = &text[i + 1..];
            let var: String = rest
                .chars()
                .take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if matches!(rest[var.len()..].chars().next(), Some('"' | '{')) {
                out.push((var, name.clone()));
            }
        }
    }
    out
}

/// The variables named in the first column of design.md §11's table.
fn variables_in_table() -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(ROOT).join("docs/design.md"))
        .expect("docs/design.md exists");
    let section = text
        .split("\n## 11. ")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("design.md has a §11");
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `CUECARD_"))
        .filter_map(|l| l.split_once('`'))
        .map(|(v, _)| format!("CUECARD_{v}"))
        .collect()
}

#[test]
fn every_cuecard_variable_is_in_the_table_of_design_md_section_11() {
    let table = variables_in_table();
    let code = variables_in_code();
    assert!(table.len() >= 15 && code.len() >= 15, "{table:?} {code:?}");
    // A family such as `CUECARD_E2E_VERSION_<HARNESS>` covers its members.
    let listed = |v: &str| {
        table.iter().any(|t| match t.split_once('<') {
            Some((prefix, _)) => v.starts_with(prefix),
            None => t == v,
        })
    };
    let missing: Vec<String> = code
        .iter()
        .filter(|(v, _)| !listed(v))
        .map(|(v, f)| format!("{v} (read in {f})"))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/design.md §11: {}",
        missing.join(", ")
    );
    let stale: Vec<&String> = table
        .iter()
        .filter(|t| {
            let prefix = t.split('<').next().unwrap_or(t);
            !code.iter().any(|(v, _)| v.starts_with(prefix))
        })
        .collect();
    assert!(stale.is_empty(), "in §11 but read nowhere: {stale:?}");
}
