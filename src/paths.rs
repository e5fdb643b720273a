//! Per-user directories.

use crate::card::{Card, Origin};
use std::path::PathBuf;

/// The per-user data directory where install materialises the cards:
/// `CUECARD_DATA_DIR`, else the platform's local data directory
/// (`~/.local/share/cuecard` on Linux, `%LOCALAPPDATA%\cuecard\data` on
/// Windows; see [`crate::dirs`]).
pub fn data_dir() -> Option<PathBuf> {
    crate::dirs::data()
}

/// Where a materialised card lives.
pub fn materialised_card(name: &str) -> Option<PathBuf> {
    data_dir().map(|d| d.join("cards").join(format!("{name}.md")))
}

/// The `Full procedure` pointer for a card: its file on disk when readable,
/// else the command that shows it.
pub fn card_pointer(card: &Card) -> String {
    let on_disk = match &card.origin {
        Origin::Embedded => materialised_card(&card.name).filter(|p| p.is_file()),
        Origin::User(p) | Origin::Project(p) => Some(p.clone()),
    };
    match on_disk {
        Some(p) => crate::text::sanitize(&p.to_string_lossy(), 300),
        None => format!("run `cuecard cards show {}`", card.name),
    }
}
