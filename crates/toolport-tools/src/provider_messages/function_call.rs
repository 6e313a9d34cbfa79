//! [`FunctionCall`]: one tool call a model asked for, read from its response.

use serde_json::Value;

/// One tool call a model asked for, in the words of the API's response.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct FunctionCall {
    /// The id the call's answer names: Chat Completions' `id`, the Responses API's `call_id`,
    /// Anthropic's `id`, and Gemini's `id` when the model gave one (Gemini matches an answer
    /// without one by its name and place).
    pub id: Option<String>,
    /// The tool's model-facing name, as the model wrote it.
    pub name: String,
    /// The arguments, a JSON object when the model wrote one. The OpenAI APIs send them as a
    /// JSON string, which is parsed; a string that is not JSON stays a string here, and the
    /// call is answered with an error instead of run.
    pub arguments: Value,
}
