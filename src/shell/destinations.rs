//! Where a command writes when no output option names it, by what its
//! words mean rather than by tool (the outside-project guard's reading;
//! [`super::outputs`] holds the output options):
//!
//! - an install location given to an install: `--prefix`, `--root`,
//!   `--install-root`, `--bindir`, ... when the command installs (`cargo
//!   install --root /usr/local`, `pip install --prefix /opt/py`, `npm i -g
//!   --prefix /usr/local`, `cmake --install build --prefix /usr/local`);
//!   `./configure --prefix=/usr` only records it and writes nothing there;
//! - the target of a restore, an extraction or a download: `--target`,
//!   `--to`, `--into` (and a download's or export's `--file`) after such a
//!   verb (`restic restore latest --target /srv/r`);
//! - a destination inside an option's value list (`--output
//!   type=local,dest=/srv/out`);
//! - the local end of a copy or sync from remote storage, whatever the tool
//!   (`rclone copy remote:x DIR`, `aws s3 sync s3://b DIR`, `gsutil cp
//!   gs://b/o FILE`, `mc cp alias/b/o FILE` is not remote-shaped and stays
//!   unread): the last operand, when a source is remote (`scheme://…` or
//!   `name:path`) and the destination is not.

use super::SimpleCommand;
use super::words::{operands, option_value};

/// Verbs that install (a subcommand word, or `--install`).
const INSTALL_VERBS: &[&str] = &["install", "i", "add", "--install"];

/// Options naming where an install puts its files.
const INSTALL_PLACES: &[&str] = &[
    "--prefix",
    "--root",
    "--install-root",
    "--installroot",
    "--install-base",
    "--bindir",
    "--bin-dir",
    "--libdir",
    "--global-dir",
    "--tool-path",
    "--global-folder",
    "--modules-folder",
];

/// Verbs whose `--target`/`--to`/`--into` (or `--file`) is where they put
/// what they restore, extract or fetch.
const PLACING_VERBS: &[&str] = &[
    "restore", "extract", "unpack", "untar", "download", "export", "save", "fetch", "get", "pull",
    "dump", "backup", "package", "pack", "transfer", "clone", "convert",
];

/// The options of [`PLACING_VERBS`] that name the place.
const PLACING_OPTIONS: &[&str] = &[
    "--target",
    "--to",
    "--into",
    "--file",
    "--out",
    "--dir",
    "--directory",
    "-d",
    "--local-dir",
    "--local-path",
    "--dst",
    "--dst-path",
    // Short letters a placing verb gives its place (`helm package -d DIR`,
    // `kaggle … download -p DIR`, `gh release download -D DIR`, `oras pull
    // -o DIR`): only a value placed outside is read (see `wanted`).
    "-p",
    "-o",
];

/// Verbs that bring something here from elsewhere and put it at their last
/// operand, whatever the source looks like (`gh repo clone o/r ~/r`,
/// `incus file pull vm/etc/x /etc/x`, `multipass transfer vm:/a /home/b`,
/// `qemu-img convert a.raw /var/b.qcow2`).
const FETCHING_VERBS: &[&str] = &[
    "pull", "clone", "transfer", "convert", "download", "fetch", "extract", "unpack",
];

/// Verbs that copy or sync from a source to a destination (the last
/// operand).
const COPY_VERBS: &[&str] = &[
    "cp", "copy", "copyto", "sync", "mirror", "mv", "move", "moveto", "download", "clone",
    "checkout", "co",
];

/// Keys of an option's value list that name a destination.
const DEST_KEYS: &[&str] = &["dest", "destination", "dst", "out", "output"];

