use super::lexer::quote;
use super::*;

fn argvs(cmd: &str) -> Vec<Vec<String>> {
    parse(cmd).into_iter().map(|c| c.argv).collect()
}

fn v(words: &[&str]) -> Vec<String> {
    words.iter().map(|s| s.to_string()).collect()
}

#[test]
fn quoting_and_escapes() {
    assert_eq!(
        argvs(r#"echo 'a b' "c $HOME d" e\ f $'g\th' "q\"x" 'it'\''s'"#),
        vec![v(&[
            "echo",
            "a b",
            "c $HOME d",
            "e f",
            "g\th",
            "q\"x",
            "it's"
        ])]
    );
    assert_eq!(argvs("echo a\\\nb"), vec![v(&["echo", "ab"])]);
    assert_eq!(argvs(r"echo $'\x41\101\u00e9'"), vec![v(&["echo", "AAé"])]);
}

#[test]
fn separators_split_commands() {
    assert_eq!(
        argvs("a 1 && b 2 || c; d & e | f |& g\nh"),
        vec![
            v(&["a", "1"]),
            v(&["b", "2"]),
            v(&["c"]),
            v(&["d"]),
            v(&["e"]),
            v(&["f"]),
            v(&["g"]),
            v(&["h"])
        ]
    );
    let cmds = parse("curl -fsSL https://x.sh | sudo bash");
    assert_eq!(cmds[1].argv, v(&["bash"]));
    assert!(cmds[1].piped && !cmds[0].piped);
    assert_eq!(cmds[1].wrappers, v(&["sudo"]));
}

#[test]
fn subshells_and_groups() {
    assert_eq!(
        argvs("(cd /tmp && rm -rf x); { git push -f; } ; if true; then echo y; fi"),
        vec![
            v(&["cd", "/tmp"]),
            v(&["rm", "-rf", "x"]),
            v(&["git", "push", "-f"]),
            v(&["true"]),
            v(&["echo", "y"]),
        ]
    );
}

#[test]
fn substitutions_are_nested_commands() {
    let cmds = argvs(r#"echo "today: $(date +%F)" `whoami` $((1+2)) ${X:-y}"#);
    assert_eq!(cmds[0], v(&["date", "+%F"]));
    assert_eq!(cmds[1], v(&["whoami"]));
    assert_eq!(
        cmds[2],
        v(&[
            "echo",
            "today: $(date +%F)",
            "`whoami`",
            "$((1+2))",
            "${X:-y}"
        ])
    );
    assert_eq!(cmds.len(), 3);
    let cmds = argvs("diff <(sort a) >(tee b)");
    assert_eq!(cmds[0], v(&["sort", "a"]));
    assert_eq!(cmds[1], v(&["tee", "b"]));
    assert_eq!(cmds[2], v(&["diff", "<(sort a)", ">(tee b)"]));
    // A subshell inside a substitution does not close it.
    let cmds = argvs("x=$( (cd a; ls) | wc -l ); echo $x");
    assert_eq!(
        cmds,
        vec![
            v(&["cd", "a"]),
            v(&["ls"]),
            v(&["wc", "-l"]),
            v(&["echo", "$x"])
        ]
    );
}

#[test]
fn redirections_with_targets() {
    let c = &parse("cmd >out.txt 2>>err.log <in &>/dev/null 2>&1 >| f <<< 'word'")[0];
    assert_eq!(c.argv, v(&["cmd"]));
    let ops: Vec<(&str, &str)> = c
        .redirects
        .iter()
        .map(|r| (r.op.as_str(), r.target.as_str()))
        .collect();
    assert_eq!(
        ops,
        vec![
            (">", "out.txt"),
            ("2>>", "err.log"),
            ("<", "in"),
            ("&>", "/dev/null"),
            ("2>&", "1"),
            (">|", "f"),
            ("<<<", "word"),
        ]
    );
    let writes: Vec<bool> = c.redirects.iter().map(Redirect::writes_file).collect();
    assert_eq!(writes, vec![true, true, false, true, false, true, false]);
    let c = &parse("echo hi > ~/.bashrc")[0];
    assert_eq!(c.redirects[0].target, "~/.bashrc");
}

#[test]
fn heredocs_are_data() {
    // An unquoted delimiter: the body is data, but its substitutions run
    // first (their output is taken).
    let cmds = parse("cat <<EOF > notes.txt\nrm -rf /\n$(whoami)\nEOF\necho done");
    assert_eq!(cmds.len(), 3, "{cmds:?}");
    assert_eq!(cmds[0].argv, v(&["whoami"]));
    assert!(cmds[0].captured);
    assert_eq!(cmds[1].argv, v(&["cat"]));
    assert_eq!(cmds[1].heredoc.as_deref(), Some("rm -rf /\n$(whoami)\n"));
    assert_eq!(cmds[1].redirects[1].target, "notes.txt");
    assert_eq!(cmds[2].argv, v(&["echo", "done"]));
    // A quoted one: nothing in the body runs.
    let cmds = parse("cat <<'EOF' > notes.txt\n$(rm -rf ~/w)\n`git reset --hard`\nEOF");
    assert_eq!(cmds.len(), 1, "{cmds:?}");
    let cmds = parse("cat <<\\EOF\n$(rm -rf ~/w)\nEOF");
    assert_eq!(cmds.len(), 1, "{cmds:?}");

    let cmds = parse("cat <<-'END' | grep x\n\tline one\n\tEND\nls");
    assert_eq!(cmds[0].heredoc.as_deref(), Some("line one\n"));
    assert_eq!(cmds[1].argv, v(&["grep", "x"]));
    assert_eq!(cmds[2].argv, v(&["ls"]));

    // Fed to a shell, the body is a script.
    let cmds = argvs("bash <<'EOF'\ngit push --force origin main\nEOF");
    assert_eq!(cmds, vec![v(&["git", "push", "--force", "origin", "main"])]);
    let cmds = argvs("sh <<< 'rm -rf ~'");
    assert_eq!(cmds, vec![v(&["rm", "-rf", "~"])]);
}

#[test]
fn wrappers_are_unwrapped() {
    let cases: &[(&str, &[&str])] = &[
        (
            "sudo -u root -E git push origin main",
            &["git", "push", "origin", "main"],
        ),
        ("sudo --user=x FOO=1 rm -rf /", &["rm", "-rf", "/"]),
        ("doas -u root rm x", &["rm", "x"]),
        ("env -i PATH=/bin A=b git push", &["git", "push"]),
        ("env -u HOME -- rm x", &["rm", "x"]),
        ("FOO=1 BAR=2 make test", &["make", "test"]),
        ("nice -n 10 cargo build", &["cargo", "build"]),
        ("nice -5 make", &["make"]),
        ("ionice -c2 -n7 rsync a b", &["rsync", "a", "b"]),
        ("timeout 10 npm test", &["npm", "test"]),
        ("timeout -s KILL --preserve-status 5m pytest", &["pytest"]),
        ("nohup ./server &", &["./server"]),
        ("time -p cargo test", &["cargo", "test"]),
        ("command git status", &["git", "status"]),
        ("exec -a name sleep 1", &["sleep", "1"]),
        ("stdbuf -oL -e 0 tail -f log", &["tail", "-f", "log"]),
        ("find . -name '*.o' | xargs -0 -n 1 rm -f", &["rm", "-f"]),
        ("xargs -I {} cp {} /tmp", &["cp", "{}", "/tmp"]),
        ("/usr/bin/sudo /bin/rm -rf x", &["/bin/rm", "-rf", "x"]),
        (
            "sudo nice timeout 3 env X=1 git clean -fdx",
            &["git", "clean", "-fdx"],
        ),
    ];
    for (cmd, want) in cases {
        let got = parse(cmd);
        let last = got.last().unwrap_or_else(|| panic!("{cmd}: nothing"));
        assert_eq!(last.argv, v(want), "{cmd}");
    }
    let c = parse("sudo env X=1 nice git push");
    assert_eq!(c[0].wrappers, v(&["sudo", "env", "nice"]));
    assert_eq!(argvs("command -v git"), vec![v(&["command", "-v", "git"])]);
    assert_eq!(argvs("sudo -v"), vec![v(&["sudo", "-v"])]);
}

#[test]
fn shell_scripts_are_parsed() {
    let cases: &[(&str, &[&[&str]])] = &[
        (
            "bash -c 'git push -f && rm -rf /'",
            &[&["git", "push", "-f"], &["rm", "-rf", "/"]],
        ),
        ("sh -c \"cd x; make\"", &[&["cd", "x"], &["make"]]),
        ("bash -lc 'npm i left-pad'", &[&["npm", "i", "left-pad"]]),
        ("zsh -o pipefail -c 'ls'", &[&["ls"]]),
        ("dash -ec 'ls'", &[&["ls"]]),
        ("/bin/bash --norc -c 'ls'", &[&["ls"]]),
        (
            "eval 'git push' origin main",
            &[&["git", "push", "origin", "main"]],
        ),
        (
            "pwsh -NoProfile -Command 'Remove-Item -Recurse C:\\x'",
            &[&["Remove-Item", "-Recurse", "C:\\x"]],
        ),
        (
            "powershell.exe -c \"git push --force\"",
            &[&["git", "push", "--force"]],
        ),
        ("cmd /c del x", &[&["del", "x"]]),
        ("su -c 'rm -rf /srv' root", &[&["rm", "-rf", "/srv"]]),
        ("env -S 'git push -f'", &[&["git", "push", "-f"]]),
        (
            "sudo bash -c \"sh -c 'git push origin +main'\"",
            &[&["git", "push", "origin", "+main"]],
        ),
    ];
    for (cmd, want) in cases {
        let got: Vec<Vec<String>> = argvs(cmd);
        let want: Vec<Vec<String>> = want.iter().map(|w| v(w)).collect();
        assert_eq!(got, want, "{cmd}");
    }
    let c = parse("sudo bash -c \"sh -c 'git push origin +main'\"");
    assert_eq!(c[0].wrappers, v(&["sudo", "bash", "sh"]));
    // A script file is not a -c script.
    assert_eq!(
        argvs("bash deploy.sh -c x"),
        vec![v(&["bash", "deploy.sh", "-c", "x"])]
    );
    // The wrapper's own redirections are kept.
    let c = parse("sudo sh -c 'cat a' > /etc/hosts");
    assert_eq!(c.len(), 2);
    assert_eq!(c[1].redirects[0].target, "/etc/hosts");
}

#[test]
fn depth_is_bounded() {
    // Every level of `bash -c` nesting is parsed up to MAX_DEPTH.
    let mut cmd = "rm -rf /".to_string();
    for _ in 0..MAX_DEPTH {
        cmd = format!("bash -c {}", quote(&cmd));
    }
    assert_eq!(argvs(&cmd), vec![v(&["rm", "-rf", "/"])]);
    // One level more: the innermost shell is kept as it is, unparsed, and a
    // last command with no words says a bound was hit (issue 26: opacity).
    let deeper = format!("bash -c {}", quote(&cmd));
    let got = parse(&deeper);
    assert_eq!(got.len(), 2);
    assert_eq!(got[0].program(), Some("bash"));
    assert!(got[0].opaque.is_none());
    assert!(got[1].argv.is_empty() && got[1].opaque.is_some());
    // Hostile nesting never recurses without bound.
    let hostile = "$(".repeat(20_000) + &")".repeat(20_000);
    let _ = parse(&hostile);
    let hostile = "`".repeat(30_000);
    let _ = parse(&hostile);
    let hostile = "bash -c \"".repeat(5_000);
    let _ = parse(&hostile);
}

#[test]
fn unparseable_input_is_read_as_far_as_it_goes() {
    for bad in [
        "echo 'unterminated",
        "echo \"x $(rm -rf /",
        "))) ((( ;;; ||| &&&",
        "cat <<EOF\nno end",
        "echo \\",
        "$'\\x",
        "> ",
        "`",
        "2>&",
        "echo ${",
        "a $((",
        "\u{0}\u{7f}",
        "é'ü\"$(ß",
    ] {
        let _ = parse(bad);
    }
    assert_eq!(argvs("echo 'open"), vec![v(&["echo", "open"])]);
    let got = argvs("echo \"x $(rm -rf /");
    assert_eq!(got[0], v(&["rm", "-rf", "/"]));
}

#[test]
fn input_and_output_are_bounded() {
    let big = "ls;".repeat(MAX_INPUT);
    let got = parse(&big);
    // The commands read, then the marker of the bound (issue 26).
    assert_eq!(got.len(), MAX_COMMANDS + 1);
    assert!(got[MAX_COMMANDS].opaque.is_some());
    let multibyte = "é".repeat(MAX_INPUT);
    let got = parse(&multibyte);
    assert_eq!(got[0].argv[0].len(), MAX_INPUT);
}

#[test]
fn program_is_the_basename() {
    let c = &parse("/usr/local/bin/git status")[0];
    assert_eq!(c.program(), Some("git"));
    assert_eq!(c.args(), &v(&["status"])[..]);
    let c = &parse(r"'C:\Program Files\Git\bin\git.exe' push")[0];
    assert_eq!(c.program(), Some("git.exe"));
    assert_eq!(SimpleCommand::default().program(), None);
}

#[test]
fn powershell_keeps_backslashes() {
    assert_eq!(
        argvs_ps(r"Remove-Item -Recurse -Force C:\Users\me\.ssh; git push origin main"),
        vec![
            v(&["Remove-Item", "-Recurse", "-Force", r"C:\Users\me\.ssh"]),
            v(&["git", "push", "origin", "main"])
        ]
    );
    assert_eq!(argvs_ps("echo `$HOME"), vec![v(&["echo", "$HOME"])]);
}

fn argvs_ps(cmd: &str) -> Vec<Vec<String>> {
    parse_powershell(cmd).into_iter().map(|c| c.argv).collect()
}

#[test]
fn comments_are_skipped() {
    assert_eq!(
        argvs("ls # rm -rf /\necho a#b"),
        vec![v(&["ls"]), v(&["echo", "a#b"])]
    );
}

#[test]
fn random_syntax_never_panics() {
    // A deterministic walk over the characters the parser treats specially.
    const ALPHABET: &[&str] = &[
        "'", "\"", "\\", "$", "(", ")", "`", "{", "}", "<", ">", "&", "|", ";", "\n", " ", "#",
        "-", "=", "a", "bash", "-c", "sudo", "eval", "<<", "EOF", "$'", "é", "\t", "2>&1", "xargs",
        "env", "pwsh", "-Command", "*",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let len = (next() % 40) as usize;
        let s: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        let _ = parse(&s);
        let _ = parse_powershell(&s);
    }
}

#[test]
fn arithmetic_holds_substitutions() {
    let cmds = argvs("echo $(( $(rm -rf ~/x) + `git reset --hard` + (2 * 3) )) done");
    assert_eq!(cmds[0], v(&["rm", "-rf", "~/x"]));
    assert_eq!(cmds[1], v(&["git", "reset", "--hard"]));
    assert_eq!(cmds[2][0], "echo");
    assert_eq!(cmds[2].last().unwrap(), "done");
}

#[test]
fn the_working_directory_follows_the_chain() {
    let c = parse("cd .. && rm -rf build; (cd / && rm -rf srv); rm x");
    let dirs: Vec<(&str, &Cwd)> = c.iter().map(|c| (c.argv[0].as_str(), &c.cwd)).collect();
    assert_eq!(
        dirs,
        vec![
            ("cd", &Cwd::Start),
            ("rm", &Cwd::Dir("..".into())),
            ("cd", &Cwd::Dir("..".into())),
            ("rm", &Cwd::Dir("/".into())),
            ("rm", &Cwd::Dir("..".into())),
        ]
    );
    let c = parse("pushd /tmp/../etc; rm -f passwd; popd; rm y");
    assert_eq!(c[1].cwd, Cwd::Dir("/tmp/../etc".into()));
    assert_eq!(c[3].cwd, Cwd::Start);
    let c = parse("cd \"$X\" && rm -rf build");
    assert_eq!(c[1].cwd, Cwd::Unknown);
    // Wrappers and nested scripts: `builtin cd`, `bash -c` starts where it runs.
    let c = parse("builtin cd /srv && bash -c 'rm -rf data; cd /; rm -rf x' && ls");
    assert_eq!(c[1].cwd, Cwd::Dir("/srv".into()));
    assert_eq!(c[3].cwd, Cwd::Dir("/".into()));
    assert_eq!(c.last().unwrap().cwd, Cwd::Dir("/srv".into()));
    // Wrappers that run their command elsewhere.
    assert_eq!(
        parse("sudo -D /srv rm -rf data")[0].cwd,
        Cwd::Dir("/srv".into())
    );
    assert_eq!(
        parse("env --chdir=/opt rm x")[0].cwd,
        Cwd::Dir("/opt".into())
    );
    // A substitution's moves stay in it.
    let c = parse("echo $(cd /; pwd) && rm -rf z");
    assert_eq!(c.last().unwrap().cwd, Cwd::Start);
}

#[test]
fn interpreters_one_liners_are_read_for_their_calls() {
    let c = parse("python3 -c \"import shutil; shutil.rmtree('/srv/data')\"");
    assert_eq!(c[1].argv, v(&["rm", "-rf", "/srv/data"]));
    assert_eq!(c[1].wrappers, v(&["python3"]));
    let c = parse(
        "cd /opt && node -e \"require('child_process').execSync('git push -f origin main')\"",
    );
    assert_eq!(c[2].argv, v(&["git", "push", "-f", "origin", "main"]));
    assert_eq!(c[2].cwd, Cwd::Dir("/opt".into()));
    let c = parse("perl -e 'system(\"rm -rf /opt/app\")'");
    assert_eq!(c[1].argv, v(&["rm", "-rf", "/opt/app"]));
    let c = parse("python3 - <<'EOF'\nimport os\nos.remove('/etc/hosts')\nEOF");
    assert_eq!(c[1].argv, v(&["rm", "-f", "/etc/hosts"]));
    // A script file, a module, and code that calls nothing: the command alone.
    for quiet in [
        "python3 manage.py test",
        "python -m pytest -x",
        "node -e \"console.log(process.version)\"",
        "perl -pi -e 's/a/b/' f.txt",
    ] {
        assert_eq!(parse(quiet).len(), 1, "{quiet}");
    }
    let c = parse("builtin command rm -rf /x");
    assert_eq!(c[0].argv, v(&["rm", "-rf", "/x"]));
    let c = parse("env -i -P /usr/bin rm -rf /x");
    assert_eq!(c[0].argv, v(&["rm", "-rf", "/x"]));
    let c = parse("/bin/zsh -lc 'git clean -fdx'");
    assert_eq!(c[0].argv, v(&["git", "clean", "-fdx"]));
}

#[test]
fn find_is_read_into_what_it_runs() {
    let got = argvs("find /var/www -exec rm -rf {} +");
    assert_eq!(got[1], v(&["rm", "-rf", "/var/www"]));
    let got = argvs("find /var/www -name '*.log' -exec rm -rf {} +");
    assert_eq!(got[1], v(&["rm", "-rf", "/var/www/*.log"]));
    let got = argvs("find . -name node_modules -delete");
    assert_eq!(got[1], v(&["rm", "-r", "./node_modules"]));
    let got = argvs("find -L ~ a -execdir rm {} \\; -print");
    assert_eq!(got[1], v(&["rm", "~"]));
    assert_eq!(got[2], v(&["rm", "a"]));
    let c = parse("sudo find / -delete");
    assert_eq!(c[1].wrappers, v(&["sudo", "find"]));
    // Only finding stays as it is.
    assert_eq!(argvs("find . -name '*.rs'").len(), 1);
}

#[test]
fn fd_and_parallel() {
    assert_eq!(argvs("fd -x rm")[1], v(&["rm", "."]));
    assert_eq!(argvs("fd -e o -x rm")[1], v(&["rm", "./*.o"]));
    assert_eq!(
        argvs("fd tmp /srv --exec-batch rm -rf {} ;")[1],
        v(&["rm", "-rf", "/srv/*tmp*"])
    );
    let got = argvs("parallel -j4 rm -rf {} ::: a /srv/b");
    assert_eq!(got[1], v(&["rm", "-rf", "a"]));
    assert_eq!(got[2], v(&["rm", "-rf", "/srv/b"]));
    let c = parse("ls | parallel rm -rf");
    assert_eq!(c[1].argv, v(&["rm", "-rf"]));
    assert!(c[1].fed && c[1].piped);
    assert!(parse("ls | xargs -0 rm")[1].fed);
    assert_eq!(argvs("parallel --dry-run rm ::: a").len(), 1);
}

#[test]
fn directory_tracking_is_bounded() {
    let cmds = parse(&("cd a; ".repeat(20_000) + "rm -rf x"));
    // The joined directory grew past the bound: unknown from then on.
    assert!(cmds.iter().any(|c| c.cwd == Cwd::Unknown));
    let cmds = parse(&("pushd /x; ".repeat(500) + &"( ".repeat(500) + "ls"));
    assert!(!cmds.is_empty());
    // Interpreter code with many unclosed calls is read in bounded time.
    let code = "rm(".repeat(5_000);
    let cmds = parse(&format!("node -e '{code}'"));
    assert_eq!(cmds.len(), 1);
}

/// Issue 26: the ways of hiding a command the reader sees through.
#[test]
fn hidden_commands_are_read_as_plain_ones() {
    let has = |cmd: &str, want: &[&str]| {
        let got = argvs(cmd);
        assert!(got.contains(&v(want)), "{cmd}: {got:?}");
    };
    // Launchers.
    has("chrt -b 0 rm -rf ~/w", &["rm", "-rf", "~/w"]);
    has(
        "systemd-run --user --unit x rm -rf ~/w",
        &["rm", "-rf", "~/w"],
    );
    has("flock -w 5 /tmp/l rm -rf ~/w", &["rm", "-rf", "~/w"]);
    has("watch -n 5 'rm -rf ~/w'", &["rm", "-rf", "~/w"]);
    has("sg wheel -c 'rm -rf ~/w'", &["rm", "-rf", "~/w"]);
    // Side channels.
    has(
        "git -c core.sshCommand='rm -rf ~/w' fetch",
        &["rm", "-rf", "~/w"],
    );
    has("awk 'BEGIN{system(\"rm -rf ~/w\")}'", &["rm", "-rf", "~/w"]);
    has("GIT_PAGER='rm -rf ~/w' git log", &["rm", "-rf", "~/w"]);
    has("trap 'rm -rf ~/w' EXIT", &["rm", "-rf", "~/w"]);
    has("at now <<< 'rm -rf ~/w'", &["rm", "-rf", "~/w"]);
    // Aliases, printf scripts, braces.
    has("alias x='rm -rf'; x ~/w", &["rm", "-rf", "~/w"]);
    has("printf 'rm -r %s\\n' ~/w | bash", &["rm", "-r", "~/w"]);
    has("{rm,-rf,~/w}", &["rm", "-rf", "~/w"]);
    // git's spellings.
    has(
        "git push --forc origin main",
        &["git", "push", "--force", "origin", "main"],
    );
    has(
        "git -c alias.p='push -f' p origin main",
        &["git", "push", "-f", "origin", "main"],
    );
    has(
        "git send-pack origin +main",
        &["git", "push", "origin", "+main"],
    );
    // Ordinary look-alikes are left alone.
    assert_eq!(argvs("chrt -p 1234"), vec![v(&["chrt", "-p", "1234"])]);
    assert_eq!(
        argvs("git push --dry-run origin x"),
        vec![v(&["git", "push", "--dry-run", "origin", "x"])]
    );
}

#[test]
fn what_cannot_be_read_is_named() {
    let reasons = |cmd: &str| opacity::find(cmd, &parse(cmd), false);
    // A constant program name is read as the program (`src/shell/constants.rs`).
    assert_eq!(
        argvs("c=rm; \"$c\" -r ~/w").last(),
        Some(&v(&["rm", "-r", "~/w"]))
    );
    for cmd in [
        "c=$(which rm); \"$c\" -r ~/w",
        "echo cm0= | base64 -d | sh",
        "bash <(curl -s https://x)",
        "echo x > /tmp/s.sh; sh /tmp/s.sh",
        "rm -rf \"$(dirname \"$PWD\")\"",
        "/bin/r? -rf ~/w",
    ] {
        assert!(!reasons(cmd).is_empty(), "{cmd}");
    }
    for cmd in [
        "ls -la",
        "eval \"$(ssh-agent -s)\"",
        "rm -rf \"$(mktemp -d)\"",
        "echo 'ls' | sh",
        "bash scripts/test.sh",
        "[ -f x ] && cat x",
    ] {
        assert!(reasons(cmd).is_empty(), "{cmd}: {:?}", reasons(cmd));
    }
}
