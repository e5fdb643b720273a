//! `cuecard plugin build <dir> [--harness claude-code|codex|gemini]`.

use super::{CommandError, ExitStatus};
use crate::cli::PluginBuildArgs;
use crate::printer::Printer;

pub fn build(p: &Printer, a: PluginBuildArgs) -> Result<ExitStatus, CommandError> {
    let spec = super::harness_spec(&a.harness)?;
    let binary = std::path::PathBuf::from(crate::install::roots::installed_binary()?);
    let b = crate::install::plugin::build(spec, &a.dir, &binary)?;
    let mut out = format!("{} plugin: {}\n", spec.harness.name(), a.dir.display());
    for f in &b.files {
        out.push_str(&format!("  wrote {}\n", f.display()));
    }
    for s in &b.skipped {
        out.push_str(&format!(
            "  not registered: {} ({}): {}\n",
            s.event,
            s.cards.join(", "),
            s.why(spec.harness)
        ));
    }
    // The usage names the folder just built, not a placeholder.
    let dir = a.dir.display().to_string();
    out.push_str(&format!("  {}\n", b.format.usage.replace("<dir>", &dir)));
    p.out(&out);
    Ok(ExitStatus::Success)
}
