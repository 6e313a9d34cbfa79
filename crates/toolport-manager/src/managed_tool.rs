//! [`ManagedTool`]: one server's tool in the manager's aggregate, under its aggregate name.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use toolport_tools::schema::Provider;
use toolport_tools::{
    McpTool, ReadonlyContext, Tool, ToolDeclaration, ToolDefinition, ToolError, ToolOutput,
};

/// One server's tool as the manager offers it: the server's [`McpTool`], renamed
/// `{server_id}__{tool}` when another server publishes the same name. Calls go to the server
/// under its own name, through its toolset's hooks (its `autoApprove` list first).
#[derive(Debug, Clone)]
pub struct ManagedTool {
    server: Arc<str>,
    tool: Arc<McpTool>,
    /// The declaration under the aggregate name, when it differs from the toolset's; shared
    /// by the clones a warm aggregate hands out.
    renamed: Option<Arc<ToolDeclaration>>,
    /// The provider the toolsets fit their tools to, if any.
    provider: Option<Provider>,
}

impl ManagedTool {
    pub(crate) fn new(
        server: Arc<str>,
        tool: Arc<McpTool>,
        name: String,
        provider: Option<Provider>,
    ) -> Self {
        let renamed = (name != tool.declaration().name).then(|| {
            let mut declaration = tool.declaration().clone();
            declaration.name = name;
            Arc::new(declaration)
        });
        Self {
            server,
            tool,
            renamed,
            provider,
        }
    }

    /// The provider's function declaration under the aggregate name, when the manager fits
    /// its tools to a provider ([`ManagerBuilder::provider`](crate::ManagerBuilder::provider)).
    pub fn function_declaration(&self) -> Option<Value> {
        let Some(renamed) = &self.renamed else {
            return self.tool.function_declaration().cloned();
        };
        let adapted = self.tool.adapted_schema()?;
        let adapter = self.provider?.adapter();
        Some(adapter.function_declaration(&renamed.name, &renamed.description, adapted))
    }

    /// The id of the server the tool belongs to.
    pub fn server_id(&self) -> &str {
        &self.server
    }

    /// The tool as its server's toolset offers it: its listing, its unmapped calls.
    pub fn mcp_tool(&self) -> &Arc<McpTool> {
        &self.tool
    }

    /// [`call`](Tool::call), bounded by `timeout` instead of the server's `timeout` (or the
    /// manager's request timeout), shorter or longer, the wait for one of the server's
    /// `maxConcurrentCalls` slots included; see [`McpTool::call_with_timeout`].
    pub async fn call_with_timeout(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
        timeout: Duration,
    ) -> Result<ToolOutput, ToolError> {
        self.tool
            .call_with_timeout(arguments, context, timeout)
            .await
    }
}

#[async_trait::async_trait]
impl Tool for ManagedTool {
    fn declaration(&self) -> &ToolDeclaration {
        self.renamed
            .as_deref()
            .unwrap_or_else(|| self.tool.declaration())
    }

    fn definition(&self) -> Option<&ToolDefinition> {
        Some(self.tool.definition())
    }

    fn server(&self) -> Option<&str> {
        Some(&self.server)
    }

    fn runs_as_task(&self) -> bool {
        self.tool.runs_as_task()
    }

    async fn call(
        &self,
        arguments: Value,
        context: Option<&ReadonlyContext>,
    ) -> Result<ToolOutput, ToolError> {
        self.tool.call(arguments, context).await
    }
}
