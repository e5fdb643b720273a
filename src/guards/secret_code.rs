//! Code given to an interpreter on its command line that prints a secret
//! variable: `python -c "print(os.environ['AWS_SECRET_ACCESS_KEY'])"`,
//! `node -e 'console.log(process.env.GITHUB_TOKEN)'`, `ruby -e 'puts
//! ENV["API_KEY"]'`. The value must be what is printed, not a test of it
//! (`print("set" if os.environ["API_KEY"] else "unset")`, `len(…)`, `!!…`)
//! nor a part of it (`[:4]`, `.slice(0, 4)`). Reading the whole environment
//! is the opaque reader's ([`super::opaque`]).

use super::secret_commands::secret_name;

/// Interpreters and the options whose value is code; the second list
/// prints the value of the code's expression (`node -p`).
const INTERPRETERS: &[(&str, &[&str], &[&str])] = &[
    ("python", &["-c"], &[]),
    ("python3", &["-c"], &[]),
    ("python2", &["-c"], &[]),
    ("pypy3", &["-c"], &[]),
    ("node", &["-e", "--eval"], &["-p", "--print"]),
    ("nodejs", &["-e", "--eval"], &["-p", "--print"]),
    ("bun", &["-e", "--eval"], &["-p", "--print"]),
    ("deno", &["eval"], &["-p", "--print"]),
    ("ruby", &["-e"], &[]),
    ("perl", &["-e", "-E"], &[]),
    ("php", &["-r"], &[]),
    ("lua", &["-e"], &[]),
    ("luajit", &["-e"], &[]),
    ("rscript", &["-e"], &[]),
    ("Rscript", &["-e"], &[]),
];

/// How code reads one variable: the text before its name.
const ENV_READS: &[&str] = &[
    "os.environ[",
    "os.environ.get(",
    "os.getenv(",
    "ENVIRON[",
    "process.env.",
    "process.env[",
    "ENV[",
    "ENV.fetch(",
    "$ENV{",
    "Deno.env.get(",
    "Bun.env.",
    "getenv(",
];

/// Calls and statements that print their argument.
const PRINTS: &[&str] = &[
    "print(",
    "print ",
    "pprint(",
    "sys.stdout.write(",
    "console.log(",
    "console.info(",
    "console.error(",
    "console.warn(",
    "console.dir(",
    "process.stdout.write(",
    "puts ",
    "puts(",
    "p ",
    "pp ",
    "say ",
    "echo ",
    "var_dump(",
    "print_r(",
    "printf(",
    "cat(",
    "writeLines(",
    "message(",
    "io.write(",
];

/// The secret variable the interpreter command prints, if any.
pub fn prints_secret_var(prog: &str, args: &[String]) -> Option<String> {
    let (code, printing) = if matches!(prog, "awk" | "gawk" | "mawk" | "nawk") {
        (awk_program(args)?, false)
    } else {
        let (_, code_opts, print_opts) = INTERPRETERS.iter().find(|(p, _, _)| *p == prog)?;
        let printing = args.iter().any(|a| print_opts.contains(&a.as_str()));
        let at = args
            .iter()
            .position(|a| code_opts.contains(&a.as_str()) || print_opts.contains(&a.as_str()))?;
        (args.get(at + 1)?.clone(), printing)
    };
    let code = &code;
    env_reads(code)
        .into_iter()
        .find(|(start, end, name)| {
            secret_name(name)
                && shown_whole(code, *start, *end)
                && (printing || in_print(code, *start))
        })
        .map(|(_, _, name)| name)
}

/// The secret variable printed by code an interpreter reads from a heredoc
/// (`python3 - <<'EOF' … print(os.environ["K"]) … EOF`, `node - <<EOF`):
/// no script named, so the heredoc is the program.
pub fn heredoc_prints(prog: &str, args: &[String], heredoc: Option<&str>) -> Option<String> {
    let lang = prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    let known = INTERPRETERS
        .iter()
        .any(|(p, _, _)| *p == prog || *p == lang);
    if !known || !args.iter().all(|a| a.starts_with('-')) {
        return None;
    }
    let code = heredoc?;
    env_reads(code)
        .into_iter()
        .find(|(start, end, name)| {
            secret_name(name) && shown_whole(code, *start, *end) && in_print(code, *start)
        })
        .map(|(_, _, name)| name)
}

