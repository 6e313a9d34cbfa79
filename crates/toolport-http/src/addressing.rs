//! Whether an answer the server sent on one request's exchange (its JSON body, or its answer
//! stream) is that request's. Each exchange carries the answer to one request, so an answer
//! there under another id is the server's mistake: it must never reach the other request,
//! which would take it for its own result.

use rmcp::model::{JsonRpcMessage, RequestId, ServerJsonRpcMessage};

use crate::link::Link;

/// What a message on the exchange of one request is to it.
pub(crate) enum Addressed {
    /// Not an answer: a request or notification of the server's, delivered as it is.
    NotAnAnswer(ServerJsonRpcMessage),
    /// The request's answer. An error without an id (the server could not read ours) is
    /// given the request's, since it answers the one request the exchange carried.
    Ours(ServerJsonRpcMessage),
    /// An answer under the id of another request, or of none we sent.
    Other(RequestId),
}

/// Sorts `message`, read on the exchange of request `expected`.
pub(crate) fn address(message: ServerJsonRpcMessage, expected: &RequestId) -> Addressed {
    match message {
        JsonRpcMessage::Response(response) if response.id != *expected => {
            Addressed::Other(response.id)
        }
        JsonRpcMessage::Error(mut error) => match error.id.take() {
            Some(id) if id != *expected => Addressed::Other(id),
            _ => {
                error.id = Some(expected.clone());
                Addressed::Ours(JsonRpcMessage::Error(error))
            }
        },
        answer @ JsonRpcMessage::Response(_) => Addressed::Ours(answer),
        other => Addressed::NotAnAnswer(other),
    }
}

/// What is delivered in place of the answer to `expected`, which the server sent under the id
/// `other`: an error the diagnostics record as a lost answer, so that the call's outcome is
/// uncertain (it may have run) and the misaddressed answer reaches nobody.
pub(crate) fn lost_under(
    link: &Link,
    expected: &RequestId,
    other: &RequestId,
) -> ServerJsonRpcMessage {
    let reason = format!(
        "the server answered request {expected} under the id {other}; that answer was dropped, so that no other request takes it for its own"
    );
    tracing::warn!(%expected, %other, "the server answered a request under another id");
    link.remote.diagnostics.record(reason.clone());
    link.remote
        .diagnostics
        .lose_answer(expected.clone(), reason)
}
