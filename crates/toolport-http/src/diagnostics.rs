//! [`HttpDiagnostics`]: the last transport failure of a connection, for error messages, its
//! session id, for spans, and the answers it lost, for the session's replay rules.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use rmcp::model::{RequestId, ServerJsonRpcMessage};
use toolport_core::{ConnectionDiagnostics, LostAnswers};

/// Remembers the last HTTP-level failure of one connection (a refused connect, an oversized
/// answer, an unexpected status), so a lost connection's error can say why. Cleared by the next
/// successful exchange. Never holds header values.
#[derive(Debug, Default)]
pub struct HttpDiagnostics {
    failed: AtomicBool,
    last: Mutex<Option<String>>,
    session_id: Mutex<Option<String>>,
    lost_answers: LostAnswers,
}

impl HttpDiagnostics {
    /// Records a failure.
    pub fn record(&self, failure: impl Into<String>) {
        *self.last.lock().unwrap_or_else(|e| e.into_inner()) = Some(failure.into());
        self.failed.store(true, Ordering::Release);
    }

    /// Keeps the session id the server assigned, for the session's spans.
    /// A server that repeats it on every answer costs a comparison each time.
    pub(crate) fn note_session_id(&self, id: &str) {
        let mut kept = self.session_id.lock().unwrap_or_else(|e| e.into_inner());
        if kept.as_deref() != Some(id) {
            *kept = Some(id.to_owned());
        }
    }

    /// Records that the answer to request `id` is lost (the connection stays up), and returns
    /// the error to deliver in its place; see [`LostAnswers`].
    pub(crate) fn lose_answer(&self, id: RequestId, reason: String) -> ServerJsonRpcMessage {
        self.lost_answers.lose(id, reason)
    }

    /// Forgets the last failure; costs one atomic load when there is none.
    pub fn clear(&self) {
        if self.failed.swap(false, Ordering::AcqRel) {
            *self.last.lock().unwrap_or_else(|e| e.into_inner()) = None;
        }
    }
}

impl ConnectionDiagnostics for HttpDiagnostics {
    fn failure_details(&self) -> Option<String> {
        self.last.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn session_id(&self) -> Option<String> {
        self.session_id
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    fn answer_lost(&self, id: &RequestId) -> bool {
        self.lost_answers.take(id)
    }
}
