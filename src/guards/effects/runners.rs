//! The tool a command runs through package runners and task launchers
//! (`npx prisma …`, `pnpm exec …`, `bundle exec rake …`, `php artisan …`):
//! what the effect tables are looked up by.

use crate::shell::SimpleCommand;

/// The tool a command runs and the words after it: through package
/// runners and task launchers (`npx prisma …`, `pnpm exec …`, `bundle exec
/// rake …`, `poetry run …`, `php artisan …`, `python manage.py …`,
/// `bin/console …`), lower-case, without directory or `.exe`.
pub fn tool(cmd: &SimpleCommand) -> (String, &[String]) {
    let mut prog = crate::shell::program_name(cmd.argv.first().map_or("", String::as_str));
    let mut rest: &[String] = cmd.args();
    for _ in 0..3 {
        let next = match prog.as_str() {
            "npx" | "bunx" | "pnpx" => skip_opts(rest),
            // `corepack pnpm add x`: Corepack runs the package manager named.
            "corepack" => rest
                .first()
                .filter(|w| {
                    matches!(
                        crate::shell::program_name(w).as_str(),
                        "pnpm" | "yarn" | "yarnpkg" | "npm" | "npx" | "pnpx"
                    )
                })
                .map(|_| 0),
            "pnpm" | "yarn" | "bun" | "npm" => match rest.first().map(String::as_str) {
                Some("exec" | "dlx" | "x") => skip_opts(&rest[1..]).map(|i| i + 1),
                Some(w) if prog != "npm" && !w.starts_with('-') && !is_pm_verb(w) => Some(0),
                _ => None,
            },
            "bundle" | "poetry" | "uv" | "pipenv" | "pdm" | "hatch" | "rye" => {
                match rest.first().map(String::as_str) {
                    Some("exec" | "run") => skip_opts(&rest[1..]).map(|i| i + 1),
                    _ => None,
                }
            }
            // `symfony console doctrine:database:drop`: the Symfony CLI runs
            // the project's console.
            "symfony" => rest.first().filter(|a| *a == "console").map(|_| 0),
            "php" => rest
                .first()
                .filter(|a| {
                    let n = crate::shell::program_name(a);
                    n == "artisan" || n == "console"
                })
                .map(|_| 0),
            "python" | "python3" | "py" => rest
                .first()
                .filter(|a| crate::shell::program_name(a) == "manage.py")
                .map(|_| 0),
            _ => None,
        };
        let Some(i) = next else { break };
        let Some(word) = rest.get(i) else { break };
        prog = crate::shell::program_name(word);
        rest = &rest[i + 1..];
    }
    if prog == "django-admin" {
        prog = "manage.py".into();
    }
    (prog, rest)
}

/// Package-manager verbs that are not a binary to run (`pnpm install`).
fn is_pm_verb(w: &str) -> bool {
    matches!(
        w,
        "install"
            | "i"
            | "add"
            | "remove"
            | "rm"
            | "uninstall"
            | "update"
            | "up"
            | "upgrade"
            | "run"
            | "test"
            | "build"
            | "start"
            | "ci"
            | "publish"
            | "link"
            | "why"
            | "list"
            | "ls"
            | "outdated"
            | "audit"
            | "init"
            | "create"
            | "dev"
            | "lint"
            | "format"
    )
}

/// The index of the first word that is not an option (a runner's own
/// options: `npx -y prisma`, `npx --package x prisma`).
fn skip_opts(args: &[String]) -> Option<usize> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if matches!(a.as_str(), "-p" | "--package" | "-c" | "--call") {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            return Some(i);
        }
    }
    None
}
