//! Installed harnesses that have not called cuecard since they were
//! installed or since their config changed (`doctor`, `status`), each with
//! its likely reason: what `inspect` finds in the file (hooks switched off,
//! untrusted, the program missing, the entries gone), else the config's
//! change (a harness update or an edit), else no session since.

use crate::harness::config::Scope;
use crate::install::context::Context;
use crate::install::document::ConfigFile;
use crate::install::inspect;
use crate::state::liveness::Silent;
use crate::state::{self, Store};

/// One line per silent install (`what`, `likely reason`), inspected with
/// the caller's install context (`doctor`'s), else one of its own.
pub fn findings(
    store: Option<&Store>,
    only: Option<&str>,
    ctx: Option<&Context>,
) -> Vec<(String, String)> {
    let mut silent = state::liveness::silent(store);
    silent.retain(|s| only.is_none_or(|h| h == s.install.harness));
    if silent.is_empty() {
        return Vec::new();
    }
    let own;
    let ctx = match ctx {
        Some(c) => Some(c),
        None => {
            own = Context::from_env().ok();
            own.as_ref()
        }
    };
    let bin = ctx.and_then(|c| c.bin().ok());
    let now = state::now();
    silent
        .iter()
        .map(|s| {
            let what = format!(
                "{} ({}): {} has not called cuecard {} ({}; last call: {})",
                s.install.harness,
                s.install.scope,
                s.install.config.display(),
                s.since_what(),
                crate::text::ago(now, s.since()),
                s.last_call
                    .map_or("never".into(), |t| crate::text::ago(now, t)),
            );
            (what, reason(s, ctx, bin))
        })
        .collect()
}

/// What the harness's own program says: not on PATH (removed, or moved),
/// or changed after the install (or the config's change) and after the
/// last call: updated.
fn program_reason(s: &Silent) -> Option<String> {
    // The harness's own program, as its registry entry names it (the sign
    // `install --detect` looks for).
    let spec = crate::install::all_specs()
        .into_iter()
        .find(|c| c.harness.id() == s.install.harness)?;
    let name: &str = spec.presence.programs.first()?;
    let Some(path) = crate::install::program::on_path(name) else {
        return Some(format!(
            "likely reason: the harness's program `{name}` is not on PATH (removed, or installed elsewhere)"
        ));
    };
    let changed = std::fs::metadata(&path)
        .ok()?
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    (changed > s.since() && s.last_call.is_none_or(|t| changed > t)).then(|| {
        format!(
            "likely reason: the harness was updated ({} changed {}) and no longer runs these hooks, or has not run since; `cuecard doctor` runs each entry",
            path.display(),
            crate::text::ago(state::now(), changed)
        )
    })
}

/// The likely reason, from the file as `inspect` reads it where this
/// machine's roots reach it.
fn reason(s: &Silent, ctx: Option<&Context>, bin: Option<&str>) -> String {
    if s.config_missing {
        return "likely reason: the config file was removed or moved (a harness update?); `cuecard install` writes it again".into();
    }
    let st = ctx.zip(bin).and_then(|(ctx, bin)| {
        let spec = crate::install::all_specs()
            .into_iter()
            .find(|c| c.harness.id() == s.install.harness)?;
        [Scope::User, Scope::Project, Scope::Managed]
            .into_iter()
            .filter_map(|scope| ConfigFile::new(spec, scope, &ctx.roots))
            .find(|t| t.path == s.install.config)
            .map(|t| inspect::inspect(ctx, &t, bin))
    });
    if let Some(st) = st {
        if let Some(w) = st.switched_off.first() {
            return format!("likely reason: disabled: {w}");
        }
        if let Some(w) = st.untrusted.first() {
            return format!("likely reason: untrusted: {w}");
        }
        if !st.missing.is_empty() || st.not_on_path || st.owned_not_run > 0 {
            return format!(
                "likely reason: the program its entries run is missing or not on PATH ({}); `cuecard install` again",
                if st.missing.is_empty() {
                    "cuecard".to_string()
                } else {
                    st.missing.join(", ")
                }
            );
        }
        if !st.present() {
            return "likely reason: cuecard's entries are no longer in the file (the harness or an edit rewrote it); `cuecard install` again".into();
        }
    }
    if let Some(why) = program_reason(s) {
        return why;
    }
    if s.changed.is_some() {
        "likely reason: the harness was updated or the file edited after install; `cuecard doctor` runs each entry".into()
    } else {
        "likely reason: no session of it started since, or it does not run these hooks (untrusted project hooks, hooks disabled, a harness update); `cuecard doctor` runs each entry".into()
    }
}
