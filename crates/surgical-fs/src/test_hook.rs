//! A test-only pause in the atomic writer's in-flight window, so a crash test can prove that its
//! kill landed there (the temporary file written and synced, the target not yet replaced).
//!
//! Compiled in only with the `testing` feature (the CLI's tests enable it); without it the hook is
//! an empty function. With it, and `SURGICAL_TEST_BEFORE_RENAME` naming a file, the writer creates
//! that file once its temporary file is complete (before the rename), then sleeps for 30 seconds,
//! waiting to be killed.

/// Called by the writer once the temporary file is complete and synced, before the replaced version
/// is linked into the undo journal and the temporary file renamed over the target.
#[inline]
pub(crate) fn in_flight() {
    #[cfg(feature = "testing")]
    if let Some(signal) = std::env::var_os("SURGICAL_TEST_BEFORE_RENAME") {
        // The signal goes out only once the writer is parked, so a kill after it lands in the window.
        let _ = std::fs::write(signal, std::process::id().to_string());
        std::thread::sleep(std::time::Duration::from_secs(30));
    }
}
