//! Errors of the tools layer: [`ToolsetError`] when loading tools, [`ToolError`] when calling one.

use toolport_session::SessionError;

use crate::MappingError;

/// Tools could not be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolsetError {
    /// The server could not be reached or would not list its tools, after the retries.
    #[error("failed to load tools: {source}")]
    Load {
        /// Why.
        #[from]
        source: SessionError,
    },
    /// No tool of that name is offered to this caller.
    #[error("unknown tool `{name}`: {target} offers {}", offers(.available))]
    UnknownTool {
        /// The server.
        target: String,
        /// The name asked for.
        name: String,
        /// The names offered to the caller.
        available: Vec<String>,
    },
    /// A strict toolset's allowlist names tools the server does not have.
    #[error("{target} has no tool named {}; it offers: {}", join(.missing), join(.available))]
    MissingTools {
        /// The server.
        target: String,
        /// The allowlisted names that are missing.
        missing: Vec<String>,
        /// The names the server offers.
        available: Vec<String>,
    },
}

impl ToolsetError {
    /// Whether retrying can never help (bad settings, a missing command, a missing tool).
    pub fn is_permanent(&self) -> bool {
        match self {
            Self::Load { source } => source.is_permanent(),
            Self::MissingTools { .. } | Self::UnknownTool { .. } => true,
        }
    }
}

/// A tool call could not be made, or its outcome is unknown.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ToolError {
    /// The arguments are not a JSON object, or break the tool's input schema.
    #[error("invalid arguments for {tool}: {reason}")]
    InvalidArguments {
        /// The tool.
        tool: String,
        /// What is wrong.
        reason: String,
    },
    /// The session failed (timeout, lost connection, JSON-RPC error).
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The result cannot be shown to the model in the configured shape.
    #[error("the result of {tool} cannot be mapped: {source}")]
    Mapping {
        /// The tool.
        tool: String,
        /// Why.
        #[source]
        source: MappingError,
    },
}

fn offers(names: &[String]) -> String {
    if names.is_empty() {
        "no tools".to_owned()
    } else {
        names.join(", ")
    }
}

fn join(names: &[String]) -> String {
    if names.is_empty() {
        "(none)".to_owned()
    } else {
        names.join(", ")
    }
}
