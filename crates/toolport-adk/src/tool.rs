//! [`AdkTool`]: one Toolport tool as an ADK-Rust tool.

use std::sync::Arc;

use adk_core::{AdkError, ToolContext};
use serde_json::Value;
use toolport_tools::{Tool, ToolError};

use crate::{ResultShape, caller_context};

/// One Toolport tool as an ADK-Rust [`Tool`](adk_core::Tool), made by
/// [`AdkToolset`](crate::AdkToolset).
///
/// A call runs on behalf of ADK's context (see [`caller_context`]). A result the server flagged
/// as an error (`isError`) is the function response like any other, so the model reads the
/// server's words. A call that could not be made (bad arguments, a result that cannot be
/// mapped) is an error, which ADK hands the model as `{"error": ...}`, and the run goes on. A
/// call that failed below the tool (the connection, a bound, a server that is gone) also sets
/// `escalate` on the call's actions, which ends ADK's run before the model is asked again:
/// its outcome is unknown.
#[derive(Debug, Clone)]
pub struct AdkTool {
    tool: Arc<dyn Tool>,
    declaration: Value,
    shape: ResultShape,
}

impl AdkTool {
    pub(crate) fn new(tool: Arc<dyn Tool>, declaration: Value, shape: ResultShape) -> Self {
        Self {
            tool,
            declaration,
            shape,
        }
    }

    /// The Toolport tool underneath.
    pub fn tool(&self) -> &Arc<dyn Tool> {
        &self.tool
    }
}

#[async_trait::async_trait]
impl adk_core::Tool for AdkTool {
    fn name(&self) -> &str {
        self.declaration["name"].as_str().unwrap_or_default()
    }

    fn description(&self) -> &str {
        self.declaration["description"].as_str().unwrap_or_default()
    }

    fn declaration(&self) -> Value {
        self.declaration.clone()
    }

    fn parameters_schema(&self) -> Option<Value> {
        self.declaration.get("parameters").cloned()
    }

    fn response_schema(&self) -> Option<Value> {
        self.declaration.get("response").cloned()
    }

    /// The server's `readOnlyHint`: a hint, not a permission check.
    fn is_read_only(&self) -> bool {
        self.tool
            .definition()
            .and_then(|definition| definition.annotations.as_ref())
            .and_then(|annotations| annotations.read_only_hint)
            == Some(true)
    }

    /// Whether the call runs as a task the server may take long to finish
    /// ([`Tool::runs_as_task`]).
    fn is_long_running(&self) -> bool {
        self.tool.runs_as_task()
    }

    async fn execute(
        &self,
        context: Arc<dyn ToolContext>,
        arguments: Value,
    ) -> adk_core::Result<Value> {
        let caller = caller_context(context.as_ref());
        match self.tool.call(arguments, Some(&caller)).await {
            Ok(output) => self.shape.response(output).map_err(|reason| {
                AdkError::tool(format!(
                    "the result of {} cannot be shown in this shape: {reason}",
                    self.tool.name()
                ))
            }),
            Err(error) => {
                if matches!(error, ToolError::Session(_) | ToolError::Layer(_)) {
                    let mut actions = context.actions();
                    actions.escalate = true;
                    context.set_actions(actions);
                }
                Err(AdkError::tool(error.to_string()))
            }
        }
    }
}
