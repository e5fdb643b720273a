//! A card's `## Bindings`: the machine-readable source of truth for which
//! event and matcher a card is registered on and which guard judges it.

/// Declarative trigger keys a user or project card may use instead of a
/// built-in guard (data only; nothing in a card can run a program).
pub const TRIGGER_KEYS: &[&str] = &[
    "tools",
    "paths",
    "not-paths",
    "command",
    "not-command",
    "content",
    "once",
    "cooldown",
    // Not a trigger: the card's policy (`ask` or `deny`, docs/design.md §4a), kept
    // with the modifiers so the parsed-card cache carries it as they are.
    "decision",
];

/// Placeholders a trigger card may use.
pub const TRIGGER_PLACEHOLDERS: &[&str] = &["path", "command", "match", "tool"];

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Bindings {
    /// Canonical (Claude Code) event names.
    pub events: Vec<String>,
    /// `*` or `A|B|C`: tool names on tool events, `source` on SessionStart.
    pub matcher: String,
    /// The built-in guard that decides whether the card fires.
    pub guard: Option<String>,
    /// `enabled: false` switches a card off (used to disable a shipped card
    /// from a user or project card of the same name).
    pub enabled: bool,
    /// Where the card stands among the cards of one registration (lower
    /// first; ties by name). Default 50.
    pub order: u8,
    /// Trigger keys, in the order written.
    pub triggers: Vec<(String, String)>,
}

impl Bindings {
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Result<Bindings, String> {
        let mut b = Bindings {
            events: Vec::new(),
            matcher: "*".to_string(),
            guard: None,
            enabled: true,
            order: 50,
            triggers: Vec::new(),
        };
        let mut seen_matcher = false;
        for (k, v) in pairs {
            match k.as_str() {
                "event" | "events" => {
                    for e in v.split([',', '|']).map(str::trim).filter(|e| !e.is_empty()) {
                        if !b.events.iter().any(|x| x == e) {
                            b.events.push(e.to_string());
                        }
                    }
                }
                "matcher" => {
                    if seen_matcher {
                        return Err("`matcher` given twice".into());
                    }
                    seen_matcher = true;
                    let v = if v.is_empty() { "*".to_string() } else { v };
                    if v != "*"
                        && !v.split('|').all(|a| {
                            // A name, or a name's start and `*` (`mcp__*`:
                            // every MCP tool).
                            let a = a.trim();
                            let a = a.strip_suffix('*').unwrap_or(a);
                            !a.is_empty()
                                && a.bytes()
                                    .all(|c| c.is_ascii_alphanumeric() || b"_.:-".contains(&c))
                        })
                    {
                        return Err(format!(
                            "matcher `{v}` must be `*` or names (or a name's start and `*`) joined by `|`"
                        ));
                    }
                    b.matcher = v;
                }
                "guard" => {
                    if b.guard.is_some() {
                        return Err("`guard` given twice".into());
                    }
                    b.guard = Some(v);
                }
                "enabled" => {
                    b.enabled = match v.to_ascii_lowercase().as_str() {
                        "true" | "yes" | "on" => true,
                        "false" | "no" | "off" => false,
                        _ => return Err(format!("`enabled: {v}` must be true or false")),
                    }
                }
                "order" => {
                    b.order = v
                        .parse()
                        .map_err(|_| format!("`order: {v}` must be 0 to 255"))?;
                }
                "decision" => {
                    if b.decision().is_some() {
                        return Err("`decision` given twice".into());
                    }
                    if crate::level::Level::parse(&v).is_none() {
                        return Err(format!("`decision: {v}` must be advise, ask or deny"));
                    }
                    b.triggers.push((k, v));
                }
                // A pack line (`"tool words" = "id"`, the grammar of the
                // config's `[effects]` table): checked by `cards check` and
                // read by the policy layer, not a trigger.
                "effect" => b.triggers.push((k, v)),
                key if TRIGGER_KEYS.contains(&key) => b.triggers.push((k, v)),
                _ => return Err(format!("unknown key `{k}`")),
            }
        }
        if b.guard.is_some() && b.has_trigger() {
            return Err("a card has either a `guard` or trigger keys, not both".into());
        }
        Ok(b)
    }

    /// The card's own policy (`- decision: ask|deny`), if it declares one.
    pub fn decision(&self) -> Option<crate::level::Level> {
        self.triggers
            .iter()
            .find(|(k, _)| k == "decision")
            .and_then(|(_, v)| crate::level::Level::parse(v))
    }

    /// The pack lines (`- effect:`) these Bindings declare.
    pub fn effects(&self) -> impl Iterator<Item = &str> {
        self.triggers
            .iter()
            .filter(|(k, _)| k == "effect")
            .map(|(_, v)| v.as_str())
    }

    /// Whether these Bindings name `event`.
    pub fn binds(&self, event: &str) -> bool {
        self.events.iter().any(|e| e == event)
    }

    /// Whether the card declares a trigger (tools, paths, command, content).
    pub fn has_trigger(&self) -> bool {
        has_trigger(&self.triggers)
    }
}

/// Whether trigger keys declare a trigger (tools, paths, command, content)
/// rather than only modifiers such as `once`.
pub fn has_trigger<K: AsRef<str>, V>(triggers: &[(K, V)]) -> bool {
    triggers
        .iter()
        .any(|(k, _)| matches!(k.as_ref(), "tools" | "paths" | "command" | "content"))
}
