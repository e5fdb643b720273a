//! The files a command writes, as the command spells them: redirections,
//! `tee`, in-place editors (`sed -i`, `perl -i`), copies and moves, the
//! output options of downloaders and archivers, PowerShell's
//! `Set-Content`/`Copy-Item`/... A call's are read once
//! (`target::Call::shell_write_paths`) and shared by the guards that judge
//! where a write lands (outside-project, destructive's raw device writes,
//! dependency's manifests written from the shell) and by the hand-off's
//! record of what a call wrote.

use super::SimpleCommand;
use super::words::{git_subcommand, has_flag, has_flag_with, operands, operands_skipping, program};

/// The paths a command writes, as written in it.
pub fn write_paths(cmd: &SimpleCommand) -> Vec<&str> {
    let mut out: Vec<&str> = cmd
        .redirects
        .iter()
        .filter(|r| r.writes_file())
        .map(|r| r.target.as_str())
        .collect();
    let args = cmd.args();
    let value_of = |names: &[&str]| -> Option<&str> {
        let mut it = args.iter();
        while let Some(a) = it.next() {
            if names.iter().any(|n| a.eq_ignore_ascii_case(n)) {
                return it.next().map(String::as_str);
            }
            for n in names.iter().filter(|n| n.starts_with("--")) {
                if let Some(v) = a.strip_prefix(n).and_then(|v| v.strip_prefix('=')) {
                    return Some(v);
                }
            }
        }
        None
    };
    // A one-letter option's value inside a cluster of flags (`wget
    // -qO/etc/x`, `curl -sSo ~/bin/x URL`): attached, or the next word.
    let short_value = |letter: char| -> Option<&str> {
        let mut it = args.iter();
        while let Some(a) = it.next() {
            let Some(cluster) = a.strip_prefix('-').filter(|c| !c.starts_with('-')) else {
                continue;
            };
            if let Some(k) = cluster.find(letter)
                && k > 0
                && cluster[..k].chars().all(|c| c.is_ascii_alphabetic())
            {
                let rest = &cluster[k + 1..];
                return if rest.is_empty() {
                    it.next().map(String::as_str)
                } else {
                    Some(rest)
                };
            }
        }
        None
    };
    match program(cmd).as_str() {
        "tee" | "sponge" | "touch" => out.extend(operands(args)),
        // Installing or removing the user's crontab (`crontab -`, `crontab
        // file`, `-r`); `-l` only lists it.
        "crontab" if !args.iter().any(|a| a == "-l") => out.push(CRONTAB),
        "dd" => out.extend(
            args.iter()
                .filter_map(|a| a.strip_prefix("of="))
                .filter(|p| !p.is_empty()),
        ),
        "unzip" => out.extend(value_of(&["-d"])),
        "tar" | "bsdtar" | "gtar" if tar_extracts(args) => {
            out.extend(value_of(&["-C", "--directory"]));
        }
        // Ruby takes Perl's `-i[ext]` and `-p`/`-e` (`ruby -pi -e CODE FILE`).
        "perl" | "ruby" if args.iter().any(|a| is_perl_in_place(a)) => {
            out.extend(edited_files(args, &["-e", "-E"]));
        }
        "sed" | "gsed" if args.iter().any(|a| is_sed_in_place(a)) => {
            out.extend(edited_files(args, &["-e", "-f", "--expression", "--file"]));
        }
        "rsync" if has_flag(args, 'n', &["dry-run"]) => {}
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => {
            if let Some(dir) = value_of(&["-t", "--target-directory"]) {
                out.push(dir);
            } else {
                let ops = operands_skipping(
                    args,
                    &[
                        "-S",
                        "--suffix",
                        "-m",
                        "--mode",
                        "-o",
                        "-g",
                        "--owner",
                        "--group",
                        "-e",
                        "--rsh",
                        "--exclude",
                        "--include",
                        "-P",
                        "-i",
                        "-F",
                    ],
                );
                if ops.len() >= 2 {
                    let last = ops[ops.len() - 1];
                    // host:path is remote.
                    let remote = last
                        .find(':')
                        .is_some_and(|c| !last[..c].contains('/') && c > 1);
                    if !remote {
                        out.push(last);
                    }
                }
            }
        }
        // Output options and prefixes name where a tool writes
        // (`patch -o`, `csplit -f`, `split … PREFIX`, `wget -P`).
        // `patch -d DIR` patches the files under DIR; `patch FILE` patches
        // FILE (the patch itself comes on the input or after `-i`).
        "patch" if has_flag(args, '\0', &["dry-run"]) => {}
        "patch" => {
            out.extend(value_of(&["-o", "--output", "-d", "--directory"]));
            if !has_flag(args, 'o', &["output"]) {
                let ops = operands_skipping(
                    args,
                    &[
                        "-i",
                        "--input",
                        "-o",
                        "-d",
                        "--directory",
                        "-r",
                        "-B",
                        "-D",
                        "-F",
                        "-V",
                        "-z",
                        "-Y",
                    ],
                );
                out.extend(ops.first().copied());
            }
        }
        // `uniq IN OUT` writes OUT.
        "uniq" | "guniq" => {
            out.extend(operands_skipping(args, &["-f", "-s", "-w"]).get(1).copied())
        }
        "csplit" | "gcsplit" => out.extend(value_of(&["-f", "--prefix"])),
        "split" | "gsplit" => {
            let ops = operands_skipping(
                args,
                &[
                    "-l",
                    "-b",
                    "-C",
                    "-n",
                    "-a",
                    "-t",
                    "--lines",
                    "--bytes",
                    "--line-bytes",
                    "--number",
                    "--suffix-length",
                    "--additional-suffix",
                    "--separator",
                    "--filter",
                ],
            );
            out.extend(ops.get(1));
        }
        "git" => {
            // A global or system setting written (`git config --global
            // user.name x`, `--unset`, `git config set --system …`); reads
            // (`--get`, `--list`, one key alone) write nothing.
            if let Some(("config", rest)) = git_subcommand(cmd) {
                out.extend(git_config_file(rest));
            }
            // `git archive -o FILE` writes the archive there.
            if let Some(("archive", rest)) = git_subcommand(cmd) {
                let mut it = rest.iter();
                while let Some(a) = it.next() {
                    if a == "-o" || a == "--output" {
                        out.extend(it.next().map(String::as_str));
                    } else if let Some(v) = a.strip_prefix("--output=") {
                        out.push(v);
                    }
                }
            }
            if let Some(("clone", rest)) = git_subcommand(cmd) {
                let ops = operands_skipping(
                    rest,
                    &[
                        "-b",
                        "--branch",
                        "-o",
                        "--origin",
                        "--depth",
                        "-c",
                        "--config",
                        "--reference",
                        "--separate-git-dir",
                        "-u",
                        "--upload-pack",
                        "--template",
                        "-j",
                        "--jobs",
                        "--filter",
                        "--shallow-since",
                        "--shallow-exclude",
                    ],
                );
                out.extend(ops.get(1));
            }
        }
        "wget" if value_of(&["-P", "--directory-prefix"]).is_some() => {
            out.extend(value_of(&["-P", "--directory-prefix"]));
        }
        // A package manager's user configuration (`npm config set prefix
        // ~/x` writes `~/.npmrc`); `--location project` keeps it here.
        "npm" | "pnpm" | "pip" | "pip3"
            if operands(args).first() == Some(&"config")
                && matches!(
                    operands(args).get(1),
                    Some(&"set" | &"delete" | &"unset" | &"edit")
                )
                && !args
                    .iter()
                    .any(|a| matches!(a.as_str(), "--location=project" | "--site" | "--venv"))
                && !args
                    .windows(2)
                    .any(|w| matches!(w[0].as_str(), "--location" | "-L") && w[1] == "project") =>
        {
            out.push(if program(cmd).starts_with("pip") {
                "~/.config/pip/pip.conf"
            } else {
                "~/.npmrc"
            });
        }
        "curl" => {
            out.extend(value_of(&["-o", "--output"]).or_else(|| short_value('o')));
            out.extend(value_of(&["--output-dir"]));
        }
        "wget" => out.extend(value_of(&["-O", "--output-document"]).or_else(|| short_value('O'))),
        "set-content" | "add-content" | "out-file" | "new-item" | "sc" | "ac" => {
            match value_of(&["-Path", "-FilePath", "-LiteralPath"]) {
                Some(p) => out.push(p),
                None => out.extend(ps_positional(args).first()),
            }
        }
        "copy-item" | "move-item" | "copy" | "move" | "cpi" | "mi" => {
            match value_of(&["-Destination"]) {
                Some(p) => out.push(p),
                None => out.extend(ps_positional(args).get(1)),
            }
        }
        _ => {}
    }
    out.extend(super::outputs::output_paths(cmd));
    // A URL is no file on this machine (`> s3://b/x` names a folder `s3:`
    // that does not exist: the write fails).
    out.retain(|p| {
        !p.split_once("://").is_some_and(|(scheme, _)| {
            !scheme.is_empty()
                && scheme
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'+')
        })
    });
    out
}

