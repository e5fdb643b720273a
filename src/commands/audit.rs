//! `cuecard audit verify` and `cuecard audit export --endpoint <url>`
//! (docs/audit.md). The export is the `export` module, which nothing on
//! the hook path reaches.

use super::{CommandError, ExitStatus};
use crate::printer::Printer;
use std::time::Duration;

/// Whether the audit is on, and from which file, in one line (and a line
/// for each setting not understood, and for a managed file refused).
pub fn state_line() -> String {
    use crate::audit::managed::{self, Managed};
    use crate::policy::AuditFrom;
    let (s, from) = crate::policy::audit_source();
    let file = crate::policy::user_file()
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| "config.toml".into());
    let managed_path = managed::path().0.display().to_string();
    let mut out = match &from {
        AuditFrom::Off => format!(
            "audit: off (add `[audit]` with `enabled = true` to {file}, or to the managed file {managed_path} for every user)"
        ),
        from => format!(
            "audit: on (files of {} KiB, {} kept), set by {}",
            s.max_file_bytes / 1024,
            s.max_files,
            match from {
                AuditFrom::Managed(p) => format!(
                    "the managed file {} (a user's config cannot switch it off)",
                    p.display()
                ),
                AuditFrom::User(p) => format!("the user config {}", p.display()),
                AuditFrom::Off => unreachable!(),
            }
        ),
    };
    match managed::get() {
        Managed::Refused(why) => {
            out.push_str(&format!("\n  managed file {managed_path}: {why}"));
        }
        Managed::Read(_, problems) => {
            for why in problems {
                out.push_str(&format!("\n  {managed_path}: {why} (its default applies)"));
            }
        }
        Managed::Absent => {}
    }
    // A line of the table not understood keeps its default: say which.
    let text = crate::policy::user_file()
        .and_then(|p| crate::fsutil::open_regular(&p, true).ok())
        .and_then(|(f, _)| {
            use std::io::Read;
            let mut b = Vec::new();
            f.take(crate::policy::MAX_BYTES).read_to_end(&mut b).ok()?;
            Some(String::from_utf8_lossy(&b).into_owned())
        });
    if let Some((_, problems)) = text.as_deref().and_then(crate::audit::settings::parse) {
        for why in problems {
            out.push_str(&format!("\n  {file}: {why} (its default applies)"));
        }
    }
    out
}

pub fn verify(p: &Printer) -> Result<ExitStatus, CommandError> {
    let Some(root) = crate::state::store::root_for_commands() else {
        p.out(&format!(
            "{}\nno audit log: no state directory yet",
            state_line()
        ));
        return Ok(ExitStatus::Success);
    };
    let dir = crate::audit::log::dir(&root);
    let r = crate::audit::verify::verify(&root)
        .map_err(|e| CommandError::Audit(format!("cuecard audit verify: {e}")))?;
    let mut out = format!("{}\n", state_line());
    if !r.present {
        out.push_str(&format!("no audit log in {}", dir.display()));
        p.out(&out);
        return Ok(ExitStatus::Success);
    }
    out.push_str(&format!(
        "audit log: {}\n  {} ({}) in {}\n",
        dir.display(),
        crate::text::count(r.records, "record", "records"),
        match (r.first, r.last) {
            (Some(a), Some(b)) => format!("{a} to {b}"),
            _ => "none".into(),
        },
        if r.files.is_empty() {
            "no file".to_string()
        } else {
            r.files.join(", ")
        }
    ));
    if r.problems.is_empty() {
        out.push_str("  chain intact: no record removed or edited");
        p.out(&out);
        return Ok(ExitStatus::Success);
    }
    out.push_str(&format!(
        "  chain BROKEN ({}):",
        crate::text::count(r.problems.len(), "problem", "problems")
    ));
    for line in &r.problems {
        out.push_str(&format!("\n  - {line}"));
    }
    p.out(&out);
    Ok(ExitStatus::Failure)
}

pub fn export(
    p: &Printer,
    endpoint: &str,
    batch: usize,
    timeout: u64,
) -> Result<ExitStatus, CommandError> {
    let root = crate::state::store::root_for_commands().ok_or(CommandError::NoStateDir)?;
    let done = crate::export::export(&root, endpoint, batch, Duration::from_secs(timeout))
        .map_err(|e| CommandError::Audit(e.to_string()))?;
    let mut out = format!(
        "sent {} in {} to {} (accepted up to record {})",
        crate::text::count(done.sent, "record", "records"),
        crate::text::count(done.requests, "request", "requests"),
        done.endpoint,
        done.cursor
    );
    if done.lost > 0 {
        out.push_str(&format!(
            "\nwarning: {} rotated away before they were sent (raise max_file_bytes or max_files, or export more often)",
            crate::text::count(done.lost as usize, "record was", "records were")
        ));
    }
    if done.rejected > 0 {
        out.push_str(&format!(
            "\nwarning: the endpoint rejected {} it received (partial success); they are not sent again",
            crate::text::count(done.rejected as usize, "record", "records")
        ));
    }
    p.out(&out);
    Ok(ExitStatus::Success)
}
