//! Installation: writing cuecard's hook entries into each harness's own
//! configuration without disturbing anything else there (DESIGN §9).
//!
//! The engine (one concern per file): [`lossless`] refuses what cannot be
//! rewritten without loss, [`style`] keeps the file's formatting, [`fsio`]
//! writes atomically with a backup and refuses symlinks, [`words`] and
//! [`ownership`] recognise cuecard's own entries, [`merge`] puts them in and
//! takes them out.

pub mod fsio;
pub mod lossless;
pub mod merge;
pub mod ownership;
pub mod style;
pub mod words;

pub mod document;
pub mod entries;
pub mod harnesses;
pub mod spec;