/// Calls that open a connection or make a request, in any of the
/// languages read here.
const NET_CALLS: &[&str] = &[
    "urlopen(",
    "requests.",
    "httpx.",
    "http.client",
    "fetch(",
    "https.request(",
    "http.request(",
    "https.get(",
    "http.get(",
    "axios",
    "Net::HTTP",
    "URI.open(",
    "LWP::",
    "HTTP::Tiny",
    "curl_exec(",
    "socket.",
    "Deno.connect(",
];

/// Interpreter code that sends a secret variable in a request or fetches
/// the instance's credentials from the metadata endpoint: (what, sent).
pub fn code_sends(prog: &str, args: &[String]) -> Option<(String, bool)> {
    let (_, code_opts, print_opts) = INTERPRETERS.iter().find(|(p, _, _)| *p == prog)?;
    let at = args
        .iter()
        .position(|a| code_opts.contains(&a.as_str()) || print_opts.contains(&a.as_str()))?;
    // The module expression as the receiver (`require("https").get(…)`) is
    // the same call as `https.get(…)`.
    let code = &required_as_names(args.get(at + 1)?);
    if !NET_CALLS.iter().any(|c| code.contains(c)) {
        return None;
    }
    let lower = code.to_ascii_lowercase();
    if super::effects::tables::METADATA_CREDENTIALS
        .iter()
        .any(|(host, route)| {
            lower
                .split_once(host)
                .is_some_and(|(_, r)| r.contains(route))
        })
    {
        return Some((
            "cloud instance credentials from the metadata endpoint".into(),
            false,
        ));
    }
    env_reads(code)
        .into_iter()
        .find(|(_, _, name)| secret_name(name))
        .map(|(_, _, name)| (format!("the environment variable {name}"), true))
}

/// `require("m")` and `require('m')` written as `m`.
fn required_as_names(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(i) = rest.find("require(") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "require(".len()..];
        let q = after.chars().next().filter(|c| matches!(c, '"' | '\''));
        match q.and_then(|q| after[1..].find(q).map(|e| (e, &after[1..]))) {
            Some((e, inner)) if inner[e + 1..].starts_with(')') => {
                out.push_str(&inner[..e]);
                rest = &inner[e + 2..];
            }
            _ => {
                out.push_str("require(");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// awk's program: its first operand, past `-F`, `-v` and their values
/// (none when it is read from a file, `-f`).
pub(super) fn awk_program(args: &[String]) -> Option<String> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-f" | "--file" => return None,
            "-F" | "-v" | "--field-separator" | "--assign" => {
                it.next();
            }
            "--" => return it.next().cloned(),
            o if o.starts_with('-') && o.len() > 1 => {}
            _ => return Some(a.clone()),
        }
    }
    None
}

