//! The caller a message is sent for: the [`ReadonlyContext`] a session put in its extensions.

use rmcp::model::{ClientJsonRpcMessage, GetExtensions as _, JsonRpcMessage};
use toolport_core::ReadonlyContext;

/// The context of the caller a request is made for. Notifications and answers carry none, and
/// neither do requests no caller made (such as `initialize`).
pub fn caller_context(message: &ClientJsonRpcMessage) -> Option<&ReadonlyContext> {
    match message {
        JsonRpcMessage::Request(request) => request.request.extensions().get::<ReadonlyContext>(),
        _ => None,
    }
}
