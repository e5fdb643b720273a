//! A terminal, emulated: runs the real binary in a sandbox with stdin,
//! stdout and stderr on a pseudo-terminal of a chosen width (POSIX
//! `posix_openpt` through libc, already a dependency), types the given
//! input, and returns everything the terminal showed. For the tests of
//! colour, widths and questions, which a pipe cannot show.

use super::Sandbox;
use std::io::{Read, Write};
use std::os::fd::{FromRawFd, OwnedFd};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// What the terminal showed (`\r\n` made `\n`) and the exit code.
pub struct Screen {
    pub text: String,
    pub code: i32,
}

/// Runs `cuecard <args>` on a terminal `cols` wide, with `env` added to the
/// sandbox's environment and `input` typed once it starts.
pub fn run(sb: &Sandbox, args: &[&str], env: &[(&str, &str)], input: &str, cols: u16) -> Screen {
    // SAFETY: plain libc calls on descriptors this function owns.
    let (master, slave) = unsafe {
        let m = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(m >= 0, "posix_openpt");
        assert_eq!(libc::grantpt(m), 0);
        assert_eq!(libc::unlockpt(m), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(libc::ptsname_r(m, name.as_mut_ptr(), name.len()), 0);
        let ws = libc::winsize {
            ws_row: 50,
            ws_col: cols,
            ws_xpixel: 0,
            ws_ypixel: 0,
        };
        assert_eq!(libc::ioctl(m, libc::TIOCSWINSZ, &ws), 0);
        let s = libc::open(name.as_ptr(), libc::O_RDWR | libc::O_NOCTTY);
        assert!(s >= 0, "open the terminal's other end");
        (OwnedFd::from_raw_fd(m), OwnedFd::from_raw_fd(s))
    };
    let mut cmd = sb.command(args);
    cmd.env("TERM", "xterm-256color");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave.try_clone().unwrap()))
        .stderr(Stdio::from(slave));
    let mut child = cmd.spawn().expect("start cuecard");
    // The parent's copies of the terminal's other end are gone with `cmd`.
    drop(cmd);
    let mut writer = std::fs::File::from(master.try_clone().unwrap());
    let mut reader = std::fs::File::from(master);
    if !input.is_empty() {
        writer.write_all(input.as_bytes()).unwrap();
    }
    let read = std::thread::spawn(move || {
        let mut out = Vec::new();
        let mut buf = [0u8; 4096];
        // EIO once the child and every copy of the other end are gone.
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            out.extend_from_slice(&buf[..n]);
        }
        out
    });
    let start = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("cuecard {args:?} did not finish on the terminal");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    drop(writer);
    let bytes = read.join().unwrap();
    Screen {
        text: String::from_utf8_lossy(&bytes).replace("\r\n", "\n"),
        code: status.code().unwrap_or(-1),
    }
}
