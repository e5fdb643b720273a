//! Which tool family a program belongs to ([`family`]), through an index
//! of the tables' tool names built once a process (issue 27, point 6).

use super::{Family, families};

/// The family a tool belongs to: the first of [`families`] that names it
/// (a name ending in `*` also names the longer names it begins), found
/// through [`FAMILY_INDEX`].
pub fn family(tool: &str) -> Option<&'static Family> {
    let index = &*FAMILY_INDEX;
    let exact = index.exact.get(tool).copied();
    let prefixed = index
        .prefixes
        .iter()
        .find(|(p, _)| tool.starts_with(p) && tool.len() > p.len())
        .map(|&(_, i)| i);
    let first = match (exact, prefixed) {
        (Some(a), Some(b)) => a.min(b),
        (a, b) => a.or(b)?,
    };
    Some(index.families[first])
}

/// [`families`]' tool names, indexed once a process on first use: every
/// name as written (its first family), and the names ending in `*` as
/// prefixes in the tables' order. A call looks a tool up once per command
/// and guard; a scan of every family's names cost more than the rest of
/// the lookup.
struct FamilyIndex {
    families: Vec<&'static Family>,
    exact: std::collections::HashMap<&'static str, usize>,
    prefixes: Vec<(&'static str, usize)>,
}

static FAMILY_INDEX: std::sync::LazyLock<FamilyIndex> = std::sync::LazyLock::new(|| {
    let families: Vec<&'static Family> = families().collect();
    let mut exact = std::collections::HashMap::new();
    let mut prefixes = Vec::new();
    for (i, f) in families.iter().enumerate() {
        for &t in f.tools {
            exact.entry(t).or_insert(i);
            if let Some(p) = t.strip_suffix('*') {
                prefixes.push((p, i));
            }
        }
    }
    FamilyIndex {
        families,
        exact,
        prefixes,
    }
});

#[cfg(test)]
mod tests {
    use super::*;

    /// The family index answers what scanning every family's names in
    /// order answers: for every name the tables hold, a name a `*` pattern
    /// begins, and names no family has.
    #[test]
    fn the_family_index_finds_what_a_scan_finds() {
        let scan = |tool: &str| {
            families().find(|f| {
                f.tools.iter().any(|t| {
                    *t == tool
                        || t.strip_suffix('*')
                            .is_some_and(|p| tool.starts_with(p) && tool.len() > p.len())
                })
            })
        };
        let mut tools: Vec<String> = vec!["".into(), "ls".into(), "no-such-tool".into()];
        for f in families() {
            for t in f.tools {
                tools.push(t.to_string());
                tools.push(format!("{}x", t.trim_end_matches('*')));
                tools.push(t.trim_end_matches('*').to_string());
            }
        }
        for t in &tools {
            assert_eq!(family(t).map(|f| f.name), scan(t).map(|f| f.name), "{t:?}");
        }
        assert_eq!(
            family("mkfs.ext4").map(|f| f.name),
            scan("mkfs.ext4").map(|f| f.name)
        );
        assert!(family("mkfs.ext4").is_some() && family("aws").is_some());
    }
}
