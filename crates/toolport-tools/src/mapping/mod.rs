//! [`ResultMapper`]: how a `CallToolResult` becomes what the model reads, with three presets.

mod adk_java;
mod raw;
mod rich;

use rmcp::model::CallToolResult;

pub use adk_java::AdkJavaMapper;
pub use raw::RawMapper;
pub use rich::RichMapper;

use crate::ToolOutput;

/// Turns a server's `CallToolResult` into the value the model reads and the media beside it.
///
/// Pick a preset with [`Mapping`], or implement this trait for a framework of your own.
pub trait ResultMapper: Send + Sync + std::fmt::Debug {
    /// Maps one result. An error here means the result cannot be shown to the model in this
    /// shape (for example, `adk-java` with no text block).
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError>;
}

/// A result the mapper cannot turn into model input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{reason}")]
pub struct MappingError {
    /// Why, in words.
    pub reason: String,
}

impl MappingError {
    /// A mapping error with the given reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Self {
            reason: reason.into(),
        }
    }
}

/// The built-in mapping presets. Each is a [`ResultMapper`] itself, so a preset and a mapper
/// of your own go to the same setting ([`McpToolsetBuilder::mapping`](crate::McpToolsetBuilder::mapping)).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Mapping {
    /// Structured content when present, text (JSON parsed where it is JSON), media as parts.
    #[default]
    Rich,
    /// The `text_output` shape of ADK Java, exactly.
    AdkJava,
    /// The `CallToolResult` as JSON, `isError` included.
    Raw,
}

impl ResultMapper for Mapping {
    fn map(&self, result: &CallToolResult) -> Result<ToolOutput, MappingError> {
        match self {
            Self::Rich => RichMapper.map(result),
            Self::AdkJava => AdkJavaMapper.map(result),
            Self::Raw => RawMapper.map(result),
        }
    }
}

impl std::str::FromStr for Mapping {
    type Err = MappingError;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "rich" => Ok(Self::Rich),
            "adk-java" => Ok(Self::AdkJava),
            "raw" => Ok(Self::Raw),
            other => Err(MappingError::new(format!(
                "unknown mapping `{other}`: expected rich, adk-java or raw"
            ))),
        }
    }
}