/// The file a `git config` call writes, if it writes one outside the
/// project: `~/.gitconfig` for `--global`, `/etc/gitconfig` for `--system`.
fn git_config_file(rest: &[String]) -> Option<&'static str> {
    let file = if rest.iter().any(|a| a == "--global") {
        "~/.gitconfig"
    } else if rest.iter().any(|a| a == "--system") {
        "/etc/gitconfig"
    } else {
        return None;
    };
    const READS: &[&str] = &[
        "--get",
        "--get-all",
        "--get-regexp",
        "--get-urlmatch",
        "--get-color",
        "--get-colorbool",
        "-l",
        "--list",
        "--show-origin",
        "--show-scope",
        "--name-only",
    ];
    const WRITES: &[&str] = &[
        "--unset",
        "--unset-all",
        "--add",
        "--replace-all",
        "--remove-section",
        "--rename-section",
        "-e",
        "--edit",
    ];
    if rest.iter().any(|a| WRITES.contains(&a.as_str())) {
        return Some(file);
    }
    if rest.iter().any(|a| READS.contains(&a.as_str())) {
        return None;
    }
    let ops = operands_skipping(rest, &["-f", "--file", "--blob", "--type", "--default"]);
    match ops.first().copied() {
        Some("set" | "unset" | "edit" | "rename-section" | "remove-section") => Some(file),
        Some("get" | "list") => None,
        // `git config --global key value` sets; `key` alone reads.
        _ => (ops.len() >= 2).then_some(file),
    }
}

