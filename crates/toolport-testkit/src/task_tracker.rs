//! [`TaskTracker`]: the fixture MCP server with `list_tasks`, `add_task` and `complete_task`, as
//! an rmcp [`ServerHandler`] over `toolport-demo`'s task book and tool definitions.

use std::sync::{Arc, Mutex, PoisonError};

use rmcp::model::{
    CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ErrorCode, Implementation,
    ListToolsResult, PaginatedRequestParams, ProtocolVersion, ServerCapabilities, ServerConfig,
    Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use toolport_demo::{INSTRUCTIONS, SERVER_NAME, SERVER_VERSION, TaskBook, UnknownTool};

/// A to-do list MCP server named `toolport-task-tracker`, with three tools that all return
/// structured content and declare output schemas:
///
/// - `list_tasks(status?)` returns `{tasks, count}` (read-only);
/// - `add_task(title, priority = "normal")` returns the new [`Task`](crate::Task);
/// - `complete_task(task_id)` returns the completed [`Task`](crate::Task) (idempotent). An
///   unknown ID is a tool error whose text is
///   `No task with ID T-9. Call list_tasks to see the valid IDs.`
///
/// Every instance starts with T-1 "Write the release notes" (normal, open), T-2 "Fix the login
/// redirect bug" (high, done) and T-3 "Update the API docs" (low, open); new tasks get T-4,
/// T-5 and so on. Clones share their tasks, so make one instance per session.
///
/// The tasks and the tool definitions are `toolport-demo`'s, which also serves them without
/// rmcp for the `toolport` command; this is the same tracker as an rmcp server, for the HTTP
/// fixtures and the tests.
///
/// # Examples
///
/// ```
/// use rmcp::ServiceExt;
/// use toolport_testkit::TaskTracker;
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() {
/// let (_client_side, server_side) = tokio::io::duplex(64 * 1024);
/// // Serving waits for the client's `initialize`; a connector normally runs this on a task.
/// tokio::spawn(async move {
///     if let Ok(running) = TaskTracker::new().serve(server_side).await {
///         let _ = running.waiting().await;
///     }
/// });
/// # }
/// ```
#[derive(Debug, Clone)]
pub struct TaskTracker {
    book: Arc<Mutex<TaskBook>>,
    tools: Arc<[Tool]>,
}

impl TaskTracker {
    /// The server's name in its `initialize` response.
    pub const NAME: &'static str = SERVER_NAME;

    /// A tracker holding the three seed tasks.
    pub fn new() -> Self {
        let tools = toolport_demo::tool_definitions()
            .into_iter()
            .map(|definition| {
                serde_json::from_value(definition).expect("the demo's tool definitions are tools")
            })
            .collect();
        Self {
            book: Arc::new(Mutex::new(TaskBook::seeded())),
            tools,
        }
    }
}

impl Default for TaskTracker {
    fn default() -> Self {
        Self::new()
    }
}

impl ServerHandler for TaskTracker {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(SERVER_NAME, SERVER_VERSION))
            .with_instructions(INSTRUCTIONS.to_owned())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let mut result = ListToolsResult::with_all_items(self.tools.to_vec());
        if context
            .protocol_version()
            .is_some_and(|version| version >= ProtocolVersion::V_2026_07_28)
        {
            result.ttl_ms = Some(0);
            result.cache_scope = Some(CacheScope::Public);
        }
        Ok(result)
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        // A panic while holding the lock cannot leave the book half-written, so go on.
        let result = self
            .book
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .call(&request.name, request.arguments.unwrap_or_default())
            .map_err(|unknown: UnknownTool| {
                ErrorData::new(ErrorCode(UnknownTool::CODE), unknown.to_string(), None)
            })?;
        let result: CallToolResult = serde_json::from_value(result)
            .map_err(|error| ErrorData::internal_error(error.to_string(), None))?;
        Ok(result.into())
    }
}
