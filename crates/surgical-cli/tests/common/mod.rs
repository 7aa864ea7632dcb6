//! What the binary's integration tests share: starting `surgical` with a request on stdin.
#![allow(dead_code)]

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// The `surgical` binary this package builds.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_surgical"))
}

/// Starts `cmd` with stdin, stdout and stderr piped, writes `input` to its stdin and closes it.
pub fn spawn_with_input(mut cmd: Command, input: &[u8]) -> Child {
    cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = retrying_wine(|| cmd.spawn());
    // A child that exits before reading its input (arguments refused) closes the pipe first: the
    // test then checks what it printed, so a broken pipe here is not a failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(input) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child
}

/// Runs a command to completion, as `Command::output` does, but through [`retrying_wine`].
pub trait Run {
    /// The command's exit status and output; panics if it could not be started.
    fn run(&mut self) -> Output;
}

impl Run for Command {
    fn run(&mut self) -> Output {
        retrying_wine(|| self.output())
    }
}

/// `start()`'s value, started again while Wine fails it spuriously.
///
/// Wine, which runs the Windows tests in CI, now and then fails a process creation with
/// ERROR_INTERNAL_ERROR (1359) under load; a real Windows does not. Every start of the binary in
/// these tests goes through here, so a test fails only for a real error.
fn retrying_wine<T>(mut start: impl FnMut() -> std::io::Result<T>) -> T {
    let mut attempts = 0;
    loop {
        match start() {
            Err(e) if cfg!(windows) && e.raw_os_error() == Some(1359) && attempts < 8 => {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(50 * attempts));
            }
            other => return other.unwrap(),
        }
    }
}
