//! Remote shells: programs that run a command line on another machine
//! (`ssh host 'cmd'`, `mosh host -- cmd`, `gcloud compute ssh vm --command
//! 'cmd'`, `flyctl ssh console -C 'cmd'`, `vagrant ssh -c 'cmd'`, a heredoc
//! or here-string fed to `ssh host bash -s`). The remote command is read as a
//! command line one level deeper, and its commands carry a wrapper named
//! [`PREFIX`]`<program>` so that the guards whose subject is this machine
//! (outside-project: a path there is not outside this project; dependency:
//! an install there changes no manifest here) can leave them out, while the
//! destructive, secrets and protected-branch guards judge them as written
//! (an agent deleting data or discarding work on a server is destructive
//! wherever it runs; a remote `printenv` brings the server's secrets into
//! the model's context). See docs/decisions.md, "The effect model, seventh
//! round (round8)".

use super::SimpleCommand;

/// The wrapper-name prefix of a command that runs on another machine.
pub const PREFIX: &str = "remote:";

/// Whether `cmd` runs on another machine (read from a remote shell's
/// command).
pub fn is_remote(cmd: &SimpleCommand) -> bool {
    cmd.wrappers.iter().any(|w| w.starts_with(PREFIX))
}

/// The command lines `cmd` (program `name`) runs on another machine: its
/// remote command, and the heredoc or here-string a remote shell reads.
pub(super) fn scripts(cmd: &SimpleCommand, name: &str) -> Option<Vec<String>> {
    let line = remote_words(&cmd.argv, name)?.join(" ");
    let mut out = Vec::new();
    if !line.trim().is_empty() {
        out.push(line.clone());
    }
    // `ssh host <<'EOF' … EOF`, `ssh host 'bash -s' <<< '…'`, `echo '…' |
    // ssh host sh`: a shell on the other side reads its input.
    if reads_stdin(&line)
        && let Some(body) = cmd.heredoc.clone().or_else(|| {
            cmd.redirects
                .iter()
                .find(|r| r.op == "<<<")
                .map(|r| r.target.clone())
        })
    {
        out.push(body);
    }
    (!out.is_empty()).then_some(out)
}

/// Whether `argv` runs a shell on another machine that reads a script on
/// its input (`ssh host`, `ssh host sh`, `ssh host 'sudo bash -s'`): what
/// is piped into it is that script, as for a local `sh`.
pub(super) fn reads_piped_script(argv: &[String]) -> bool {
    let Some(first) = argv.first() else {
        return false;
    };
    let name = super::program_name(first);
    remote_words(argv, &name).is_some_and(|w| reads_stdin(&w.join(" ")))
}

/// The words of the remote command `argv` (program `name`) runs on another
/// machine (empty when it runs none and the login shell reads its input).
fn remote_words(argv: &[String], name: &str) -> Option<Vec<String>> {
    let words: Vec<String> = match name {
        "ssh" | "autossh" => ssh_command(argv, 1, name == "autossh")?,
        "tsh" if argv.get(1).is_some_and(|a| a == "ssh") => ssh_command(argv, 2, false)?,
        "mosh" => after_dashdash(argv)?,
        "gcloud" => {
            let ops: Vec<&str> = argv[1..]
                .iter()
                .filter(|a| !a.starts_with('-'))
                .map(String::as_str)
                .take(2)
                .collect();
            if !matches!(ops.as_slice(), ["compute" | "cloud-shell", "ssh"]) {
                return None;
            }
            super::launchers::script_option(argv, &["--command"])
                .map(|c| vec![c])
                .or_else(|| after_dashdash(argv))?
        }
        "flyctl" | "fly" => {
            if !(argv.get(1).is_some_and(|a| a == "ssh")
                && argv.get(2).is_some_and(|a| a == "console"))
            {
                return None;
            }
            vec![super::launchers::script_option(argv, &["-C", "--command"])?]
        }
        "vagrant" if argv.get(1).is_some_and(|a| a == "ssh") => {
            vec![super::launchers::script_option(argv, &["-c", "--command"])?]
        }
        "eb" if argv.get(1).is_some_and(|a| a == "ssh") => {
            vec![super::launchers::script_option(argv, &["--command"])?]
        }
        _ => return fan_out_command(argv, name).map(|c| vec![c]),
    };
    Some(words)
}

