//! `cuecard trust [--list | --revoke]`: pin this project's cards by hash.

use super::{CommandError, ExitStatus};
use crate::cli::TrustArgs;
use crate::printer::{Printer, Tone};
use crate::trust::{self, TrustStore};
use std::path::Path;

pub fn run(p: &Printer, a: &TrustArgs) -> Result<ExitStatus, CommandError> {
    let Some(state_root) = crate::state::store::root_for_writing() else {
        return Err(CommandError::NoStateDir);
    };
    let project = crate::context::project_root_here();
    let mut store = TrustStore::load(&state_root);
    let cards = trust::current_project_cards(&project);
    let policy = crate::policy::load(&project, Some(&state_root));
    let changes = super::policy::project_cards(&project, &policy);
    if a.list && a.json {
        let v = list_json(&store, &project, &cards, &policy);
        p.out(&serde_json::to_string_pretty(&v).unwrap_or_default());
        return Ok(ExitStatus::Success);
    }
    if a.list {
        p.out(&format!("{}{changes}", list(p, &store, &project, &cards)));
        return Ok(ExitStatus::Success);
    }
    if a.revoke {
        let was = store.revoke(&project);
        save(&store, &state_root)?;
        p.out(&if was {
            format!(
                "trust withdrawn: the cards of {} are inactive again",
                project.display()
            )
        } else {
            format!("{} was not trusted", project.display())
        });
        return Ok(ExitStatus::Success);
    }
    let config = crate::policy::project_file_sha(&project);
    if cards.is_empty() && config.is_none() {
        p.out(&format!(
            "no project cards in {}/.cuecard/cards and no .cuecard/config.toml: nothing to trust",
            project.display()
        ));
        return Ok(ExitStatus::Success);
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    store.trust(&project, &cards, config.clone(), now);
    save(&store, &state_root)?;
    p.out(&format!(
        "{}{changes}",
        trusted(&project, &cards, config.as_deref())
    ));
    Ok(ExitStatus::Success)
}

/// `--list`: the trusted projects, then this project's cards and their state.
fn list(p: &Printer, store: &TrustStore, project: &Path, cards: &[(String, String)]) -> String {
    let mut out = String::new();
    if store.projects.is_empty() {
        out.push_str("no trusted projects\n");
    }
    for (root, p) in &store.projects {
        out.push_str(&format!(
            "{root}: {} trusted\n",
            crate::text::count(p.cards.len(), "card", "cards")
        ));
    }
    out.push_str(&format!("\nthis project ({}):\n", project.display()));
    if cards.is_empty() {
        out.push_str("  no project cards in .cuecard/cards\n");
    }
    for (file, sha) in cards {
        let state = if store.is_trusted(project, file, sha) {
            p.paint(Tone::Ok, "trusted")
        } else if store
            .projects
            .get(&*project.to_string_lossy())
            .is_some_and(|t| t.cards.contains_key(file))
        {
            p.paint(Tone::Warn, "CHANGED since trusted (inactive)")
        } else {
            p.paint(Tone::Warn, "new, not trusted (inactive)")
        };
        out.push_str(&format!("  {file}  {state}\n"));
    }
    out
}

/// `trust --list --json` (docs/json.md).
fn list_json(
    store: &TrustStore,
    project: &Path,
    cards: &[(String, String)],
    policy: &crate::policy::Policy,
) -> serde_json::Value {
    use serde_json::json;
    let projects: Vec<serde_json::Value> = store
        .projects
        .iter()
        .map(|(root, p)| {
            json!({
                "root": root,
                "cards": p.cards.len(),
                "config": p.config.is_some(),
                "trusted_at": p.trusted_at,
            })
        })
        .collect();
    let here: Vec<serde_json::Value> = cards
        .iter()
        .map(|(file, sha)| {
            let state = if store.is_trusted(project, file, sha) {
                "trusted"
            } else if store.was_pinned(project, file) {
                "changed"
            } else {
                "new"
            };
            json!({"file": file, "sha256": sha, "state": state})
        })
        .collect();
    let config = crate::policy::project_file_sha(project).map(|sha| {
        let trusted = store
            .projects
            .get(&*project.to_string_lossy())
            .and_then(|p| p.config.as_deref())
            == Some(sha.as_str());
        json!({"sha256": sha, "state": if trusted { "trusted" } else { "untrusted" }})
    });
    json!({
        "projects": projects,
        "project": {
            "root": project.display().to_string(),
            "cards": here,
            "config": config,
            "changes": crate::policy::project_changes(project, policy),
        },
    })
}

fn save(store: &TrustStore, state_root: &Path) -> Result<(), CommandError> {
    store
        .save(state_root)
        .map_err(|error| CommandError::CannotWrite {
            path: trust::path(state_root),
            error,
        })
}

/// What was just trusted, with the pins.
fn trusted(project: &Path, cards: &[(String, String)], config: Option<&str>) -> String {
    let mut out = format!(
        "trusted {} of {}:\n",
        crate::text::count(cards.len(), "project card", "project cards"),
        project.display()
    );
    for (file, sha) in cards {
        out.push_str(&format!("  {file}  sha256:{}\n", &sha[..16.min(sha.len())]));
    }
    if let Some(sha) = config {
        out.push_str(&format!(
            "  and its policy file .cuecard/config.toml  sha256:{} (it can only make a policy stricter)\n",
            &sha[..16.min(sha.len())]
        ));
    }
    out.push_str(
        "A card or policy file added or changed later stays inactive until you run `cuecard trust` again.\n",
    );
    out
}