/// The paths `cmd` writes by what its words mean (see the module's text).
pub(super) fn destination_paths(cmd: &SimpleCommand) -> Vec<&str> {
    let args = cmd.args();
    let ops = operands(args);
    let lead: Vec<&str> = ops.iter().take(3).copied().collect();
    let mut out = Vec::new();
    let installs =
        lead.iter().any(|w| INSTALL_VERBS.contains(w)) || args.iter().any(|a| a == "--install");
    // A verb or a part of one (`download-batch`, `snapshot:restore`).
    let places = lead.iter().any(|w| {
        w.split(['-', ':', '_'])
            .any(|p| PLACING_VERBS.contains(&p.to_ascii_lowercase().as_str()))
    });
    let mut it = args.iter().peekable();
    while let Some(a) = it.next() {
        if a == "--" {
            break;
        }
        let (name, inline) = match a.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v)),
            _ => (a.as_str(), None),
        };
        let name_lower = name.to_ascii_lowercase();
        let short = name.len() == 2;
        let wanted = (installs && INSTALL_PLACES.contains(&name_lower.as_str()))
            || (places
                && PLACING_OPTIONS.contains(&name_lower.as_str())
                && (!short || it.peek().is_some_and(|v| placed_outside(v))));
        if wanted {
            match inline {
                Some(v) => out.push(v),
                None => out.extend(it.next().map(String::as_str)),
            }
            continue;
        }
        // `--output type=local,dest=/srv/out`, `-o type=tar,dest=/x.tar`.
        let value = match inline {
            Some(v) => Some(v),
            None if matches!(name_lower.as_str(), "--output" | "-o" | "--export") => {
                it.peek().map(|v| v.as_str())
            }
            None => None,
        };
        if let Some(v) = value.filter(|v| v.contains(',') || v.contains("=/")) {
            out.extend(v.split(',').filter_map(|kv| {
                let (k, p) = kv.split_once('=')?;
                DEST_KEYS.contains(&k.trim()).then_some(p)
            }));
        }
    }
    match remote_copy_destination(&ops) {
        Some(dest) => out.push(dest),
        None => out.extend(fetched_destination(&ops).filter(|d| !out.contains(d))),
    }
    out.extend(scaffold_destination(args, &lead));
    out.extend(sql_file_destinations(cmd, args));
    if matches!(super::words::program(cmd).as_str(), "stow" | "xstow") {
        out.extend(option_value(args, &["-t", "--target"]));
    }
    out
}

/// Verbs that make a new project, archive or export at a path given as an
/// operand (`rails new ~/apps/x`, `composer create-project v/p ~/x`,
/// `django-admin startproject s /srv/s`, `qemu-img create -f qcow2 /var/…`,
/// `svn export URL /srv/x`, `hg archive /srv/r`).
const SCAFFOLD_VERBS: &[&str] = &[
    "new",
    "create",
    "init",
    "create-project",
    "startproject",
    "startapp",
    "generate",
    "scaffold",
    "bootstrap",
    "export",
    "archive",
];

/// An operand placed outside the working folder after a scaffolding verb:
/// a positional word (the word before it is no option, so `kubectl create
/// -f /srv/x.yaml` reads a file and is not this), absolute, in the home
/// folder or above.
fn scaffold_destination<'a>(args: &'a [String], lead: &[&str]) -> Option<&'a str> {
    // The tool's own verb, its first operand: a later operand is data
    // (`sd -p old new /etc/hosts` replaces the word `new`).
    let verb = lead.first().filter(|w| {
        SCAFFOLD_VERBS.contains(w) || w.split(':').any(|p| SCAFFOLD_VERBS.contains(&p))
    })?;
    let after = args.iter().position(|a| a == verb)?;
    args.iter()
        .enumerate()
        .skip(after + 1)
        .take_while(|(_, a)| *a != "--")
        .find(|(i, a)| {
            !a.starts_with('-')
                && !args[*i - 1].starts_with('-')
                && (a.starts_with('/')
                    || a.starts_with("~/")
                    || a.starts_with("$HOME/")
                    || a.starts_with("${HOME}/")
                    || a.starts_with("../"))
        })
        .map(|(_, a)| a.as_str())
}

/// The SQL clients whose statements may write a file on this machine.
const SQL_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "mariadb",
    "duckdb",
    "sqlite3",
    "clickhouse-client",
    "clickhouse",
    "usql",
];

/// The files SQL given on the line writes: `COPY … TO '/path'`, psql's
/// `\copy … to '/path'`, `INTO OUTFILE '/path'`, `INTO DUMPFILE '/path'`.
fn sql_file_destinations<'a>(cmd: &SimpleCommand, args: &'a [String]) -> Vec<&'a str> {
    if !SQL_CLIENTS.contains(&super::words::program(cmd).as_str()) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for a in args {
        let lower = a.to_ascii_lowercase();
        let copies = lower.contains("copy ");
        for key in [" to '", " outfile '", " dumpfile '"] {
            if key == " to '" && !copies {
                continue;
            }
            let mut from = 0;
            while let Some(i) = lower[from..].find(key) {
                let start = from + i + key.len();
                if let Some(len) = a[start..].find('\'') {
                    out.push(&a[start..start + len]);
                }
                from = start;
            }
        }
    }
    out
}

