//! [`MessageError`]: why a turn of a hand-written loop cannot go on.

use super::{ApiShape, FunctionCall};
use crate::ToolError;

/// Why a turn cannot go on. A tool's own error is not one of these: the model reads it as the
/// call's answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum MessageError {
    /// The API's response is not in its shape, or holds no message (a prompt the API blocked,
    /// say).
    #[error("the {shape} response cannot be read: {reason}")]
    Unreadable {
        /// The API.
        shape: ApiShape,
        /// What is missing or wrong.
        reason: String,
    },
    /// Two of the tools offered have the same name, so a call of it could be either.
    #[error("two tools are named {name}; give one of their toolsets a prefix")]
    DuplicateTool {
        /// The name.
        name: String,
    },
    /// A provider's own tool search was asked of an API that has none.
    #[error(
        "the {shape} API has no tool search of its own; offer toolport's search tool instead (toolport::search)"
    )]
    NoNativeToolSearch {
        /// The API.
        shape: ApiShape,
    },
    /// The session or a layer of the call path failed the call ([`ToolError::Session`],
    /// [`ToolError::Layer`]): the call's outcome is unknown, and the loop should stop rather
    /// than let the model guess.
    #[error("the call of {} failed: {source}", .call.name)]
    CallFailed {
        /// The call.
        call: Box<FunctionCall>,
        /// Why; its predicates (`is_timeout`, `is_outcome_uncertain`, ...) say more.
        #[source]
        source: Box<ToolError>,
    },
}
