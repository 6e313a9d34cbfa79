//! [`error_answer`]: the JSON-RPC error delivered in place of a request's answer when its
//! exchange failed, for the caller to read.

use rmcp::model::{ErrorData, RequestId, ServerJsonRpcMessage};

/// A JSON-RPC error answering the request `id`, for a failure the caller should read.
pub(crate) fn error_answer(id: RequestId, message: &str) -> ServerJsonRpcMessage {
    ServerJsonRpcMessage::error(
        ErrorData::internal_error(message.to_owned(), None),
        Some(id),
    )
}
