//! Stage timings for measuring a call, off by default: with the environment variable
//! `SURGICAL_TIMINGS` set, each stage of an `edit` call prints one line to stderr,
//! `surgical timing: STAGE MS ms` (milliseconds since the previous mark, then the total). For
//! profiling on a busy machine, where the wall time of a whole call says little about where it
//! went; nothing a model reads depends on it.

use std::cell::Cell;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

fn enabled() -> bool {
    static ON: OnceLock<bool> = OnceLock::new();
    *ON.get_or_init(|| std::env::var_os("SURGICAL_TIMINGS").is_some())
}

thread_local! {
    /// The call's start and its last mark, on the thread that runs the call.
    static CLOCK: Cell<Option<(Instant, Instant, Duration)>> = const { Cell::new(None) };
}

/// Starts the clock of a call on this thread.
pub(crate) fn start() {
    if enabled() {
        let now = Instant::now();
        CLOCK.with(|c| c.set(Some((now, now, cpu()))));
    }
}

/// Ends the stage `name`: prints the time since the last mark (or the start) when enabled.
pub(crate) fn mark(name: &str) {
    if !enabled() {
        return;
    }
    CLOCK.with(|c| {
        let (now, cpu_now) = (Instant::now(), cpu());
        let (start, last, cpu_last) = c.get().unwrap_or((now, now, cpu_now));
        eprintln!(
            "surgical timing: {name} {:.1} ms, cpu {:.1} ms (total {:.1} ms)",
            (now - last).as_secs_f64() * 1e3,
            (cpu_now.saturating_sub(cpu_last)).as_secs_f64() * 1e3,
            (now - start).as_secs_f64() * 1e3
        );
        c.set(Some((start, now, cpu_now)));
    });
}

/// Prints how long `name` took, on a thread of its own that began at `since` (wall clock); its CPU
/// time is the thread's so far.
pub(crate) fn took(name: &str, since: Instant) {
    if enabled() {
        eprintln!(
            "surgical timing: {name} {:.1} ms, cpu {:.1} ms (on its own thread)",
            since.elapsed().as_secs_f64() * 1e3,
            cpu().as_secs_f64() * 1e3
        );
    }
}

/// This thread's CPU time (zero where it is not measured).
fn cpu() -> Duration {
    surgical_fs::thread_cpu_time().unwrap_or_default()
}
