//! How particular programs read the files on their command line, for the
//! secrets guard: which option values are key material *used* (to log in,
//! to sign) rather than read out, what `openssl` prints of a key, the
//! members `tar -C DIR NAME` archives, and the files a sed script reads.
//! (What the shell makes of a word before the program sees it, braces and
//! constant substitutions such as `$(echo /etc/shadow)`, is the shell
//! reader's: [`crate::shell`].)

/// Options whose value is a key, certificate or login file the program uses
/// to authenticate or verify, never prints or sends: `scp -i ~/.ssh/key`,
/// `curl --cert client.pem`, `ansible-playbook --private-key k.pem`.
/// (`-i` is an identity only for the programs of [`IDENTITY_I`].)
const AUTH_OPTIONS: &[&str] = &[
    "--identity",
    "--identity-file",
    "--private-key",
    "--key-file",
    "--keyfile",
    "--cert",
    "--key",
    "--cacert",
    "--capath",
    "--certificate",
    "--ca-certificate",
    "--ca-cert",
    "--client-key",
    "--client-certificate",
    "--tlskey",
    "--tlscert",
    "--tlscacert",
    "--sslkey",
    "--sslcert",
    "--ssl-key",
    "--ssl-cert",
    "--ssl-ca",
    "--kubeconfig",
    "--netrc-file",
    "--proxy-cert",
    "--proxy-key",
    // A file of settings a runtime or client loads and uses, printing
    // none of it (`node --env-file=.env.local`, `docker run --env-file`,
    // `mysql --defaults-extra-file=~/.my.cnf`).
    "--env-file",
    "--defaults-file",
    "--defaults-extra-file",
    // Where a made key and certificate are written (`mkcert -key-file k.pem
    // -cert-file c.pem`).
    "-key-file",
    "-cert-file",
];

/// What an option's name says its file is, whatever the tool: variables,
/// settings or a key store the program loads and uses (`tofu plan
/// -var-file=prod.tfvars`, `packer build -var-file=…`, `pulumi up
/// --config-file …`, `keytool -keystore k.jks`, `jarsigner -keystore`),
/// printing none of it. Compared without the leading dashes, so one
/// spelling serves `-var-file` and `--var-file`.
const LOADED_FILE_OPTIONS: &[&str] = &[
    "var-file",
    "vars-file",
    "env-file",
    "envfile",
    "config-file",
    "settings-file",
    "defaults-file",
    "secret-file",
    "keystore",
    "truststore",
];

/// Whether the option word `a` names a loaded file ([`LOADED_FILE_OPTIONS`]):
/// `Some(true)` when the value is attached (`-var-file=x`), `Some(false)`
/// when it is the next word.
fn loads_file(a: &str) -> Option<bool> {
    let (name, attached) = a.split_once('=').map_or((a, false), |(n, _)| (n, true));
    let bare = name.strip_prefix("--").or_else(|| name.strip_prefix('-'))?;
    LOADED_FILE_OPTIONS
        .iter()
        .any(|o| bare.eq_ignore_ascii_case(o))
        .then_some(attached)
}

/// Programs whose `-i FILE` is an SSH identity (used to log in).
const IDENTITY_I: &[&str] = &["scp", "sftp", "ssh", "autossh", "sshfs"];

/// Whether the option word `a` of `program` takes a value that is key
/// material used, not read out; `Some(true)` when the value is the next
/// word, `Some(false)` when it is attached (`--cert=client.pem`).
pub fn auth_option(program: &str, a: &str) -> Option<bool> {
    if a == "-i" && IDENTITY_I.contains(&program) {
        return Some(true);
    }
    // curl's `-E` is `--cert`.
    if a == "-E" && program == "curl" {
        return Some(true);
    }
    if program == "scp" || program == "sftp" {
        if let Some(v) = a.strip_prefix("-i")
            && !v.is_empty()
        {
            return Some(false);
        }
        if a == "-o" {
            // `-o IdentityFile=~/.ssh/key`: an ssh option's value.
            return Some(true);
        }
    }
    if AUTH_OPTIONS.contains(&a) {
        return Some(true);
    }
    // Ansible's extra variables, `@file` included, are loaded into the play.
    if program.starts_with("ansible") && matches!(a, "-e" | "--extra-vars") {
        return Some(true);
    }
    if let Some(attached) = loads_file(a) {
        return Some(!attached);
    }
    a.split_once('=')
        .is_some_and(|(o, _)| AUTH_OPTIONS.contains(&o))
        .then_some(false)
}