/// Every read of one variable: where its reader starts, where the read
/// ends (after the closing quote and bracket), and the name.
fn env_reads(code: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    for marker in ENV_READS {
        for (i, _) in code.match_indices(marker) {
            // A whole name (`ENV[`, not `MY_ENV[`; `getenv(` inside
            // `os.getenv(` is read once, with its module).
            if code[..i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                || *marker == "getenv(" && code[..i].ends_with("os.")
            {
                continue;
            }
            let rest = &code[i + marker.len()..];
            let quoted = rest.trim_start_matches(['\'', '"', '`']);
            let lead = rest.len() - quoted.len();
            let len = quoted
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(quoted.len());
            if len == 0 {
                continue;
            }
            let mut end = i + marker.len() + lead + len;
            end += code[end..]
                .chars()
                .take_while(|c| matches!(c, '\'' | '"' | '`' | ']' | '}'))
                .count();
            // `os.environ.get('X')`, `getenv("X")`: the call's `)`.
            if marker.ends_with('(') && code[end..].starts_with(')') {
                end += 1;
            }
            out.push((i, end, quoted[..len].to_string()));
        }
    }
    out
}

/// Whether the value read at `start..end` is used whole: not tested
/// (`!!x`, `len(x)`, `x ? a : b`, `x if … else …`) nor cut (`x[:4]`).
fn shown_whole(code: &str, start: usize, end: usize) -> bool {
    let before = code[..start].trim_end();
    let tested = [
        "!", "len(", "bool(", "hash(", "Boolean(", "defined(", "isset(", "empty(", "exists",
        "defined",
    ]
    .iter()
    .any(|t| before.ends_with(t));
    let after = code[end..].trim_start();
    let whole = after.is_empty()
        || after.starts_with([')', ',', ';', '}', '+', '\n'])
        || after.starts_with("\"")
        || after.starts_with('\'');
    !tested && whole && !after.starts_with("||") && !after.starts_with("??")
}

/// Whether the statement holding `start` is a print of it.
/// A block's `{` starts a statement too (awk's `BEGIN{print …}`).
fn in_print(code: &str, start: usize) -> bool {
    [&[';', '\n'][..], &[';', '\n', '{']].iter().any(|seps| {
        let stmt = code[..start]
            .rfind(*seps)
            .map_or(&code[..start], |i| &code[i + 1..start]);
        let stmt = stmt.trim_start();
        PRINTS.iter().any(|p| {
            stmt.starts_with(p)
                || stmt.contains(&format!(" {p}"))
                || p.ends_with('(') && stmt.contains(p)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn judge(prog: &str, args: &[&str]) -> Option<String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        prints_secret_var(prog, &args)
    }

    #[test]
    fn prints_a_secret_variable() {
        for (prog, args) in [
            (
                "python3",
                &[
                    "-c",
                    "import os; print(os.environ['AWS_SECRET_ACCESS_KEY'])",
                ][..],
            ),
            (
                "python",
                &["-c", "import os;print(os.getenv(\"GITHUB_TOKEN\"))"],
            ),
            (
                "python3",
                &["-c", "import os; print(f\"{os.environ['API_KEY']}\")"],
            ),
            ("node", &["-e", "console.log(process.env.GITHUB_TOKEN)"]),
            ("node", &["-p", "process.env.NPM_TOKEN"]),
            ("ruby", &["-e", "puts ENV['STRIPE_SECRET_KEY']"]),
            ("perl", &["-e", "print $ENV{AWS_SECRET_ACCESS_KEY}"]),
        ] {
            assert!(judge(prog, args).is_some(), "{prog} {args:?}");
        }
    }

    #[test]
    fn tests_and_parts_are_quiet() {
        for (prog, args) in [
            (
                "python3",
                &[
                    "-c",
                    "import os; print('set' if os.environ['API_KEY'] else 'unset')",
                ][..],
            ),
            (
                "python3",
                &["-c", "import os; print(len(os.environ['API_KEY']))"],
            ),
            (
                "python3",
                &["-c", "import os; print(os.environ['API_KEY'][:4])"],
            ),
            ("python3", &["-c", "import os; print(os.environ['HOME'])"]),
            (
                "python3",
                &["-c", "import os; k = os.environ['API_KEY']; print('ok')"],
            ),
            ("node", &["-e", "console.log(!!process.env.GITHUB_TOKEN)"]),
            (
                "node",
                &["-e", "console.log(process.env.GITHUB_TOKEN ? 'yes' : 'no')"],
            ),
            (
                "node",
                &["-e", "console.log(process.env.GITHUB_TOKEN.slice(0, 4))"],
            ),
        ] {
            assert_eq!(judge(prog, args), None, "{prog} {args:?}");
        }
    }
}
