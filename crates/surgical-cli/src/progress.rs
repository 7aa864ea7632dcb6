//! A spinner on stderr while a long `surgical edit` or `surgical apply` runs: only when stderr is a
//! terminal, and only once the call has taken [`SHOW_AFTER`], so quick calls and piped output print
//! nothing. The spinner is cleared before the result is printed.

use std::io::IsTerminal;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long a call runs before the spinner appears.
pub(crate) const SHOW_AFTER: Duration = Duration::from_secs(1);

/// Shows `message` with a spinner and the time elapsed while it lives (see the module
/// documentation); dropping it clears the spinner.
pub(crate) struct Spinner {
    done: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Spinner {
    /// Starts the spinner's clock; nothing is drawn unless stderr is a terminal.
    pub(crate) fn start(message: String) -> Spinner {
        Spinner::start_on(message, std::io::stderr().is_terminal(), ProgressDrawTarget::stderr())
    }

    fn start_on(message: String, terminal: bool, target: ProgressDrawTarget) -> Spinner {
        let done = Arc::new((Mutex::new(false), Condvar::new()));
        let thread = terminal.then(|| {
            let done = Arc::clone(&done);
            std::thread::spawn(move || {
                let (lock, finished) = &*done;
                let guard = lock.lock().expect("spinner lock");
                let (guard, _) = finished
                    .wait_timeout_while(guard, SHOW_AFTER, |done| !*done)
                    .expect("spinner lock");
                if *guard {
                    return;
                }
                let bar = ProgressBar::with_draw_target(None, target).with_elapsed(SHOW_AFTER);
                bar.set_style(
                    ProgressStyle::with_template("{spinner} {msg} ({elapsed})")
                        .unwrap_or_else(|_| ProgressStyle::default_spinner()),
                );
                bar.set_message(message);
                bar.enable_steady_tick(Duration::from_millis(100));
                let guard = finished.wait_while(guard, |done| !*done).expect("spinner lock");
                drop(guard);
                bar.finish_and_clear();
            })
        });
        Spinner { done, thread }
    }
}

impl Drop for Spinner {
    fn drop(&mut self) {
        let (lock, finished) = &*self.done;
        *lock.lock().expect("spinner lock") = true;
        finished.notify_all();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_call_shows_the_spinner_and_clears_it() {
        let spinner = Spinner::start_on("long".into(), true, ProgressDrawTarget::hidden());
        std::thread::sleep(SHOW_AFTER + Duration::from_millis(200));
        drop(spinner); // Joins the drawing thread: it must stop when told.
    }

    #[test]
    fn off_a_terminal_nothing_runs() {
        let spinner = Spinner::start_on("piped".into(), false, ProgressDrawTarget::hidden());
        assert!(spinner.thread.is_none());
    }
}