/// Where a user's crontab lives: the path a `crontab` install is judged on.
const CRONTAB: &str = "/var/spool/cron/crontabs";

/// Whether `tar` is told to extract (`-x`, `xzf`, `--extract`, `--get`).
fn tar_extracts(args: &[String]) -> bool {
    let Some(first) = args.first() else {
        return false;
    };
    // The old style: a first word of letters without a dash (`tar xzf a.tgz`).
    (!first.starts_with('-') && first.contains('x'))
        || has_flag_with(args, 'x', &["extract", "get"], "fCfbTXgKNV")
}

/// `perl -i`, `-i.bak`, `-pi`: in-place editing.
fn is_perl_in_place(a: &str) -> bool {
    a.starts_with('-')
        && !a.starts_with("--")
        && a[1..]
            .chars()
            .take_while(|c| *c != 'e' && *c != 'E')
            .any(|c| c == 'i')
}

fn is_sed_in_place(a: &str) -> bool {
    a == "--in-place"
        || a.starts_with("--in-place=")
        || (a.starts_with('-')
            && !a.starts_with("--")
            && a[1..].starts_with(|c: char| c.is_ascii_alphabetic())
            && a[1..]
                .chars()
                .take_while(|c| *c != 'e' && *c != 'f')
                .any(|c| c == 'i'))
}

/// The files an in-place editor edits (`sed -i`, `perl -i`): every operand
/// but the script, which is the first operand unless an option gives it: a
/// word of `script_opts` (or a cluster ending in one of their letters)
/// followed by the script, or `--expression=`/`--file=`.
fn edited_files<'a>(args: &'a [String], script_opts: &[&str]) -> Vec<&'a str> {
    let mut files = Vec::new();
    let mut script_given = false;
    let mut i = 0;
    let ends_in_script_letter = |a: &str| {
        script_opts
            .iter()
            .filter(|o| o.len() == 2)
            .any(|o| a.ends_with(&o[1..]))
    };
    while let Some(a) = args.get(i) {
        i += 1;
        if script_opts.contains(&a.as_str()) {
            script_given = true;
            i += 1;
        } else if a.starts_with("--expression=") || a.starts_with("--file=") {
            script_given = true;
        } else if a.starts_with('-') && a.len() > 1 {
            if a.len() > 2 && !a.starts_with("--") && ends_in_script_letter(a) {
                script_given = true;
                i += 1;
            }
        } else {
            files.push(a.as_str());
        }
    }
    if !script_given && !files.is_empty() {
        files.remove(0);
    }
    files
}

/// PowerShell positional arguments (words not starting with `-`, and not
/// the value of a `-Name value` parameter other than switches we know).
fn ps_positional(args: &[String]) -> Vec<&str> {
    const SWITCHES: &[&str] = &[
        "-force",
        "-recurse",
        "-nonewline",
        "-append",
        "-whatif",
        "-confirm",
        "-passthru",
    ];
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if a.starts_with('-') {
            if !SWITCHES.contains(&a.to_ascii_lowercase().as_str()) {
                i += 1;
            }
        } else {
            out.push(a.as_str());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shell::parse;

    fn paths(cmd: &str) -> Vec<String> {
        parse(cmd)
            .iter()
            .flat_map(|c| {
                write_paths(c)
                    .into_iter()
                    .map(String::from)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn shell_writes() {
        assert_eq!(paths("echo x >> ~/.bashrc 2>&1"), ["~/.bashrc"]);
        assert_eq!(paths("echo x | sudo tee -a /etc/hosts"), ["/etc/hosts"]);
        assert_eq!(paths("sed -i 's/a/b/' /etc/x.conf y"), ["/etc/x.conf", "y"]);
        assert_eq!(paths("sed -i.bak -e 's/a/b/' f"), ["f"]);
        assert_eq!(paths("sed -n 's/a/b/p' f"), Vec::<String>::new());
        assert_eq!(paths("cp -r a b ~/.ssh/"), ["~/.ssh/"]);
        assert_eq!(paths("mv -t /usr/local/bin tool"), ["/usr/local/bin"]);
        assert_eq!(paths("rsync -av dist/ host:/srv/www"), Vec::<String>::new());
        assert_eq!(
            paths("curl -fsSL -o /usr/local/bin/x https://e"),
            ["/usr/local/bin/x"]
        );
        assert_eq!(
            paths("Set-Content -Path C:/Windows/x.ini -Value 1"),
            ["C:/Windows/x.ini"]
        );
        assert_eq!(paths("Add-Content $PROFILE 'x'"), ["$PROFILE"]);
    }
}
