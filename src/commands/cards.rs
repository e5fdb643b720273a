//! `cuecard cards list | show <card>`.

use super::{EXIT_OK, EXIT_PROBLEM};
use crate::card::{self, Card};
use crate::{printer, tokens};

pub fn list() -> i32 {
    let mut rows: Vec<[String; 6]> = vec![[
        "NAME".into(),
        "EVENT".into(),
        "MATCHER".into(),
        "GUARD".into(),
        "CHARS".into(),
        "TOKENS".into(),
    ]];
    let mut problems = 0;
    for c in card::embedded::all() {
        match c {
            Ok(c) => rows.push(row(&c)),
            Err(e) => {
                problems += 1;
                printer::err(&e.to_string());
            }
        }
    }
    let widths: Vec<usize> = (0..6)
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for r in &rows {
        let line: Vec<String> = r
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{s:w$}", w = widths[i]))
            .collect();
        out.push_str(line.join("  ").trim_end());
        out.push('\n');
    }
    printer::out(&out);
    if problems > 0 { EXIT_PROBLEM } else { EXIT_OK }
}

fn row(c: &Card) -> [String; 6] {
    let text = c.emitted_text();
    [
        c.name.clone(),
        c.bindings.events.join(","),
        c.bindings.matcher.clone(),
        c.bindings.guard.clone().unwrap_or_else(|| "-".into()),
        crate::text::len16(text).to_string(),
        tokens::count(text).to_string(),
    ]
}

pub fn show(name: &str) -> i32 {
    match card::embedded::card(name) {
        Some(Ok(c)) => {
            printer::out(&c.body);
            EXIT_OK
        }
        Some(Err(e)) => {
            printer::err(&e.to_string());
            EXIT_PROBLEM
        }
        None => {
            printer::err(&format!(
                "cuecard: no card named {name:?} (see `cuecard cards list`)"
            ));
            EXIT_PROBLEM
        }
    }
}
