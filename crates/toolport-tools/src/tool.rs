//! The agent-side traits: a [`Tool`] a model can call and a [`Toolset`] that provides them.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use crate::{
    ReadonlyContext, ToolDeclaration, ToolDefinition, ToolError, ToolOutput, ToolsetError,
};

/// One tool a model can call. Framework-agnostic: an agent framework adapts this to its own
/// tool type.
#[async_trait::async_trait]
pub trait Tool: Send + Sync + fmt::Debug {
    /// The declaration the model sees.
    fn declaration(&self) -> &ToolDeclaration;

    /// The tool's name (the declaration's).
    fn name(&self) -> &str {
        &self.declaration().name
    }

    /// The tool as its server listed it (annotations such as `readOnlyHint`, `_meta`), for a
    /// tool that comes from an MCP server; `None` for others. Agent frameworks read their
    /// flags from it.
    fn definition(&self) -> Option<&ToolDefinition> {
        None
    }

    /// The id of the server the tool comes from, when a fleet knows it (a manager's server
    /// id); `None` by default. Tool search indexes it, so that "on GitHub" finds GitHub's
    /// tools.
    fn server(&self) -> Option<&str> {
        None
    }

    /// Whether a call runs as a task, which the server may take long to finish: an MCP tool
    /// whose 2025-11-25 listing says `execution.taskSupport` `required` or `optional`, on a
    /// server that runs tool calls as tasks. Agent frameworks mark such a tool long-running.
    /// False by default.
    fn runs_as_task(&self) -> bool {
        false
    }

    /// Runs the tool with the model's arguments (a JSON object, or null for none), on behalf
    /// of the caller described by `context` (which reaches the transport, so an HTTP header
    /// provider can send the caller's identity).
    ///
    /// A tool that ran and reported an error returns `Ok` with
    /// [`ToolOutput::is_error`] set, so the model can read the error and try again. `Err` means
    /// the call could not be made or its outcome is unknown.
    async fn call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError>;
}

/// A source of tools for an agent, such as one MCP server.
#[async_trait::async_trait]
pub trait Toolset: Send + Sync + fmt::Debug {
    /// The tools to offer the model now, for a caller described by `context`.
    async fn tools(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Vec<Arc<dyn Tool>>, ToolsetError>;

    /// Releases the toolset's connections and processes. Tools taken from it stop working.
    async fn close(&self);
}
