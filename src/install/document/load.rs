//! Loading a config file: refusing what cannot be rewritten without loss,
//! reading past it when only reading, and what uninstall then says to
//! remove by hand.

use super::{ConfigFile, owner};
use crate::install::error::InstallError;
use crate::install::fsio;
use crate::install::lossless;
use crate::install::merge;
use crate::install::owned::{self, Owned};
use serde_json::{Map, Value};

/// The file's text and document, `None` when it does not exist.
pub fn load(t: &ConfigFile) -> Result<Option<(String, Value)>, InstallError> {
    fsio::refuse_symlinks(&t.base, &t.path)?;
    let Some(text) = fsio::read(&t.path)? else {
        return Ok(None);
    };
    if let Some(o) = t.spec.owned {
        // A whole file cuecard owns: its entries are the JSON line it carries.
        return match owned::parse(o, &text) {
            Owned::Ours { doc, .. } => Ok(Some((text, doc))),
            Owned::Foreign => Err(InstallError::ForeignOwned {
                path: t.path.clone(),
                what: o.what,
            }),
        };
    }
    if text.trim().is_empty() {
        return Ok(Some((text, Value::Object(Map::new()))));
    }
    lossless::check(&text).map_err(|why| InstallError::Lossy {
        path: t.path.clone(),
        why,
        dry_run: t.dry_run_command(),
    })?;
    let doc: Value = serde_json::from_str(&text).map_err(|error| InstallError::InvalidJson {
        path: t.path.clone(),
        error,
        dry_run: t.dry_run_command(),
    })?;
    Ok(Some((text, doc)))
}

/// [`load`] for reading only (verify, doctor, what uninstall says to
/// remove by hand): a file with comments or trailing commas, which install
/// refuses to rewrite, is read past them. The third item says why the file
/// cannot be rewritten, when it cannot.
pub fn load_read_only(
    t: &ConfigFile,
) -> Result<Option<(String, Value, Option<String>)>, InstallError> {
    match load(t) {
        Ok(loaded) => Ok(loaded.map(|(text, doc)| (text, doc, None))),
        // A link cuecard will not write through is still read (reading
        // changes nothing).
        Err(e @ (InstallError::Symlink(_) | InstallError::SymlinkedDir(_))) => {
            let Ok(Some(text)) = fsio::read(&t.path) else {
                return Err(e);
            };
            let plain = lossless::tolerant(&text).unwrap_or_else(|| text.clone());
            let doc = if plain.trim().is_empty() {
                Value::Object(Map::new())
            } else {
                match serde_json::from_str::<Value>(&plain) {
                    Ok(doc) => doc,
                    Err(_) => return Err(e),
                }
            };
            Ok(Some((text, doc, Some(e.to_string()))))
        }
        Err(e @ (InstallError::Lossy { .. } | InstallError::InvalidJson { .. })) => {
            let Ok(Some(text)) = fsio::read(&t.path) else {
                return Err(e);
            };
            match lossless::tolerant(&text)
                .and_then(|plain| serde_json::from_str::<Value>(&plain).ok())
            {
                Some(doc) => {
                    let why = match &e {
                        InstallError::Lossy { why, .. } => why.to_string(),
                        _ => "it is not plain JSON".into(),
                    };
                    Ok(Some((text, doc, Some(why))))
                }
                None => Err(e),
            }
        }
        Err(e) => Err(e),
    }
}

/// What uninstall can say of a file it may read but not rewrite.
pub enum ByHand {
    /// It cannot be read even so.
    Unreadable,
    /// It holds nothing of cuecard's.
    Nothing,
    /// cuecard's entries, one line each, to delete by hand.
    Delete(String),
}

/// What to delete by hand from a file cuecard reads but cannot rewrite
/// (`refused`: why; `wanted`: what install would write there now, when the
/// caller has it).
pub fn by_hand_removal(
    t: &ConfigFile,
    bin: &str,
    wanted: Option<&[merge::HookEntry]>,
    refused: &InstallError,
) -> ByHand {
    let Ok(Some((_, doc, lossy))) = load_read_only(t) else {
        return ByHand::Unreadable;
    };
    let why = lossy.unwrap_or_else(|| refused.to_string());
    let owner = owner(t, bin, wanted);
    let found = merge::ours(&doc, t.spec.layout, &owner);
    if found.is_empty() {
        return ByHand::Nothing;
    }
    let mut out = format!(
        "{}: cuecard does not rewrite this file ({why}); nothing was changed. Delete {} by hand \
         (each under `hooks` -> its event):\n",
        t.path.display(),
        if found.len() == 1 {
            "this entry".to_string()
        } else {
            format!("these {} entries", found.len())
        }
    );
    for (event, matcher, h) in found {
        out.push_str(&format!(
            "  {event} [{}]: {h}\n",
            matcher.as_deref().unwrap_or("every call")
        ));
    }
    ByHand::Delete(out)
}
