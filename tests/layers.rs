//! The layering of docs/architecture.md, enforced: a module of `src/` may
//! import (`crate::…`) only modules of a lower layer, so no two modules
//! import each other, directly or through others.

use std::collections::BTreeMap;
use std::path::Path;

/// (layer, top-level modules), lowest first.
const LAYERS: &[(u8, &[&str])] = &[
    (
        0,
        &[
            "dirs",
            "env",
            "event",
            "fsutil",
            "hash",
            "hookfiles",
            "level",
            "patch",
            "suggest",
            "text",
        ],
    ),
    (1, &["payload", "printer"]),
    (2, &["diag"]),
    (
        3,
        &["deadline", "recovery", "shell", "tokens", "transcript"],
    ),
    (4, &["state"]),
    (5, &["audit", "finding"]),
    (6, &["card"]),
    (7, &["catalog", "target"]),
    (8, &["context", "trigger"]),
    (9, &["guards"]),
    (10, &["deck"]),
    (11, &["trust"]),
    (12, &["envelope", "paths", "policy"]),
    (13, &["harness", "registration"]),
    (14, &["unjudged"]),
    (15, &["dispatch"]),
    (16, &["hook"]),
    (17, &["export", "install", "replay"]),
    (18, &["cli", "report"]),
    (19, &["commands"]),
];

fn layer_of(m: &str) -> Option<u8> {
    LAYERS
        .iter()
        .find(|(_, ms)| ms.contains(&m))
        .map(|(l, _)| *l)
}

/// The code of a file without comments and without its `mod tests`.
fn code(text: &str) -> String {
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    text.lines()
        .map(|l| match l.find("//") {
            Some(i) => &l[..i],
            None => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The top-level modules `code` names through `crate::`.
fn imports(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `crate::{a, b::c, d::{e, f}}`: the first word of each path.
            let mut depth = 0;
            let mut start = true;
            for (j, ch) in group.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' if depth == 0 => {
                        rest = &group[j..];
                        break;
                    }
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_alphanumeric() || c == '_') => {
                        let word: String = group[j..]
                            .chars()
                            .take_while(|c| c.is_alphanumeric() || *c == '_')
                            .collect();
                        out.push(word);
                        start = false;
                    }
                    _ => {}
                }
            }
        } else {
            let word: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            out.push(word);
        }
    }
    out
}

/// Every import edge (from, to) between top-level modules of `src/`.
fn edges() -> BTreeMap<(String, String), String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = BTreeMap::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if !name.ends_with(".rs") || name == "tests.rs" || name.ends_with("_tests.rs") {
                continue;
            }
            let rel = p.strip_prefix(&src).unwrap();
            let top = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_string();
            if top == "lib" || top == "main" {
                continue;
            }
            let text = std::fs::read_to_string(&p).unwrap();
            for to in imports(&code(&text)) {
                if to != top && to != "self" {
                    out.entry((top.clone(), to))
                        .or_insert_with(|| rel.display().to_string());
                }
            }
        }
    }
    out
}

#[test]
fn every_module_has_a_layer() {
    let mut missing = Vec::new();
    for ((from, to), file) in edges() {
        for m in [&from, &to] {
            if layer_of(m).is_none() {
                missing.push(format!("{m} (in {file})"));
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(
        missing.is_empty(),
        "modules with no layer in tests/layers.rs (and docs/architecture.md): {missing:?}"
    );
}

#[test]
fn imports_point_down_only() {
    let mut upward = Vec::new();
    for ((from, to), file) in edges() {
        let (Some(a), Some(b)) = (layer_of(&from), layer_of(&to)) else {
            continue;
        };
        if b >= a {
            upward.push(format!(
                "{file}: {from} (layer {a}) imports {to} (layer {b})"
            ));
        }
    }
    assert!(
        upward.is_empty(),
        "imports that do not point down:\n{}",
        upward.join("\n")
    );
}

#[test]
fn the_scanner_reads_grouped_and_plain_imports() {
    let got = imports("use crate::{a, b::c, d::{e, f}};\nlet x = crate::g::h();");
    assert_eq!(got, vec!["a", "b", "d", "g"]);
    assert_eq!(
        code("x // crate::y\n#[cfg(test)]\nmod tests { crate::z }"),
        "x "
    );
}

/// The commands print only through the one `Printer` value `commands::main`
/// hands them (uv's model): no free printing function, no `println!`, no
/// stream of their own. The hook (`commands/dispatch.rs`) writes its one
/// answer through `printer::hook_answer` instead.
#[test]
fn the_commands_print_through_the_printer_they_are_handed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/commands");
    let mut offenders = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        if path.file_name().is_some_and(|n| n == "dispatch.rs") {
            continue;
        }
        let text = code(&std::fs::read_to_string(&path).unwrap());
        for bad in [
            "printer::err(",
            "printer::out(",
            "println!",
            "print!(",
            "eprint",
            "io::stdout(",
            "io::stderr(",
        ] {
            if text.contains(bad) {
                offenders.push(format!("{}: {bad}", path.display()));
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The audit export (issue 31) is out of the hook's reach: only `cuecard
/// audit export` (src/commands/audit.rs) names the `export` module, and
/// nothing outside it opens a socket, so no dispatch can reach the network.
#[test]
fn the_hook_path_cannot_reach_the_export_or_the_network() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            let rel = p
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            let text = code(&std::fs::read_to_string(&p).unwrap());
            let in_export = rel.starts_with("export/");
            if !in_export && rel != "commands/audit.rs" && text.contains("crate::export") {
                offenders.push(format!("{rel}: names the export"));
            }
            if !in_export && rel != "lib.rs" {
                for net in ["std::net", "TcpStream", "UdpSocket", "TcpListener"] {
                    if text.contains(net) {
                        offenders.push(format!("{rel}: {net}"));
                    }
                }
            }
        }
    }
    assert!(offenders.is_empty(), "{offenders:#?}");
}

/// The most lines a file of `src/` or `xtask/src/` may have.
const MAX_LINES: usize = 700;

/// No file of `src/` or `xtask/src/` is over [`MAX_LINES`] lines (issue 32,
/// docs/architecture.md): a file that grows past it is split along a seam,
/// its concerns in files of their own under a folder of its name.
#[test]
fn no_source_file_is_over_700_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut over = Vec::new();
    let mut seen = 0;
    let mut stack = vec![root.join("src"), root.join("xtask/src")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            if p.extension().is_none_or(|x| x != "rs") {
                continue;
            }
            seen += 1;
            let lines = std::fs::read_to_string(&p).unwrap().lines().count();
            if lines > MAX_LINES {
                let rel = p.strip_prefix(root).unwrap().display().to_string();
                over.push(format!("{rel}: {lines} lines"));
            }
        }
    }
    assert!(seen > 100, "the walk found only {seen} files");
    assert!(
        over.is_empty(),
        "over {MAX_LINES} lines; split along a seam (docs/architecture.md): {over:#?}"
    );
}
