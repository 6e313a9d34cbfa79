//! [`ToolSession`]: what the tools layer needs of a session, so a toolset runs over an
//! [`McpSession`] or over a fake of the user's.

use std::fmt;

use rmcp::model::{CallToolRequestParams, CallToolResult, ReadResourceResult};
use toolport_core::{ReadonlyContext, ServerExit};
use toolport_session::{CallOptions, Listing, McpSession, SessionError};

use crate::ToolDefinition;

/// The session under a toolset: the few requests and facts an [`McpToolset`](crate::McpToolset),
/// its [`McpTool`](crate::McpTool)s and the [`LoadResourceTool`](crate::LoadResourceTool) use.
///
/// [`McpSession`] implements it, with its bounds, reconnects, replay rules and spans. Implement
/// it to run a toolset, its filters, mapping, budgets and layers against a fake server in a
/// unit test, with no connector and no process; build the toolset with
/// [`McpToolset::with_session`](crate::McpToolset::with_session). A fake fails with
/// [`SessionError::rpc`] or [`SessionError::request_timeout`].
///
/// ```
/// use rmcp::model::{CallToolRequestParams, CallToolResult, ContentBlock, ReadResourceResult};
/// use serde_json::json;
/// use toolport_core::{ReadonlyContext, ServerExit};
/// use toolport_session::{CallOptions, Listing, SessionError};
/// use toolport_tools::{McpToolset, ToolDefinition, ToolSession};
///
/// /// A server with one tool, `ping`, that answers `pong`.
/// #[derive(Debug)]
/// struct Pong;
///
/// #[async_trait::async_trait]
/// impl ToolSession for Pong {
///     fn target(&self) -> &str {
///         "pong"
///     }
///     async fn connect(&self) -> Result<(), SessionError> {
///         Ok(())
///     }
///     fn tool_list_epoch(&self) -> u64 {
///         0
///     }
///     async fn tool_listing(
///         &self,
///         _context: Option<&ReadonlyContext>,
///     ) -> Result<Listing<ToolDefinition>, SessionError> {
///         let schema = json!({"type": "object"}).as_object().unwrap().clone();
///         Ok(Listing::new(vec![ToolDefinition::new("ping", "Answers pong.", schema)]))
///     }
///     async fn call_tool(
///         &self,
///         _params: CallToolRequestParams,
///         _options: CallOptions,
///     ) -> Result<CallToolResult, SessionError> {
///         Ok(CallToolResult::success(vec![ContentBlock::text("pong")]))
///     }
///     async fn read_resource_for(
///         &self,
///         uri: &str,
///         _context: Option<&ReadonlyContext>,
///     ) -> Result<ReadResourceResult, SessionError> {
///         let refusal = rmcp::model::ErrorData::resource_not_found(uri.to_owned(), None);
///         Err(SessionError::rpc("pong", "resources/read", refusal))
///     }
///     async fn close(&self) -> ServerExit {
///         ServerExit::Disconnected
///     }
/// }
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let toolset = McpToolset::with_session(Pong).build().await?;
/// let ping = toolset.tool("ping", None).await?;
/// let output = toolport_tools::Tool::call(&*ping, json!({}), None).await?;
/// assert_eq!(output.value, "pong");
/// # Ok(())
/// # }
/// # tokio::runtime::Runtime::new().unwrap().block_on(run()).unwrap();
/// ```
#[async_trait::async_trait]
pub trait ToolSession: fmt::Debug + Send + Sync + 'static {
    /// The server, as errors and the `load_resource` tool's description name it.
    fn target(&self) -> &str;

    /// Connects now if there is no live connection.
    async fn connect(&self) -> Result<(), SessionError>;

    /// A number that changes whenever a tool list fetched earlier may be stale (the server
    /// said its list changed, or the session reconnected). The toolset's cache keeps a list
    /// while it stays the same; a session whose tools never change returns a constant.
    fn tool_list_epoch(&self) -> u64;

    /// Every page of `tools/list`, made for the caller described by `context`, with the
    /// server's cache hints.
    async fn tool_listing(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Listing<ToolDefinition>, SessionError>;

    /// Whether the server publishes resources, so that the toolset offers its
    /// `load_resource` tool. False by default.
    fn offers_resources(&self) -> bool {
        false
    }

    /// Whether a call of `tool` now runs as a 2025-11-25 task (see
    /// [`McpSession::runs_as_task`]). False by default.
    fn runs_as_task(&self, _tool: &str) -> bool {
        false
    }

    /// Calls a tool, as `options` say: the replay rule, the caller's context, progress, the
    /// call's own bound.
    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        options: CallOptions,
    ) -> Result<CallToolResult, SessionError>;

    /// Reads the resource at `uri` for the caller described by `context`.
    async fn read_resource_for(
        &self,
        uri: &str,
        context: Option<&ReadonlyContext>,
    ) -> Result<ReadResourceResult, SessionError>;

    /// Ends the session, and says how the server ended.
    async fn close(&self) -> ServerExit;
}

#[async_trait::async_trait]
impl ToolSession for McpSession {
    fn target(&self) -> &str {
        McpSession::target(self)
    }

    async fn connect(&self) -> Result<(), SessionError> {
        McpSession::connect(self).await
    }

    fn tool_list_epoch(&self) -> u64 {
        McpSession::tool_list_epoch(self)
    }

    async fn tool_listing(
        &self,
        context: Option<&ReadonlyContext>,
    ) -> Result<Listing<ToolDefinition>, SessionError> {
        McpSession::tool_listing(self, context).await
    }

    fn offers_resources(&self) -> bool {
        self.server_capabilities()
            .is_some_and(|capabilities| capabilities.resources.is_some())
    }

    fn runs_as_task(&self, tool: &str) -> bool {
        McpSession::runs_as_task(self, tool)
    }

    async fn call_tool(
        &self,
        params: CallToolRequestParams,
        options: CallOptions,
    ) -> Result<CallToolResult, SessionError> {
        McpSession::call_tool(self, params, options).await
    }

    async fn read_resource_for(
        &self,
        uri: &str,
        context: Option<&ReadonlyContext>,
    ) -> Result<ReadResourceResult, SessionError> {
        McpSession::read_resource_for(self, uri, context).await
    }

    async fn close(&self) -> ServerExit {
        McpSession::close(self).await
    }
}
