//! The `cuecard` binary: the process set-up, then the commands.
//!
//! On Linux with glibc it starts without the standard library's start-up,
//! which costs a parse of `/proc/self/maps` on every hook call (see
//! `cuecard::startup`).
#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

/// The commands, with a panic that escapes them ending the process with
/// exit code 101, as it would from a plain `main`.
fn run() -> i32 {
    let args = std::env::args_os().collect();
    std::panic::catch_unwind(|| cuecard::commands::main(args)).unwrap_or(101)
}

#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    // SAFETY: first thing in the process, before any other thread.
    unsafe { cuecard::startup::prepare() };
    // Through `exit`, which flushes stdout as the standard library's own
    // start-up would on return.
    std::process::exit(run())
}

#[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
fn main() {
    std::process::exit(run());
}
