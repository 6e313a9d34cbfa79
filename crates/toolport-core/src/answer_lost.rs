//! [`AnswerLost`]: how a transport says that the answer to one request was lost while the
//! connection stays up.

use std::hash::{BuildHasher as _, Hasher as _, RandomState};
use std::sync::LazyLock;

use rmcp::model::{ErrorCode, ErrorData};
use serde_json::json;

/// The key of the marker in the `data` of an [`AnswerLost`] error.
const MARKER: &str = "toolportAnswerLost";

/// The marker's value: drawn at random once per process (from the seed of the standard
/// library's `RandomState`, which the operating system's randomness supplies), and never sent
/// to a server, so no server can send an error that carries it.
static MARKER_VALUE: LazyLock<String> =
    LazyLock::new(|| format!("{:016x}", RandomState::new().build_hasher().finish()));

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
/// The marker's value is this process's own secret, so an error a server sends is never taken
/// for a lost answer, whatever its `data` says: a server cannot make the session send a call
/// again.
///
/// # Examples
///
/// ```
/// use rmcp::model::{ErrorCode, ErrorData};
/// use serde_json::json;
/// use toolport_core::AnswerLost;
///
/// let error = AnswerLost::error("the answer stream broke off");
/// assert!(AnswerLost::is(&error));
/// assert_eq!(error.message, "the answer stream broke off");
///
/// // A server's error of the same shape is not one.
/// let data = json!({"toolportAnswerLost": true});
/// let forged = ErrorData::new(ErrorCode::INTERNAL_ERROR, "lost", Some(data));
/// assert!(!AnswerLost::is(&forged));
/// ```
#[derive(Debug, Clone, Copy)]
pub struct AnswerLost;

impl AnswerLost {
    /// The error a transport delivers in place of a lost answer, saying why in `reason`.
    pub fn error(reason: impl Into<String>) -> ErrorData {
        ErrorData::new(
            ErrorCode::INTERNAL_ERROR,
            reason.into(),
            Some(json!({ MARKER: MARKER_VALUE.as_str() })),
        )
    }

    /// Whether `error` is one that [`AnswerLost::error`] made.
    pub fn is(error: &ErrorData) -> bool {
        error.code == ErrorCode::INTERNAL_ERROR
            && error
                .data
                .as_ref()
                .and_then(|data| data.get(MARKER))
                .is_some_and(|marker| marker.as_str() == Some(MARKER_VALUE.as_str()))
    }
}
