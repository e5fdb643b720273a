//! The effective policy of one call: its sources, read in order of
//! precedence, and the answer for one finding with the line it came from.
//!
//! Precedence (docs/design.md §4a, issue 26): the user's `config.toml` over the
//! card's own `- decision:` over `advise`; then `CUECARD_POLICY`, the
//! user's config file at its default place when a variable moved the one
//! read (`floors`), a trusted project's `.cuecard/config.toml` and a
//! project card's `- decision:` may each only make the result stricter,
//! never looser. A repository can set the environment a hook runs with
//! (Claude Code's project `env`, Gemini's `.env`), so no variable undoes a
//! line of the user's own file. A source that cannot be read counts for
//! nothing, and a line not understood counts for nothing while the
//! source's other lines apply (issue 33: a typo never takes a deny down
//! with it); both are recorded, told at every session start and named by
//! `doctor`. A broken line never denies.

use super::error::PolicyError;
use super::{Level, Rules};
use std::path::{Path, PathBuf};

/// The most of a config file that is read.
pub const MAX_BYTES: u64 = 64 * 1024;

/// Where one source's lines come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyOrigin {
    Env,
    User(PathBuf),
    Project(PathBuf),
}

impl PolicyOrigin {
    pub fn label(&self) -> String {
        match self {
            PolicyOrigin::Env => "CUECARD_POLICY".into(),
            PolicyOrigin::User(p) | PolicyOrigin::Project(p) => p.display().to_string(),
        }
    }
}

/// One source, as read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Read {
    /// Nothing there (no variable, no file).
    Absent,
    Rules(Rules),
    /// Not understood or not readable: counts for nothing.
    Malformed(PolicyError),
    /// A project file that is not pinned by `cuecard trust` (new or changed
    /// since): counts for nothing until trusted.
    Untrusted,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    pub origin: PolicyOrigin,
    pub read: Read,
}

impl Source {
    fn rules(&self) -> Option<&Rules> {
        match &self.read {
            Read::Rules(r) => Some(r),
            _ => None,
        }
    }
}

/// A card's own decision (its Bindings' `- decision:`) and whether it is a
/// project card (which, like the project's config, may only tighten).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardDecision<'a> {
    pub card: &'a str,
    pub level: Level,
    pub project: bool,
}

/// The answer for one finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedLevel {
    pub level: Level,
    /// The line it came from (`CUECARD_POLICY: destructive=deny`), or
    /// `default` for advise by default.
    pub from: String,
}

/// The policy sources of one call, in precedence order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Policy {
    pub env: Source,
    pub user: Source,
    pub project: Source,
    /// The user's config file at its default place(s), when
    /// `CUECARD_CONFIG_DIR` or `XDG_CONFIG_HOME` made `user` another file:
    /// a variable can add a config, never hide the user's own.
    pub floors: Vec<Source>,
}

impl Policy {
    /// No source at all: everything is advice.
    pub fn none() -> Policy {
        Policy {
            env: Source {
                origin: PolicyOrigin::Env,
                read: Read::Absent,
            },
            user: Source {
                origin: PolicyOrigin::User(PathBuf::new()),
                read: Read::Absent,
            },
            project: Source {
                origin: PolicyOrigin::Project(PathBuf::new()),
                read: Read::Absent,
            },
            floors: Vec::new(),
        }
    }

    /// The sources as given (tests, `explain`).
    pub fn from_sources(env: Source, user: Source, project: Source) -> Policy {
        Policy {
            env,
            user,
            project,
            floors: Vec::new(),
        }
    }

    /// The same, with the user's files at their default places.
    pub fn with_floors(mut self, floors: Vec<Source>) -> Policy {
        self.floors = floors;
        self
    }

    /// The policy for finding `id` (`guard.kind`, or `guard`) of a card
    /// with its own `decision`, if any.
    ///
    /// An opaque finding (`<guard>.opaque`: a command nobody can read) is
    /// never stricter than `ask` unless a line names the opaque id itself: a
    /// guard's `deny` (or a card's) asks a person instead.
    pub fn resolve(&self, id: &str, card: Option<CardDecision>) -> ResolvedLevel {
        let opaque = id.ends_with(".opaque");
        let cap = |named: bool, l: Level| {
            if opaque && !named && l > Level::Ask {
                Level::Ask
            } else {
                l
            }
        };
        let line = |s: &Source| {
            s.rules().and_then(|r| r.get(id)).map(|(k, l)| {
                let level = cap(k == id, l);
                let capped = if level == l {
                    ""
                } else {
                    " (capped at ask: nobody can read an opaque call; set this id to deny it)"
                };
                ResolvedLevel {
                    level,
                    from: format!("{}: {k} = {l}{capped}", s.origin.label()),
                }
            })
        };
        let own = card.filter(|c| !c.project).map(|c| ResolvedLevel {
            level: cap(false, c.level),
            from: format!("card {}: decision: {}", c.card, c.level),
        });
        let mut out = line(&self.user).or(own).unwrap_or(ResolvedLevel {
            level: Level::Advise,
            from: "default".into(),
        });
        let tighten = [
            line(&self.env),
            line(&self.project),
            card.filter(|c| c.project).map(|c| ResolvedLevel {
                level: cap(false, c.level),
                from: format!("project card {}: decision: {}", c.card, c.level),
            }),
        ];
        let floors = self.floors.iter().map(line);
        for t in tighten.into_iter().chain(floors).flatten() {
            if t.level > out.level {
                out = t;
            }
        }
        out
    }