/// `openssl` subcommands that print what they read of a private key (its
/// PEM or its text), unless told to print nothing or only the public half.
const OPENSSL_KEY_PRINTERS: &[&str] = &[
    "rsa",
    "ec",
    "dsa",
    "pkey",
    "pkcs8",
    "pkcs12",
    "base64",
    "enc",
    "asn1parse",
];

/// Whether an `openssl` command prints nothing secret of the files it
/// reads: a certificate, a request or a verification (`x509`, `req`,
/// `verify`, `s_client`: public material, or a key used to sign), a key
/// printed as its public half (`-pubout`, `-pubin`) or not at all (`-noout`
/// without `-text`), a PKCS#12 bundle read without its keys (`-nokeys`) or
/// with them still encrypted (no `-nodes`/`-noenc`).
pub fn openssl_quiet(args: &[String]) -> bool {
    let Some(sub) = args.iter().find(|a| !a.starts_with('-')) else {
        return true;
    };
    let has = |o: &str| {
        args.iter()
            .any(|a| a == o || a.strip_prefix('-').is_some_and(|r| r == o))
    };
    if !OPENSSL_KEY_PRINTERS.contains(&sub.as_str()) {
        return true;
    }
    match sub.as_str() {
        // `openssl enc -d` decrypts (its output is the secret); `enc -e`
        // and `base64` of a key are read by the file rule.
        "enc" | "base64" | "asn1parse" => false,
        "pkcs12" => has("-nokeys") || !(has("-nodes") || has("-noenc")),
        _ => has("-pubout") || has("-pubin") || has("-noout") && !has("-text"),
    }
}

/// The members a `tar` command names, joined to the directory of each
/// `-C DIR` (or `--directory`) before them: `tar cf x.tar -C /etc shadow`
/// archives `/etc/shadow`, and `-C / -C etc` is `/etc`.
pub fn tar_members(args: &[String]) -> Vec<String> {
    let mut dir: Option<String> = None;
    let mut out = Vec::new();
    let mut i = 0;
    let join = |d: &Option<String>, rel: &str| match d {
        Some(d) if !rel.starts_with('/') && !rel.starts_with('~') => {
            format!("{}/{rel}", d.trim_end_matches('/'))
        }
        _ => rel.to_string(),
    };
    while let Some(a) = args.get(i) {
        let next = args.get(i + 1);
        let value = if a == "-C" || a == "--directory" {
            i += 1;
            next.cloned()
        } else {
            a.strip_prefix("--directory=").map(str::to_string)
        };
        if let Some(v) = value {
            dir = Some(join(&dir, &v));
        } else if dir.is_some() && !a.starts_with('-') {
            out.push(join(&dir, a));
        }
        i += 1;
    }
    out
}

/// Whether `sed` or `perl` edits its files in place (`-i`, `-i.bak`,
/// `--in-place`, `-ni`, `-pi`): what it prints is not their content.
pub fn edits_in_place(prog: &str, args: &[String]) -> bool {
    if !matches!(prog, "sed" | "gsed" | "perl") {
        return false;
    }
    args.iter().any(|a| {
        a == "--in-place"
            || a.starts_with("--in-place=")
            || a.strip_prefix('-').is_some_and(|cluster| {
                !cluster.starts_with('-')
                    && cluster.split('e').next().is_some_and(|before| {
                        before.starts_with('i')
                            || before.contains('i')
                                && before.bytes().all(|b| b.is_ascii_alphabetic())
                    })
            })
    })
}

