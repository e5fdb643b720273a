//! The deck: which cards a call or a command sees. Reads the user's and the
//! project's card directories (`sources`) into one set (`set`), keeps a parsed-card cache
//! (`cache`), decides which card of a name wins (`precedence`), resolves
//! the cards of one dispatch (`resolve`) and checks a card against its
//! guard (`validate`). It sits above the card model, the guards and the
//! triggers it combines.

mod cache;
pub mod precedence;
pub mod resolve;
mod set;
pub mod sources;
pub mod validate;
