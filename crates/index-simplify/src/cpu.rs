//! CPU time, for the figures that compare the solver's time with the simplifier's on a shared
//! machine (wall time there also counts the time other processes held the cores). Read from
//! Linux's `schedstat` files (nanoseconds on a CPU); `None` where they cannot be read.

use std::time::Duration;

/// CPU time this thread has used so far.
pub fn thread_time() -> Option<Duration> {
    schedstat("/proc/thread-self/schedstat")
}

/// CPU time the running threads of process `pid` have used so far (`/proc/PID/schedstat` alone
/// is its main thread's).
pub fn process_time(pid: u32) -> Option<Duration> {
    let mut total = Duration::ZERO;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        total += schedstat(&format!("{}/schedstat", task.ok()?.path().display()))?;
    }
    Some(total)
}

/// This thread's CPU time since `start` (a [`thread_time`] reading).
pub fn thread_time_since(start: Option<Duration>) -> Option<Duration> {
    Some(thread_time()?.saturating_sub(start?))
}

fn schedstat(path: &str) -> Option<Duration> {
    let text = std::fs::read_to_string(path).ok()?;
    text.split_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Busy work shows up in this thread's time, and a thread's time is part of its process's.
    #[test]
    #[cfg(target_os = "linux")]
    fn busy_work_is_counted() {
        let start = thread_time().expect("schedstat on Linux");
        let mut x = 1u64;
        let begin = std::time::Instant::now();
        while begin.elapsed() < Duration::from_millis(30) {
            x = std::hint::black_box(x.wrapping_mul(6364136223846793005).wrapping_add(1));
        }
        let used = thread_time_since(Some(start)).expect("a second reading");
        assert!(used > Duration::ZERO, "30 ms of busy work counted as no CPU time");
        // This thread is one of the process's: its time is part of the process's.
        let thread = thread_time().expect("a third reading");
        let process = process_time(std::process::id()).expect("the process's time");
        assert!(process >= thread, "process {process:?} < thread {thread:?}");
        assert_eq!(schedstat("/proc/no-such-file"), None);
    }
}
