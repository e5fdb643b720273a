//! One source's policy lines, parsed: the `[policy]` table of a
//! `config.toml` (a strict subset of TOML: `key = "value"` lines, bare or
//! quoted keys, `#` comments; other tables are skipped whole) or the
//! `CUECARD_POLICY` list (`guard[.kind]=policy,...`).
//!
//! A line not understood counts for nothing and is kept as a problem; the
//! source's other lines still apply (issue 33: a typo must neither quietly
//! leave a guard at `advise` while its owner believes it denies, nor take
//! an unrelated deny down with it). The problems are reported at every
//! session start and by `doctor` until fixed. A key given twice keeps its
//! stricter line.

use super::Level;
use super::error::PolicyError;

/// The lines of one source, in the order written, and the lines that were
/// not understood (each with its line number for a file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    pub lines: Vec<(String, Level)>,
    pub problems: Vec<PolicyError>,
    /// A config file's `[effects]` table, parsed from the same bytes
    /// ([`crate::policy::packs`]), so that a call reads the file once;
    /// `None` for rules not read from a file's bytes.
    pub packs: Option<Result<Vec<crate::guards::effects::packs::PackVerb>, String>>,
}

impl Rules {
    /// The policy this source gives `id` (`guard.kind`) itself, else its
    /// guard (`guard`): the more specific line wins within one source.
    pub fn get(&self, id: &str) -> Option<(&str, Level)> {
        let exact = self.lines.iter().find(|(k, _)| k == id);
        let guard = id.split_once('.').map(|(g, _)| g);
        exact
            .or_else(|| guard.and_then(|g| self.lines.iter().find(|(k, _)| k == g)))
            .map(|(k, l)| (k.as_str(), *l))
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Adds one line; a key given twice keeps the stricter policy (and is
    /// reported).
    fn add(
        &mut self,
        key: &str,
        value: &str,
        known: &dyn Fn(&str) -> bool,
    ) -> Result<(), PolicyError> {
        let level = Level::parse(value).ok_or_else(|| PolicyError::NotALevel {
            key: key.to_string(),
            value: value.to_string(),
            hint: crate::suggest::hint(value, Level::ALL.map(Level::word)),
        })?;
        if !known(key) {
            return Err(PolicyError::UnknownId {
                key: key.to_string(),
                hint: crate::suggest::hint(key, super::all_ids()),
            });
        }
        if let Some((_, l)) = self.lines.iter_mut().find(|(k, _)| k == key) {
            *l = (*l).max(level);
            return Err(PolicyError::Twice(key.to_string()));
        }
        self.lines.push((key.to_string(), level));
        Ok(())
    }

    /// `CUECARD_POLICY`: `guard[.kind]=policy`, comma-separated.
    pub fn from_env(text: &str, known: &dyn Fn(&str) -> bool) -> Rules {
        let mut r = Rules::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let added = match item.split_once('=') {
                Some((k, v)) => r.add(k.trim(), v.trim(), known),
                None => Err(PolicyError::NotAnItem(item.to_string())),
            };
            if let Err(e) = added {
                r.problems.push(e);
            }
        }
        r
    }

    /// The `[policy]` table of a config file's text.
    pub fn from_toml(text: &str, known: &dyn Fn(&str) -> bool) -> Rules {
        let mut r = Rules::default();
        let mut in_policy = false;
        for (n, raw) in text.lines().enumerate() {
            let line = strip_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            match Self::line(&mut r, line, &mut in_policy, known) {
                Ok(()) => {}
                Err(why) => r.problems.push(PolicyError::AtLine {
                    line: n + 1,
                    why: Box::new(why),
                }),
            }
        }
        r
    }

    /// One line of a config file (not empty, comment stripped).
    fn line(
        r: &mut Rules,
        line: &str,
        in_policy: &mut bool,
        known: &dyn Fn(&str) -> bool,
    ) -> Result<(), PolicyError> {
        if let Some(rest) = line.strip_prefix('[') {
            // A header cut short (`[policy`) still names its table, so the
            // lines under it are read as that table's.
            let (name, closed) = match rest.strip_suffix(']') {
                Some(n) => (n.trim(), true),
                None => (rest.trim(), false),
            };
            *in_policy = name == "policy";
            if !closed {
                return Err(PolicyError::NotAHeader(line.to_string()));
            }
            let hint = crate::suggest::hint(name, ["policy"]);
            if !hint.is_empty() {
                // `[polcy]`: its lines are not read as policy, and that is
                // never silent.
                return Err(PolicyError::UnknownTable {
                    name: name.to_string(),
                    hint,
                });
            }
            return Ok(());
        }
        if !*in_policy {
            return Ok(());
        }
        let (k, v) = line
            .split_once('=')
            .ok_or_else(|| PolicyError::NotAnAssignment(line.to_string()))?;
        let key = unquote(k.trim())
            .or_else(|| bare(k.trim()))
            .ok_or_else(|| PolicyError::NotAKey(k.trim().to_string()))?;
        let value = unquote(v.trim()).ok_or_else(|| PolicyError::NotQuoted(key.to_string()))?;
        r.add(key, value, known)
    }
}

/// The line without a `#` comment outside quotes.
pub(crate) fn strip_comment(line: &str) -> &str {
    let mut quoted = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '#' if !quoted => return &line[..i],
            _ => {}
        }
    }
    line
}

