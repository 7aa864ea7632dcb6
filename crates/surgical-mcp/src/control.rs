//! Progress and cancellation of one tool call: the one place the server reports how a call goes
//! (`notifications/progress`, when the client sent a progress token) and learns that the client
//! gave up on it (`notifications/cancelled`).
//!
//! A call reports at least when it starts and when it ends; steps in between (waiting for an
//! earlier call, running) go through [`CallControl::report`], and while the tool runs a heartbeat
//! every [`HEARTBEAT`] says how long it has been running, so a client (and its user) can tell a
//! long call from a stuck one.
//! Cancellation is honoured wherever a call has not yet started to change files: a call that is
//! cancelled while it waits its turn is abandoned and changes nothing; a running call is told
//! through its `surgical_tool::Cancellation` and stops right before its first write; past that
//! point it runs to its end (it either commits all of its change or none of it) and reports
//! normally.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{NumberOrString, ProgressNotificationParam, ProgressToken};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use tokio::sync::mpsc::{unbounded_channel, UnboundedReceiver, UnboundedSender};
use tokio_util::sync::CancellationToken;

/// How often a running call says it is still running (when the client asked for progress).
pub const HEARTBEAT: Duration = Duration::from_secs(1);

/// Where a call's progress goes.
#[derive(Clone, Debug)]
enum Sink {
    /// The client, and the token it asked progress for.
    Client(Peer<RoleServer>, ProgressToken),
    /// A channel ([`CallControl::recording`]).
    Channel(UnboundedSender<ProgressNotificationParam>),
}

/// What a tool call reports to its client while it runs, and whether the client cancelled it.
///
/// Cheap to clone; clones share the step count and the cancellation.
#[derive(Clone, Debug)]
pub struct CallControl {
    /// Where progress goes; nowhere when the client asked for none.
    progress: Option<Sink>,
    cancel: CancellationToken,
    /// Progress notifications sent so far (each one's `progress`: it must increase).
    steps: Arc<AtomicU64>,
    /// How often a running call reports that it still runs.
    heartbeat: Duration,
}

impl Default for CallControl {
    fn default() -> CallControl {
        CallControl {
            progress: None,
            cancel: CancellationToken::new(),
            steps: Arc::new(AtomicU64::new(0)),
            heartbeat: HEARTBEAT,
        }
    }
}

impl CallControl {
    /// A call that reports nothing and is cancelled only through [`CallControl::cancellation`].
    pub fn new() -> CallControl {
        CallControl::default()
    }

    /// The control of the request in `context`: its progress token (if the client sent one) and
    /// its cancellation (cancelled when `notifications/cancelled` names the request).
    pub fn from_context(context: &RequestContext<RoleServer>) -> CallControl {
        CallControl {
            progress: context
                .meta
                .get_progress_token()
                .map(|token| Sink::Client(context.peer.clone(), token)),
            cancel: context.ct.clone(),
            ..CallControl::default()
        }
    }

    /// A call whose progress notifications go to the returned channel instead of a client (their
    /// token is `recorded`), with a heartbeat every `heartbeat`: for tests, and for front ends that
    /// show progress themselves.
    pub fn recording(heartbeat: Duration) -> (CallControl, UnboundedReceiver<ProgressNotificationParam>) {
        let (sender, receiver) = unbounded_channel();
        let control = CallControl {
            progress: Some(Sink::Channel(sender)),
            heartbeat,
            ..CallControl::default()
        };
        (control, receiver)
    }

    /// How often a running call reports that it still runs.
    pub fn heartbeat(&self) -> Duration {
        self.heartbeat
    }

    /// The token that cancels this call (cancel it to abandon the call if it has not started).
    pub fn cancellation(&self) -> &CancellationToken {
        &self.cancel
    }

    /// The client cancelled the call.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// Whether progress notifications go anywhere (the client sent a progress token).
    pub fn reports_progress(&self) -> bool {
        self.progress.is_some()
    }

    /// Sends `notifications/progress` with `message`, one step further than the last; with `done`,
    /// the last one (its `total` equals its `progress`). Nothing when the client asked for no
    /// progress. A notification that cannot be sent (the client went away) is dropped: the call's
    /// result matters, not its progress.
    pub async fn report(&self, message: impl Into<String>, done: bool) {
        let Some(sink) = &self.progress else {
            return;
        };
        let token = match sink {
            Sink::Client(_, token) => token.clone(),
            Sink::Channel(_) => ProgressToken(NumberOrString::String("recorded".into())),
        };
        let step = self.steps.fetch_add(1, Ordering::SeqCst) + 1;
        let mut param = ProgressNotificationParam::new(token, step as f64).with_message(message.into());
        if done {
            param = param.with_total(step as f64);
        }
        match sink {
            Sink::Client(peer, _) => {
                let _ = peer.notify_progress(param).await;
            }
            Sink::Channel(sender) => {
                let _ = sender.send(param);
            }
        }
    }
}
