//! Running the `hostage` binary from the integration tests.

#![allow(dead_code)]

use std::{
    io::Write,
    process::{Command, Output, Stdio},
};

/// The binary under test.
pub const HOSTAGE: &str = env!("CARGO_BIN_EXE_hostage");

/// Runs `hostage` with `args` and `stdin`.
pub fn hostage_with_input(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(HOSTAGE)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the hostage binary starts");
    {
        let mut pipe = child.stdin.take().expect("stdin is piped");
        // The program may stop reading early (mate, quit): a closed pipe is fine.
        let _ = pipe.write_all(stdin.as_bytes());
    }
    child.wait_with_output().expect("the hostage binary runs")
}

/// Runs `hostage` with `args` and no input.
pub fn hostage(args: &[&str]) -> Output {
    hostage_with_input(args, "")
}

/// Its standard output, as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Its standard error, as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}
