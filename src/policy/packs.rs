//! Reading and checking the `[effects]` packs of the config files (issue
//! 27, point 2): see [`crate::guards::effects::packs`] for what a pack is.
//! The dispatcher hands the guards [`load_known`] with what the call
//! already read ([`Known`]: its state root, the config files its policy
//! read, the card directories deck resolution listed), so that a call
//! opens each file and lists each directory once.

use super::rules::{bare, strip_comment, unquote};
use super::{Policy, Read, Source};
use crate::deck::resolve::Listed;
use crate::deck::sources::{self, Always, CardDir, CardScope, FileCard, Glance};
use crate::guards::effects::packs::PackVerb;
use std::path::{Path, PathBuf};

/// The guards a pack may extend.
const GUARDS: &[&str] = &["destructive", "secrets"];

/// The `[effects]` table of a config file's text (other tables skipped).
pub fn parse(text: &str) -> Result<Vec<PackVerb>, String> {
    let mut out = Vec::new();
    let mut inside = false;
    for (n, raw) in text.lines().enumerate() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        if let Some(h) = line.strip_prefix('[') {
            inside = h.strip_suffix(']').map(str::trim) == Some("effects");
            continue;
        }
        if !inside {
            continue;
        }
        let at = |why: String| format!("[effects] line {}: {why}", n + 1);
        out.push(parse_line(line).map_err(at)?);
    }
    Ok(out)
}

/// One pack line, `"tool words" = "id"` (a config's `[effects]` line or a
/// card's `- effect:` value).
pub fn parse_line(line: &str) -> Result<PackVerb, String> {
    let (k, v) = line
        .split_once('=')
        .ok_or_else(|| format!("`{line}` is not `\"tool words\" = \"id\"`"))?;
    let key = unquote(k.trim())
        .or_else(|| bare(k.trim()))
        .ok_or_else(|| format!("`{}` is not a key", k.trim()))?;
    let id = unquote(v.trim()).ok_or_else(|| format!("the id of `{key}` is not quoted"))?;
    let mut words = key.split_whitespace().map(str::to_ascii_lowercase);
    let tool = words
        .next()
        .ok_or_else(|| "an empty key names no tool".to_string())?;
    let words: Vec<String> = words.collect();
    if words.is_empty() {
        return Err(format!(
            "`{key}` names a tool but no verb: every call of it would fire"
        ));
    }
    let (guard, kind) = finding_id(id).ok_or_else(|| {
        format!("`{id}` is not a destructive or secrets finding id (see `cuecard policy --ids`)")
    })?;
    Ok(PackVerb {
        tool,
        words,
        guard,
        kind,
    })
}

/// The guard and kind of a finding id a pack may give (the kind as the
/// guard's own `&'static str`); a guard's name alone names no kind.
fn finding_id(id: &str) -> Option<(&'static str, &'static str)> {
    let (g, k) = id.split_once('.')?;
    let guard = *GUARDS.iter().find(|x| **x == g)?;
    let kinds = crate::guards::lookup(guard)?.kinds();
    kinds
        .iter()
        .find(|(x, _)| *x == k)
        .map(|(x, _)| (guard, *x))
}

/// Why a config file's packs count for nothing when it is not UTF-8.
pub(super) const NOT_UTF8: &str = "not UTF-8";

