//! Writes through output options and output operands, by what an option
//! means rather than by tool: a long option named for its output
//! (`--output`, `--outfile`, `--out-dir`, `--target-dir`, `--dest`, ...;
//! a format such as `-o yaml` is never a path outside the project, so
//! reading every tool's this way is safe), the `-o` of compilers and
//! converters (and any other tool's `-o` given a path outside the project,
//! but where `-o` is a flag), `-out` of OpenSSL, and the operands that are a written file
//! (`docker cp … DEST`, `python -m venv DIR`, `git worktree add PATH`, an
//! archive being made, an in-place `yq`/`awk`).

use super::SimpleCommand;
use super::words::{operands, operands_skipping, program};

/// Long options whose value is where the command writes (any case:
/// `--outDir`, `--outFile`).
const LONG: &[&str] = &[
    "--output",
    "--out",
    "--outfile",
    "--out-file",
    "--output-file",
    "--outdir",
    "--out-dir",
    "--output-dir",
    "--output-directory",
    "--outputdir",
    "--dest",
    "--destination",
    "--target-dir",
    "--pack-destination",
    "--distpath",
    "--dist-dir",
    "--wheel-dir",
    "--dst",
    // redis-cli's dump of a server's database to a local file.
    "--rdb",
];

/// Tools whose `-o` names the file they write.
const DASH_O: &[&str] = &[
    "gcc", "g++", "cc", "c++", "clang", "clang++", "gfortran", "rustc", "go", "tinygo", "swiftc",
    "nasm", "as", "ld", "sort", "pandoc", "gpg", "gpg2", "uglifyjs", "terser", "webpack", "rollup",
    "dot", "mmdc", "plantuml", "upx", "shc", "qrencode", "javac", "kotlinc", "tsc", "sops",
];

/// Tools whose one-letter option (other than `-o`) names where they write:
/// a site generator's `-d`, a downloader's `-d`, a dump's `-f`, CMake's
/// build folder.
const SHORT_OUT: &[(&str, &str)] = &[
    ("hugo", "-d"),
    ("jekyll", "-d"),
    ("mkdocs", "-d"),
    ("aria2c", "-d"),
    ("pg_dump", "-f"),
    ("pg_dumpall", "-f"),
    ("cmake", "-b"),
    ("yt-dlp", "-o"),
    ("youtube-dl", "-o"),
    ("cwebp", "-o"),
    ("zola", "-o"),
    // Compressors' output file, cpio's extraction folder (`-D`; the
    // options are read lower-case).
    ("zstd", "-o"),
    ("pzstd", "-o"),
    ("brotli", "-o"),
    ("cpio", "-d"),
    // A new PostgreSQL data directory (`pg_basebackup -D`, `initdb -D`).
    ("pg_basebackup", "-d"),
    ("initdb", "-d"),
    // Babel's output folder (`-d`, `--out-dir`).
    ("babel", "-d"),
    // Extractors' folder (`cabextract -d`, `unsquashfs -d`), yt-dlp's
    // download folder (`-P`, read lower-case).
    ("cabextract", "-d"),
    ("unsquashfs", "-d"),
    ("yt-dlp", "-p"),
    ("aria2c", "--dir"),
];

/// Tools whose `-o` is no output file (a flag, a format, a mount or ssh
/// option, a column list), or is read elsewhere.
const NOT_DASH_O: &[&str] = &[
    "ls", "dir", "vdir", "od", "grep", "egrep", "fgrep", "rg", "ag", "ack", "unzip", "tar", "gtar",
    "bsdtar", "ssh", "scp", "sftp", "sshfs", "mount", "umount", "ps", "lsblk", "lsof", "findmnt",
    "ip", "xargs", "mvn", "make", "kubectl", "oc", "helm", "df", "pr", "join", "cpio", "nl",
    "column", "python", "python3", "pytest", "7z", "sort", "patch",
];

/// A written path that names a place outside the working folder: absolute,
/// in the home folder, or above (`/srv/x`, `~/bin/x`, `$HOME/x`, `../x`);
/// no option (`-x`) or assignment (`k=/v`).
fn placed_outside(v: &str) -> bool {
    !v.contains('=')
        && (v.starts_with('/')
            || v.starts_with('~')
            || v.starts_with("$HOME")
            || v.starts_with("${HOME}")
            || v.starts_with("../"))
}

