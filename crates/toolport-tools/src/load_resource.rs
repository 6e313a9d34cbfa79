//! [`LoadResourceTool`]: a tool through which the model reads the server's resources by URI.

use rmcp::model::{ReadResourceResult, ResourceContents};
use serde_json::{Value, json};
use std::sync::Arc;

use toolport_session::SessionError;

use crate::{
    MediaPart, ReadonlyContext, Tool, ToolDeclaration, ToolError, ToolOutput, ToolSession,
};

/// `load_resource`: reads one of the server's resources (`resources/read`) for the model, by
/// its URI: one the application showed it, a resource link a tool returned, or one that fits
/// a resource template. Offer it with
/// [`McpToolsetBuilder::load_resource_tool`](crate::McpToolsetBuilder::load_resource_tool), or
/// make one over any session.
///
/// The model reads each content's URI, MIME type and text; a binary content is described in
/// the value (its MIME type and size) and handed over whole as a [`MediaPart::Resource`]. A
/// read the server refuses (an unknown URI, say) is an output flagged as an error, with the
/// server's message, so the model can try another URI; a failure of the session itself is an
/// `Err`, as for any tool. Reading changes nothing, so a read that lost its connection is tried
/// again on a fresh one, as the session's reads are.
#[derive(Debug, Clone)]
pub struct LoadResourceTool {
    session: Arc<dyn ToolSession>,
    declaration: ToolDeclaration,
}

impl LoadResourceTool {
    /// The tool's name.
    pub const NAME: &'static str = "load_resource";

    /// The tool over `session`.
    pub fn new(session: Arc<dyn ToolSession>) -> Self {
        let description = format!(
            "Reads a resource that the MCP server {} publishes, by its URI, and returns its \
             contents: text as it is, binary contents by MIME type and size. Use a URI the \
             server listed or linked to, or one that fits one of its resource templates.",
            session.target()
        );
        let parameters = json!({
            "type": "object",
            "properties": {
                "uri": {"type": "string", "description": "The resource's URI."},
            },
            "required": ["uri"],
        });
        Self {
            session,
            declaration: ToolDeclaration::new(Self::NAME, description, parameters),
        }
    }

    /// The same tool under another name: one per server, say, when an agent reads the
    /// resources of several.
    #[must_use]
    pub fn named(mut self, name: impl Into<String>) -> Self {
        self.declaration.name = name.into();
        self
    }
}

#[async_trait::async_trait]
impl Tool for LoadResourceTool {
    fn declaration(&self) -> &ToolDeclaration {
        &self.declaration
    }

    async fn call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        let Some(uri) = arguments.get("uri").and_then(Value::as_str) else {
            return Err(ToolError::InvalidArguments {
                tool: self.declaration.name.clone(),
                reason: "`uri` must be a string".to_owned(),
            });
        };
        match self.session.read_resource_for(uri, context).await {
            Ok(result) => Ok(output(uri, result)),
            Err(SessionError::Rpc { error, .. }) => {
                let mut refused = ToolOutput::value(json!({
                    "uri": uri,
                    "error": error.message,
                }));
                refused.is_error = true;
                Ok(refused)
            }
            Err(error) => Err(error.into()),
        }
    }
}

/// What the model reads of a read's `result`, and its binary contents as parts.
fn output(uri: &str, result: ReadResourceResult) -> ToolOutput {
    let mut parts = Vec::new();
    let contents: Vec<Value> = result
        .contents
        .into_iter()
        .map(|content| match content {
            ResourceContents::TextResourceContents {
                uri,
                mime_type,
                text,
                ..
            } => json!({"uri": uri, "mimeType": mime_type, "text": text}),
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => {
                let described = json!({
                    "uri": uri,
                    "mimeType": mime_type,
                    "bytes": decoded_len(&blob),
                    "binary": "given to the application as a part, not shown here",
                });
                parts.push(MediaPart::Resource {
                    uri,
                    mime_type,
                    text: None,
                    blob: Some(blob),
                });
                described
            }
            // A kind of content newer than this code: as the server sent it.
            other => serde_json::to_value(&other).unwrap_or_default(),
        })
        .collect();
    let mut output = ToolOutput::value(json!({"uri": uri, "contents": contents}));
    output.parts = parts;
    output
}

/// How many bytes the base64 text `blob` holds.
fn decoded_len(blob: &str) -> usize {
    let padding = blob.bytes().rev().take_while(|&byte| byte == b'=').count();
    (blob.len() / 4 * 3).saturating_sub(padding.min(2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blob_is_described_by_its_decoded_size() {
        assert_eq!(decoded_len("aGVsbG8="), 5);
        assert_eq!(decoded_len("aGVsbG8h"), 6);
        assert_eq!(decoded_len("aGk="), 2);
        assert_eq!(decoded_len(""), 0);
    }
}