    /// Whether the user's own config file (or one at its default place)
    /// sets anything to ask or deny: then `CUECARD_DISABLE` is not
    /// honoured (issue 26).
    pub fn user_decides(&self) -> bool {
        std::iter::once(&self.user)
            .chain(&self.floors)
            .filter_map(Source::rules)
            .any(|r| r.lines.iter().any(|(_, l)| l.decides()))
    }

    /// Whether any source sets anything (an unset policy costs nothing
    /// and `explain` says so).
    pub fn is_set(&self) -> bool {
        self.sources()
            .iter()
            .any(|s| s.rules().is_some_and(|r| !r.is_empty()))
    }

    /// The sources that count for nothing, with why, for `doctor` and the
    /// failure record.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        for s in self.sources() {
            match &s.read {
                Read::Malformed(why) => out.push(format!(
                    "{} is malformed and counts for nothing (every finding stays advice): {why}",
                    s.origin.label()
                )),
                Read::Untrusted => out.push(format!(
                    "{} is new or changed since `cuecard trust`: it counts for nothing until you review it and run `cuecard trust`",
                    s.origin.label()
                )),
                Read::Rules(r) => {
                    for why in &r.problems {
                        let tail = match why {
                            PolicyError::NotUtf8 => "",
                            _ => "; this line counts for nothing (the other lines apply)",
                        };
                        out.push(format!("{}: {why}{tail}", s.origin.label()));
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Every source as read, one line each, and every line it sets, for
    /// `cuecard policy`.
    pub fn sources(&self) -> Vec<&Source> {
        let mut out = vec![&self.env, &self.user];
        out.extend(&self.floors);
        out.push(&self.project);
        out
    }
}

/// Reads a config file's `[policy]` table: bounded, a regular file only
/// (`follow`: whether a link in the last place is followed).
pub fn read_file(
    path: &Path,
    follow: bool,
    known: &dyn Fn(&str) -> bool,
) -> (Read, Option<String>) {
    let f = match crate::fsutil::open_regular(path, follow) {
        Ok((f, _)) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            crate::audit::settings::remember(path, None);
            return (Read::Absent, None);
        }
        Err(e) => {
            return (
                Read::Malformed(PolicyError::Unreadable(e.to_string())),
                None,
            );
        }
    };
    let bytes = match crate::fsutil::read_capped(f, MAX_BYTES) {
        Ok((bytes, true)) => bytes,
        Ok((_, false)) => return (Read::Malformed(PolicyError::TooLarge), None),
        Err(_) => return (Read::Malformed(PolicyError::ReadFailed), None),
    };
    let sha = crate::deck::sources::sha256_hex(&bytes);
    // The `[audit]` table of the same bytes: the hook learns whether the
    // audit is on without opening the file again.
    crate::audit::settings::remember(path, Some(&String::from_utf8_lossy(&bytes)));
    // A stray byte that is not UTF-8 spoils its own line only: it reads as
    // U+FFFD, which no key or value contains (issue 33).
    let mut rules = Rules::from_toml(&String::from_utf8_lossy(&bytes), known);
    // The `[effects]` packs of the same bytes, for the guards that read
    // them later in the call (`policy::packs`); a table that is not UTF-8
    // counts for nothing there.
    rules.packs = Some(match std::str::from_utf8(&bytes) {
        Ok(text) => super::packs::parse(text),
        Err(_) => {
            rules.problems.insert(0, PolicyError::NotUtf8);
            Err(super::packs::NOT_UTF8.to_string())
        }
    });
    (Read::Rules(rules), Some(sha))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn src(origin: PolicyOrigin, text: &str) -> Source {
        Source {
            origin,
            read: Read::Rules(Rules::from_env(text, &|_| true)),
        }
    }
    fn absent(origin: PolicyOrigin) -> Source {
        Source {
            origin,
            read: Read::Absent,
        }
    }
    fn user() -> PolicyOrigin {
        PolicyOrigin::User("u.toml".into())
    }
    fn project() -> PolicyOrigin {
        PolicyOrigin::Project("p.toml".into())
    }
    const ID: &str = "destructive.outside-project";

    #[test]
    fn an_opaque_finding_asks_unless_its_own_id_denies() {
        const OPAQUE: &str = "destructive.opaque";
        let deny_card = Some(CardDecision {
            card: "c",
            level: Level::Deny,
            project: true,
        });
        let p = Policy::from_sources(
            src(PolicyOrigin::Env, "destructive=deny"),
            absent(user()),
            src(project(), "destructive=deny"),
        );
        let r = p.resolve(OPAQUE, deny_card);
        assert_eq!(r.level, Level::Ask);
        assert!(r.from.contains("capped at ask"), "{}", r.from);
        // Other ids of the guard keep the deny.
        assert_eq!(p.resolve(ID, None).level, Level::Deny);
        let p = Policy::from_sources(
            src(PolicyOrigin::Env, "destructive=ask,destructive.opaque=deny"),
            absent(user()),
            absent(project()),
        );
        assert_eq!(p.resolve(OPAQUE, None).level, Level::Deny);
        // The project may set the id itself, and only tighten.
        let p = Policy::from_sources(
            src(PolicyOrigin::Env, "destructive=ask"),
            absent(user()),
            src(project(), "destructive.opaque=deny"),
        );
        assert_eq!(p.resolve(OPAQUE, None).level, Level::Deny);
    }

    #[test]
    fn nothing_set_is_advice() {
        let p = Policy::none();
        assert_eq!(p.resolve(ID, None).level, Level::Advise);
        assert!(!p.is_set());
    }

    #[test]
    fn user_over_card_over_default_and_the_environment_only_tightens() {
        let card = Some(CardDecision {
            card: "c",
            level: Level::Ask,
            project: false,
        });
        let p = Policy::from_sources(absent(PolicyOrigin::Env), absent(user()), absent(project()));
        assert_eq!(p.resolve(ID, card).level, Level::Ask);
        let p = Policy::from_sources(
            absent(PolicyOrigin::Env),
            src(user(), "destructive=deny"),
            absent(project()),
        );
        assert_eq!(p.resolve(ID, card).level, Level::Deny);
        // Issue 26: a looser CUECARD_POLICY does not undo the user's file.
        for env in [
            "destructive.outside-project=advise",
            "destructive.outside-project=ask",
            "destructive=advise",
        ] {
            let p = Policy::from_sources(
                src(PolicyOrigin::Env, env),
                src(user(), "destructive=deny"),
                absent(project()),
            );
            let r = p.resolve(ID, card);
            assert_eq!(r.level, Level::Deny, "{env}");
            assert_eq!(r.from, "u.toml: destructive = deny");
        }
        // Nor a card's own decision.
        let p = Policy::from_sources(
            src(PolicyOrigin::Env, "destructive=advise"),
            absent(user()),
            absent(project()),
        );
        assert_eq!(p.resolve(ID, card).level, Level::Ask);
        // A stricter one counts.
        let p = Policy::from_sources(
            src(PolicyOrigin::Env, "destructive.outside-project=deny"),
            src(user(), "destructive=ask"),
            absent(project()),
        );
        let r = p.resolve(ID, None);
        assert_eq!(r.level, Level::Deny);
        assert_eq!(r.from, "CUECARD_POLICY: destructive.outside-project = deny");
        assert_eq!(p.resolve("destructive.git-discard", None).level, Level::Ask);
        // The user's file at its default place is a floor.
        let p = Policy::from_sources(absent(PolicyOrigin::Env), absent(user()), absent(project()))
            .with_floors(vec![src(
                PolicyOrigin::User("home.toml".into()),
                "destructive=deny",
            )]);
        assert_eq!(p.resolve(ID, None).level, Level::Deny);
        assert!(p.user_decides());
    }

    #[test]
    fn the_project_only_tightens() {
        let p = Policy::from_sources(
            absent(PolicyOrigin::Env),
            src(user(), "destructive=deny"),
            src(project(), "destructive=advise"),
        );
        assert_eq!(p.resolve(ID, None).level, Level::Deny);
        let p = Policy::from_sources(
            src(PolicyOrigin::Env, "destructive=advise"),
            absent(user()),
            src(project(), "destructive=ask"),
        );
        let r = p.resolve(ID, None);
        assert_eq!(r.level, Level::Ask);
        assert_eq!(r.from, "p.toml: destructive = ask");
        // A project card's own decision tightens too, and never loosens.
        let pc = |level| {
            Some(CardDecision {
                card: "pc",
                level,
                project: true,
            })
        };
        let p = Policy::from_sources(
            absent(PolicyOrigin::Env),
            src(user(), "destructive=deny"),
            absent(project()),
        );
        assert_eq!(p.resolve(ID, pc(Level::Advise)).level, Level::Deny);
        let p = Policy::none();
        assert_eq!(p.resolve(ID, pc(Level::Deny)).level, Level::Deny);
    }

    #[test]
    fn malformed_and_untrusted_sources_count_for_nothing() {
        let p = Policy::from_sources(
            Source {
                origin: PolicyOrigin::Env,
                read: Read::Malformed(PolicyError::NotUtf8),
            },
            Source {
                origin: user(),
                read: Read::Malformed(PolicyError::TooLarge),
            },
            Source {
                origin: project(),
                read: Read::Untrusted,
            },
        );
        assert_eq!(p.resolve(ID, None).level, Level::Advise);
        assert_eq!(p.problems().len(), 3);
    }
}