/// The local destination of a copy or sync whose source is remote.
fn remote_copy_destination<'a>(ops: &[&'a str]) -> Option<&'a str> {
    let v = ops.iter().take(3).position(|w| COPY_VERBS.contains(w))?;
    let rest = &ops[v + 1..];
    let (dest, sources) = rest.split_last()?;
    (!sources.is_empty() && sources.iter().any(|s| remote(s)) && !remote(dest)).then_some(*dest)
}

/// The last operand of a [`FETCHING_VERBS`] verb (among the first three
/// operands) with a source before it, when it is placed outside the working
/// folder (absolute, in the home folder or above).
fn fetched_destination<'a>(ops: &[&'a str]) -> Option<&'a str> {
    let v = ops
        .iter()
        .take(3)
        .position(|w| FETCHING_VERBS.contains(w))?;
    let (dest, sources) = ops[v + 1..].split_last()?;
    (!sources.is_empty() && placed_outside(dest) && !remote(dest)).then_some(*dest)
}

/// A path absolute, in the home folder or above the working folder.
fn placed_outside(w: &str) -> bool {
    w.starts_with('/')
        || w.starts_with("~/")
        || w.starts_with("$HOME/")
        || w.starts_with("${HOME}/")
        || w.starts_with("../")
}

/// A remote location: `scheme://…` (not `file://`), or `name:path` /
/// `user@host:path` (not a one-letter drive, not a path with a colon
/// later in it).
fn remote(w: &str) -> bool {
    if let Some((scheme, _)) = w.split_once("://") {
        return scheme != "file" && scheme.chars().all(|c| c.is_ascii_alphanumeric());
    }
    match w.split_once(':') {
        Some((head, _)) => {
            head.len() > 1
                && !head.contains('/')
                && !head.starts_with(['-', '$', '~', '.'])
                && head
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::destination_paths;
    use crate::shell::parse;

    fn dests(line: &str) -> Vec<String> {
        let cmds = parse(line);
        destination_paths(&cmds[0])
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn install_places_restore_targets_value_lists_and_remote_copies() {
        assert_eq!(
            dests("cargo install --root /usr/local fd-find"),
            ["/usr/local"]
        );
        assert_eq!(dests("pip install --prefix=/opt/py x"), ["/opt/py"]);
        assert_eq!(
            dests("cmake --install b --prefix /usr/local"),
            ["/usr/local"]
        );
        assert_eq!(dests("restic restore latest --target /srv/r"), ["/srv/r"]);
        assert_eq!(
            dests("docker buildx build --output type=local,dest=/srv/o ."),
            ["/srv/o"]
        );
        assert_eq!(dests("rclone copy remote:a ~/b"), ["~/b"]);
        assert_eq!(dests("rails new ~/apps/x"), ["~/apps/x"]);
        assert_eq!(
            dests("fossil clone https://f.example/r ~/r.fossil"),
            ["~/r.fossil"]
        );
        assert_eq!(
            dests("qemu-img create -f qcow2 /var/d.qcow2 1G"),
            ["/var/d.qcow2"]
        );
        assert_eq!(dests("psql -c \"COPY t TO '/srv/t.csv'\""), ["/srv/t.csv"]);
        assert_eq!(dests("stow -t /usr/local tool"), ["/usr/local"]);
        assert_eq!(dests("x blob download-batch -s c -d /srv/b"), ["/srv/b"]);
        assert_eq!(
            dests("hf download org/m --local-dir /models/m"),
            ["/models/m"]
        );
        assert_eq!(dests("aws s3 sync s3://bucket /var/www"), ["/var/www"]);
        assert_eq!(dests("incus file pull vm/etc/x /etc/x"), ["/etc/x"]);
        assert_eq!(dests("helm package charts/a -d /srv/h"), ["/srv/h"]);
        assert!(dests("helm package charts/a -d dist").is_empty());
    }

    #[test]
    fn recorded_prefixes_uploads_and_local_copies_are_not_destinations() {
        for line in [
            "./configure --prefix=/usr/local",
            "meson setup build --prefix=/usr",
            "aws s3 cp ./site s3://bucket/ --recursive",
            "rclone sync ./out remote:bucket",
            "restic backup --tag x /home/me/project",
            "kubectl get pods -o wide",
            "docker run -v /srv:/srv img",
            "c:/tools/x copy a b",
            "kubectl create -f /srv/app.yaml",
            "rails new blog",
            "docker create --name web nginx",
            "psql -c \"SELECT 'copy to /x'\"",
            "sd -p old new /etc/hosts",
        ] {
            assert!(dests(line).is_empty(), "{line}: {:?}", dests(line));
        }
    }
}
