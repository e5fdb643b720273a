//! Environment switches.

/// True for 1, true, yes, on (any case, surrounding blanks ignored).
pub fn flag(key: &str) -> bool {
    std::env::var_os(key).is_some_and(|v| is_truthy(&v.to_string_lossy()))
}

pub fn is_truthy(v: &str) -> bool {
    matches!(
        v.trim().to_ascii_lowercase().as_str(),
        "1" | "true" | "yes" | "on"
    )
}

/// `CUECARD_DISABLE`: print nothing, exit 0.
pub fn disabled() -> bool {
    flag("CUECARD_DISABLE")
}

#[cfg(test)]
mod tests {
    #[test]
    fn truthy_values() {
        for v in ["1", "true", "TRUE", "Yes", " on "] {
            assert!(super::is_truthy(v), "{v}");
        }
        for v in ["", "0", "false", "off", "no", "2", "enabled"] {
            assert!(!super::is_truthy(v), "{v}");
        }
    }
}
