//! How the bench measures: one run of a command reaped with `wait4` for its
//! CPU time and peak memory, medians, commands run interleaved so that a
//! change in the machine's load hits them alike, and system calls counted
//! by `strace`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One run of a command: wall time from spawn to reap, the CPU time the
/// child used (user + system, from the kernel's accounting), and peak RSS.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub wall: Duration,
    pub cpu: Duration,
    pub max_rss_kib: i64,
}

/// Runs `program args` with `stdin` piped in, reaps it with wait4 to read its
/// own peak memory.
pub fn run_once(program: &Path, args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Sample {
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
    let pid = child.id() as libc::pid_t;
    if let Some(mut sin) = child.stdin.take() {
        // A program that does not read its stdin closes the pipe early.
        let _ = sin.write_all(stdin);
    }
    let mut status = 0;
    // SAFETY: rusage is plain data; wait4 fills it for our own child.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    let wall = start.elapsed();
    std::mem::forget(child); // already reaped
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    Sample {
        wall,
        cpu: tv(usage.ru_utime) + tv(usage.ru_stime),
        max_rss_kib: usage.ru_maxrss,
    }
}

/// The largest peak RSS (KiB) of `n` runs with stdin read from `file`.
pub fn peak_rss_from_file(
    program: &Path,
    args: &[&str],
    file: &Path,
    env: &[(&str, &str)],
    n: usize,
) -> i64 {
    let mut rss = 0;
    for _ in 0..n {
        let stdin = std::fs::File::open(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let child = Command::new(program)
            .args(args)
            .envs(env.iter().copied())
            .stdin(Stdio::from(stdin))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", program.display()));
        let pid = child.id() as libc::pid_t;
        let mut status = 0;
        // SAFETY: rusage is plain data; wait4 fills it for our own child.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        std::mem::forget(child); // already reaped
        rss = rss.max(usage.ru_maxrss);
    }
    rss
}

/// The median wall time and the largest peak RSS of `n` runs after `warm`.
pub fn measure(
    program: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> (Duration, i64) {
    for _ in 0..warm {
        run_once(program, args, stdin, env);
    }
    let mut walls = Vec::with_capacity(n);
    let mut rss = 0;
    for _ in 0..n {
        let s = run_once(program, args, stdin, env);
        walls.push(s.wall);
        rss = rss.max(s.max_rss_kib);
    }
    (median(walls.into_iter()), rss)
}

/// Medians of two commands run alternately (`a b`, `b a`, `a b`, ...).
pub fn interleaved(
    a: (&Path, &[&str], &[u8]),
    b: (&Path, &[&str], &[u8]),
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> (Duration, Duration) {
    let (a, b) = interleaved_samples(a, b, env, warm, n);
    (
        median(a.iter().map(|s| s.wall)),
        median(b.iter().map(|s| s.wall)),
    )
}

/// The samples of two commands run alternately, after `warm` pairs.
pub fn interleaved_samples(
    a: (&Path, &[&str], &[u8]),
    b: (&Path, &[&str], &[u8]),
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> (Vec<Sample>, Vec<Sample>) {
    let mut all = interleaved_many(&[a, b], env, warm, n).into_iter();
    let a = all.next().unwrap_or_default();
    (a, all.next().unwrap_or_default())
}

/// The samples of several commands run in turn, after `warm` rounds: a
/// change in the machine's load hits them alike. The order changes from
/// round to round ([`round_order`]: `a b c`, `b c a`, `c a b`, `c b a`,
/// `a c b`, `b a c`, ...), so that no command always runs first or last in a
/// round, nor always right after the same other command.
pub fn interleaved_many(
    cmds: &[(&Path, &[&str], &[u8])],
    env: &[(&str, &str)],
    warm: usize,
    n: usize,
) -> Vec<Vec<Sample>> {
    for _ in 0..warm {
        for c in cmds {
            run_once(c.0, c.1, c.2, env);
        }
    }
    let mut out: Vec<Vec<Sample>> = cmds.iter().map(|_| Vec::with_capacity(n)).collect();
    for round in 0..n {
        for i in round_order(round, cmds.len()) {
            let c = cmds[i];
            out[i].push(run_once(c.0, c.1, c.2, env));
        }
    }
    out
}

/// The order of the commands in one round: a Williams design, in which
/// every command stands in every place equally often and follows every
/// other command equally often (a rotation alone keeps who follows whom:
/// with three commands, the first always ran right after the third).
/// `0 1 n-1 2 n-2 ...` shifted by one each round; for an odd number of
/// commands, every second cycle of rounds runs reversed.
fn round_order(round: usize, len: usize) -> Vec<usize> {
    if len == 0 {
        return Vec::new();
    }
    let shift = round % len;
    let mut order: Vec<usize> = (0..len)
        .map(|k| {
            if k % 2 == 1 {
                k.div_ceil(2)
            } else {
                len - k / 2
            }
        })
        .map(|b| (b + shift) % len)
        .collect();
    if len % 2 == 1 && (round / len) % 2 == 1 {
        order.reverse();
    }
    order
}

pub fn median(d: impl Iterator<Item = Duration>) -> Duration {
    let mut v: Vec<Duration> = d.collect();
    v.sort();
    v[v.len() / 2]
}

/// The system calls one process makes, counted by `strace -f` (None without
/// strace, or when it cannot trace here).
pub fn syscalls(
    program: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    extra: &[(&str, &str)],
) -> Option<usize> {
    syscall_lines(program, args, stdin, env, extra).map(|l| l.len())
}

/// The lines `strace -f` writes for one process, one a system call (its
/// `+++ exited` line left out); None without strace, or when the process
/// fails or cannot be traced here.
pub fn syscall_lines(
    program: &Path,
    args: &[&str],
    stdin: &[u8],
    env: &[(&str, &str)],
    extra: &[(&str, &str)],
) -> Option<Vec<String>> {
    let strace = which("strace")?;
    let out = std::env::temp_dir().join(format!("cuecard-bench-strace-{}", std::process::id()));
    let mut child = Command::new(strace)
        .arg("-f")
        .arg("-o")
        .arg(&out)
        .arg(program)
        .args(args)
        .envs(env.iter().copied())
        .envs(extra.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    if let Some(mut sin) = child.stdin.take() {
        let _ = sin.write_all(stdin);
    }
    let ok = child.wait().ok()?.success();
    let text = std::fs::read_to_string(&out).ok();
    let _ = std::fs::remove_file(&out);
    ok.then_some(())?;
    Some(
        text?
            .lines()
            .filter(|l| !l.contains("+++"))
            .map(str::to_string)
            .collect(),
    )
}

pub fn which(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")?
        .to_str()?
        .split(':')
        .map(|d| Path::new(d).join(name))
        .find(|p| p.is_file())
}

#[cfg(test)]
mod tests {
    use super::round_order;

    #[test]
    fn every_command_follows_every_other_equally_often() {
        // What ran just before a command can slow it (its writeback, the
        // caches it left): each command must follow each other command as
        // often as any, and stand in each place of a round as often, or the
        // control row does not control for it.
        for len in 2..=4 {
            let rounds = 2 * len * 5;
            let mut after = vec![vec![0; len]; len];
            let mut place = vec![vec![0; len]; len];
            for r in 0..rounds {
                let order = round_order(r, len);
                let mut sorted = order.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..len).collect::<Vec<_>>());
                for (k, &c) in order.iter().enumerate() {
                    place[c][k] += 1;
                }
                for w in order.windows(2) {
                    after[w[1]][w[0]] += 1;
                }
            }
            for c in 0..len {
                assert!(
                    place[c].iter().all(|&p| p == rounds / len),
                    "{len}: {place:?}"
                );
                let prev: Vec<i32> = (0..len).filter(|&d| d != c).map(|d| after[c][d]).collect();
                assert!(
                    prev.iter().all(|&p| p == prev[0]),
                    "{len}: command {c} after {prev:?}"
                );
            }
        }
    }
}
