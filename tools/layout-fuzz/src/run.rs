//! Running a child process with a time limit, capturing its output.
//!
//! Every target runs its inputs in a child process (the tools themselves, or this binary in
//! `--worker` mode for the in-process targets), so an abort, a stack overflow or a hang is
//! observed from outside instead of taking the fuzzer down.

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Exited(i32),
    Signaled(i32),
    TimedOut,
}

#[derive(Debug)]
pub struct Outcome {
    pub status: Status,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
}

impl Outcome {
    pub fn stdout_text(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    pub fn stderr_text(&self) -> String {
        String::from_utf8_lossy(&self.stderr).into_owned()
    }
}

fn drain(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// Polls until the child exits or `limit` passes (then kills it). Polling with a growing sleep
/// keeps the added latency below a millisecond for the fast runs that dominate.
fn wait_with_limit(child: &mut Child, limit: Duration) -> std::io::Result<Status> {
    let start = Instant::now();
    let mut nap = Duration::from_micros(200);
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(match (status.code(), status.signal()) {
                (Some(code), _) => Status::Exited(code),
                (None, Some(signal)) => Status::Signaled(signal),
                (None, None) => Status::Signaled(0),
            });
        }
        if start.elapsed() >= limit {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(Status::TimedOut);
        }
        std::thread::sleep(nap);
        nap = (nap * 2).min(Duration::from_millis(10));
    }
}

/// Runs `command` with `stdin` as its standard input, killed after `limit`.
pub fn run(command: &mut Command, stdin: &[u8], limit: Duration) -> std::io::Result<Outcome> {
    let mut child = command
        .env("RUST_BACKTRACE", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut input = child.stdin.take().expect("piped stdin");
    let stdin = stdin.to_vec();
    // A child that exits early closes the pipe; the write error is expected then.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&stdin);
    });
    let stdout = drain(child.stdout.take().expect("piped stdout"));
    let stderr = drain(child.stderr.take().expect("piped stderr"));
    let status = wait_with_limit(&mut child, limit)?;
    let _ = writer.join();
    Ok(Outcome { status, stdout: stdout.join().unwrap_or_default(), stderr: stderr.join().unwrap_or_default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_exit_codes_signals_and_timeouts() {
        let limit = Duration::from_secs(10);
        let out = run(Command::new("sh").args(["-c", "cat; echo err >&2; exit 3"]), b"hello", limit).unwrap();
        assert_eq!(
            (out.status, out.stdout_text(), out.stderr_text()),
            (Status::Exited(3), "hello".into(), "err\n".into())
        );
        let out = run(Command::new("sh").args(["-c", "kill -SEGV $$"]), b"", limit).unwrap();
        assert_eq!(out.status, Status::Signaled(11));
        let out = run(Command::new("sleep").arg("5"), b"", Duration::from_millis(100)).unwrap();
        assert_eq!(out.status, Status::TimedOut);
    }
}
