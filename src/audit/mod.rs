//! The audit stream (docs/audit.md, issue 31): opt-in through `[audit]` in
//! the user's `config.toml` or the machine's managed file, the hook
//! appends one OpenTelemetry log record (OTLP/JSON, one `LogsData` object
//! a line) per decision, per card added to
//! the context and per failure, to a bounded, rotated file under the state
//! root, each record chained to the one before it by its SHA-256.
//!
//! [`settings`]: the `[audit]` table; [`managed`]: the machine's managed
//! file, which switches it on for every user; [`record`]: one record's line;
//! [`log`]: the files, the lock and the head, appends and rotation;
//! [`verify`]: the chain checked. Sending the records anywhere is not here
//! (nothing on the hook path opens a socket): `cuecard audit export` is the
//! `export` module, above the hook.

pub mod log;
pub mod managed;
pub mod record;
pub mod settings;
pub mod verify;

pub use record::{Call, Entry};
pub use settings::Settings;