pub(crate) fn unquote(s: &str) -> Option<&str> {
    let inner = s
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .or_else(|| s.strip_prefix('\'').and_then(|s| s.strip_suffix('\'')))?;
    (!inner.contains(['"', '\\'])).then_some(inner)
}

pub(crate) fn bare(s: &str) -> Option<&str> {
    (!s.is_empty()
        && s.bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'))
    .then_some(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known(k: &str) -> bool {
        ["destructive", "destructive.outside-project", "secrets"].contains(&k)
    }

    #[test]
    fn the_policy_table_is_read_and_other_tables_skipped() {
        let r = Rules::from_toml(
            "# mine\n[other]\nx = 1\n[policy]\ndestructive = \"ask\" # comment\n\"destructive.outside-project\" = 'deny'\n",
            &known,
        );
        assert!(r.problems.is_empty(), "{:?}", r.problems);
        assert_eq!(
            r.get("destructive.outside-project"),
            Some(("destructive.outside-project", Level::Deny))
        );
        assert_eq!(
            r.get("destructive.git-discard"),
            Some(("destructive", Level::Ask))
        );
        assert_eq!(r.get("secrets.exfiltration"), None);
    }

    #[test]
    fn a_line_not_understood_is_a_problem_and_the_others_still_apply() {
        let s = |t: &str| t.to_string();
        let at = |line, why| PolicyError::AtLine {
            line,
            why: Box::new(why),
        };
        for (bad, why) in [
            (
                "[policy]\ndestrutive = \"deny\"\n",
                at(
                    2,
                    PolicyError::UnknownId {
                        key: s("destrutive"),
                        hint: s("; did you mean `destructive`?"),
                    },
                ),
            ),
            (
                "[policy]\ndestructive = deny\n",
                at(2, PolicyError::NotQuoted(s("destructive"))),
            ),
            (
                "[policy]\ndestructive = \"dney\"\n",
                at(
                    2,
                    PolicyError::NotALevel {
                        key: s("destructive"),
                        value: s("dney"),
                        hint: s("; did you mean `deny`?"),
                    },
                ),
            ),
            ("[policy\n", at(1, PolicyError::NotAHeader(s("[policy")))),
            (
                "[polcy]\n",
                at(
                    1,
                    PolicyError::UnknownTable {
                        name: s("polcy"),
                        hint: s("; did you mean `policy`?"),
                    },
                ),
            ),
            (
                "[policy]\njust words\n",
                at(2, PolicyError::NotAnAssignment(s("just words"))),
            ),
        ] {
            let text = format!("{bad}secrets = \"deny\"\n");
            let text = if bad.starts_with("[pol") && !bad.starts_with("[policy]") {
                format!("{bad}[policy]\nsecrets = \"deny\"\n")
            } else {
                text
            };
            let r = Rules::from_toml(&text, &known);
            assert_eq!(r.problems, vec![why], "{bad:?}");
            assert_eq!(
                r.get("secrets.x"),
                Some(("secrets", Level::Deny)),
                "{bad:?}"
            );
        }
        // Every problem of a file, in one reading.
        let r = Rules::from_toml(
            "[policy]\ndestructiv = \"ask\"\nsecrets = \"block\"\ndestructive = \"deny\"\n",
            &known,
        );
        assert_eq!(r.problems.len(), 2, "{:?}", r.problems);
        assert_eq!(r.lines, vec![(s("destructive"), Level::Deny)]);
        // Given twice: the stricter line stays.
        let r = Rules::from_toml(
            "[policy]\ndestructive = \"deny\"\ndestructive = \"ask\"\n",
            &known,
        );
        assert_eq!(
            r.problems,
            vec![at(3, PolicyError::Twice(s("destructive")))]
        );
        assert_eq!(r.get("destructive"), Some(("destructive", Level::Deny)));
        let r = Rules::from_env("destructive=deny,secrets", &known);
        assert_eq!(r.problems, vec![PolicyError::NotAnItem(s("secrets"))]);
        assert_eq!(r.get("destructive"), Some(("destructive", Level::Deny)));
        let r = Rules::from_env("nope=deny", &known);
        assert!(matches!(r.problems[..], [PolicyError::UnknownId { .. }]));
        let r = Rules::from_env(" destructive=deny , secrets=ask,", &known);
        assert_eq!(r.lines.len(), 2);
        assert!(r.problems.is_empty());
    }
}
