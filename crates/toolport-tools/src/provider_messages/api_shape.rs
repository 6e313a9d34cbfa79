//! [`ApiShape`]: the HTTP APIs whose tool-calling messages Toolport reads and writes, and the
//! model provider whose names and schemas each one takes.

use std::fmt;

use serde_json::{Value, json};

use crate::schema::Provider;

/// A model provider's HTTP API, as far as tool calls go: how its request declares tools, how
/// its response asks for calls, and how the next request answers them.
///
/// ```
/// use toolport_tools::provider_messages::ApiShape;
/// use toolport_tools::schema::Provider;
///
/// assert_eq!(ApiShape::OpenAiResponses.provider(), Provider::OpenAi);
/// let question = ApiShape::Gemini.user_message("Which tasks are open?");
/// assert_eq!(question["parts"][0]["text"], "Which tasks are open?");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ApiShape {
    /// The Gemini API's `generateContent`: `functionCall` parts, answered by
    /// `functionResponse` parts.
    Gemini,
    /// OpenAI's Chat Completions: an assistant message's `tool_calls`, answered by
    /// `role: "tool"` messages.
    OpenAiChat,
    /// OpenAI's Responses API: `function_call` output items, answered by
    /// `function_call_output` input items.
    OpenAiResponses,
    /// Anthropic's Messages API: `tool_use` blocks, answered by `tool_result` blocks.
    Anthropic,
}

impl ApiShape {
    /// Every shape.
    pub const ALL: [ApiShape; 4] = [
        ApiShape::Gemini,
        ApiShape::OpenAiChat,
        ApiShape::OpenAiResponses,
        ApiShape::Anthropic,
    ];

    /// The provider whose name rule and schema adapter the API's declarations follow; both
    /// OpenAI APIs take OpenAI's.
    pub fn provider(self) -> Provider {
        match self {
            Self::Gemini => Provider::Gemini,
            Self::OpenAiChat | Self::OpenAiResponses => Provider::OpenAi,
            Self::Anthropic => Provider::Anthropic,
        }
    }

    /// The shape's name: `gemini`, `openai-chat`, `openai-responses` or `anthropic`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Gemini => "gemini",
            Self::OpenAiChat => "openai-chat",
            Self::OpenAiResponses => "openai-responses",
            Self::Anthropic => "anthropic",
        }
    }

    /// The user's message with `text`, as the conversation of the API holds it.
    pub fn user_message(self, text: &str) -> Value {
        match self {
            Self::Gemini => json!({"role": "user", "parts": [{"text": text}]}),
            Self::OpenAiChat | Self::OpenAiResponses | Self::Anthropic => {
                json!({"role": "user", "content": text})
            }
        }
    }
}

impl fmt::Display for ApiShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
