//! Progress and cancellation of one tool call: the one place the server reports how a call goes
//! (`notifications/progress`, when the client sent a progress token) and learns that the client
//! gave up on it (`notifications/cancelled`).
//!
//! A call reports at least when it starts and when it ends; steps in between (waiting for an
//! earlier call, and whatever the tool layer can report later) go through [`CallControl::report`].
//! Cancellation is honoured wherever a call has not yet started to change files: a call that is
//! cancelled while it waits its turn is abandoned and changes nothing; a running call is told
//! through its `surgical_tool::Cancellation` and stops right before its first write; past that
//! point it runs to its end (it either commits all of its change or none of it) and reports
//! normally.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use rmcp::model::{ProgressNotificationParam, ProgressToken};
use rmcp::service::RequestContext;
use rmcp::{Peer, RoleServer};
use tokio_util::sync::CancellationToken;

/// What a tool call reports to its client while it runs, and whether the client cancelled it.
///
/// Cheap to clone; clones share the step count and the cancellation.
#[derive(Clone, Debug, Default)]
pub struct CallControl {
    /// Where progress goes: the client, and the token it asked progress for.
    progress: Option<(Peer<RoleServer>, ProgressToken)>,
    cancel: CancellationToken,
    /// Progress notifications sent so far (each one's `progress`: it must increase).
    steps: Arc<AtomicU64>,
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
                .map(|token| (context.peer.clone(), token)),
            cancel: context.ct.clone(),
            steps: Arc::new(AtomicU64::new(0)),
        }
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
        let Some((peer, token)) = &self.progress else {
            return;
        };
        let step = self.steps.fetch_add(1, Ordering::SeqCst) + 1;
        let mut param = ProgressNotificationParam::new(token.clone(), step as f64).with_message(message.into());
        if done {
            param = param.with_total(step as f64);
        }
        let _ = peer.notify_progress(param).await;
    }
}
