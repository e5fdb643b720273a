//! Issue 33, points 1 and 2: the README guides (what it is, Install,
//! Quick start, then the reference, in that order), its Quick start is
//! the two commands CI and a newcomer run, it says how long each step
//! takes, the build it times is the fast profile while `cargo xtask dist`
//! keeps the fastest one and shows its progress, and every link in the
//! README and docs/ leads to a file and a heading that exist.

use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn read(rel: &str) -> String {
    std::fs::read_to_string(Path::new(ROOT).join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// The `## ` headings of a Markdown text, outside code blocks.
fn headings(text: &str, level: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut code = false;
    for l in text.lines() {
        if l.starts_with("```") {
            code = !code;
        }
        if !code && let Some(h) = l.strip_prefix(level) {
            out.push(h.to_string());
        }
    }
    out
}

#[test]
fn the_readme_guides_what_it_is_install_quick_start_then_the_reference() {
    let readme = read("README.md");
    let h = headings(&readme, "## ");
    let at = |name: &str| {
        h.iter()
            .position(|x| x == name)
            .unwrap_or_else(|| panic!("README has no `## {name}`: {h:?}"))
    };
    assert!(at("Install") < at("Quick start"), "{h:?}");
    assert!(at("Quick start") < at("Commands"), "{h:?}");
    assert!(at("Commands") < at("Reference"), "{h:?}");
    // What it is comes first, before any heading.
    let intro = readme[..readme.find("\n## ").unwrap()]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(intro.contains("hook events") && intro.contains("Advice is the default"));
    // Install: from source, then `install --harness`.
    let install = section(&readme, "Install");
    let dist = install
        .find("cargo xtask dist")
        .expect("Install builds with dist");
    let harness = install
        .find("install --self --harness")
        .expect("then installs");
    assert!(dist < harness);
    assert!(install.contains("install --detect") && install.contains("uninstall --all"));
    // A guide, not a specification.
    let words = readme.split_whitespace().count();
    assert!(words < 2500, "README has {words} words");
}

/// The text of `## name` up to the next `## `.
fn section<'a>(text: &'a str, name: &str) -> &'a str {
    let head = format!("\n## {name}\n");
    let start = text.find(&head).unwrap_or_else(|| panic!("no ## {name}")) + head.len();
    let rest = &text[start..];
    &rest[..rest.find("\n## ").unwrap_or(rest.len())]
}

#[test]
fn the_quick_start_is_the_two_commands_and_says_how_long_each_step_takes() {
    let readme = read("README.md");
    let quick = section(&readme, "Quick start");
    let block = quick
        .split("```sh\n")
        .nth(1)
        .and_then(|b| b.split("```").next())
        .expect("a code block");
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split(" #").next().unwrap().trim())
        .collect();
    assert_eq!(
        commands,
        ["cargo run --release -- replay", "cargo test --workspace"]
    );
    // CI runs the same test command.
    assert!(read(".ci/run").contains("cargo test --workspace"));
    // The timings, with the profile each step builds.
    assert!(
        quick.contains("| `cargo run --release -- replay`, first run"),
        "{quick}"
    );
    assert!(quick.contains("| `cargo xtask dist`"), "{quick}");
    assert!(quick.contains("2-core machine"), "{quick}");
}

#[test]
fn the_quick_start_builds_fast_and_dist_keeps_the_fastest_build_and_shows_progress() {
    let cargo: toml_like::Doc = toml_like::parse(&read("Cargo.toml"));
    assert_eq!(cargo.get("profile.release", "lto"), Some("\"thin\""));
    let units: u32 = cargo
        .get("profile.release", "codegen-units")
        .unwrap()
        .parse()
        .unwrap();
    assert!(units > 1, "parallel code generation");
    assert_eq!(cargo.get("profile.dist", "inherits"), Some("\"release\""));
    assert_eq!(cargo.get("profile.dist", "lto"), Some("true"));
    assert_eq!(cargo.get("profile.dist", "codegen-units"), Some("1"));
    // dist builds that profile and lets cargo's progress through.
    let dist = read("xtask/src/dist.rs");
    assert!(dist.contains("const PROFILE: &str = \"dist\";"));
    assert!(!dist.contains("\"--quiet\"") && !dist.contains("\"-q\""));
    assert!(dist.contains("eprintln!(\n        \"building cuecard"));
}

/// Just enough TOML to read `[section] key = value` lines.
mod toml_like {
    pub struct Doc(Vec<(String, String, String)>);
    pub fn parse(text: &str) -> Doc {
        let mut section = String::new();
        let mut out = Vec::new();
        for l in text.lines() {
            let l = l.split(" #").next().unwrap().trim();
            if let Some(s) = l.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
                section = s.to_string();
            } else if let Some((k, v)) = l.split_once('=') {
                out.push((section.clone(), k.trim().into(), v.trim().into()));
            }
        }
        Doc(out)
    }
    impl Doc {
        pub fn get(&self, section: &str, key: &str) -> Option<&str> {
            self.0
                .iter()
                .find(|(s, k, _)| s == section && k == key)
                .map(|(_, _, v)| v.as_str())
        }
    }
}

/// GitHub's anchor for a heading.
fn slug(h: &str) -> String {
    h.trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of every heading of a Markdown file.
fn anchors(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut code = false;
    for l in text.lines() {
        if l.starts_with("```") {
            code = !code;
        }
        if !code && l.starts_with('#') {
            out.push(slug(l.trim_start_matches('#')));
        }
    }
    out
}

#[test]
fn every_link_in_the_readme_and_docs_leads_to_a_file_and_heading_that_exist() {
    let mut files = vec![PathBuf::from("README.md")];
    for e in std::fs::read_dir(Path::new(ROOT).join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            files.push(p.strip_prefix(ROOT).unwrap().to_path_buf());
        }
    }
    let mut bad = Vec::new();
    let mut checked = 0;
    for f in &files {
        let text = read(f.to_str().unwrap());
        let dir = f.parent().unwrap_or(Path::new(""));
        for (i, _) in text.match_indices("](") {
            let target: String = text[i + 2..].chars().take_while(|c| *c != ')').collect();
            if target.contains("://") || target.starts_with("mailto:") || target.contains(' ') {
                continue;
            }
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let resolved = if path.is_empty() {
                f.clone()
            } else {
                dir.join(path)
            };
            checked += 1;
            let full = Path::new(ROOT).join(&resolved);
            if !full.exists() {
                bad.push(format!("{}: {target}: no such file", f.display()));
                continue;
            }
            if let Some(a) = anchor
                && full.extension().is_some_and(|x| x == "md")
                && !anchors(&std::fs::read_to_string(&full).unwrap()).contains(&a.to_string())
            {
                bad.push(format!("{}: {target}: no such heading", f.display()));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    assert!(checked > 30, "only {checked} links: the scan is broken");
}
