//! [`ToolDeclaration`]: the function declaration a model sees for one tool.

use rmcp::model::Tool as ToolDefinition;
use serde::Serialize;
use serde_json::Value;

/// The function declaration a model sees for one tool: the server's own metadata, passed
/// through unchanged.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct ToolDeclaration {
    /// The tool's name.
    pub name: String,
    /// What the tool does, as the server describes it (untrusted text).
    pub description: String,
    /// The JSON Schema of the arguments: the server's `inputSchema`.
    pub parameters: Value,
    /// The JSON Schema of the structured result: the server's `outputSchema`, when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<Value>,
}

impl ToolDeclaration {
    /// A declaration with no response schema.
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        Self {
            name: name.into(),
            description: description.into(),
            parameters,
            response: None,
        }
    }

    /// Sets the JSON Schema of the structured result.
    #[must_use]
    pub fn with_response(mut self, schema: Value) -> Self {
        self.response = Some(schema);
        self
    }

    /// The declaration of an MCP tool, its fields passed through unchanged.
    pub fn from_mcp(tool: &ToolDefinition) -> Self {
        Self {
            name: tool.name.to_string(),
            description: tool.description.as_deref().unwrap_or_default().to_owned(),
            parameters: Value::Object(tool.input_schema.as_ref().clone()),
            response: tool
                .output_schema
                .as_ref()
                .map(|schema| Value::Object(schema.as_ref().clone())),
        }
    }
}