/// The command a fan-out runner runs on many machines at once: ad-hoc
/// Ansible's `-a 'cmd'` (module `shell`, `command` or `raw`, or none: the
/// default is `command`; not under `--check`, where those modules do not
/// run), Salt's `cmd.run 'cmd'` (and `cmd.shell`, `cmd.run_all`, ...),
/// and the parallel shells (`pssh`, `parallel-ssh`, `pdsh`, `clush`,
/// `dsh`, `knife ssh QUERY`), whose last word is the command.
fn fan_out_command(argv: &[String], name: &str) -> Option<String> {
    let after = |names: &[&str]| super::launchers::script_option(argv, names);
    match name {
        "ansible" => {
            let module = after(&["-m", "--module-name"]).unwrap_or_else(|| "command".into());
            let module = module.rsplit('.').next().unwrap_or_default();
            let check = argv.iter().any(|a| a == "--check" || a == "-C");
            (matches!(module, "shell" | "command" | "raw") && !check)
                .then(|| after(&["-a", "--args"]))
                .flatten()
        }
        "salt" | "salt-ssh" | "salt-call" => {
            let k = argv.iter().position(|a| {
                a.strip_prefix("cmd.")
                    .is_some_and(|f| f.starts_with("run") || f == "shell" || f == "exec_code")
            })?;
            argv.get(k + 1).cloned()
        }
        "pssh" | "parallel-ssh" | "pdsh" | "clush" | "dsh" => argv
            .last()
            .filter(|a| argv.len() > 2 && !a.starts_with('-'))
            .cloned(),
        "knife" if argv.get(1).is_some_and(|a| a == "ssh") => {
            argv.last().filter(|_| argv.len() > 3).cloned()
        }
        _ => None,
    }
}

/// `ssh [options] host [command …]`: the command's words (empty when none
/// is given); `None` for `-N` (no command) and `-s` (a subsystem).
fn ssh_command(argv: &[String], from: usize, autossh: bool) -> Option<Vec<String>> {
    let with_arg = if autossh {
        "BbcDEeFIiJLlMmOoPpQRSWw"
    } else {
        "BbcDEeFIiJLlmOoPpQRSWw"
    };
    // getopt: a cluster of flags ends at the first option with a value.
    let mut i = from;
    while let Some(a) = argv.get(i) {
        if a == "--" || !a.starts_with('-') || a == "-" {
            break;
        }
        for (k, c) in a.char_indices().skip(1) {
            if c == 'N' || c == 's' {
                return None;
            }
            if with_arg.contains(c) {
                if k + 1 == a.len() {
                    i += 1;
                }
                break;
            }
        }
        i += 1;
    }
    let host = if argv.get(i).is_some_and(|a| a == "--") {
        i + 1
    } else {
        i
    };
    // `ssh localhost 'cmd'` runs here (see `channels::ssh_local`).
    let name = argv.get(host)?;
    let name = name.rsplit('@').next().unwrap_or(name);
    if matches!(name, "localhost" | "::1" | "0.0.0.0" | "ip6-localhost") || name.starts_with("127.")
    {
        return None;
    }
    let mut rest = argv.get(host + 1..)?;
    if rest.first().is_some_and(|a| a == "--") {
        rest = &rest[1..];
    }
    // `ssh -o RemoteCommand='cmd' host`: the same command, as an option.
    if rest.is_empty() {
        let option = argv[from..host].iter().enumerate().find_map(|(k, a)| {
            let v = match a.strip_prefix("-o") {
                Some("") => argv.get(from + k + 1)?.as_str(),
                Some(v) => v,
                None => return None,
            };
            let (key, value) = v.split_once(['=', ' '])?;
            key.eq_ignore_ascii_case("RemoteCommand")
                .then(|| value.to_string())
        });
        return Some(option.into_iter().collect());
    }
    Some(rest.to_vec())
}

