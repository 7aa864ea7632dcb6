//! What the binary's integration tests share: starting `surgical` with a request on stdin.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, Command, Stdio};

/// The `surgical` binary this package builds.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_surgical"))
}

/// Starts `cmd` with stdin, stdout and stderr piped, writes `input` to its stdin and closes it.
pub fn spawn_with_input(mut cmd: Command, input: &[u8]) -> Child {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    // Wine, which runs the Windows tests in CI, now and then fails a process creation with
    // ERROR_INTERNAL_ERROR (1359) under load; a real Windows does not. Retried a few times.
    let mut attempts = 0;
    let mut child = loop {
        match cmd.spawn() {
            Err(e) if cfg!(windows) && e.raw_os_error() == Some(1359) && attempts < 5 => attempts += 1,
            other => break other.unwrap(),
        }
    };
    // A child that exits before reading its input (arguments refused) closes the pipe first: the
    // test then checks what it printed, so a broken pipe here is not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child
}