/// A long option named for where the output goes, whatever the tool: an
/// output word (`out`, `output`, `dest`, `site`, `build`, `dist`, `export`,
/// `install`, `target`) with a place word (`dir`, `path`, `file`, `folder`,
/// `root`), joined or not (`--site-dir`, `--build-dir`, `--outPath`,
/// `--dest-folder`, `--exportdir`). A bare `--target` or `--build` is no
/// place (a triple, a flag); a cache, data or config folder is not output.
fn output_long(name: &str) -> bool {
    const OUT: &[&str] = &[
        "out",
        "output",
        "dest",
        "dst",
        "destination",
        "site",
        "build",
        "dist",
        "export",
        "install",
        "target",
        // What a restore, an extraction, a download or a report writes
        // (`--untardir`, `--extract-dir`, `--result-file`, `--save-to`).
        "untar",
        "extract",
        "unpack",
        "restore",
        "download",
        "result",
        "save",
    ];
    const PLACE: &[&str] = &["dir", "directory", "path", "file", "folder", "root", "to"];
    let Some(bare) = name.strip_prefix("--") else {
        return false;
    };
    let bare = bare.replace('_', "-");
    // protoc's `--python_out=DIR`, `--descriptor_set_out=FILE`: the last
    // word says it is the output.
    if bare.len() > 4 && (bare.ends_with("-out") || bare.ends_with("-output")) {
        return true;
    }
    OUT.iter().any(|o| {
        bare.strip_prefix(o).is_some_and(|rest| {
            let rest = rest.strip_prefix('-').unwrap_or(rest);
            PLACE.contains(&rest)
        })
    })
}

/// The paths `cmd` writes through its output options and operands.
pub(super) fn output_paths(cmd: &SimpleCommand) -> Vec<&str> {
    let args = cmd.args();
    let prog = program(cmd);
    let mut out = Vec::new();
    if matches!(prog.as_str(), "curl" | "wget" | "git") {
        return out;
    }
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let lower = a.to_ascii_lowercase();
        let (name, value) = match lower.split_once('=') {
            Some((n, _)) => (n.to_string(), a.split_once('=').map(|(_, v)| v)),
            None => (lower.clone(), None),
        };
        // A long option written with one dash (`-out=FILE` of Terraform and
        // OpenSSL, PowerShell's `-OutFile`, `-DestinationPath`,
        // `-OutputDirectory`): read as its `--` form.
        let name = match name.strip_prefix('-') {
            Some(bare) if !bare.starts_with('-') && bare.len() > 2 => format!("--{bare}"),
            _ => name,
        };
        // `--save-storage=PATH`, `--save-har=PATH`: what is saved is written
        // there (a path-shaped value only: `--save-prefix=~` is a version
        // range).
        let saves = name.starts_with("--save-")
            && value.is_some_and(|v| v.contains('/') || v.contains('\\'));
        let short = match prog.as_str() {
            "openssl" => name == "--out",
            "javac" => name == "-d",
            "pip" | "pip3" => matches!(name.as_str(), "-d" | "-t" | "--target" | "-w"),
            "ssh-keygen" => name == "-f" && generates_key(args),
            p if DASH_O.contains(&p) => name == "-o",
            p => SHORT_OUT.iter().any(|(t, opt)| *t == p && name == *opt),
        };
        if LONG.contains(&name.as_str()) || output_long(&name) || short || saves {
            match value {
                Some(v) => out.push(v),
                None => out.extend(it.next().map(String::as_str)),
            }
        } else if a == "-o"
            && !NOT_DASH_O.contains(&prog.as_str())
            && let Some(v) = it.clone().next().filter(|v| placed_outside(v))
        {
            // Any other tool's `-o` given a path that leaves the project
            // (`deno compile -o /usr/local/bin/x`, `docker save -o
            // /srv/app.tar`): its output. A flag `-o` is followed by no
            // such path but on the tools listed in NOT_DASH_O.
            out.push(v);
        } else if prog == "7z"
            && let Some(v) = a.strip_prefix("-o").filter(|v| !v.is_empty())
        {
            out.push(v);
        }
    }
    out.extend(operand_outputs(&prog, args));
    out.extend(super::destinations::destination_paths(cmd));
    out
}

/// `ssh-keygen` makes a key (its `-f` is written) unless it only reads one.
fn generates_key(args: &[String]) -> bool {
    !args.iter().any(|a| {
        matches!(
            a.as_str(),
            "-l" | "-y" | "-e" | "-i" | "-F" | "-R" | "-H" | "-lf" | "-yf"
        )
    })
}

