//! [`ToolOutput`]: what one tool call gives back to the agent, the model-facing value plus
//! media, and the whole result for the application.

use rmcp::model::CallToolResult;
use serde_json::Value;

/// What one tool call gives back to the agent.
///
/// `value` is what the model reads as the function response. `parts` carries media (images,
/// audio, embedded resources) that a framework can hand to a multimodal model beside it.
/// When an [`OutputBudget`](crate::OutputBudget) cut `value`, the application still has the
/// whole of it in `uncut_value`, and an [`McpTool`](crate::McpTool) call also keeps the
/// server's whole result in `result`.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct ToolOutput {
    /// The function response the model reads.
    pub value: Value,
    /// Media the server returned, in order.
    pub parts: Vec<MediaPart>,
    /// Whether the server flagged the result as a tool error (`isError`). The model still reads
    /// `value`, which explains the error.
    pub is_error: bool,
    /// The whole value, when an output budget cut `value` for the model; `None` when nothing
    /// was cut, and `value` is whole.
    pub uncut_value: Option<Value>,
    /// The server's result, whole (no budget applies to it), for an output of an
    /// [`McpTool`](crate::McpTool) call; `None` for outputs made otherwise.
    pub result: Option<CallToolResult>,
}

impl ToolOutput {
    /// A successful output with no media.
    pub fn value(value: Value) -> Self {
        Self {
            value,
            parts: Vec::new(),
            is_error: false,
            uncut_value: None,
            result: None,
        }
    }

    /// An output the tool flagged as an error; `value` explains it to the model.
    pub fn error(value: Value) -> Self {
        Self {
            is_error: true,
            ..Self::value(value)
        }
    }

    /// Sets the media parts.
    #[must_use]
    pub fn with_parts(mut self, parts: Vec<MediaPart>) -> Self {
        self.parts = parts;
        self
    }

    /// Whether an output budget cut [`value`](Self::value); the whole is then
    /// [`uncut_value`](Self::uncut_value).
    pub fn is_cut(&self) -> bool {
        self.uncut_value.is_some()
    }
}

/// One piece of media from a tool result.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum MediaPart {
    /// An image, base64-encoded as the server sent it.
    Image {
        /// Such as `image/png`.
        mime_type: String,
        /// Base64 data.
        data: String,
    },
    /// An audio clip, base64-encoded as the server sent it.
    Audio {
        /// Such as `audio/wav`.
        mime_type: String,
        /// Base64 data.
        data: String,
    },
    /// An embedded resource or a link to one.
    Resource {
        /// The resource URI.
        uri: String,
        /// Its MIME type, when the server gave one.
        mime_type: Option<String>,
        /// Its text, for a text resource.
        text: Option<String>,
        /// Its base64 data, for a binary resource.
        blob: Option<String>,
    },
}
