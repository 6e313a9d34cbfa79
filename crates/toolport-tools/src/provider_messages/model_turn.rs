//! [`ModelTurn`]: what one response of the model holds for the loop.

use serde_json::Value;

use super::FunctionCall;

/// One response of the model, read by [`ApiShape::read_response`](super::ApiShape::read_response).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ModelTurn {
    /// What the conversation keeps of the response, unchanged, for the next request: Gemini's
    /// candidate `content`, Chat Completions' `message`, the Responses API's `output` items
    /// (reasoning items included), or Anthropic's `content` as an `assistant` message.
    pub messages: Vec<Value>,
    /// The tool calls, in the model's order; none when the model has answered.
    pub calls: Vec<FunctionCall>,
    /// The model's text, its pieces joined; Gemini's thought summaries are left out.
    pub text: String,
}