/// The files a sed script reads into its output: its `r FILE` and `R
/// FILE` commands (`sed 'r /etc/shadow' in.txt`, `sed '1r ~/.netrc'`), the
/// file name running to the end of the line. The script is the first
/// operand, or the values of `-e` (attached or not) and `--expression`.
pub fn sed_reads(args: &[String]) -> Vec<String> {
    let mut scripts: Vec<&str> = Vec::new();
    let mut i = 0;
    let mut given = false;
    while let Some(a) = args.get(i) {
        if a == "-e" || a == "--expression" {
            scripts.extend(args.get(i + 1).map(String::as_str));
            given = true;
            i += 2;
            continue;
        }
        if let Some(v) = a.strip_prefix("--expression=") {
            scripts.push(v);
            given = true;
        } else if a.starts_with('-') && !a.starts_with("--") {
            // `-e'r f'`, `-ne'r f'`: the script follows the `e`.
            if let Some(at) = a.find('e')
                && at + 1 < a.len()
            {
                scripts.push(&a[at + 1..]);
                given = true;
            }
        } else if !a.starts_with('-') && !given {
            scripts.push(a);
            given = true;
        }
        i += 1;
    }
    let mut out = Vec::new();
    for script in scripts {
        for cmd in script.split(['\n', ';']) {
            // The address first: line numbers, `$`, `/re/`, ranges.
            let mut rest = cmd.trim_start();
            loop {
                let before = rest.len();
                rest = rest.trim_start_matches(|c: char| {
                    c.is_ascii_digit() || matches!(c, '$' | ',' | '!' | '~' | ' ')
                });
                if let Some(r) = rest.strip_prefix('/')
                    && let Some(end) = r.find('/')
                {
                    rest = &r[end + 1..];
                }
                if rest.len() == before {
                    break;
                }
            }
            if let Some(file) = rest.strip_prefix(['r', 'R'])
                && file.starts_with(' ')
                && !file.trim().is_empty()
            {
                out.push(file.trim().to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn openssl_prints_a_key_only_when_asked() {
        for quiet in [
            &["x509", "-in", "cert.pem", "-noout"][..],
            &["pkey", "-in", "pub.pem", "-pubin", "-text"],
            &["rsa", "-in", "priv.pem", "-noout"],
            &["rsa", "-in", "priv.pem", "-pubout"],
            &["pkcs12", "-in", "f.p12"],
            &["pkcs12", "-in", "f.p12", "-nokeys", "-nodes"],
            &["req", "-new", "-key", "k.pem"],
        ] {
            assert!(openssl_quiet(&v(quiet)), "{quiet:?}");
        }
        for loud in [
            &["rsa", "-in", "priv.pem"][..],
            &["rsa", "-in", "priv.pem", "-noout", "-text"],
            &["pkcs12", "-in", "f.p12", "-noenc"],
            &["pkcs12", "-in", "f.p12", "-nodes"],
            &["enc", "-d", "-in", "s.enc"],
            &["pkey", "-in", "k.pem"],
        ] {
            assert!(!openssl_quiet(&v(loud)), "{loud:?}");
        }
    }

    #[test]
    fn tar_joins_its_directories() {
        assert_eq!(
            tar_members(&v(&["-cf", "out.tar", "-C", "/etc", "shadow"])),
            ["/etc/shadow"]
        );
        assert_eq!(
            tar_members(&v(&["cf", "out.tar", "-C", "/", "-C", "etc", "shadow"])),
            ["/etc/shadow"]
        );
        assert!(tar_members(&v(&["czf", "x.tgz", "src"])).is_empty());
    }

    #[test]
    fn sed_read_commands() {
        assert_eq!(sed_reads(&v(&["r /etc/shadow", "in.txt"])), ["/etc/shadow"]);
        assert_eq!(sed_reads(&v(&["-n", "-e", "1r ~/.netrc"])), ["~/.netrc"]);
        assert_eq!(sed_reads(&v(&["-ne$R .env", "x"])), [".env"]);
        assert_eq!(sed_reads(&v(&["/^a/r /etc/shadow", "x"])), ["/etc/shadow"]);
        assert!(sed_reads(&v(&["s/r /x/", "f"])).is_empty());
        assert!(sed_reads(&v(&["-i", "s/a/b/", ".env"])).is_empty());
    }

    #[test]
    fn in_place_edits() {
        for (prog, args) in [
            ("sed", &["-i", "s/a/b/", ".env"][..]),
            ("sed", &["-i.bak", "-e", "s/a/b/", ".env"]),
            ("sed", &["-ni", "s/a/b/p", ".env"]),
            ("sed", &["--in-place=.orig", "s/a/b/", ".env"]),
            ("perl", &["-pi", "-e", "s/a/b/", ".env"]),
            ("perl", &["-i.bak", "-pe", "s/a/b/", ".env"]),
        ] {
            assert!(edits_in_place(prog, &v(args)), "{prog} {args:?}");
        }
        for (prog, args) in [
            ("sed", &["-n", "1,5p", ".env"][..]),
            ("sed", &["-es/i/x/", ".env"]),
            ("sed", &["-E", "s/a/b/", ".env"]),
            ("perl", &["-ne", "print", ".env"]),
            ("grep", &["-i", "key", ".env"]),
        ] {
            assert!(!edits_in_place(prog, &v(args)), "{prog} {args:?}");
        }
    }

    #[test]
    fn auth_options() {
        assert_eq!(auth_option("scp", "-i"), Some(true));
        assert_eq!(auth_option("curl", "--cert=c.pem"), Some(false));
        assert_eq!(auth_option("grep", "-i"), None);
        assert_eq!(auth_option("cat", "-E"), None);
    }
}
