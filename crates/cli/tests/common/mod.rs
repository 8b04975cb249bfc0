//! What the command-line tests share: running the `parlor` binary.
//! (Each test file uses what it needs of it.)
#![allow(dead_code)]

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `parlor` with `args`: (exit code, standard output, standard error).
pub fn parlor(args: &[&str]) -> (i32, String, String) {
    parlor_with_input(args, "")
}

/// Runs `parlor` with `args` and `input` on its standard input.
pub fn parlor_with_input(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_parlor"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("parlor runs");
    // A command that never reads its input closes the pipe: not an error.
    let _ = child
        .stdin
        .take()
        .expect("a piped stdin")
        .write_all(input.as_bytes());
    let out = child.wait_with_output().expect("parlor runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
