//! [`SseDiagnostics`]: why a legacy SSE connection ended (a status, the server closing the
//! stream, the reconnect attempts running out) and what it skipped, for error messages.

use std::sync::{Mutex, MutexGuard, PoisonError};

use toolport_core::ConnectionDiagnostics;

/// How many characters of a skipped event are kept.
const GARBAGE_CHARS: usize = 200;

/// Explains why a legacy SSE connection died, and what it could not use.
///
/// Shared (`Arc`) between the transport that fills it and the session that asks it. Never
/// holds header values; endpoints are kept without their query (it carries the session id).
#[derive(Debug, Default)]
pub struct SseDiagnostics {
    ended: Mutex<Option<String>>,
    last_failure: Mutex<Option<String>>,
    garbage: Mutex<Option<String>>,
}

impl SseDiagnostics {
    /// Why the event stream ended for good, once it has.
    pub fn end_reason(&self) -> Option<String> {
        lock(&self.ended).clone()
    }

    /// The start of the last `message` event that was not JSON-RPC (and was skipped), if any.
    pub fn last_skipped_event(&self) -> Option<String> {
        lock(&self.garbage).clone()
    }

    /// The last failure that did not end the stream: a refused post, a dropped stream that
    /// was then reconnected, an oversized event.
    pub fn last_failure(&self) -> Option<String> {
        lock(&self.last_failure).clone()
    }

    pub(crate) fn record_end(&self, reason: impl Into<String>) {
        *lock(&self.ended) = Some(reason.into());
    }

    pub(crate) fn record_failure(&self, failure: impl Into<String>) {
        *lock(&self.last_failure) = Some(failure.into());
    }

    pub(crate) fn record_garbage(&self, data: &str) {
        let text: String = data.chars().take(GARBAGE_CHARS).collect();
        *lock(&self.garbage) = Some(text);
    }
}

/// Locks `mutex`, ignoring poison: the data is plain text and stays usable.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl ConnectionDiagnostics for SseDiagnostics {
    fn failure_details(&self) -> Option<String> {
        let ended = self.end_reason();
        // The end reason usually quotes the last failure already.
        let failure = self
            .last_failure()
            .filter(|failure| !ended.as_ref().is_some_and(|ended| ended.contains(failure)));
        let parts: Vec<String> = [
            ended,
            failure,
            self.last_skipped_event()
                .map(|event| format!("skipped an event that is not JSON-RPC: {event:?}")),
        ]
        .into_iter()
        .flatten()
        .collect();
        (!parts.is_empty()).then(|| parts.join("; "))
    }
}
