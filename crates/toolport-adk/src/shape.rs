//! [`ResultShape`]: what the model reads as an ADK function response.

use serde_json::Value;
use toolport_tools::{AdkJavaMapper, RawMapper, ResultMapper, ToolOutput};

/// What the model reads as the function response of a call.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum ResultShape {
    /// ADK-Python's: the MCP result as the server sent it, `content`, `structuredContent` and
    /// `isError` included (Toolport's `raw` mapping). The default.
    #[default]
    PassThrough,
    /// ADK-Java's: `{"text_output": [...]}` of the text blocks (Toolport's `adk-java` mapping).
    AdkJava,
    /// The value the Toolport toolset mapped with its own [`ResultMapper`].
    Toolset,
}

impl ResultShape {
    /// The function response for `output`. An output without the server's result (a tool
    /// that is not an MCP server's), or one an output budget of the toolset cut, is read as
    /// the toolset mapped it, so the budget holds.
    pub(crate) fn response(self, output: ToolOutput) -> Result<Value, String> {
        let mapped = match (&output.result, self) {
            (_, _) if output.is_cut() => return Ok(output.value),
            (Some(result), Self::PassThrough) => RawMapper.map(result),
            (Some(result), Self::AdkJava) => AdkJavaMapper.map(result),
            _ => return Ok(output.value),
        };
        mapped
            .map(|mapped| mapped.value)
            .map_err(|error| error.reason)
    }
}