/// Operands that are the file or folder a command writes.
fn operand_outputs<'a>(prog: &str, args: &'a [String]) -> Vec<&'a str> {
    let ops = operands(args);
    match prog {
        // `docker cp CONTAINER:SRC DEST`: a destination on the host.
        "docker" | "podman" | "nerdctl" | "kubectl" | "oc"
            if ops.first() == Some(&"cp") && ops.len() == 3 =>
        {
            let dest = ops[2];
            let in_container = dest
                .split_once(':')
                .is_some_and(|(c, _)| !c.is_empty() && !c.contains('/'));
            if in_container { vec![] } else { vec![dest] }
        }
        "python" | "python3" | "py" if args.windows(2).any(|w| w[0] == "-m" && w[1] == "venv") => {
            operands_skipping(args, &["-m", "--prompt"])
                .into_iter()
                .take(1)
                .collect()
        }
        "virtualenv" | "pyvenv" => ops.into_iter().take(1).collect(),
        "zip" => ops.into_iter().take(1).collect(),
        "tar" | "gtar" | "bsdtar" => tar_created(args).into_iter().collect(),
        "xxd" if args.iter().any(|a| a == "-r") => ops.get(1).copied().into_iter().collect(),
        "yq" if args.iter().any(|a| a == "-i" || a == "--inplace") => {
            ops.into_iter().skip(1).collect()
        }
        // Structured editors told to write in place: the Python yq family
        // (`tomlq -i`, `xq --in-place`), `sd FIND REPLACE FILE…` (unless
        // `-p`, its preview), dasel's `put`/`delete -f FILE`, trentm's `json
        // -I -f FILE`, `crudini --set|--del FILE`.
        "tomlq" | "xq" if args.iter().any(|a| a == "-i" || a == "--in-place") => {
            ops.into_iter().skip(1).collect()
        }
        "sd" if !args.iter().any(|a| a == "-p" || a == "--preview") => {
            ops.into_iter().skip(2).collect()
        }
        "dasel" | "json" | "crudini" => in_place_file(prog, args, &ops).into_iter().collect(),
        "awk" | "gawk" if args.windows(2).any(|w| w[0] == "-i" && w[1] == "inplace") => {
            operands_skipping(args, &["-i", "-f", "-v"])
                .into_iter()
                .skip(1)
                .collect()
        }
        // ImageMagick writes its last operand; ffmpeg its last word (an
        // output always ends its line).
        "convert" | "magick" if ops.len() >= 2 && ops.first() != Some(&"identify") => {
            ops.last().copied().into_iter().collect()
        }
        "ffmpeg" => match args {
            [.., before, last] if !last.starts_with('-') && before != "-i" => vec![last.as_str()],
            _ => vec![],
        },
        // sqlite3's dot-commands that write a file (`.backup PATH`,
        // `.output PATH`, `.once PATH`, `.save PATH`), and the database
        // itself when the SQL given changes it.
        "sqlite3" => {
            let mut out: Vec<&str> = args
                .iter()
                .filter_map(|a| {
                    let mut w = a.split_whitespace();
                    matches!(w.next(), Some(".backup" | ".output" | ".once" | ".save"))
                        .then(|| w.last())
                        .flatten()
                        // `.backup '/var/b.db'`: the path inside its quotes.
                        .map(|p| p.trim_matches(['\'', '"']))
                })
                .collect();
            if ops.iter().skip(1).any(|sql| changes_database(sql)) {
                out.extend(ops.first().copied());
            }
            out
        }
        _ => vec![],
    }
}

/// The file dasel (`put`/`delete`), `json -I` or crudini (`--set`, `--del`)
/// rewrites.
fn in_place_file<'a>(prog: &str, args: &'a [String], ops: &[&'a str]) -> Option<&'a str> {
    let file_opt = || {
        args.iter()
            .position(|a| a == "-f" || a == "--file")
            .and_then(|k| args.get(k + 1))
            .map(String::as_str)
    };
    match prog {
        "dasel" if matches!(ops.first(), Some(&("put" | "delete"))) => file_opt(),
        "json" if args.iter().any(|a| a == "-I" || a == "--in-place") => file_opt(),
        "crudini" if args.iter().any(|a| a == "--set" || a == "--del") => ops.first().copied(),
        _ => None,
    }
}

/// The archive `tar` creates (`-czf FILE`, `czf FILE`, `--create --file
/// FILE`); none when it lists or extracts.
fn tar_created(args: &[String]) -> Option<&str> {
    let first = args.first()?;
    let bundled = !first.starts_with('-');
    let creates = args.iter().enumerate().any(|(i, a)| {
        a == "--create"
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('c'))
            || (i == 0 && bundled && a.contains('c'))
    });
    if !creates {
        return None;
    }
    let mut it = args.iter().enumerate();
    while let Some((i, a)) = it.next() {
        if a == "--file" || a == "-f" {
            return it.next().map(|(_, v)| v.as_str());
        }
        if let Some(v) = a.strip_prefix("--file=") {
            return Some(v);
        }
        let cluster = if i == 0 && bundled {
            Some(a.as_str())
        } else {
            a.strip_prefix('-').filter(|c| !c.starts_with('-'))
        };
        if let Some(c) = cluster
            && c.ends_with('f')
        {
            return it.next().map(|(_, v)| v.as_str());
        }
    }
    None
}

/// Whether SQL text writes to its database (a statement that creates,
/// changes or removes rows or tables).
fn changes_database(sql: &str) -> bool {
    sql.split(';').any(|stmt| {
        let first = stmt
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        matches!(
            first.as_str(),
            "CREATE" | "INSERT" | "UPDATE" | "DELETE" | "DROP" | "ALTER" | "REPLACE" | "VACUUM"
        )
    })
}
