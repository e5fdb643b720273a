//! cuecard: one fast hook binary that carries short guidance cards into AI
//! coding agents' context. See docs/design.md for the contract.
//!
//! Where things live:
//! - [`event`]: the event table every other part reads.
//! - [`payload`]: reading stdin into a lenient payload view.
//! - [`card`]: the card format and the shipped cards.
//! - [`guards`]: one file per guard.
//! - [`dispatch`]: the pipeline; [`envelope`]: the one renderer.
//! - [`cli`]: the command-line definition; [`commands`]: what each does.
//! - [`printer`]: every byte written to stdout.
//!
//! Modules that only the binary's own code reaches are `pub(crate)`; the
//! public ones are what the integration tests, `xtask` and the fuzz targets
//! drive. The API docs are built with `--document-private-items` (`.ci/run`),
//! so links into the crate's own modules resolve and are kept.
#![allow(rustdoc::private_intra_doc_links)]

pub mod card;
pub mod catalog;
pub(crate) mod cli;
pub mod commands;
pub mod context;
pub(crate) mod deadline;
pub(crate) mod deck;
pub mod diag;
pub(crate) mod dirs;
pub mod dispatch;
pub mod env;
pub mod envelope;
pub mod event;
pub(crate) mod finding;
pub(crate) mod fsutil;
pub mod guards;
pub mod harness;
pub(crate) mod hash;
pub(crate) mod hook;
pub(crate) mod hookfiles;
pub mod install;
pub(crate) mod level;
pub(crate) mod patch;
pub(crate) mod paths;
pub mod payload;
pub mod policy;
pub(crate) mod printer;
pub mod recovery;
pub mod registration;
pub mod replay;
pub mod shell;
pub mod startup;
pub(crate) mod state;
pub(crate) mod suggest;
pub(crate) mod target;
pub mod text;
pub mod tokens;
pub(crate) mod transcript;
pub(crate) mod trigger;
pub(crate) mod trust;
pub(crate) mod unjudged;