/// The words after `--`.
fn after_dashdash(argv: &[String]) -> Option<Vec<String>> {
    let k = argv.iter().position(|a| a == "--")?;
    let rest = argv.get(k + 1..).filter(|r| !r.is_empty())?;
    Some(rest.to_vec())
}

/// Whether a remote command line reads a script on its input: none at all
/// (the login shell reads it), or a shell without `-c` (`bash -s`, `sudo
/// bash`, `sh -l`).
fn reads_stdin(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        match *w {
            "sudo" | "doas" | "exec" | "env" => i += 1,
            "-u" | "-g" => i += 2,
            _ if w.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let Some(shell) = words.get(i) else {
        return true;
    };
    matches!(
        super::program_name(shell).trim_matches(['\'', '"']),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "fish"
    ) && !words[i + 1..]
        .iter()
        .any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains('c'))
}

#[cfg(test)]
mod tests {
    use crate::shell::parse;

    fn remote(line: &str) -> Vec<String> {
        parse(line)
            .into_iter()
            .filter(super::is_remote)
            .map(|c| c.argv.join(" "))
            .collect()
    }

    #[test]
    fn remote_commands_are_read() {
        assert_eq!(remote("ssh -p 22 u@h 'rm -rf /srv/x'"), ["rm -rf /srv/x"]);
        assert_eq!(
            remote("ssh -t h sudo git reset --hard"),
            ["git reset --hard"]
        );
        assert_eq!(remote("mosh h -- rm -rf /opt/x"), ["rm -rf /opt/x"]);
        assert_eq!(
            remote("gcloud compute ssh vm --zone z --command 'printenv'"),
            ["printenv"]
        );
        assert_eq!(remote("fly ssh console -C 'ls /data'"), ["ls /data"]);
        assert_eq!(
            remote("ssh h 'bash -s' <<'R'\ngit clean -fdx\nR"),
            ["bash -s", "git clean -fdx"]
        );
        assert_eq!(remote("ssh h sh <<< 'rm -rf /x'"), ["sh", "rm -rf /x"]);
        assert_eq!(
            remote("ssh -T -o RemoteCommand='rm -rf /srv/a' h"),
            ["rm -rf /srv/a"]
        );
    }

    #[test]
    fn fan_out_runners_commands_are_read() {
        for (line, inner) in [
            ("ansible web -i inv -m shell -a 'rm -rf /x'", "rm -rf /x"),
            ("ansible db -a 'dropdb x' -b", "dropdb x"),
            (
                "ansible db -m ansible.builtin.raw -a 'rm -rf /x'",
                "rm -rf /x",
            ),
            ("salt 'w*' cmd.run 'rm -rf /x'", "rm -rf /x"),
            ("salt-ssh '*' cmd.shell 'rm -rf /x'", "rm -rf /x"),
            ("pdsh -w n[1-3] 'rm -rf /x'", "rm -rf /x"),
            ("clush -w @all 'rm -rf /x'", "rm -rf /x"),
            ("knife ssh 'role:db' 'rm -rf /x'", "rm -rf /x"),
        ] {
            assert_eq!(remote(line).join(" "), inner, "{line}");
        }
    }

    #[test]
    fn no_remote_command_no_remote_commands() {
        assert!(remote("ssh -N -L 5432:localhost:5432 db").is_empty());
        assert!(remote("ssh h").is_empty());
        assert!(remote("ssh -s h sftp").is_empty());
        assert!(remote("gcloud compute instances list").is_empty());
        assert!(remote("ansible all -m ping").is_empty());
        assert!(remote("ansible all -m shell -a 'rm -rf /x' --check").is_empty());
        assert!(remote("salt '*' test.ping").is_empty());
        // A local command before the remote one stays local.
        assert_eq!(remote("cat x | ssh h 'cat > y'"), ["cat"]);
    }
}
