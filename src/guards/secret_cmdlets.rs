//! PowerShell cmdlets that return a credential's value, by the cmdlet's
//! noun (`Verb-Noun`), whatever module defines it: a `Get-` of an access
//! key, an account key or an access token (`Get-AzStorageAccountKey`,
//! `Get-AzRedisCacheKey`, `Get-AzAccessToken`), a `Get-` of a secret asked
//! for as plain text (`Get-AzKeyVaultSecret -AsPlainText`, `Get-Secret
//! -AsPlainText`), and `ConvertFrom-SecureString -AsPlainText`. The help
//! cmdlets name a cmdlet, never run it (`Get-Help Get-Secret -Full`).

/// Cmdlets and commands that show a command's help or signature.
pub(super) fn help(prog: &str) -> bool {
    matches!(
        prog,
        "get-help" | "help" | "get-command" | "gcm" | "show-command" | "man" | "tldr"
    )
}

/// Nouns of a key that is a public half or never leaves its vault.
const PUBLIC: &[&str] = &[
    "ssh",
    "public",
    "pgp",
    "gpg",
    "keyvaultkey",
    "kmskey",
    "hsm",
];

/// What a PowerShell cmdlet prints of a credential, if anything.
pub(super) fn prints(prog: &str, args: &[String]) -> Option<String> {
    let plain_text = args.iter().any(|a| a.eq_ignore_ascii_case("-asplaintext"));
    if prog == "convertfrom-securestring" {
        return plain_text.then(|| "a secure string as plain text".to_string());
    }
    let noun = prog.strip_prefix("get-")?;
    if noun.is_empty() || !noun.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    if PUBLIC.iter().any(|p| noun.contains(p)) {
        return None;
    }
    let key = [
        "key",
        "keys",
        "accesstoken",
        "token",
        "connectionstring",
        "password",
    ]
    .iter()
    .any(|k| noun.ends_with(k));
    let secret = noun.ends_with("secret") && plain_text;
    (key || secret).then(|| format!("a credential (the cmdlet {prog})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(prog: &str, args: &[&str]) -> bool {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        prints(prog, &args).is_some()
    }

    #[test]
    fn cmdlets_by_noun() {
        assert!(judge("get-azstorageaccountkey", &["-Name", "x"]));
        assert!(judge("get-azaccesstoken", &[]));
        assert!(judge(
            "get-azkeyvaultsecret",
            &["-Name", "x", "-AsPlainText"]
        ));
        assert!(judge("convertfrom-securestring", &["-AsPlainText"]));
        assert!(!judge("get-azkeyvaultsecret", &["-Name", "x"]));
        assert!(!judge("get-azsshkey", &[]));
        assert!(!judge("get-azkeyvaultkey", &["-Name", "x"]));
        assert!(!judge("get-childitem", &[]));
        assert!(!judge("get-secretinfo", &[]));
        assert!(help("get-help"));
    }
}
