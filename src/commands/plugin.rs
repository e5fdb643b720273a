//! `cuecard plugin build <dir> [--harness claude-code|codex|gemini]`.

use super::ExitStatus;
use crate::cli::PluginBuildArgs;
use crate::printer::Printer;

pub fn build(p: &Printer, a: PluginBuildArgs) -> ExitStatus {
    let spec = match super::harness_spec(p, &a.harness) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let binary = match crate::install::roots::installed_binary() {
        Ok(b) => std::path::PathBuf::from(b),
        Err(e) => {
            p.err(&format!("cuecard: {e}"));
            return ExitStatus::Failure;
        }
    };
    match crate::install::plugin::build(spec, &a.dir, &binary) {
        Ok(b) => {
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
            out.push_str(&format!("  {}\n", b.format.usage));
            p.out(&out);
            ExitStatus::Success
        }
        Err(e) => {
            p.err(&format!("cuecard: {e}"));
            ExitStatus::Failure
        }
    }
}
