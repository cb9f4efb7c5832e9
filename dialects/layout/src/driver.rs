//! The `main` shared by the command-line tools (`layout-opt`, `layout-run`).

use std::process::ExitCode;

/// Stack for the driver thread: MLIR's parser recurses per nesting level.
pub const STACK_BYTES: usize = 256 << 20;

/// Runs `body` on a thread with a [`STACK_BYTES`] stack and returns its exit code. A panic is
/// reported with `fail(internal_error)`, a thread that cannot run with `fail("internal error:
/// cannot run the driver thread")`.
pub fn run_on_driver_thread(
    body: impl FnOnce() -> ExitCode + std::panic::UnwindSafe + Send + 'static,
    internal_error: &'static str,
    fail: fn(&str) -> ExitCode,
) -> ExitCode {
    let driver = std::thread::Builder::new()
        .stack_size(STACK_BYTES)
        .spawn(move || std::panic::catch_unwind(body).unwrap_or_else(|_| fail(internal_error)));
    match driver.map(|handle| handle.join()) {
        Ok(Ok(code)) => code,
        _ => fail("internal error: cannot run the driver thread"),
    }
}