/// Reads a config file's packs: bounded, a regular file only. `None`: no
/// file.
fn read(path: &Path, follow: bool) -> Option<Result<Vec<PackVerb>, String>> {
    let bytes = match crate::fsutil::read_regular(path, follow, crate::policy::MAX_BYTES) {
        Ok((bytes, true, _)) => bytes,
        Ok(_) => return Some(Err("unreadable or too large".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return None,
        Err(e) => return Some(Err(e.to_string())),
    };
    let text = String::from_utf8(bytes).map_err(|_| NOT_UTF8.to_string());
    Some(text.and_then(|t| parse(&t)))
}

/// One config file's packs as the call's policy read them.
#[derive(Debug, Clone, Default)]
enum Seen {
    /// Not read by the call's policy (or not readable: read here again,
    /// so that what is recorded says why in the packs' words).
    #[default]
    Unread,
    /// Counts for nothing: no file, or a project's that is not trusted or
    /// cannot be read.
    Nothing,
    /// Its `[effects]` table, from the bytes the policy read.
    Table(Result<Vec<PackVerb>, String>),
}

impl Seen {
    /// What a source of the policy says of its file's packs (`project`: a
    /// project's, whose rules count only once trusted).
    fn of(source: &Source, project: bool) -> Seen {
        match &source.read {
            Read::Absent => Seen::Nothing,
            Read::Rules(r) => r.packs.clone().map_or(Seen::Unread, Seen::Table),
            Read::Untrusted | Read::Malformed(_) if project => Seen::Nothing,
            Read::Untrusted | Read::Malformed(_) => Seen::Unread,
        }
    }
}

/// What a call already knows when its packs are read, so that none of it
/// is read twice: the state root it resolved, the config files its policy
/// read, the card directories deck resolution listed.
#[derive(Debug, Default)]
pub struct Known {
    state_root: Option<PathBuf>,
    user: Seen,
    project: Seen,
    /// `None`: the directories were not listed (read them here).
    cards: Option<Listed>,
}

impl Known {
    /// The hook's: the call's state root, its policy if read by now, and
    /// what resolution listed.
    pub fn of_call(state_root: Option<PathBuf>, policy: Option<&Policy>, cards: Listed) -> Known {
        Known {
            state_root,
            user: policy.map_or(Seen::Unread, |p| Seen::of(&p.user, false)),
            project: policy.map_or(Seen::Unread, |p| Seen::of(&p.project, true)),
            cards: Some(cards),
        }
    }
}

/// The packs that count for a call: the user's, then a trusted project's,
/// then those of the user's and the trusted project's cards. A malformed
/// source is recorded and counts for nothing. Everything is read here (the
/// commands'; the hook's is [`load_known`]).
pub fn load(project_root: &Path) -> Vec<PackVerb> {
    let known = Known {
        state_root: crate::state::store::root_for_commands(),
        ..Known::default()
    };
    load_known(project_root, known)
}

/// [`load`], with what the call already read taken from `known`.
pub fn load_known(project_root: &Path, known: Known) -> Vec<PackVerb> {
    let mut out = Vec::new();
    let mut take = |label: &str, r: Option<Result<Vec<PackVerb>, String>>| match r {
        Some(Ok(v)) => out.extend(v),
        Some(Err(why)) => crate::diag::record(
            crate::diag::Kind::BadConfig,
            format!("{label}: its [effects] table counts for nothing: {why}"),
        ),
        None => {}
    };
    if let Some(p) = crate::policy::user_file() {
        let label = p.display().to_string();
        match known.user {
            // The user's own file may be a link into their dotfiles.
            Seen::Unread => take(&label, read(&p, true)),
            Seen::Nothing => {}
            Seen::Table(r) => take(&label, Some(r)),
        }
    }
    let project = crate::policy::project_file(project_root);
    let state = known.state_root.as_deref();
    match known.project {
        Seen::Unread => {
            if project.exists()
                && let Some(sha) = crate::policy::project_file_sha(project_root)
                && state.is_some_and(|s| {
                    crate::trust::TrustStore::load(s).config_trusted(project_root, &sha)
                })
            {
                take(&project.display().to_string(), read(&project, false));
            }
        }
        Seen::Nothing => {}
        Seen::Table(r) => take(&project.display().to_string(), Some(r)),
    }
    let lines = card_lines(project_root, state, known.cards);
    out.extend(lines.into_iter().filter_map(|(_, r)| r.ok()));
    out
}

/// The pack lines of the user's cards and of this project's trusted cards
/// (`- effect:` in Bindings; a disabled card's count for nothing), each
/// with its card file and whether it parses. A project card only adds
/// findings, like a trusted project's `[effects]`: it can tighten, never
/// loosen. The directories are taken as `listed` (where given) holds them:
/// the user's as listed; the project's as listed when every card of it
/// with pack lines was checked on disk, else read here.
fn card_lines(
    project_root: &Path,
    state: Option<&Path>,
    listed: Option<Listed>,
) -> Vec<(String, Result<PackVerb, String>)> {
    let (user, project) = match listed {
        Some(l) => (Some(l.user), l.project),
        None => (None, None),
    };
    let user = user.or_else(|| {
        sources::user_dir().map(|d| sources::read_dir(&d, CardScope::User, state, &Always))
    });
    let vouch = crate::trust::ProjectTrust::new(state, project_root);
    let dir = sources::project_dir(project_root);
    let project = match project {
        Some((cards, true)) => cards,
        Some((cards, false)) if cards.verify(&dir, &has_packs) => cards,
        _ => project_cards(&dir, state, &vouch),
    };
    let mut out = Vec::new();
    for cards in user.iter().chain([&project]) {
        for fc in cards.files() {
            if !fc.trusted() || !has_packs(0, &fc) {
                continue;
            }
            let Ok(card) = fc.card() else { continue };
            if !card.bindings.enabled {
                continue;
            }
            for line in card.bindings.effects() {
                out.push((fc.file().into_owned(), parse_line(line)));
            }
        }
    }
    out
}

/// Whether a card of a directory has pack lines (a trusted one's count).
fn has_packs(_: usize, fc: &FileCard) -> bool {
    fc.trusted() && fc.triggers().iter().any(|(k, _)| k == "effect")
}

/// A project's cards for their pack lines: from the parsed-card cache as
/// it stands when it is current and the cards with pack lines are unchanged
/// on disk (what a full read would find of them), else read in full.
fn project_cards(dir: &Path, state: Option<&Path>, vouch: &dyn sources::Vouch) -> CardDir {
    let cached = state.and_then(|s| match sources::glance(dir, s, vouch, &|_| None) {
        Some(Glance::Absent) => Some(CardDir::default()),
        Some(Glance::Cards(cards)) => cards.verify(dir, &has_packs).then_some(cards),
        Some(Glance::Quiet(_)) | None => None,
    });
    cached.unwrap_or_else(|| sources::read_dir(dir, CardScope::Project, state, vouch))
}

/// For `cuecard cards check`: each config file that has an `[effects]`
/// table, with its verb count or what is wrong (a project file whether
/// trusted or not: checking is how one reviews it).
pub fn check_files(project_root: &Path) -> Vec<(String, Result<usize, String>)> {
    let mut out = Vec::new();
    let files = crate::policy::user_file()
        .map(|p| (p, true))
        .into_iter()
        .chain([(crate::policy::project_file(project_root), false)]);
    for (path, follow) in files {
        match read(&path, follow) {
            None | Some(Ok(_)) if !has_table(&path, follow) => {}
            Some(r) => out.push((path.display().to_string(), r.map(|v| v.len()))),
            None => {}
        }
    }
    out
}

/// Whether a config file has an `[effects]` table (read bounded).
fn has_table(path: &Path, follow: bool) -> bool {
    use std::io::Read as _;
    let Ok((f, _)) = crate::fsutil::open_regular(path, follow) else {
        return false;
    };
    let mut text = String::new();
    if f.take(crate::policy::MAX_BYTES)
        .read_to_string(&mut text)
        .is_err()
    {
        return false;
    }
    text.lines().any(|l| strip_comment(l).trim() == "[effects]")
}

/// Every pack verb that counts here, for `cuecard policy --ids`.
pub fn lines(project_root: &Path) -> Vec<String> {
    load(project_root)
        .iter()
        .map(|p| {
            format!(
                "{}.{:<28} `{} {}` (your [effects] pack)",
                p.guard,
                p.kind,
                p.tool,
                p.words.join(" ")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pack_line_is_a_tool_its_words_and_an_id() {
        let p = parse(
            "[policy]\ndestructive = \"ask\"\n[effects]\n\"acmectl db wipe|reset\" = \"destructive.database\" # ours\n'vaultctl reveal' = \"secrets.printed\"\n",
        )
        .unwrap();
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].tool, "acmectl");
        assert_eq!(p[0].words, ["db", "wipe|reset"]);
        assert_eq!((p[0].guard, p[0].kind), ("destructive", "database"));
        assert_eq!((p[1].guard, p[1].kind), ("secrets", "printed"));
    }

    #[test]
    fn a_wrong_line_makes_the_table_count_for_nothing() {
        for text in [
            "[effects]\n\"acmectl\" = \"destructive.database\"\n",
            "[effects]\n\"acmectl wipe\" = \"destructive\"\n",
            "[effects]\n\"acmectl wipe\" = \"destructive.typo\"\n",
            "[effects]\n\"acmectl wipe\" = \"eval\"\n",
            "[effects]\n\"acmectl wipe\" = destructive\n",
            "[effects]\nacmectl wipe\n",
        ] {
            assert!(parse(text).is_err(), "{text}");
        }
    }
}
