//! Restarts of the server that a supervisor made between requests, kept until the next
//! operation's span records them, so that a trace shows the first call that ran on a restarted
//! server (see [`McpSession::note_restart`](crate::McpSession::note_restart)).

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::lock::lock;

/// The restarts noted since the last operation took them. A flag spares every operation the
/// lock while there is nothing to take.
#[derive(Debug, Default)]
pub(crate) struct PendingRestarts {
    noted: AtomicBool,
    notice: Mutex<Option<RestartNotice>>,
}

/// Restarts made since the last operation: how many, and the last one's attempt and cause.
#[derive(Debug)]
pub(crate) struct RestartNotice {
    restarts: u32,
    attempt: u32,
    cause: String,
}

impl PendingRestarts {
    /// Notes restart number `attempt`, made because of `cause`.
    pub(crate) fn note(&self, attempt: u32, cause: &str) {
        let mut notice = lock(&self.notice);
        let restarts = notice.as_ref().map_or(0, |earlier| earlier.restarts) + 1;
        *notice = Some(RestartNotice {
            restarts,
            attempt,
            cause: cause.to_owned(),
        });
        self.noted.store(true, Ordering::Release);
    }

    /// The restarts noted since the last call, if any; the next call has none until another
    /// is noted.
    pub(crate) fn take(&self) -> Option<RestartNotice> {
        if !self.noted.swap(false, Ordering::AcqRel) {
            return None;
        }
        lock(&self.notice).take()
    }
}

impl RestartNotice {
    /// Records the restarts as an event of the current span.
    pub(crate) fn record(&self) {
        tracing::info!(
            restarts = self.restarts,
            attempt = self.attempt,
            cause = %self.cause,
            "the server was restarted since the last request"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarts_are_counted_until_taken_and_taken_once() {
        let pending = PendingRestarts::default();
        assert!(pending.take().is_none());
        pending.note(1, "exit status: 1");
        pending.note(2, "it did not start within 100 ms");
        let notice = pending.take().expect("two restarts were noted");
        assert_eq!(notice.restarts, 2);
        assert_eq!(notice.attempt, 2);
        assert_eq!(notice.cause, "it did not start within 100 ms");
        assert!(pending.take().is_none(), "a notice is taken once");
        pending.note(1, "exit status: 9");
        assert_eq!(pending.take().map(|notice| notice.restarts), Some(1));
    }
}
