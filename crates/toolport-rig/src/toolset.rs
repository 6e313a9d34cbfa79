//! [`RigToolset`]: a Toolport toolset as rig tools, listed for one caller.

use std::collections::HashMap;
use std::sync::Arc;

use rig_core::message::ToolName;
use rig_core::tool::{DynamicTool, ManagedToolSink, ManagedToolToken, ToolContext};
use toolport_tools::{ReadonlyContext, Tool, Toolset, ToolsetError};

use crate::CallerContext;
use crate::output::{from_error, from_toolport};

/// Any Toolport [`Toolset`] (an `McpToolset`, an `McpServerManager`, a tenant's set) as rig
/// tools.
///
/// Each tool keeps the declaration the toolset computed (with
/// `McpToolsetBuilder::fit_to`, the name and schema fitted to the model's provider). A call
/// runs on behalf of the [`CallerContext`] in rig's tool context, else of the context the tools
/// were listed for ([`for_caller`](Self::for_caller)).
///
/// # Examples
///
/// ```
/// use std::sync::Arc;
/// use toolport::McpToolset;
/// use toolport_rig::RigToolset;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let toolset = McpToolset::builder(toolport_testkit::task_tracker_connector()).build().await?;
/// let tools = RigToolset::new(Arc::new(toolset)).tools().await?;
/// let names: Vec<&str> = tools.iter().map(|tool| tool.name().as_str()).collect();
/// assert_eq!(names, ["add_task", "complete_task", "list_tasks"]);
/// # Ok(())
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct RigToolset {
    toolset: Arc<dyn Toolset>,
    caller: Option<ReadonlyContext>,
}

impl RigToolset {
    /// The tools of `toolset`, listed with no caller context.
    pub fn new(toolset: Arc<dyn Toolset>) -> Self {
        Self {
            toolset,
            caller: None,
        }
    }

    /// Lists the tools for `caller` (predicates see it) and runs them on its behalf when rig's
    /// tool context carries no [`CallerContext`] of its own.
    #[must_use]
    pub fn for_caller(mut self, caller: ReadonlyContext) -> Self {
        self.caller = Some(caller);
        self
    }

    /// The Toolport toolset underneath.
    pub fn toolset(&self) -> &Arc<dyn Toolset> {
        &self.toolset
    }

    /// The toolset's tools now, as rig tools. A tool whose name rig refuses (an empty one) is
    /// left out with a warning.
    ///
    /// # Errors
    ///
    /// When the toolset cannot list its tools; the agent should not go on without them.
    pub async fn tools(&self) -> Result<Vec<DynamicTool>, ToolsetError> {
        let tools = self.toolset.tools(self.caller.as_ref()).await?;
        Ok(tools
            .into_iter()
            .filter_map(|tool| self.dynamic_tool(tool))
            .collect())
    }

    /// Installs the tools in `sink` (rig-agent's `ToolServerHandle`, for one), returning the
    /// generation of each, for [`ManagedToolSink::reconcile_managed_tools`]. [`LiveTools`]
    /// keeps them current.
    ///
    /// [`LiveTools`]: crate::LiveTools
    ///
    /// # Errors
    ///
    /// When the toolset cannot list its tools.
    pub async fn install(
        &self,
        sink: &impl ManagedToolSink,
    ) -> Result<HashMap<String, ManagedToolToken>, ToolsetError> {
        Ok(sink.add_managed_tools(self.tools().await?))
    }

    fn dynamic_tool(&self, tool: Arc<dyn Tool>) -> Option<DynamicTool> {
        let declaration = tool.declaration();
        let name = match ToolName::new(declaration.name.clone()) {
            Ok(name) => name,
            Err(error) => {
                tracing::warn!(%error, "left out a tool whose name rig refuses");
                return None;
            }
        };
        let description = declaration.description.clone();
        let parameters = declaration.parameters.clone();
        let listed_for = self.caller.clone();
        Some(DynamicTool::new_with_context(
            name,
            description,
            parameters,
            move |context: &mut ToolContext, arguments| {
                let tool = Arc::clone(&tool);
                let caller = CallerContext::of(context);
                let listed_for = listed_for.clone();
                Box::pin(async move {
                    let caller = caller
                        .map_err(|error| {
                            rig_core::tool::ToolExecutionError::other(format!(
                                "the run's tool context holds no caller state a tool can read: \
                                 {error}; insert a `toolport_rig::CallerContext`"
                            ))
                        })?
                        .or(listed_for);
                    match tool.call(arguments, caller.as_ref()).await {
                        Ok(output) => from_toolport(tool.name(), output),
                        Err(error) => Err(from_error(error)),
                    }
                })
            },
        ))
    }
}
