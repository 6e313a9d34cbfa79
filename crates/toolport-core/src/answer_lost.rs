//! [`AnswerLost`]: how a transport says that the answer to one request was lost while the
//! connection stays up.

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::{Value, json};

/// The key of the marker in the `data` of an [`AnswerLost`] error.
const MARKER: &str = "toolportAnswerLost";

/// The answer to one request was lost, and the connection is still up: on 2026-07-28, a
/// Streamable HTTP answer stream broke off before its answer, and the version has no way to
/// resume it. The request may or may not have run.
///
/// A transport cannot fail one request through rmcp's `Transport` but by answering it, so it
/// delivers, in place of the answer, the JSON-RPC error [`AnswerLost::error`] makes (an
/// internal error whose `data` carries a marker). The session recognizes it with
/// [`AnswerLost::is`], and sends the request again, with a new id, only when it is safe to run
/// twice (a read, or a tool call its replay rules allow); otherwise the call's outcome is
/// uncertain. The connection, and every other request on it, carries on.
///
/// # Examples
///
/// ```
/// use toolport_core::AnswerLost;
///
/// let error = AnswerLost::error("the answer stream broke off");
/// assert!(AnswerLost::is(&error));
/// assert_eq!(error.message, "the answer stream broke off");
/// ```
#[derive(Debug, Clone, Copy)]
pub struct AnswerLost;

impl AnswerLost {
    /// The error a transport delivers in place of a lost answer, saying why in `reason`.
    pub fn error(reason: impl Into<String>) -> ErrorData {
        ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            reason.into(),
            Some(json!({ MARKER: true })),
        )
    }

    /// Whether `error` is one that [`AnswerLost::error`] made.
    pub fn is(error: &ErrorData) -> bool {
        error.code == ErrorCode::INTERNAL_ERROR
            && error
                .data
                .as_ref()
                .and_then(|data| data.get(MARKER))
                .is_some_and(|marker| *marker == Value::Bool(true))
    }
}
