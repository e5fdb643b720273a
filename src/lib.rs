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

pub mod card;
pub mod catalog;
pub mod cli;
pub mod commands;
pub mod context;
pub mod deadline;
pub mod deck;
pub mod diag;
pub mod dirs;
pub mod dispatch;
pub mod env;
pub mod envelope;
pub mod event;
pub mod finding;
pub mod fsutil;
pub mod guards;
pub mod harness;
pub mod hash;
pub mod hook;
pub mod hookfiles;
pub mod install;
pub mod level;
pub mod patch;
pub mod paths;
pub mod payload;
pub mod policy;
pub mod printer;
pub mod recovery;
pub mod registration;
pub mod replay;
pub mod report;
pub mod shell;
pub mod startup;
pub mod state;
pub mod suggest;
pub mod target;
pub mod text;
pub mod tokens;
pub mod transcript;
pub mod trigger;
pub mod trust;
pub mod unjudged;
