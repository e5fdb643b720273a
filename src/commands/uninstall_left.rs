//! What `uninstall --all` leaves, said plainly: every registration of
//! cuecard still found in a file a harness reads (a plugin or extension the
//! harness installed, entries of the user's that run cuecard), the copy
//! of the binary `install --self` made, and the state folder that holds
//! sessions and trust records.

use crate::harness::config::{Roots, Scope};
use crate::install::document::ConfigFile;
use crate::install::double;

/// Appends what is left to `out` (nothing when nothing is).
pub fn report(roots: &Roots, bin: &str, out: &mut String) {
    let mut left = Vec::new();
    for spec in crate::install::all_specs() {
        let own: Vec<std::path::PathBuf> = [Scope::User, Scope::Project]
            .into_iter()
            .flat_map(|s| {
                std::iter::once(spec)
                    .chain(spec.legacy)
                    .filter_map(move |f| ConfigFile::new(f, s, roots).map(|t| t.path))
            })
            .collect();
        for f in double::find_all(spec, roots, bin) {
            let why = if own.contains(&f.path) {
                "entries of yours that run cuecard, kept (`--replace <program>` removes them)"
            } else {
                "a plugin or extension the harness installed, or a file of yours: remove it \
                 through the harness's plugin or extension manager, or by hand"
            };
            let line = format!(
                "  {} {} ({}): {why}\n",
                spec.harness.id(),
                f.path.display(),
                f.events.join(", ")
            );
            if !left.contains(&line) {
                left.push(line);
            }
        }
    }
    // The lasting copy `install --self` made: uninstall never removes a
    // program.
    let copy = roots.home.join(".local/bin").join(if cfg!(windows) {
        "cuecard.exe"
    } else {
        "cuecard"
    });
    if copy.is_file() {
        left.push(format!(
            "  binary {}: the copy `install --self` made (`rm` it when you no longer need it)\n",
            copy.display()
        ));
    }
    if let Some(dirs) = crate::dirs::Dirs::current()
        && std::fs::symlink_metadata(&dirs.state).is_ok_and(|m| m.is_dir())
    {
        left.push(format!(
            "  state {}: sessions and trust records (delete it when you no longer need them)\n",
            dirs.state.display()
        ));
    }
    if left.is_empty() {
        out.push_str("left: nothing; cuecard is installed nowhere\n");
    } else {
        out.push_str("left:\n");
        for l in left {
            out.push_str(&l);
        }
    }
}
