//! [`LostAnswers`]: the transport's own record of the requests whose answers it lost while the
//! connection stayed up, which the session reads out of band.

use std::collections::VecDeque;
use std::sync::Mutex;

use rmcp::model::{ErrorCode, ErrorData, RequestId, ServerJsonRpcMessage};

/// How many lost answers a ledger keeps: one nobody asks about (its caller gave up first) is
/// forgotten once this many more were lost after it.
const KEPT: usize = 256;

/// The requests whose answers a transport lost while the connection stayed up: on 2026-07-28,
/// a Streamable HTTP answer stream that broke off before its answer (the version resumes
/// nothing), or an answer the server sent under another request's id. Such a request may or
/// may not have run.
///
/// A transport cannot fail one request through rmcp's `Transport` but by answering it, so it
/// calls [`LostAnswers::lose`], which records the request's id here and makes the JSON-RPC
/// error to deliver in its place. The session, when a request fails with a JSON-RPC error,
/// asks the connection's diagnostics
/// ([`ConnectionDiagnostics::answer_lost`](crate::ConnectionDiagnostics::answer_lost)), which
/// ask this ledger. Only then does it send the request again, with a new id, when it is safe
/// to run twice (a read, or a tool call its replay rules allow); otherwise the call's outcome
/// is uncertain. Nothing in the error itself says "lost", so no error a server sends, whatever
/// its shape, makes the session send a call again.
///
/// # Examples
///
/// ```
/// use rmcp::model::{NumberOrString, RequestId};
/// use toolport_core::LostAnswers;
///
/// let lost = LostAnswers::default();
/// let id = RequestId::from(NumberOrString::Number(7));
/// let delivered = lost.lose(id.clone(), "the answer stream broke off");
/// assert!(delivered.into_error().is_some());
///
/// assert!(lost.take(&id), "the first question finds it");
/// assert!(!lost.take(&id), "and forgets it");
/// assert!(!lost.take(&RequestId::from(NumberOrString::Number(8))));
/// ```
#[derive(Debug, Default)]
pub struct LostAnswers {
    /// The ids lost and not yet asked about, oldest first.
    ids: Mutex<VecDeque<RequestId>>,
}

impl LostAnswers {
    /// Records that the answer to request `id` is lost, and returns what to deliver in its
    /// place: an internal JSON-RPC error for `id`, saying why in `reason`.
    pub fn lose(&self, id: RequestId, reason: impl Into<String>) -> ServerJsonRpcMessage {
        {
            let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
            if ids.len() == KEPT {
                ids.pop_front();
            }
            ids.push_back(id.clone());
        }
        let error = ErrorData::new(ErrorCode::INTERNAL_ERROR, reason.into(), None);
        ServerJsonRpcMessage::error(error, Some(id))
    }

    /// Whether the answer to request `id` was lost; forgets it.
    pub fn take(&self, id: &RequestId) -> bool {
        let mut ids = self.ids.lock().unwrap_or_else(|e| e.into_inner());
        let Some(position) = ids.iter().position(|lost| lost == id) else {
            return false;
        };
        ids.remove(position);
        true
    }
}

#[cfg(test)]
mod tests {
    use rmcp::model::NumberOrString;

    use super::*;

    fn id(number: i64) -> RequestId {
        RequestId::from(NumberOrString::Number(number))
    }

    #[test]
    fn the_oldest_unasked_loss_is_forgotten_past_the_bound() {
        let lost = LostAnswers::default();
        for number in 0..=KEPT as i64 {
            drop(lost.lose(id(number), "broke off"));
        }
        assert!(!lost.take(&id(0)));
        assert!(lost.take(&id(1)));
        assert!(lost.take(&id(KEPT as i64)));
    }
}
