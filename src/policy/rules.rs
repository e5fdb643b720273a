//! One source's policy lines, parsed: the `[policy]` table of a
//! `config.toml` (a strict subset of TOML: `key = "value"` lines, bare or
//! quoted keys, `#` comments; other tables are skipped whole) or the
//! `CUECARD_POLICY` list (`guard[.kind]=policy,...`). Anything not
//! understood makes the whole source malformed: a typo must never quietly
//! leave a guard at `advise` while its owner believes it denies.

use super::Level;
use super::error::PolicyError;

/// The lines of one source, in the order written (a key given twice is
/// malformed).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rules {
    pub lines: Vec<(String, Level)>,
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

    fn add(
        &mut self,
        key: &str,
        value: &str,
        known: &dyn Fn(&str) -> bool,
    ) -> Result<(), PolicyError> {
        let level = Level::parse(value).ok_or_else(|| PolicyError::NotALevel {
            key: key.to_string(),
            value: value.to_string(),
        })?;
        if !known(key) {
            return Err(PolicyError::UnknownId(key.to_string()));
        }
        if self.lines.iter().any(|(k, _)| k == key) {
            return Err(PolicyError::Twice(key.to_string()));
        }
        self.lines.push((key.to_string(), level));
        Ok(())
    }

    /// `CUECARD_POLICY`: `guard[.kind]=policy`, comma-separated.
    pub fn from_env(text: &str, known: &dyn Fn(&str) -> bool) -> Result<Rules, PolicyError> {
        let mut r = Rules::default();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| PolicyError::NotAnItem(item.to_string()))?;
            r.add(k.trim(), v.trim(), known)?;
        }
        Ok(r)
    }

    /// The `[policy]` table of a config file's text.
    pub fn from_toml(text: &str, known: &dyn Fn(&str) -> bool) -> Result<Rules, PolicyError> {
        let mut r = Rules::default();
        let mut in_policy = false;
        for (n, raw) in text.lines().enumerate() {
            let at = |why: PolicyError| PolicyError::AtLine {
                line: n + 1,
                why: Box::new(why),
            };
            let line = strip_comment(raw).trim();
            if line.is_empty() {
                continue;
            }
            if line.starts_with('[') {
                let name = line
                    .strip_prefix('[')
                    .and_then(|l| l.strip_suffix(']'))
                    .ok_or_else(|| at(PolicyError::NotAHeader(line.to_string())))?
                    .trim();
                in_policy = name == "policy";
                continue;
            }
            if !in_policy {
                continue;
            }
            let (k, v) = line
                .split_once('=')
                .ok_or_else(|| at(PolicyError::NotAnAssignment(line.to_string())))?;
            let key = unquote(k.trim())
                .or_else(|| bare(k.trim()))
                .ok_or_else(|| at(PolicyError::NotAKey(k.trim().to_string())))?;
            let value =
                unquote(v.trim()).ok_or_else(|| at(PolicyError::NotQuoted(key.to_string())))?;
            r.add(key, value, known).map_err(at)?;
        }
        Ok(r)
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
        )
        .unwrap();
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
    fn anything_not_understood_is_malformed() {
        let at = |line, why| PolicyError::AtLine {
            line,
            why: Box::new(why),
        };
        let s = |t: &str| t.to_string();
        for (bad, why) in [
            (
                "[policy]\ndestrutive = \"deny\"\n",
                at(2, PolicyError::UnknownId(s("destrutive"))),
            ),
            (
                "[policy]\ndestructive = deny\n",
                at(2, PolicyError::NotQuoted(s("destructive"))),
            ),
            (
                "[policy]\ndestructive = \"block\"\n",
                at(
                    2,
                    PolicyError::NotALevel {
                        key: s("destructive"),
                        value: s("block"),
                    },
                ),
            ),
            (
                "[policy]\ndestructive = \"ask\"\ndestructive = \"deny\"\n",
                at(3, PolicyError::Twice(s("destructive"))),
            ),
            ("[policy\n", at(1, PolicyError::NotAHeader(s("[policy")))),
            (
                "[policy]\njust words\n",
                at(2, PolicyError::NotAnAssignment(s("just words"))),
            ),
        ] {
            assert_eq!(Rules::from_toml(bad, &known), Err(why), "{bad:?}");
        }
        assert_eq!(
            Rules::from_env("destructive=deny,secrets", &known),
            Err(PolicyError::NotAnItem(s("secrets")))
        );
        assert_eq!(
            Rules::from_env("nope=deny", &known),
            Err(PolicyError::UnknownId(s("nope")))
        );
        let r = Rules::from_env(" destructive=deny , secrets=ask,", &known).unwrap();
        assert_eq!(r.lines.len(), 2);
    }
}
