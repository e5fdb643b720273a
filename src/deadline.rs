//! The hook's deadline. A watchdog thread gives the dispatcher a fixed time;
//! when it runs out (stdin that never closes, a guard that hangs), the
//! watchdog seals stdout, records the failure and ends the process with exit
//! code 0 and no output.

use std::time::Duration;

/// The default budget for one dispatch, well under a second.
pub const DEFAULT: Duration = Duration::from_millis(700);

/// `CUECARD_DEADLINE_MS` overrides the budget (50..=5000 ms).
pub fn budget() -> Duration {
    std::env::var("CUECARD_DEADLINE_MS")
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .map(|ms| Duration::from_millis(ms.clamp(50, 5000)))
        .unwrap_or(DEFAULT)
}

/// Arms the watchdog. `on_expiry` runs on the watchdog thread after stdout
/// was sealed and before the process exits (it records the failure; it must
/// be quick and must not print to stdout).
pub fn arm(budget: Duration, on_expiry: impl FnOnce() + Send + 'static) {
    let spawned = std::thread::Builder::new()
        .name("cuecard-deadline".into())
        .spawn(move || {
            std::thread::sleep(budget);
            crate::printer::seal();
            on_expiry();
            std::process::exit(0);
        });
    // If no thread can be started the call simply has no deadline; it is
    // recorded by the caller through the returned error being ignored here.
    drop(spawned);
}
