//! `cuecard trust [--list | --revoke]`: pin this project's cards by hash.

use super::ExitStatus;
use crate::cli::TrustArgs;
use crate::printer::Printer;
use crate::trust::{self, TrustStore};

pub fn run(p: &Printer, a: &TrustArgs) -> ExitStatus {
    let Some(state_root) = crate::state::store::root_for_commands() else {
        p.err(
            "cuecard: no usable state directory (see `cuecard status`); trust cannot be recorded",
        );
        return ExitStatus::Failure;
    };
    let project = crate::context::project_root_here();
    let mut store = TrustStore::load(&state_root);
    let cards = trust::current_project_cards(&project);
    if a.list {
        let mut out = String::new();
        if store.projects.is_empty() {
            out.push_str("no trusted projects\n");
        }
        for (root, p) in &store.projects {
            out.push_str(&format!("{root}: {} card(s) trusted\n", p.cards.len()));
        }
        out.push_str(&format!("\nthis project ({}):\n", project.display()));
        if cards.is_empty() {
            out.push_str("  no project cards in .cuecard/cards\n");
        }
        for (file, sha) in &cards {
            let state = if store.is_trusted(&project, file, sha) {
                "trusted"
            } else if store
                .projects
                .get(&*project.to_string_lossy())
                .is_some_and(|p| p.cards.contains_key(file))
            {
                "CHANGED since trusted (inactive)"
            } else {
                "new, not trusted (inactive)"
            };
            out.push_str(&format!("  {file}  {state}\n"));
        }
        p.out(&out);
        return ExitStatus::Success;
    }
    if a.revoke {
        let was = store.revoke(&project);
        if let Err(e) = store.save(&state_root) {
            p.err(&format!(
                "cuecard: cannot write {}: {e}",
                trust::path(&state_root).display()
            ));
            return ExitStatus::Failure;
        }
        p.out(&if was {
            format!(
                "trust withdrawn: the cards of {} are inactive again",
                project.display()
            )
        } else {
            format!("{} was not trusted", project.display())
        });
        return ExitStatus::Success;
    }
    let config = crate::policy::project_file_sha(&project);
    if cards.is_empty() && config.is_none() {
        p.out(&format!(
            "no project cards in {}/.cuecard/cards and no .cuecard/config.toml: nothing to trust",
            project.display()
        ));
        return ExitStatus::Success;
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    store.trust(&project, &cards, config.clone(), now);
    if let Err(e) = store.save(&state_root) {
        p.err(&format!(
            "cuecard: cannot write {}: {e}",
            trust::path(&state_root).display()
        ));
        return ExitStatus::Failure;
    }
    let mut out = format!(
        "trusted {} project card(s) of {}:\n",
        cards.len(),
        project.display()
    );
    for (file, sha) in &cards {
        out.push_str(&format!("  {file}  sha256:{}\n", &sha[..16.min(sha.len())]));
    }
    if let Some(sha) = &config {
        out.push_str(&format!(
            "  and its policy file .cuecard/config.toml  sha256:{} (it can only make a policy stricter)\n",
            &sha[..16.min(sha.len())]
        ));
    }
    out.push_str(
        "A card or policy file added or changed later stays inactive until you run `cuecard trust` again.\n",
    );
    p.out(&out);
    ExitStatus::Success
}
